/**
 * Bad `--queue` input and a Redis that is down: a clear error (exit 2) naming the URL without its
 * password, never a stack trace, a hang or a connection to another Redis than the one named.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';
import { checkRedisUrl, redactRedisUrl } from '../../src/queue/redis-url.js';
import { claimRun } from '../../src/queue/run-owner.js';
import { freePort, startRedis, type TestRedis } from '../support/redis.js';
import { Redis } from 'ioredis';
import { BadInputError } from '../../src/spec/errors.js';
import { REDIS_NEED, lacks, needing } from '../support/needs.js';

const RUN = ['run', '--domain', 'airline', '--tasks', 'T01', '--agent-model', 'm', '--user-model', 'm', '--base-url', 'http://127.0.0.1:9/v1', '-q'];

let dir: string;
beforeAll(() => {
  dir = tmpDir('sg-queue-inputs-');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('--queue URLs', () => {
  it.each([
    ['redis://127.0.0.1:notaport', 'not a URL'],
    ['redis://[::1', 'not a URL'],
    ['redis://', 'names no host'],
    ['redis//127.0.0.1:6379', 'not a URL'],
    ['http://127.0.0.1:6379', "got 'http://127.0.0.1:6379'"],
    ['redis://127.0.0.1:6379/queue', 'not a database number'],
  ])('%s is bad input (%s)', (url, why) => {
    expect(() => checkRedisUrl(url)).toThrow(BadInputError);
    expect(() => checkRedisUrl(url)).toThrow(why);
  });

  it('accepts the documented forms', () => {
    for (const url of ['redis://127.0.0.1:6379', 'redis://localhost', 'rediss://u:p@cache.example:6380/2', 'redis://[::1]:6379/0']) expect(() => checkRedisUrl(url)).not.toThrow();
  });

  it('never shows the password of a URL', () => {
    expect(redactRedisUrl('redis://app:s3cret-pw@10.0.0.5:6379/1')).toBe('redis://app:***@10.0.0.5:6379/1');
    expect(redactRedisUrl('http://app:s3cret-pw@h:1')).toBe('http://app:***@h:1');
    expect(() => checkRedisUrl('http://app:s3cret-pw@h:1')).toThrow(/http:\/\/app:\*\*\*@h:1/);
  });

  it('run --queue with a malformed URL exits 2 before the store is created', async () => {
    const db = path.join(dir, 'malformed.db');
    const r = await runCli([...RUN, '--db', db, '--queue', 'redis://127.0.0.1:notaport']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--queue must be a Redis URL');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(fs.existsSync(db)).toBe(false);
  });

  it('worker with a password in a wrong URL exits 2 without echoing the password', async () => {
    const r = await runCli(['worker', '--queue', 'http://app:s3cret-pw@127.0.0.1:1']);
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).not.toContain('s3cret-pw');
  });
});

describe('a Redis that is down', () => {
  it('run --queue ends with exit 2 naming the URL instead of waiting forever', async () => {
    const port = await freePort() /* nothing listens on it */;
    const r = await runCli([...RUN, '--db', path.join(dir, 'down.db'), '--queue', `redis://127.0.0.1:${port}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot reach Redis at redis://127.0.0.1:${port}`);
    expect(r.stderr).toContain('ECONNREFUSED');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});

describe('--trials', () => {
  it('a huge count is bad input, refused before anything is built or stored', async () => {
    const db = path.join(dir, 'trials.db');
    for (const n of ['99999999999', '1e308', '10001']) {
      const r = await runCli([...RUN, '--db', db, '--trials', n]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--trials must be a whole number from 1 to 10000, got '${n}'`);
    }
    expect(fs.existsSync(db)).toBe(false);
  }, 60_000);
});

describe.skipIf(lacks(REDIS_NEED))(needing('one storing process per queued run', REDIS_NEED), () => {
  let redis: TestRedis;
  let conn: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    conn = new Redis(redis.url, { maxRetriesPerRequest: null });
  }, 60_000);
  afterAll(async () => {
    await conn?.quit();
    await redis?.stop();
  });

  it('a claim is refused while another process holds it, and free again once released', async () => {
    const first = await claimRun(conn, 'claims', 'run-a', 5_000);
    await expect(claimRun(conn, 'claims', 'run-a', 5_000)).rejects.toThrow(BadInputError);
    await expect(claimRun(conn, 'claims', 'run-a', 5_000)).rejects.toThrow(`process ${process.pid} on`);
    const other = await claimRun(conn, 'claims', 'run-b', 5_000); // another run is not affected
    await first.release();
    const again = await claimRun(conn, 'claims', 'run-a', 5_000);
    await again.release();
    await other.release();
  });

  it('a second run --queue of the same run id, from another store, exits 2 instead of splitting the results', async () => {
    const held = await claimRun(conn, 'servicegym-dup', 'dup-run', 30_000);
    try {
      const db = path.join(dir, 'second.db');
      const r = await runCli([...RUN, '--db', db, '--queue', redis.url, '--queue-name', 'servicegym-dup', '--run-id', 'dup-run']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("run 'dup-run' is already being stored by process");
      expect(await conn.llen('bull:servicegym-dup:wait')).toBe(0); // nothing was enqueued
    } finally {
      await held.release();
    }
  }, 60_000);
});
