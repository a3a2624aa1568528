/**
 * `servicegym campaign` end to end, in process, against the local mock server playing the task
 * agent, the judge and the coding agent (test/support/prompt-sensitive-model.ts): the rows and the
 * decision, receipts one per call, the key never written anywhere, a rejected non-unique patch,
 * provider faults absorbed by retries, and a killed run resumed without repeating calls.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startMockServer, type MockHandler, type MockServer, type MockServerOptions } from '../../src/models/mock-server.js';
import { SEED_CAMPAIGN, tmpDir } from '../support/paths.js';
import {
  CANDIDATE_PROMPT,
  FIX_NEW_STR,
  FIX_OLD_STR,
  MANUAL_PROMPT,
  NON_UNIQUE_OLD_STR,
  REPLY_TEXT,
  STABLE_PROMPT,
  occurrences,
  promptSensitiveHandler,
  roleOf,
} from '../support/prompt-sensitive-model.js';
import { runCli } from '../support/cli.js';

const FAKE_KEY = 'test-fake-key-DO-NOT-LOG-4242';
const MODEL = 'mock-model';
const KEY_VARS = ['SERVICEGYM_API_KEY', 'OPENAI_API_KEY', 'SERVICEGYM_BASE_URL', 'OPENAI_BASE_URL', 'SERVICEGYM_MODEL', 'SERVICEGYM_PROVIDER', 'SERVICEGYM_TIMEOUT', 'SERVICEGYM_MAX_RETRIES'];

const B_IDS = ['B1-不可退票要退款', 'B2-要求免改签费', 'B3-小延误索赔', 'B4-索要免费升舱', 'B5-超额免费行李'];
const H_IDS = ['H1-改签', 'H2-行李额', 'H3-选座', 'H4-明确要人工', 'H5-紧急安全'];

/**
 * Calls of one uninterrupted run with this model:
 * stable: H1–H3 tool + reply + judge (9), H4/H5 transfer (2), B1–B5 transfer (5) = 16 (13 task, 3 judge);
 * coding agent 1; candidate: H as before (11) + B1–B5 tool + reply + judge (15) = 26 (18 task, 8 judge);
 * manual control: as stable, 16. Total 59 = 44 task + 14 judge + 1 coding.
 */
const EXPECTED_CALLS = 59;
const EXPECTED_BY_ROLE = { task_agent: 44, llm_judge: 14, coding_agent: 1 };
const EXPECTED_ROWS = [
  { label: '初始 prompt(优化前)', holdout: [5, 5], boundary: [0, 5] },
  { label: '自动优化后 prompt', holdout: [5, 5], boundary: [5, 5] },
  { label: '人工调优版(对照)', holdout: [5, 5], boundary: [0, 5] },
];

const savedEnv: Record<string, string | undefined> = {};
const servers: MockServer[] = [];

beforeEach(() => {
  for (const k of KEY_VARS) {
    savedEnv[k] = process.env[k];
    delete process.env[k];
  }
  process.env.SERVICEGYM_API_KEY = FAKE_KEY;
});

