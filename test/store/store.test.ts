import { describe, it, expect, beforeEach, afterEach, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BadInputError } from '../../src/spec/errors.js';
import {
  DEFAULT_STORE_PATH,
  RunStore,
  STORE_SCHEMA_VERSION,
  type EpisodeRow,
  type ReceiptRow,
  type RunRow,
} from '../../src/store/store.js';

let dir: string;
const opened: RunStore[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-store-'));
});

afterEach(() => {
  for (const s of opened.splice(0)) s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function open(file: string, opts?: { readonly?: boolean; create?: boolean }): RunStore {
  const store = RunStore.open(file, opts);
  opened.push(store);
  return store;
}

/** Runs `fn` and returns the error it throws (fails the test if it does not throw). */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a throw');
}

function run(id: string, created_at: string, extra: Partial<RunRow> = {}): RunRow {
  return {
    id,
    kind: 'run',
    name: `name-${id}`,
    domain: 'yunshu',
    created_at,
    summary: { reward: 0.5 },
    record: { id },
    ...extra,
  };
}

function episode(run_id: string, episode_id: string, extra: Partial<EpisodeRow> = {}): EpisodeRow {
  return {
    run_id,
    episode_id,
    task_id: `task-${episode_id}`,
    trial: 0,
    label: 'initial',
    reward: 1,
    partial: 0.75,
    termination: 'agent_stop',
    result: { turns: [] },
    ...extra,
  };
}

function receipt(run_id: string, seq: number, extra: Partial<ReceiptRow> = {}): ReceiptRow {
  return {
    run_id,
    seq,
    kind: 'agent',
    provider: 'openai',
    endpoint: 'https://api.example.com/v1/chat/completions',
    request: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
    response: { choices: [] },
    elapsed_seconds: 1.25,
    ...extra,
  };
}

describe('constants', () => {
  it('exports the schema version and default path', () => {
    expect(STORE_SCHEMA_VERSION).toBe(4);
    expect(DEFAULT_STORE_PATH).toBe('.servicegym/servicegym.db');
  });
});

describe('RunStore.open', () => {
  it('creates parent directories, WAL mode and the schema version', () => {
    const file = path.join(dir, 'a', 'b', 'store.db');
    open(file).close();
    expect(fs.existsSync(file)).toBe(true);
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('user_version', { simple: true })).toBe(4);
    const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).toEqual(['episodes', 'receipt_messages', 'receipt_templates', 'receipts', 'runs']);
    raw.close();
  });

  it('commits with NORMAL sync whether it created the file or found it (a new file is made without syncing)', () => {
    const file = path.join(dir, 'sync.db');
    const syncOf = (s: RunStore) => (s as unknown as { db: Database.Database }).db.pragma('synchronous', { simple: true });
    const created = open(file);
    expect(syncOf(created)).toBe(1); // NORMAL
    created.saveRun(run('r1', '2024-01-01T00:00:00Z'));
    created.close();
    const found = open(file);
    expect(syncOf(found)).toBe(1);
    expect(found.listRuns().map((r) => r.id)).toEqual(['r1']);
    found.close();
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    raw.close();
  });

  it('keeps data across close and reopen, and opens read-only', () => {
    const file = path.join(dir, 's.db');
    const s = open(file);
    s.saveRun(run('r1', '2024-01-01T00:00:00Z'));
    s.close();
    const ro = open(file, { readonly: true });
    expect(ro.getRun('r1')?.name).toBe('name-r1');
    expect(() => ro.saveRun(run('r2', '2024-01-02T00:00:00Z'))).toThrow(/readonly/);
    const rw = open(file, { create: false });
    expect(rw.listRuns().map((r) => r.id)).toEqual(['r1']);
  });

  it('initialises an existing empty file', () => {
    const file = path.join(dir, 'empty.db');
    fs.writeFileSync(file, '');
    const e = thrown(() => open(file, { readonly: true }));
    expect(e).toBeInstanceOf(BadInputError);
    expect(e.message).toContain(file);
    expect(e.message).toContain('empty');
    open(file).saveRun(run('r1', '2024-01-01T00:00:00Z'));
    expect(open(file).getRun('r1')?.id).toBe('r1');
  });

  it('refuses a missing file when readonly or create:false, without creating it', () => {
    const file = path.join(dir, 'nested', 'missing.db');
    for (const opts of [{ readonly: true }, { create: false }]) {
      const e = thrown(() => open(file, opts));
      expect(e).toBeInstanceOf(BadInputError);
      expect(e.message).toBe(
        `${file}: no servicegym store exists at this path; any servicegym command run with \`--db PATH\` creates it`,
      );
    }
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(path.dirname(file))).toBe(false);
  });

  it('refuses an empty path (SQLite would open a temporary store, deleted on close)', () => {
    for (const file of ['', '  ']) {
      for (const opts of [{}, { readonly: true }]) {
        const e = thrown(() => open(file, opts));
        expect(e).toBeInstanceOf(BadInputError);
        expect(e.message).toBe(`the store path is empty (got '${file}'); give --db a file path (default .servicegym/servicegym.db)`);
      }
    }
  });

  it('refuses a file that is not a SQLite database', () => {
    const file = path.join(dir, 'notes.db');
    fs.writeFileSync(file, 'these are some notes, not a database\n'.repeat(40));
    for (const opts of [{}, { readonly: true }]) {
      const e = thrown(() => open(file, opts));
      expect(e).toBeInstanceOf(BadInputError);
      expect(e.message).toBe(`${file}: this file is not a SQLite database, so it cannot be a servicegym store`);
    }
    expect(fs.readFileSync(file, 'utf8')).toBe('these are some notes, not a database\n'.repeat(40));
  });

  it('refuses an older schema (v0 with tables)', () => {
    const file = path.join(dir, 'old.db');
    const raw = new Database(file);
    raw.exec('CREATE TABLE runs (id TEXT)');
    raw.pragma('user_version = 0');
    raw.close();
    for (const opts of [{}, { readonly: true }]) {
      const e = thrown(() => open(file, opts));
      expect(e).toBeInstanceOf(BadInputError);
      expect(e.message).toContain(file);
      expect(e.message).toContain('this store is from an older servicegym schema (v0, this is v4)');
      expect(e.message).toContain('--db PATH');
    }
  });

  it('refuses a store whose version was lowered after creation', () => {
    const file = path.join(dir, 'lowered.db');
    open(file).close();
    const raw = new Database(file);
    raw.pragma('user_version = 0');
    raw.close();
    const e = thrown(() => open(file));
    expect(e).toBeInstanceOf(BadInputError);
    expect(e.message).toMatch(/older servicegym schema \(v0, this is v4\)/);
  });

  it('refuses a newer schema', () => {
    const file = path.join(dir, 'new.db');
    const raw = new Database(file);
    raw.exec('CREATE TABLE future (x)');
    raw.pragma('user_version = 99');
    raw.close();
    const e = thrown(() => open(file));
    expect(e).toBeInstanceOf(BadInputError);
    expect(e.message).toBe(
      `${file}: this store is from a newer servicegym (schema v99, this is v4); ` +
        'upgrade servicegym to open it, or use a different --db PATH',
    );
    const raw2 = new Database(file, { readonly: true });
    expect(raw2.pragma('user_version', { simple: true })).toBe(99);
    raw2.close();
  });
});

