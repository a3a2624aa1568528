/**
 * One storing process per queued run. The producer of `run --queue` is the run's only writer, and
 * its results queue is named after the run: a second producer of the same run id on the same Redis
 * (another machine, another store) would take part of the results off that queue, and both would
 * wait forever for the rest. So the producer claims the run in Redis first — a key with a lease it
 * renews while it runs, as the store's run lock does on one machine — and a second producer is
 * refused while the lease is alive.
 */
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { BadInputError } from '../spec/errors.js';
import { shellArg } from '../util/shell-arg.js';

/** A claim on a run: renewed every third of its lease until released. */
export interface RunClaim {
  /** Gives the run up (only when this process still holds it). */
  release(): Promise<void>;
}

/** Default lease of a claim, in milliseconds: a killed producer's run can be resumed after it. */
export const RUN_CLAIM_LEASE_MS = 30_000;

const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

function claimKey(queueName: string, runId: string): string {
  return `servicegym:producer:${queueName}:${runId}`;
}

/**
 * Claims run `runId` on queue `queueName` for this process, for `leaseMs` renewed while held.
 * `resume` is how the user continues the run once a dead holder's claim lapsed (the refusal
 * names it): `--resume <run id>` for `run`, `--resume` on the same config for `optimize`.
 * @throws BadInputError when another live process holds the claim (the message names its host and
 *   pid, and says when a dead holder's claim lapses).
 */
export async function claimRun(redis: Redis, queueName: string, runId: string, leaseMs = RUN_CLAIM_LEASE_MS, resume = `--resume ${shellArg(runId)}`): Promise<RunClaim> {
  const key = claimKey(queueName, runId);
  const token = JSON.stringify({ host: os.hostname(), pid: process.pid, at: new Date().toISOString(), id: randomUUID() });
  if ((await redis.set(key, token, 'PX', leaseMs, 'NX')) !== 'OK') {
    const holder = await redis.get(key);
    let who = 'another process';
    try {
      const h = JSON.parse(holder ?? '') as { host?: string; pid?: number; at?: string };
      who = `process ${h.pid} on ${h.host} (since ${h.at})`;
    } catch {
      // an unreadable holder is still a holder
    }
    throw new BadInputError(
      `run '${runId}' is already being stored by ${who} through this Redis (queue ${queueName}); two storing processes would each take part of its episodes. ` +
        `Wait for it to finish; if that process is gone, its claim lapses within ${Math.ceil(leaseMs / 1000)} s and ${resume} continues`,
    );
  }
  const timer = setInterval(() => {
    void redis.eval(RENEW, 1, key, token, String(leaseMs)).catch(() => {});
  }, Math.max(100, Math.floor(leaseMs / 3)));
  timer.unref();
  return {
    release: async () => {
      clearInterval(timer);
      await redis.eval(RELEASE, 1, key, token).catch(() => {});
    },
  };
}
