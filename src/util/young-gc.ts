/**
 * A young-generation collection (a V8 scavenge) on demand, for the one moment a run knows it has
 * just allocated a large, long-lived structure and has time to spare: the domain's data loaded
 * while the first model calls are in flight (src/run/task-run.ts). Left to itself, V8 copies
 * those objects in the first scavenge after it, and again when it promotes them to the old
 * generation: on the 1,000-episode P2 load that first scavenge (~30 ms, ~25 MB surviving) came
 * while the answers to the first 200 calls were being handled, delaying every episode's next call.
 *
 * V8 hands out its collector function only with `--expose-gc`; it is taken once, as test runners
 * take it for their leak checks: the flag is set, a fresh context's `gc` kept, and the flag unset
 * again, so no other context (nor the program's own global) gains a `gc`.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

type CollectorFunction = (options: { type: 'minor' | 'major'; execution: 'sync' | 'async' }) => void;

let collector: CollectorFunction | null | undefined;

function takeCollector(): CollectorFunction | null {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as CollectorFunction;
  try {
    v8.setFlagsFromString('--expose-gc');
    const fn: unknown = vm.runInNewContext('gc');
    return typeof fn === 'function' ? (fn as CollectorFunction) : null;
  } catch {
    return null;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}

/**
 * Runs `times` young-generation collections now, synchronously (two promote what survives both to
 * the old generation). Returns false, doing nothing, where V8 gives no collector function.
 */
export function scavengeNow(times = 2): boolean {
  if (collector === undefined) collector = takeCollector();
  if (!collector) return false;
  for (let i = 0; i < times; i++) collector({ type: 'minor', execution: 'sync' });
  return true;
}
