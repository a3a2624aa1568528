/**
 * Background checkpoints (src/store/checkpointer.ts, issue 17: a run's end and its store writes
 * off the main thread): with `checkpointInBackground` the log is moved into the store file by a
 * worker thread while the writer goes on, the writer's close leaves the last checkpoint to that
 * worker, the log is gone once the worker is done, and a writer killed with SIGKILL mid-run
 * leaves an intact store holding every episode it had committed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { RunStore, type EpisodeRow } from '../../src/store/store.js';
import { checkpointInBackground, LOG_PAGES } from '../../src/store/checkpointer.js';
import { ROOT, tmpDir } from '../support/paths.js';

const dir = tmpDir('sg-checkpointer-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const BIG = 'x'.repeat(20_000);
/** 20 episodes of ~20 kB each: about 100 pages of the log. */
const batch = (i: number): EpisodeRow[] => Array.from({ length: 20 }, (_, j) => ({ run_id: 'r', episode_id: `e${i}-${j}`, task_id: 't', trial: j, label: 'initial', reward: 1, partial: 1, termination: 'user_stop', result: { i, j, text: BIG } }));

const waitFor = async (what: string, ok: () => boolean, ms = 60_000) => {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('background checkpoints', () => {
  it('the worker checkpoints a log its writer never checkpoints, and its close removes the log', async () => {
    const file = path.join(dir, 'raw.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0'); // this connection never checkpoints on its own
    db.pragma('journal_size_limit = 0');
    db.exec('CREATE TABLE t (x TEXT)');
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const empty = fs.statSync(file).size;
    const bg = checkpointInBackground(file, pageSize);
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    let rows = 0;
    await waitFor('a checkpoint by the worker', () => {
      if (rows >= 3_000) throw new Error('no checkpoint by the worker after 60 MB of log');
      db.transaction(() => {
        for (let i = 0; i < 10; i++) insert.run(BIG);
      })();
      rows += 10;
      return fs.statSync(file).size > empty + LOG_PAGES * pageSize;
    });
    db.close(); // not the last connection: the log stays for the worker
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    await bg.stop();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const again = new Database(file, { readonly: true });
    expect(again.prepare('SELECT count(*) FROM t').pluck().get()).toBe(rows);
    again.close();
  }, 120_000);

  it('move the log into the store file while the writer goes on; the close leaves nothing behind and loses nothing', async () => {
    const file = path.join(dir, 'bg.db');
    const store = RunStore.open(file, { checkpointInBackground: true });
    store.saveRun({ id: 'r', kind: 'run', name: 'r', domain: null, created_at: '2026-01-01T00:00:00Z', summary: {}, record: null });
    let n = 0;
    await waitFor('a checkpoint', () => {
      if (n >= 150) throw new Error('no checkpoint after 60 MB of log');
      store.appendEpisodes(batch(n++));
      return fs.statSync(file).size > 4 * 2 ** 20;
    });
    store.close();
    await store.whenClosed();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    const again = RunStore.open(file, { readonly: true });
    expect(again.episodeOutlines('r').length).toBe(n * 20);
    again.close();
  }, 120_000);

  it('a writer killed with SIGKILL leaves an intact store with every episode it committed', async () => {
    const file = path.join(dir, 'killed.db');
    const script = path.join(dir, 'writer.ts');
    fs.writeFileSync(script, [
      `import { RunStore } from ${JSON.stringify(path.join(ROOT, 'src', 'store', 'store.ts'))};`,
      `const store = RunStore.open(${JSON.stringify(file)}, { checkpointInBackground: true });`,
      "store.saveRun({ id: 'r', kind: 'run', name: 'r', domain: null, created_at: '2026-01-01T00:00:00Z', summary: {}, record: null });",
      `const big = 'x'.repeat(20000);`,
      'let n = 0;',
      "setInterval(() => { store.appendEpisodes(Array.from({ length: 20 }, (_, j) => ({ run_id: 'r', episode_id: `e${n}-${j}`, task_id: 't', trial: j, label: 'initial', reward: 1, partial: 1, termination: 'user_stop', result: { j, text: big } }))); n++; process.stdout.write(`${n * 20}\\n`); }, 2);",
      '',
    ].join('\n'));
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let committed = 0;
    child.stdout.on('data', (d: Buffer) => {
      const lines = d.toString().trim().split('\n');
      committed = Math.max(committed, Number(lines[lines.length - 1]));
    });
    try {
      await waitFor('the writer to write and the worker to checkpoint', () => committed > 0 && fs.existsSync(file) && fs.statSync(file).size > 4 * 2 ** 20, 90_000);
    } finally {
      child.kill('SIGKILL');
    }
    await new Promise((r) => child.once('exit', r));
    const db = new Database(file);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const stored = db.prepare("SELECT count(*) FROM episodes WHERE run_id = 'r'").pluck().get() as number;
    db.close();
    expect(stored).toBeGreaterThanOrEqual(committed);
    expect(stored % 20).toBe(0); // whole transactions only
  }, 120_000);
});
