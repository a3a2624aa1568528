/**
 * `servicegym worker` as a child process for queue tests (so one can be killed with SIGKILL), and
 * a condition poll: tests wait on what happened, never on fixed sleeps.
 */
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from './paths.js';

/** A spawned worker: its process, the lines it wrote to stderr so far, and its exit code (null: killed by a signal). */
export interface SpawnedWorker {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

/**
 * Starts `servicegym worker --queue URL --queue-name QUEUE -j 2 --lease 2 EXTRA…` from the sources
 * with `SERVICEGYM_API_KEY=key` (a mock model can tell workers apart by it).
 */
export function spawnWorker(url: string, queue: string, key: string, extra: string[] = []): SpawnedWorker {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'bin.ts'), 'worker', '--queue', url, '--queue-name', queue, '-j', '2', '--lease', '2', ...extra], {
    cwd: ROOT,
    env: { ...process.env, SERVICEGYM_API_KEY: key },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines: string[] = [];
  let buf = '';
  child.stderr!.on('data', (d) => {
    buf += String(d);
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
  });
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  return { child, lines, exited };
}

/** Polls `cond` every 50 ms until it holds; throws naming `what` after `timeoutMs` (default 120 s). */
export async function until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
