/**
 * Store upkeep: a migration that frees most of the file (v2 → v3 stores receipts
 * content-addressed) leaves a file of the size of what it holds (VACUUM), and a damaged store —
 * a corrupt page SQLite detects, or a value whose bytes were damaged — is a clear error naming the
 * file (BadInputError, exit 2 in the CLI), never a crash with a stack trace.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BadInputError } from '../../src/spec/errors.js';
import { RunStore, type EpisodeRow } from '../../src/store/store.js';
import { SCHEMA_V2_DDL } from '../../src/store/migrate-v2.js';
import { VACUUM_FREE_SHARE } from '../../src/store/schema.js';
import { runCli } from '../support/cli.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-store-damage-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Bytes of a store: its file plus its WAL. */
const bytes = (file: string) => [file, `${file}-wal`].reduce((n, f) => n + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);

function pragmas(file: string): { version: number; pages: number; free: number } {
  const db = new Database(file, { readonly: true });
  try {
    return { version: db.pragma('user_version', { simple: true }) as number, pages: db.pragma('page_count', { simple: true }) as number, free: db.pragma('freelist_count', { simple: true }) as number };
  } finally {
    db.close();
  }
}

/**
 * A schema-v2 store holding `conversations` agent conversations of `turns` calls (each request
 * repeating the whole conversation, as v2 stored them) and `episodes` episodes of ~`episodeBytes`.
 * Returns the receipt texts written.
 */
function v2Store(file: string, conversations: number, turns: number, episodes = 0, episodeBytes = 0): { request: string; response: string }[] {
  const raw = new Database(file);
  raw.exec(SCHEMA_V2_DDL);
  raw.pragma('user_version = 2');
  const insert = raw.prepare('INSERT INTO receipts (run_id, seq, kind, provider, endpoint, request, response, elapsed_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const texts: { request: string; response: string }[] = [];
  raw.transaction(() => {
    for (let c = 0; c < conversations; c++) {
      const messages: unknown[] = [{ role: 'system', content: '# Policy\n' + 'Confirm every write before calling a mutating tool. '.repeat(60) }, { role: 'user', content: `I am customer ${c}; please change reservation 8KQ2ZD.` }];
      for (let t = 0; t < turns; t++) {
        const message = { role: 'assistant', content: null, tool_calls: [{ id: `call_${t}`, type: 'function', function: { name: 'get_reservation_details', arguments: JSON.stringify({ reservation_id: '8KQ2ZD', turn: t }) } }] };
        const text = { request: JSON.stringify({ model: 'mock-agent', messages, tools: [{ type: 'function', function: { name: 'get_reservation_details', parameters: { type: 'object' } } }], temperature: 0 }), response: JSON.stringify({ id: `c${c}-${t}`, choices: [{ index: 0, message }] }) };
        insert.run('run-1', texts.length, 'task_agent', 'mock', 'http://127.0.0.1:1/v1/chat/completions', text.request, text.response, 0.25);
        texts.push(text);
        messages.push(message, { role: 'tool', tool_call_id: `call_${t}`, content: JSON.stringify({ reservation_id: '8KQ2ZD', cabin: 'basic_economy', flight: `HAT${t}` }) });
      }
    }
    const ep = raw.prepare("INSERT INTO episodes VALUES ('run-1', ?, 'T01', ?, 'initial', 1, 1, 'agent_stop', ?)");
    for (let i = 0; i < episodes; i++) ep.run(`e${i}`, i, JSON.stringify({ note: 'x'.repeat(episodeBytes), i }));
  })();
  raw.close();
  return texts;
}

describe('the v2 → v3 migration', () => {
  it('vacuums a store the migration freed most of: the file shrinks to what it holds, the receipts read back the same', () => {
    const file = path.join(dir, 'v2.db');
    const texts = v2Store(file, 40, 16);
    const before = bytes(file);
    expect(before).toBeGreaterThan(4 * 1024 * 1024);
    const store = RunStore.open(file);
    try {
      expect(store.receiptTexts('run-1').map((r) => ({ request: r.request, response: r.response }))).toEqual(texts);
    } finally {
      store.close();
    }
    const after = pragmas(file);
    expect(after.version).toBe(4);
    expect(after.free).toBe(0);
    // Content-addressed receipts of 16-call conversations take a small part of what v2 stored.
    expect(bytes(file)).toBeLessThan(before / 4);
  });

  it('leaves a store the migration freed little of as it is (no VACUUM of a large file for a few pages)', () => {
    const file = path.join(dir, 'v2-episodes.db');
    // Mostly episodes (unchanged by the migration), a few receipts.
    v2Store(file, 1, 6, 400, 4000);
    const store = RunStore.open(file);
    store.close();
    const after = pragmas(file);
    expect(after.version).toBe(4);
    expect(after.free).toBeGreaterThan(0);
    expect(after.free / after.pages).toBeLessThan(VACUUM_FREE_SHARE);
  });

  it('finishes a compaction cut short (a migration killed during its VACUUM): the next writer shrinks the file, a reader leaves it', () => {
    const file = path.join(dir, 'v3-unvacuumed.db');
    RunStore.open(file).close();
    // What a migration killed mid-VACUUM leaves: a current store whose pages are mostly free.
    const raw = new Database(file);
    raw.exec('CREATE TABLE leftovers (x BLOB)');
    const put = raw.prepare('INSERT INTO leftovers VALUES (?)');
    raw.transaction(() => {
      for (let i = 0; i < 400; i++) put.run(Buffer.alloc(8192, i % 251));
    })();
    raw.exec('DROP TABLE leftovers');
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    const loose = pragmas(file);
    expect(loose.version).toBe(4);
    expect(loose.free / loose.pages).toBeGreaterThan(VACUUM_FREE_SHARE);
    RunStore.open(file, { readonly: true }).close();
    expect(pragmas(file).free).toBe(loose.free);
    RunStore.open(file).close();
    expect(pragmas(file).free).toBe(0);
    expect(bytes(file)).toBeLessThan(loose.pages * 4096 / 4);
  });
});

function episode(i: number): EpisodeRow {
  return { run_id: 'r1', episode_id: `e${i}`, task_id: 'T01', trial: i, label: 'initial', reward: 1, partial: 1, termination: 'agent_stop', result: { text: 'y'.repeat(2000), i } };
}

/** A store of run `r1` with 300 episodes of ~2 KB, closed. */
function storeWithEpisodes(file: string): void {
  const s = RunStore.open(file);
  s.saveRun({ id: 'r1', kind: 'run', name: 'n', domain: 'airline', created_at: '2026-01-01T00:00:00Z', summary: {}, record: {} });
  s.appendEpisodes(Array.from({ length: 300 }, (_, i) => episode(i)));
  s.close();
}

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}

