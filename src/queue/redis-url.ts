/**
 * The `--queue` Redis URL, checked before any connection: `redis://[user:pass@]HOST[:PORT][/DB]`
 * (`rediss://` for TLS). Messages never show the URL's password. And the first connection, which
 * must succeed within a bound: a Redis that is down is an error naming the URL, never a run that
 * waits forever.
 */
import { Redis } from 'ioredis';
import { BadInputError } from '../spec/errors.js';

/** The URL as messages show it: any password replaced by `***`; unparsable text shown only up to its `@`. */
export function redactRedisUrl(url: string): string {
  const at = url.lastIndexOf('@');
  if (at < 0) return url;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? '';
  const user = url.slice(scheme.length, at).split(':')[0];
  return `${scheme}${user ? `${user}:` : ''}***${url.slice(at)}`;
}

/**
 * Checks `url` as a Redis URL for `flag` (e.g. `--queue`): scheme `redis:` or `rediss:`, a host
 * name, a port from 1 to 65535 when given (6379 otherwise), and a database number when a path is
 * given.
 * @throws BadInputError naming the flag and the URL (password hidden) and what was expected.
 */
export function checkRedisUrl(url: string, flag = '--queue'): void {
  const expected = `${flag} must be a Redis URL such as redis://127.0.0.1:6379 (redis://[user:pass@]HOST[:PORT][/DB], rediss:// for TLS)`;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new BadInputError(`${expected}; got '${redactRedisUrl(url)}', which is not a URL`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new BadInputError(`${expected}; got '${redactRedisUrl(url)}'`);
  if (!u.hostname) throw new BadInputError(`${expected}; got '${redactRedisUrl(url)}', which names no host`);
  if (u.pathname && u.pathname !== '/' && !/^\/\d+$/.test(u.pathname)) {
    throw new BadInputError(`${expected}; got '${redactRedisUrl(url)}', whose path is not a database number`);
  }
}

/**
 * A Redis connection for BullMQ from a `redis://[user:pass@]host:port[/db]` URL (rediss:// for TLS).
 * @throws BadInputError for a URL that is not such a Redis URL ({@link checkRedisUrl}).
 */
export function redisConnection(url: string): Redis {
  checkRedisUrl(url);
  return new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
}

/**
 * Resolves once `redis` (made from `url`) is connected and ready. While it is not, connection
 * errors are kept (ioredis retries meanwhile); after `timeoutMs` without a connection the client is
 * disconnected and the promise rejects.
 * @throws BadInputError naming the URL (password hidden) and the last connection error.
 */
export function redisReady(redis: Redis, url: string, timeoutMs = 10_000): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    let last = 'no answer';
    const onError = (err: Error & { code?: string }) => {
      last = err.code ?? err.message;
    };
    const done = () => {
      clearTimeout(timer);
      redis.off('error', onError);
      redis.off('ready', onReady);
    };
    const onReady = () => {
      done();
      resolve();
    };
    const timer = setTimeout(() => {
      done();
      redis.disconnect();
      reject(new BadInputError(`cannot reach Redis at ${redactRedisUrl(url)} within ${Math.round(timeoutMs / 1000)} s (${last}); start redis-server there or give another --queue URL`));
    }, timeoutMs);
    redis.on('error', onError);
    redis.on('ready', onReady);
  });
}