describe('runs', () => {
  it('round-trips a run with non-ASCII JSON', () => {
    const s = open(path.join(dir, 's.db'));
    const r: RunRow = {
      id: 'run-1',
      kind: 'campaign',
      name: '退款活动 campaign',
      domain: null,
      created_at: '2024-05-01T12:00:00.000Z',
      summary: { pass_rate: 0.8, notes: ['客户要求退款', 'émoji 🎉'], nested: { n: null, ok: true } },
      record: { turns: [{ role: 'user', content: '我想取消订单' }], big: 'x'.repeat(100_000) },
    };
    s.saveRun(r);
    expect(s.getRun('run-1')).toEqual(r);
    expect(s.getRun('nope')).toBeUndefined();
    const { record: _record, ...listed } = r;
    expect(s.listRuns()).toEqual([listed]);
    expect(Object.keys(s.listRuns()[0]).sort()).toEqual(['created_at', 'domain', 'id', 'kind', 'name', 'summary']);
  });

  it('upserts by id', () => {
    const s = open(path.join(dir, 's.db'));
    s.saveRun(run('r1', '2024-01-01T00:00:00Z'));
    s.saveRun(run('r1', '2024-02-01T00:00:00Z', { kind: 'optimize', name: '第二', summary: [1, 2], record: 'done' }));
    expect(s.getRun('r1')).toEqual({
      id: 'r1',
      kind: 'optimize',
      name: '第二',
      domain: 'yunshu',
      created_at: '2024-02-01T00:00:00Z',
      summary: [1, 2],
      record: 'done',
    });
    expect(s.listRuns()).toHaveLength(1);
  });

  it('lists newest first, ties broken by id', () => {
    const s = open(path.join(dir, 's.db'));
    s.saveRun(run('b', '2024-01-02T00:00:00Z'));
    s.saveRun(run('c', '2024-01-01T00:00:00Z'));
    s.saveRun(run('z', '2024-03-01T00:00:00Z'));
    s.saveRun(run('a', '2024-01-02T00:00:00Z'));
    expect(s.listRuns().map((r) => r.id)).toEqual(['z', 'a', 'b', 'c']);
  });

  it('stores undefined JSON as null and rejects an unknown kind', () => {
    const s = open(path.join(dir, 's.db'));
    s.saveRun(run('r1', '2024-01-01T00:00:00Z', { summary: undefined, record: undefined }));
    expect(s.getRun('r1')?.summary).toBeNull();
    expect(s.getRun('r1')?.record).toBeNull();
    expect(() => s.saveRun(run('r2', '2024-01-01T00:00:00Z', { kind: 'other' as RunRow['kind'] }))).toThrow(
      /CHECK constraint/,
    );
  });
});

