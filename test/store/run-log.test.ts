/**
 * The run-log record in the store: the one writer refuses malformed records, the one reader types
 * them, and a store written by the previous version (schema v1, fixture made with that version's
 * code: a validate run, a faulty scripted run and campaign cases) is migrated in place or, opened
 * read-only, refused with a message that says how to migrate it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { RunStore } from '../../src/store/store.js';
import { SCHEMA_V2_DDL } from '../../src/store/migrate-v2.js';
import { queueEpisodeLogs, readEpisodeLogs, writeEpisodeLogs } from '../../src/store/run-log.js';
import { BadInputError } from '../../src/spec/errors.js';
import { episodePayload, runDetail } from '../../src/viewer/queries.js';

interface V1Fixture {
  user_version: number;
  runs: Record<string, unknown>[];
  episodes: (Record<string, unknown> & { run_id: string; episode_id: string; result: string })[];
  receipts: Record<string, unknown>[];
}

const fixture = JSON.parse(fs.readFileSync(new URL('./fixtures/v1-store.json', import.meta.url), 'utf8')) as V1Fixture;

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-runlog-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A schema-v1 store file holding the fixture's rows exactly as v1 wrote them. */
function v1Store(): string {
  const file = path.join(dir, 'v1.db');
  const db = new Database(file);
  db.exec(SCHEMA_V2_DDL); // v1 had the same tables as v2
  db.pragma('user_version = 1');
  const cols = (row: Record<string, unknown>) => Object.keys(row);
  for (const [table, rows] of [['runs', fixture.runs], ['episodes', fixture.episodes], ['receipts', fixture.receipts]] as const) {
    for (const row of rows) {
      const c = cols(row);
      db.prepare(`INSERT INTO ${table} (${c.join(', ')}) VALUES (${c.map((k) => '@' + k).join(', ')})`).run(row);
    }
  }
  db.close();
  return file;
}

describe('a schema-v1 store', () => {
  it('is refused read-only, with the command that migrates it', () => {
    const file = v1Store();
    expect(() => RunStore.open(file, { readonly: true })).toThrow(BadInputError);
    expect(() => RunStore.open(file, { readonly: true })).toThrow(/older servicegym schema \(v1, this is v4\); migrate it in place by opening it once for writing, e\.g\. `servicegym rescore <run-id> --db /);
  });

  it('is migrated in place: every episode becomes a typed record keeping what v1 stored', () => {
    const file = v1Store();
    RunStore.open(file).close();
    const raw = new Database(file, { readonly: true });
    expect(raw.pragma('user_version', { simple: true })).toBe(4);
    raw.close();
    const store = RunStore.open(file, { readonly: true });
    try {
      let n = 0;
      for (const run of fixture.runs) {
        const old = fixture.episodes.filter((e) => e.run_id === run.id);
        const now = readEpisodeLogs(store, run.id as string);
        expect(now.map((e) => e.episodeId)).toEqual(old.map((e) => e.episode_id));
        now.forEach((e, i) => {
          const v1 = JSON.parse(old[i].result) as Record<string, any>;
          expect(e.record.migrated_from).toBe('store-v1');
          expect(e.record.messages).toEqual(v1.messages);
          expect([e.reward, e.partial]).toEqual([old[i].reward, old[i].partial]);
          if (run.kind === 'run') {
            const { receipts: _r, ...ev } = v1.evaluation;
            expect(e.record.evaluation).toEqual({ kind: 'task', ...ev });
            expect(e.record.tool_calls).toEqual(v1.tool_log);
            expect(e.record.action_log.length).toBe(v1.tool_log.filter((t: { error: boolean }) => !t.error).length);
          } else {
            expect(e.record.evaluation).toEqual({ kind: 'case', result: v1.result });
          }
          n++;
        });
      }
      expect(n).toBe(fixture.episodes.length);
      const faulty = runDetail(store, 'scripted-airline-faulty')!;
      expect(faulty.episodes.find((e) => e.episode_id === 'T01#0')!.failed_checks).toEqual(['tau2_db', 'db_unchanged_gold', 'reservation_untouched', 'reason_stated']);
      const page = episodePayload(store, 'scripted-airline-faulty', 'T01#0')!;
      expect(page.transcript.filter((t) => t.kind === 'tool').length).toBeGreaterThan(0);
      expect(page.checks.find((c) => c.id === 'tau2_db')!.verdict).toBe('fail');
    } finally {
      store.close();
    }
  });
});

describe('the one writer', () => {
  it('refuses a record that does not fit the schema, naming the path, and writes nothing', () => {
    const file = v1Store();
    const store = RunStore.open(file);
    try {
      const [good] = readEpisodeLogs(store, 'scripted-airline-faulty');
      const bad = { ...good.record, episode_id: 'bad', termination: { ...good.record.termination, reason: 7 } } as never;
      const other = { ...good.record, episode_id: 'fine' };
      expect(() => writeEpisodeLogs(store, 'x', [other, bad])).toThrow("at $.termination.reason: episode bad of run x is not a run-log record: Invalid input: expected string, received number");
      expect(readEpisodeLogs(store, 'x')).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('queues records servicegym built, checking the first of each run (every one in tests) on its stored JSON form', async () => {
    const file = v1Store();
    const store = RunStore.open(file);
    try {
      const [good] = readEpisodeLogs(store, 'scripted-airline-faulty');
      const bad = (id: string) => ({ ...good.record, episode_id: id, termination: { ...good.record.termination, reason: 7 } }) as never;
      // The test suite sets SERVICEGYM_CHECK_RECORDS=1: every record is checked.
      expect(process.env.SERVICEGYM_CHECK_RECORDS).toBe('1');
      expect(() => queueEpisodeLogs(store, 'q', [{ ...good.record, episode_id: 'a' }, bad('b')])).toThrow('episode b of run q is not a run-log record');
      expect(readEpisodeLogs(store, 'q')).toEqual([]);
      // Without it, only the first record of each run (per store) is checked.
      vi.stubEnv('SERVICEGYM_CHECK_RECORDS', '');
      vi.resetModules();
      const fresh = await import('../../src/store/run-log.js');
      expect(() => fresh.queueEpisodeLogs(store, 'r', [bad('first')])).toThrow('episode first of run r is not a run-log record');
      expect(() => fresh.queueEpisodeLogs(store, 'r', [bad('later')])).not.toThrow();
      fresh.queueEpisodeLogs(store, 'r', [{ ...good.record, episode_id: 'ok', messages: [...good.record.messages, { role: 'user', content: undefined }] } as never]);
      expect(() => fresh.queueEpisodeLogs(store, 's', [bad('first-of-s')])).toThrow('episode first-of-s of run s');
      // That once-per-run check parses without zod's compiled fast path: the same error, path and data.
      expect(() => fresh.queueEpisodeLogs(store, 't', [bad('x')])).toThrow('at $.termination.reason: episode x of run t is not a run-log record: Invalid input: expected string, received number');
      const where = { runId: 'u', episodeId: 'y' };
      expect(fresh.parseEpisodeLog(JSON.parse(JSON.stringify(good.record)), where, { jitless: true })).toEqual(fresh.parseEpisodeLog(JSON.parse(JSON.stringify(good.record)), where));
      // stored as built: its JSON text (the undefined content left out, as JSON does)
      const row = store.getEpisode('r', 'ok')!;
      expect(JSON.stringify(row.result)).toBe(JSON.stringify({ ...good.record, episode_id: 'ok', messages: [...good.record.messages, { role: 'user' }] }));
    } finally {
      vi.unstubAllEnvs();
      store.close();
    }
  });
});
