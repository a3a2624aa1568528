/**
 * A per-provider rate limit (`--rate-limit`, model calls per minute) with the generic cell rate
 * algorithm: slots are spaced 60 000 / rate ms apart, with no burst, and a call that would exceed
 * the rate waits for its slot. Shared by every worker of a `--queue` run in Redis (one key per
 * provider holds the theoretical arrival time; Redis's own clock decides, so workers' clocks need
 * not agree), and by the threads of a `--threads` run or the episodes of a one-process run in
 * memory ({@link LocalRateLimiter}, held by the main thread).
 */
import type { Redis } from 'ioredis';
import type { ChatModel, ChatRequestInput, ModelCallResult } from '../models/chat-model.js';
import type { ModelRole } from '../spec/messages.js';
import { BadInputError } from '../spec/errors.js';

/** What a rate-limited model asks before each call: the next slot of its provider. */
export interface CallRateLimiter {
  /** Waits for the provider's next slot; resolves to the slot's time in ms on the limiter's clock. */
  acquire(provider: string): Promise<number>;
}

/**
 * `--rate-limit` checked: model calls per minute per provider, a number > 0; undefined for none.
 * @throws BadInputError naming the flag.
 */
export function parseRateLimit(raw: unknown): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  const rate = /^\s*(\d+(\.\d+)?|\.\d+)\s*$/.test(String(raw)) ? Number(raw) : NaN;
  if (!(rate > 0)) throw new BadInputError(`--rate-limit must be a number of calls per minute > 0, got '${raw}'`);
  return rate;
}

/** The interval between two slots of a provider at `callsPerMinute` (ms, at least 1). */
function intervalOf(callsPerMinute: number): number {
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

// KEYS[1]: the provider's key. ARGV[1]: emission interval in ms.
// Returns {wait_ms, slot_ms}: wait_ms > 0 means "try again after that long"; else slot_ms is the granted slot.
const GCRA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
if tat > now then return {tat - now, 0} end
redis.call('SET', KEYS[1], tostring(tat + interval), 'PX', interval * 2 + 1000)
return {0, tat}
`;

/** Redis-backed limiter of one queue's model calls, keyed by provider label. */
export class RedisRateLimiter implements CallRateLimiter {
  private readonly intervalMs: number;

  /**
   * @param redis a connection (not closed by the limiter).
   * @param scope key prefix, e.g. the queue name: runs on the same queue share the limit.
   * @param callsPerMinute the rate per provider (> 0).
   */
  constructor(
    private readonly redis: Redis,
    private readonly scope: string,
    callsPerMinute: number,
  ) {
    this.intervalMs = intervalOf(callsPerMinute);
  }

  /** Waits for the provider's next slot; resolves to the slot's Redis time in ms (slots are `interval` apart). */
  async acquire(provider: string): Promise<number> {
    const key = `servicegym:rate:${this.scope}:${provider}`;
    for (;;) {
      const [wait, slot] = (await this.redis.eval(GCRA, 1, key, String(this.intervalMs))) as [number, number];
      if (wait <= 0) return slot;
      await new Promise((r) => setTimeout(r, Math.min(wait, 5000)));
    }
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