describe('episodes', () => {
  it('round-trips episodes in insertion order', () => {
    const s = open(path.join(dir, 's.db'));
    const rows = [
      episode('r1', 'e2', { result: { say: '您好，请问有什么可以帮您？' } }),
      episode('r1', 'e1', { trial: 3, label: 'v2', reward: null, partial: null, termination: null }),
      episode('r2', 'e1'),
    ];
    s.appendEpisodes(rows);
    expect(s.episodes('r1')).toEqual([rows[0], rows[1]]);
    expect(s.episodes('r2')).toEqual([rows[2]]);
    expect(s.episodes('none')).toEqual([]);
  });

  it('reports finished episode ids per run', () => {
    const s = open(path.join(dir, 's.db'));
    expect(s.finishedEpisodeIds('r1')).toEqual(new Set());
    s.appendEpisodes([episode('r1', 'e1'), episode('r1', 'e2'), episode('r2', 'e3')]);
    s.appendEpisodes([episode('r1', 'e4')]);
    expect(s.finishedEpisodeIds('r1')).toEqual(new Set(['e1', 'e2', 'e4']));
    expect(s.finishedEpisodeIds('r2')).toEqual(new Set(['e3']));
  });

  it('replaces an episode re-appended with the same id', () => {
    const s = open(path.join(dir, 's.db'));
    s.appendEpisodes([episode('r1', 'e1'), episode('r1', 'e2'), episode('r1', 'e3')]);
    const again = episode('r1', 'e1', { reward: 0, partial: 0.25, termination: 'max_turns', result: { retry: 1 } });
    s.appendEpisodes([again]);
    const got = s.episodes('r1');
    expect(got.map((e) => e.episode_id)).toEqual(['e2', 'e3', 'e1']);
    expect(got[2]).toEqual(again);
    expect(s.finishedEpisodeIds('r1').size).toBe(3);
  });

  it('queues episodes: written after the queued receipts in one transaction, by a read, by the next write or by close, in order', () => {
    const file = path.join(dir, 's.db');
    const s = open(file);
    const stored = () => {
      const db = new Database(file, { readonly: true });
      try {
        return (db.prepare('SELECT episode_id FROM episodes ORDER BY rowid').pluck().all() as string[]).join(',');
      } finally {
        db.close();
      }
    };
    s.queueEpisodes([episode('r1', 'e1')]);
    s.queueEpisodes([episode('r1', 'e2', { reward: null, result: { say: '您好' } })]);
    expect(stored()).toBe('');
    expect(s.finishedEpisodeIds('r1')).toEqual(new Set(['e1', 'e2']));
    expect(stored()).toBe('e1,e2');
    s.queueEpisodes([episode('r1', 'e3')]);
    s.appendEpisodes([episode('r1', 'e4')]);
    expect(stored()).toBe('e1,e2,e3,e4');
    s.queueEpisodes([episode('r1', 'e5')]);
    expect(s.getEpisode('r1', 'e5')).toEqual(episode('r1', 'e5'));
    s.queueEpisodes([episode('r1', 'e6')]);
    s.close();
    expect(stored()).toBe('e1,e2,e3,e4,e5,e6');
    expect(open(file, { readonly: true }).episodes('r1')[1]).toEqual(episode('r1', 'e2', { reward: null, result: { say: '您好' } }));
  });

  it('writes queued episodes by themselves within moments, and at once once 64 are queued', async () => {
    const file = path.join(dir, 's.db');
    const s = open(file);
    const count = () => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare('SELECT count(*) FROM episodes').pluck().get() as number;
      } finally {
        db.close();
      }
    };
    for (let i = 0; i < 64; i++) s.queueEpisodes([episode('r1', `e${i}`)]);
    expect(count()).toBe(64);
    s.queueEpisodes([episode('r1', 'e64')]);
    await vi.waitFor(() => expect(count()).toBe(65), { timeout: 10_000, interval: 20 });
  });

  it('writes a batch all or nothing', () => {
    const s = open(path.join(dir, 's.db'));
    const bad = { ...episode('r1', 'e2'), task_id: null } as unknown as EpisodeRow;
    expect(() => s.appendEpisodes([episode('r1', 'e1'), bad])).toThrow(/NOT NULL/);
    expect(s.episodes('r1')).toEqual([]);
  });
});

