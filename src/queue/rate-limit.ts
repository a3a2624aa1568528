/**
 * The rate limit (`--rate-limit`, `src/models/rate-limit.ts`) shared by every worker of a
 * `--queue` run, in Redis: one key per provider holds the theoretical arrival time of the generic
 * cell rate algorithm, and Redis's own clock decides, so workers' clocks need not agree.
 */
import type { Redis } from 'ioredis';
import { intervalOf, type CallRateLimiter } from '../models/rate-limit.js';

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