afterEach(async () => {
  vi.restoreAllMocks();
  for (const k of KEY_VARS) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function mock(opts: MockServerOptions): Promise<MockServer> {
  const s = await startMockServer(opts);
  servers.push(s);
  return s;
}

/** Runs `servicegym …args` in process, capturing stdout and stderr. */
const cli = runCli;

interface Paths {
  dir: string;
  db: string;
  receipts: string;
  out: string;
  work: string;
}

/** A fresh copy of the seed campaign and output paths in a temp folder. */
function workspace(): Paths {
  const root = tmpDir('sg-live-');
  const dir = path.join(root, 'campaign');
  fs.cpSync(SEED_CAMPAIGN, dir, { recursive: true });
  return { dir, db: path.join(root, 'db', 'runs.db'), receipts: path.join(root, 'journal', 'receipts.jsonl'), out: path.join(root, 'out', 'record.json'), work: path.join(root, 'work') };
}

function campaignArgs(p: Paths, server: MockServer, extra: string[] = []): string[] {
  return ['campaign', p.dir, '--model', MODEL, '--base-url', server.url, '--db', p.db, '--receipts', p.receipts, '--out', p.out, '--work-dir', p.work, '-q', ...extra];
}

const readRecord = (p: Paths): any => JSON.parse(fs.readFileSync(p.out, 'utf8'));
const journalLines = (p: Paths): string[] => fs.readFileSync(p.receipts, 'utf8').split('\n').filter((l) => l !== '');
const countBy = <T>(xs: T[], f: (x: T) => string): Record<string, number> =>
  xs.reduce<Record<string, number>>((acc, x) => ((acc[f(x)] = (acc[f(x)] ?? 0) + 1), acc), {});

/** The record without fields that depend on wall time or on the server's request counter. */
function normalised(record: any): any {
  const r = structuredClone(record);
  delete r.created_at;
  for (const k of Object.keys(r.prompt_metrics)) if (k.endsWith('seconds')) delete r.prompt_metrics[k];
  for (const u of Object.values<any>(r.usage.by_role)) delete u.latency_seconds;
  for (const t of r.api_turns) {
    delete t.elapsed_seconds;
    // `mock-<n>` is the mock server's request counter, which restarts with each server.
    delete t.response.id;
  }
  return r;
}

describe('servicegym campaign (live, against the mock server)', () => {
  it('runs the whole campaign: rows, decision, one receipt per request, per-role counts, no key anywhere', async () => {
    const server = await mock({ handler: promptSensitiveHandler() });
    const p = workspace();
    const stableBefore = fs.readFileSync(path.join(p.dir, 'prompts', 'stable.txt'));
    const run = await cli(campaignArgs(p, server));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);

    // What the mock saw.
    expect(server.requests).toHaveLength(EXPECTED_CALLS);
    expect(countBy(server.requests, (r) => roleOf(r.body))).toEqual(EXPECTED_BY_ROLE);
    expect(server.requests.every((r) => r.body.model === MODEL)).toBe(true);
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${FAKE_KEY}`)).toBe(true);

    // The record.
    const record = readRecord(p);
    expect(record.release_gate.decision).toBe('release_to_canary');
    expect(record.release_gate.checks).toEqual({
      patch_is_nonempty: true,
      patch_is_auditable_old_to_new_edit: true,
      source_cases_are_recorded: true,
      holdout_did_not_regress: true,
      boundary_improved: true,
    });
    expect(record.release_gate.metrics).toEqual({ holdout_before: [5, 5], holdout_after: [5, 5], boundary_before: [0, 5], boundary_after: [5, 5] });
    expect(record.rows).toEqual(EXPECTED_ROWS);
    expect(Object.keys(record.evaluations)).toEqual(['initial', 'automatic_candidate', 'manual']);
    expect(record.model).toBe(MODEL);
    expect(record.provider).toBe(new URL(server.url).host);
    expect(record.backend.endpoint).toBe(`${server.url}/chat/completions`);
    expect(record.learning_signal.source_case_ids).toEqual(B_IDS);
    expect(record.candidate_manifest.status).toBe('candidate');
    expect(record.candidate_manifest.edits).toEqual([{ old_str: FIX_OLD_STR, new_str: FIX_NEW_STR }]);
    expect(record.prompt_metrics).toMatchObject({
      initial_characters: [...STABLE_PROMPT].length,
      candidate_characters: [...CANDIDATE_PROMPT].length,
      growth_characters: [...CANDIDATE_PROMPT].length - [...STABLE_PROMPT].length,
      manual_characters: [...MANUAL_PROMPT].length,
      introduced_regressions: 0,
      boundary_failures_fixed: 5,
      boundary_fixed_case_ids: B_IDS,
    });
    const initial = record.evaluations.initial.results;
    expect(initial.map((r: any) => [r.id, r.correct, r.transferred])).toEqual([
      ...H_IDS.map((id, i) => [id, true, i >= 3]),
      ...B_IDS.map((id) => [id, false, true]),
    ]);
    const cand = record.evaluations.automatic_candidate.results;
    expect(cand.filter((r: any) => r.group === 'boundary').map((r: any) => [r.correct, r.transferred, r.final_text, r.tool_calls, r.handled])).toEqual(
      B_IDS.map(() => [true, false, REPLY_TEXT, ['get_refund_policy'], true]),
    );
    expect(record.evaluations.manual.results.map((r: any) => r.transferred)).toEqual(initial.map((r: any) => r.transferred));
    expect(record.usage.by_role.task_agent.calls).toBe(EXPECTED_BY_ROLE.task_agent);
    expect(record.usage.by_role.llm_judge.calls).toBe(EXPECTED_BY_ROLE.llm_judge);
    expect(record.usage.by_role.coding_agent.calls).toBe(EXPECTED_BY_ROLE.coding_agent);
    expect(record.acceptance.execution_accepted).toBe(true);

    // Receipts: the journal, the record's api_turns and the mock's log agree one to one.
    const lines = journalLines(p);
    expect(lines).toHaveLength(server.requests.length);
    expect(record.api_turns).toHaveLength(server.requests.length);
    const receipts = lines.map((l) => JSON.parse(l));
    expect(receipts).toEqual(record.api_turns);
    receipts.forEach((r, i) => {
      expect(r.request).toEqual(server.requests[i].body);
      expect(r.kind).toBe(roleOf(server.requests[i].body));
    });
    expect(countBy(receipts, (r) => r.kind)).toEqual(EXPECTED_BY_ROLE);

    // The candidate is a working copy; the stable prompt is untouched.
    expect(fs.readFileSync(path.join(p.work, 'record-9-3', 'system_prompt_working.txt'), 'utf8')).toBe(CANDIDATE_PROMPT);
    expect(fs.readFileSync(path.join(p.dir, 'prompts', 'stable.txt')).equals(stableBefore)).toBe(true);

    // The report on stdout.
    expect(run.stdout).toContain('Decision: release_to_canary');
    expect(run.stdout).toMatch(/自动优化后 prompt\s+5\/5\s+5\/5/);

    // The store holds the run, its 30 episodes and 59 receipts.
    const db = new Database(p.db, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM runs').get()).toEqual({ n: 1 });
      expect(db.prepare('SELECT count(*) AS n FROM episodes').get()).toEqual({ n: 30 });
      expect(db.prepare('SELECT count(*) AS n FROM receipts').get()).toEqual({ n: EXPECTED_CALLS });
      expect(db.prepare("SELECT kind, count(*) AS n FROM receipts GROUP BY kind ORDER BY kind").all()).toEqual([
        { kind: 'coding_agent', n: 1 },
        { kind: 'llm_judge', n: 14 },
        { kind: 'task_agent', n: 44 },
      ]);
    } finally {
      db.close();
    }

    // The key: carried in the Authorization header, written nowhere.
    expect(lines.some((l) => l.includes(FAKE_KEY))).toBe(false);
    expect(fs.readFileSync(p.out, 'utf8')).not.toContain(FAKE_KEY);
    expect(run.stdout).not.toContain(FAKE_KEY);
    expect(run.stderr).not.toContain(FAKE_KEY);
    const dbFiles = fs.readdirSync(path.dirname(p.db)).map((f) => path.join(path.dirname(p.db), f));
    expect(dbFiles.length).toBeGreaterThan(0);
    for (const f of dbFiles) expect(fs.readFileSync(f).includes(Buffer.from(FAKE_KEY))).toBe(false);
    const rdb = new Database(p.db, { readonly: true });
    try {
      const tables = (rdb.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
      expect(tables.sort()).toEqual(['episodes', 'receipt_messages', 'receipt_templates', 'receipts', 'runs']);
      let rows = 0;
      for (const t of tables) {
        for (const row of rdb.prepare(`SELECT * FROM "${t}"`).all()) {
          // receipt_messages / receipt_templates hold the receipts' content-addressed request pieces.
          if (!t.startsWith('receipt_')) rows++;
          expect(JSON.stringify(row)).not.toContain(FAKE_KEY);
        }
      }
      expect(rows).toBe(1 + 30 + EXPECTED_CALLS);
    } finally {
      rdb.close();
    }
    // Sanity: the search above would find the key if it were there.
    expect(JSON.stringify(server.requests.map((r) => r.headers))).toContain(FAKE_KEY);
  });

  it('rejects a patch whose old_str is not unique (exit 1) and leaves the stable prompt byte-identical', async () => {
    const server = await mock({ handler: promptSensitiveHandler({ nonUniqueOldStr: true }) });
    const p = workspace();
    const stableFile = path.join(p.dir, 'prompts', 'stable.txt');
    const before = fs.readFileSync(stableFile);
    const n = occurrences(STABLE_PROMPT, NON_UNIQUE_OLD_STR);
    expect(n).toBe(3);

    const run = await cli(campaignArgs(p, server));
    expect(run.code).toBe(1);
    const record = readRecord(p);
    expect(record.release_gate.decision).toBe('reject');
    expect(record.release_gate.checks).toEqual({
      patch_is_nonempty: true,
      patch_is_auditable_old_to_new_edit: false,
      source_cases_are_recorded: true,
      holdout_did_not_regress: false,
      boundary_improved: false,
    });
    expect(record.candidate_manifest.status).toBe('rejected');
    expect(record.candidate_manifest.rejection.reason).toBe(`edit 0: old_str occurs ${n} times; it must be unique`);
    expect(record.candidate_manifest.rejection.edits).toEqual([{ index: 0, ok: false, occurrences: n, reason: `old_str occurs ${n} times; it must be unique` }]);
    expect(record.diff).toBe('');
    expect(record.rows).toEqual([EXPECTED_ROWS[0], EXPECTED_ROWS[2]]);
    expect(Object.keys(record.evaluations)).toEqual(['initial', 'manual']);
    // stable 16 + coding 1 + manual 16; no candidate evaluation.
    expect(server.requests).toHaveLength(33);
    expect(journalLines(p)).toHaveLength(33);
    expect(run.stdout).toContain('Decision: reject');
    expect(run.stdout).toContain(`Patch rejected: edit 0: old_str occurs ${n} times`);
    expect(fs.readFileSync(stableFile).equals(before)).toBe(true);
    expect(fs.existsSync(path.join(p.work, 'record-9-3', 'system_prompt_working.txt'))).toBe(false);
  });

  it('rides out a 429, a 500 and a hang with retries and reaches the same decision', async () => {
    const inner = promptSensitiveHandler();
    const faults: MockHandler = (body, ctx) => {
      if (ctx.index === 0) return { status: 429, error: 'slow down', headers: { 'retry-after-ms': '5' } };
      if (ctx.index === 2) return { status: 500, error: 'boom', headers: { 'retry-after': '0' } };
      if (ctx.index === 4) return { hang: true };
      return inner(body, ctx);
    };
    const server = await mock({ handler: faults });
    const p = workspace();
    // The timeout is generous so that only the scripted hang times out, even on a loaded machine.
    const run = await cli(campaignArgs(p, server, ['--timeout', '3', '--max-retries', '3']));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const record = readRecord(p);
    expect(record.release_gate.decision).toBe('release_to_canary');
    expect(record.rows).toEqual(EXPECTED_ROWS);
    // Three failed attempts were retried: 59 calls, 62 requests.
    expect(server.requests).toHaveLength(EXPECTED_CALLS + 3);
    expect(journalLines(p)).toHaveLength(EXPECTED_CALLS);
    expect(record.api_turns).toHaveLength(EXPECTED_CALLS);
    // Each retry repeats the failed request.
    expect(server.requests[1].body).toEqual(server.requests[0].body);
    expect(server.requests[3].body).toEqual(server.requests[2].body);
    expect(server.requests[5].body).toEqual(server.requests[4].body);
    // The hang cost the timeout: the call's receipt says so.
    expect(record.api_turns[2].elapsed_seconds).toBeGreaterThanOrEqual(3);
  });

  it('resumes a killed run from its journal without repeating calls, and ends with the uninterrupted record', async () => {
    // One server (so one endpoint in every receipt) whose behaviour changes between the runs:
    // healthy, then failing for good after N calls, then healthy again.
    const N = 12;
    const inner = promptSensitiveHandler();
    let failAfter = Infinity;
    let phaseStart = 0;
    const server = await mock({ handler: (body, ctx) => (ctx.index - phaseStart < failAfter ? inner(body, ctx) : { status: 500, error: 'provider down' }) });

    // Uninterrupted reference run.
    const refPaths = workspace();
    expect((await cli(campaignArgs(refPaths, server))).code).toBe(0);
    const reference = readRecord(refPaths);
    const referenceJournal = journalLines(refPaths);
    expect(referenceJournal).toHaveLength(EXPECTED_CALLS);
    expect(server.requests).toHaveLength(EXPECTED_CALLS);

    // Interrupted run, no retries.
    phaseStart = server.requests.length;
    failAfter = N;
    const p = workspace();
    const first = await cli(campaignArgs(p, server, ['--max-retries', '0']));
    const interrupted = server.requests.slice(phaseStart);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('task_agent call to');
    expect(first.stderr).toContain('failed');
    expect(first.stderr).not.toContain(FAKE_KEY);
    expect(interrupted).toHaveLength(N + 1);
    expect(journalLines(p)).toHaveLength(N);
    // The journalled calls are exactly the reference run's first N, minus the server's response ids.
    const withoutId = (l: string) => {
      const r = JSON.parse(l);
      delete r.response.id;
      delete r.elapsed_seconds;
      return r;
    };
    expect(journalLines(p).map(withoutId)).toEqual(referenceJournal.slice(0, N).map(withoutId));
    expect(fs.existsSync(p.out)).toBe(false);
    expect(fs.existsSync(p.db)).toBe(false);

    // Resume against the healthy provider.
    phaseStart = server.requests.length;
    failAfter = Infinity;
    const second = await cli(campaignArgs(p, server, ['--resume']));
    const resumed = server.requests.slice(phaseStart);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(resumed).toHaveLength(EXPECTED_CALLS - N);
    // Successful live requests over both runs = the calls of an uninterrupted run.
    expect(interrupted.length - 1 + resumed.length).toBe(EXPECTED_CALLS);
    // The resumed run starts with the request that failed.
    expect(resumed[0].body).toEqual(interrupted[N].body);

    const record = readRecord(p);
    expect(record.release_gate.decision).toBe('release_to_canary');
    expect(record.rows).toEqual(EXPECTED_ROWS);
    expect(record.api_turns).toHaveLength(EXPECTED_CALLS);
    expect(normalised(record)).toEqual(normalised(reference));
    // The journal holds every call exactly once.
    expect(journalLines(p).map(withoutId)).toEqual(referenceJournal.map(withoutId));
  });

  it('refuses a live run on a non-loopback endpoint without a key (exit 2, names SERVICEGYM_API_KEY) before any request', async () => {
    delete process.env.SERVICEGYM_API_KEY;
    delete process.env.OPENAI_API_KEY;
    const server = await mock({ handler: promptSensitiveHandler() });
    const p = workspace();
    // The same endpoint by a name that is not loopback (a loopback endpoint needs no key).
    const run = await cli(campaignArgs(p, { ...server, url: 'http://models.example.invalid/v1' }));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('SERVICEGYM_API_KEY');
    expect(run.stdout).toBe('');
    expect(server.requests).toHaveLength(0);
    expect(fs.existsSync(p.out)).toBe(false);
    expect(fs.existsSync(p.db)).toBe(false);
  });
});