describe('receipts', () => {
  it('round-trips receipts ordered by seq', () => {
    const s = open(path.join(dir, 's.db'));
    const rows = [
      receipt('r1', 2, { kind: 'user', response: { content: '我要退货' } }),
      receipt('r1', 0, { request: { messages: [{ role: 'system', content: '你是客服' }], max_tokens: 10 } }),
      receipt('r2', 1),
    ];
    s.appendReceipts(rows);
    expect(s.receipts('r1')).toEqual([rows[1], rows[0]]);
    expect(s.receipts('r2')).toEqual([rows[2]]);
    expect(s.receipts('none')).toEqual([]);
  });

  it('refuses a duplicate (run_id, seq) and writes nothing of that batch', () => {
    const s = open(path.join(dir, 's.db'));
    s.appendReceipts([receipt('r1', 0)]);
    const e = thrown(() => s.appendReceipts([receipt('r1', 1), receipt('r1', 0)]));
    expect(e.message).toBe('receipt r1#0 is already stored (seq must be unique within a run)');
    expect(s.receipts('r1').map((r) => r.seq)).toEqual([0]);
  });

  it('refuses credential keys at any depth, in any case, writing nothing', () => {
    const s = open(path.join(dir, 's.db'));
    const cases: Array<[Partial<ReceiptRow>, string]> = [
      [{ request: { headers: { Authorization: 'Bearer sk-x' } } }, '$.request.headers.Authorization'],
      [{ request: { options: [{}, { apiKey: 'k' }] } }, '$.request.options[1].apiKey'],
      [{ response: { meta: { API_KEY: 'k' } } }, '$.response.meta.API_KEY'],
      [{ request: { api_key: null } }, '$.request.api_key'],
    ];
    for (const [extra, where] of cases) {
      const e = thrown(() => s.appendReceipts([receipt('r1', 0), receipt('r1', 1, extra)]));
      expect(e).toBeInstanceOf(Error);
      expect(e).not.toBeInstanceOf(BadInputError);
      expect(e.message).toBe(
        `refusing to store receipt r1#1: it contains a credential key at ${where}; receipts must be credential-free`,
      );
    }
    expect(s.receipts('r1')).toEqual([]);
    // Values merely mentioning the words are fine; only keys are refused.
    s.appendReceipts([receipt('r1', 0, { request: { note: 'authorization api_key', api_key_hint: 1 } })]);
    expect(s.receipts('r1')).toHaveLength(1);
  });
});

describe('locking', () => {
  it('reports a store locked by another writer after the busy timeout', { timeout: 20_000 }, () => {
    const file = path.join(dir, 's.db');
    const s = RunStore.open(file, { busyTimeoutMs: 500 });
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    try {
      const started = Date.now();
      const e = thrown(() => s.saveRun(run('r1', '2024-01-01T00:00:00Z')));
      expect(Date.now() - started).toBeGreaterThanOrEqual(450);
      expect(e).toBeInstanceOf(BadInputError);
      expect(e.message).toBe(
        `${file}: the store is locked by another process (still busy after 0.5 s); ` +
          'wait for it to finish or use a different `--db PATH`',
      );
      // Readers are not blocked in WAL mode.
      expect(s.listRuns()).toEqual([]);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    s.saveRun(run('r1', '2024-01-01T00:00:00Z'));
    expect(s.listRuns().map((r) => r.id)).toEqual(['r1']);
  });
});
