/**
 * A per-provider rate limit (`--rate-limit`, model calls per minute) with the generic cell rate
 * algorithm: slots are spaced 60 000 / rate ms apart, with no burst, and a call that would exceed
 * the rate waits for its slot. {@link RateLimitedModel} takes a slot before every call. The
 * limiter of one process is {@link LocalRateLimiter} (a one-process `run` or `optimize`, and the
 * main thread of `run --threads`, whose threads ask it for their slots); the workers of a
 * `--queue` run share one in Redis (`src/queue/rate-limit.ts`).
 */
import type { ChatModel, ChatRequestInput, ModelCallResult } from './chat-model.js';
import type { ModelRole } from '../spec/messages.js';
import { BadInputError } from '../spec/errors.js';

/** What a rate-limited model asks before each call: the next slot of its provider. */
export interface CallRateLimiter {
  /** Waits for the provider's next slot; resolves to the slot's time in ms on the limiter's clock. */
  acquire(provider: string): Promise<number>;
}

/**
 * `--rate-limit` checked: model calls per minute per provider, a number > 0 whose interval a
 * timer can wait (at least one call per 24.8 days); undefined for none.
 * @throws BadInputError naming the flag.
 */
export function parseRateLimit(raw: unknown): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const rate = /^\s*(\d+(\.\d+)?|\.\d+)\s*$/.test(String(raw)) ? Number(raw) : NaN;
  if (!(rate > 0)) throw new BadInputError(`--rate-limit must be a number of calls per minute > 0, got '${raw}'`);
  // A wait longer than a timer can hold (2^31-1 ms, ~24.8 days) fires at once in Node: the limit would not hold.
  if (60_000 / rate > MAX_TIMER_MS) throw new BadInputError(`--rate-limit must be at least ${MIN_RATE.toPrecision(2)} calls per minute (one call per 24.8 days), got '${raw}'`);
  return rate;
}

/** The longest wait a Node timer holds (ms); a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** The lowest rate whose interval a timer holds (calls per minute). */
const MIN_RATE = 60_000 / MAX_TIMER_MS;

/** The interval between two slots of a provider at `callsPerMinute` (ms, at least 1). */
export function intervalOf(callsPerMinute: number): number {
  if (!(callsPerMinute > 0)) throw new Error(`calls per minute must be > 0, got ${callsPerMinute}`);
  return Math.max(1, Math.round(60_000 / callsPerMinute));
}

/**
 * The limiter of one process, keyed by provider label: each `acquire` reserves the provider's next
 * slot at once (so concurrent callers queue in call order) and resolves when it comes. The clock
 * and the wait are injected (tests use a fake clock); default `Date.now` and `setTimeout`.
 */
export class LocalRateLimiter implements CallRateLimiter {
  private readonly intervalMs: number;
  /** Provider → the time (ms) its next slot is free. */
  private readonly next = new Map<string, number>();

  constructor(
    callsPerMinute: number,
    private readonly clock: { now(): number; sleep(ms: number): Promise<void> } = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
  ) {
    this.intervalMs = intervalOf(callsPerMinute);
  }

  async acquire(provider: string): Promise<number> {
    const now = this.clock.now();
    const slot = Math.max(now, this.next.get(provider) ?? now);
    this.next.set(provider, slot + this.intervalMs);
    if (slot > now) await this.clock.sleep(slot - now);
    return slot;
  }
}

/** A model whose every call first takes a slot from the shared limiter (keyed by the model's provider label). */
export class RateLimitedModel implements ChatModel {
  constructor(
    private readonly inner: ChatModel,
    private readonly limiter: CallRateLimiter,
  ) {}

  get provider(): string {
    return this.inner.provider;
  }

  get endpoint(): string {
    return this.inner.endpoint;
  }

  get model(): string {
    return this.inner.model;
  }

  async complete(request: ChatRequestInput, role: ModelRole): Promise<ModelCallResult> {
    await this.limiter.acquire(this.inner.provider);
    return this.inner.complete(request, role);
  }
}