describe('a damaged store', () => {
  it('a corrupt page is a BadInputError naming the file, in the API and the CLI (exit 2, no stack)', async () => {
    const file = path.join(dir, 'corrupt.db');
    storeWithEpisodes(file);
    // Overwrite a page in the middle of the episodes' b-tree with junk.
    const page = 4096;
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(page, 0xa5), 0, page, Math.floor(fs.statSync(file).size / page / 2) * page);
    fs.closeSync(fd);
    const store = RunStore.open(file, { readonly: true });
    try {
      const err = thrown(() => store.episodes('r1'));
      expect(err).toBeInstanceOf(BadInputError);
      expect(err.message).toContain(`${file}: this servicegym store is corrupt (SQLite: database disk image is malformed)`);
      expect(err.message).toContain('sqlite3 FILE .recover');
    } finally {
      store.close();
    }
    const r = await runCli(['rescore', 'r1', '--db', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: this servicegym store is corrupt`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('a value whose bytes were damaged (pages still well-formed) is a BadInputError naming the file and the episode', async () => {
    const file = path.join(dir, 'damaged.db');
    storeWithEpisodes(file);
    const buf = fs.readFileSync(file);
    const at = buf.indexOf('"i":150}');
    expect(at).toBeGreaterThan(0);
    buf.write('"i":1}}}', at, 'latin1');
    fs.writeFileSync(file, buf);
    const store = RunStore.open(file, { readonly: true });
    try {
      const err = thrown(() => store.episodes('r1'));
      expect(err).toBeInstanceOf(BadInputError);
      expect(err.message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: this servicegym store is corrupt: episodes\\.result of episode 'e150' of run 'r1' is not the JSON servicegym wrote \\(`));
      expect(thrown(() => store.getEpisode('r1', 'e150'))).toBeInstanceOf(BadInputError);
      expect(store.getEpisode('r1', 'e149')?.result).toEqual(episode(149).result);
      // The outline (SQLite's own JSON path, as `view` lists a run) names the episode too.
      const outline = thrown(() => store.episodeOutlines('r1', { i: '$.i' }));
      expect(outline).toBeInstanceOf(BadInputError);
      expect(outline.message).toContain(`${file}: this servicegym store is corrupt: episodes.result of episode 'e150' of run 'r1' is not the JSON servicegym wrote`);
    } finally {
      store.close();
    }
    const r = await runCli(['rescore', 'r1', '--db', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: this servicegym store is corrupt: episodes.result of episode 'e150'`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const out = path.join(dir, 'site');
    const v = await runCli(['view', '--db', file, '--export', out]);
    expect(v.code).toBe(2);
    expect(v.stderr).toContain(`${file}: this servicegym store is corrupt: episodes.result of episode 'e150'`);
    expect(v.stderr).not.toMatch(/\n\s+at /);
  });
});
