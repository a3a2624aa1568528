/**
 * Injected clocks. Live runs use {@link SystemClock}; replay uses a virtual clock that only
 * moves by recorded latencies, so the same cassette gives byte-identical records.
 */
export interface Clock {
  /** Seconds since the Unix epoch. */
  nowSeconds(): number;
}

/** The real clock (live runs only; replay and tests inject a virtual one). */
export const SystemClock: Clock = { nowSeconds: () => Date.now() / 1000 };

/** ISO-8601 with seconds precision and `+00:00`, as Python's `datetime.isoformat()` prints UTC. */
export function isoSeconds(epochSeconds: number): string {
  return new Date(Math.floor(epochSeconds) * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** Rounds seconds to microseconds (the record's precision). */
export function roundSeconds(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
