/**
 * A per-provider rate limit shared by every worker of a run: model calls per minute, enforced in
 * Redis with the generic cell rate algorithm (one key per provider holds the theoretical arrival
 * time; Redis's own clock decides, so workers' clocks need not agree). A call that would exceed
 * the rate waits for its slot; slots are spaced 60 000 / rate ms apart, with no burst.
 */
import type { Redis } from 'ioredis';
import type { ChatModel, ChatRequestInput, ModelCallResult } from '../models/chat-model.js';
import type { ModelRole } from '../spec/messages.js';

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
export class RedisRateLimiter {
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
    if (!(callsPerMinute > 0)) throw new Error(`calls per minute must be > 0, got ${callsPerMinute}`);
    this.intervalMs = Math.max(1, Math.round(60_000 / callsPerMinute));
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
    private readonly limiter: RedisRateLimiter,
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
