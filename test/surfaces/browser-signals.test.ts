/**
 * Ctrl-C and the shared browser (src/surfaces/browser-pool.ts): a command that handles SIGINT
 * itself (a run stopping gently) keeps the browser its running episodes use, where playwright's
 * default would close it and exit 130; a SIGINT nothing else handles still closes the browser
 * and ends the process by the signal, leaving no Chromium behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';
import { ROOT, tmpDir } from '../support/paths.js';

const dir = tmpDir('sg-browser-signals-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * Runs a script that launches the shared browser, prints `ready`, and gets SIGINT from this
 * test; `own` adds the script's own SIGINT listener, which opens a page on the browser and prints
 * `alive`. Resolves the child's stdout, exit code and signal, and the pids of its Chromium child
 * processes when the signal was sent.
 */
function withBrowser(own: boolean): Promise<{ out: string; code: number | null; signal: NodeJS.Signals | null; browserPids: number[] }> {
  const script = path.join(dir, `signal-${own ? "own" : "none"}.mts`);
  const pool = path.join(ROOT, 'src', 'surfaces', 'browser-pool.ts');
  fs.writeFileSync(script, [
    `import { sharedBrowser, newEpisodeContext, closeSharedBrowser } from ${JSON.stringify(pool)};`,
    `const browser = await sharedBrowser();`,
    own
      ? `process.on('SIGINT', async () => { const c = await newEpisodeContext(); await (await c.newPage()).setContent('<p>x</p>'); await c.close(); console.log('alive', browser.isConnected()); await closeSharedBrowser(); process.exit(0); });`
      : '',
    `console.log('ready', browser.isConnected());`,
    `setInterval(() => {}, 1000);`,
  ].join('\n'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT });
    let out = '';
    let browserPids: number[] = [];
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/^ready /m.test(out) && !child.killed) {
        browserPids = spawnSync('pgrep', ['-P', String(child.pid), 'chrom'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).map(Number);
        child.kill('SIGINT');
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ out, code, signal, browserPids }));
  });
}

/** Whether process `pid` still runs. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the shared browser on Ctrl-C', () => {
  it.skipIf(lacks(CHROMIUM_NEED))(needing('stays usable when the command handles SIGINT itself', CHROMIUM_NEED), async () => {
    const r = await withBrowser(true);
    expect(r.out).toContain('alive true');
    expect(r.code).toBe(0);
  }, 120_000);

  it.skipIf(lacks(CHROMIUM_NEED))(needing('is closed when nothing else handles SIGINT, and the process ends by the signal', CHROMIUM_NEED), async () => {
    const r = await withBrowser(false);
    expect(r.signal).toBe('SIGINT');
    expect(r.out).toContain('ready true');
    expect(r.browserPids.length).toBeGreaterThan(0);
    expect(r.browserPids.filter(running)).toEqual([]);
  }, 120_000);
});
