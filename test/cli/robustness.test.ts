/**
 * Promises the break-it pass checked: secrets echoed by a provider never leak, a receipt journal is
 * never silently overwritten, a torn journal line from a kill does not block --resume, a resumed
 * run must keep its settings, unwritable stores and wrong-kind paths are bad input (exit 2).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { redactSecret } from '../../src/models/openai-adapter.js';
import { startMockServer, type MockServer } from '../../src/models/mock-server.js';
import { dropTornLastLine } from '../../src/cli/campaign.js';
import { SEED_CAMPAIGN, tmpDir } from '../support/paths.js';
import { startTwoRoleMock } from '../support/two-role-mock.js';
import { runCli } from '../support/cli.js';

const KEY = 'test-fake-key-ECHOED-BY-PROVIDER-5150';

const cli = runCli;

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.SERVICEGYM_API_KEY;
  process.env.SERVICEGYM_API_KEY = KEY;
});
afterEach(() => {
  if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
  else process.env.SERVICEGYM_API_KEY = saved;
});

describe('secrets', () => {
  it('redacts the key and its tail from any text', () => {
    expect(redactSecret(`bad key ${KEY} (…${KEY.slice(-8)})`, KEY)).toBe('bad key *** (…***)');
  });

  it('a provider that echoes the key in a 401 leaks it into no output and no store row', async () => {
    const server: MockServer = await startMockServer({ handler: (_b, ctx) => ({ status: 401, error: `Incorrect API key provided: ${ctx.log.at(-1)!.headers.authorization}` }) });
    try {
      const dir = tmpDir('sg-leak-');
      const db = path.join(dir, 's.db');
      const r = await cli(['run', '--tasks', 'T01', '--agent-model', 'a', '--user-model', 'u', '--base-url', server.url, '--max-retries', '0', '--db', db, '-q', '--json']);
      expect(r.code).toBe(1);
      expect(r.out + r.err).not.toContain(KEY);
      expect(r.out).toContain('Incorrect API key provided: Bearer ***');
      expect(fs.readFileSync(db).includes(KEY)).toBe(false);
      expect(fs.readFileSync(db).includes(KEY.slice(-8))).toBe(false);
    } finally {
      await server.close();
    }
  });
});

describe('receipt journal', () => {
  it('refuses to overwrite an existing journal without --resume or --fresh', async () => {
    const dir = tmpDir('sg-journal-');
    const journal = path.join(dir, 'r.jsonl');
    fs.writeFileSync(journal, '{"kept": true}\n');
    const r = await cli(['campaign', SEED_CAMPAIGN, '--model', 'm', '--base-url', 'http://127.0.0.1:9/v1', '--receipts', journal, '--no-store', '-q']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('a receipt journal already exists here');
    expect(fs.readFileSync(journal, 'utf8')).toBe('{"kept": true}\n');
  });

  it('replay and campaign refuse --out or --receipts naming the store, the journal or the cassette (exit 2, nothing written or deleted)', async () => {
    const dir = tmpDir('sg-campaign-out-');
    const db = path.join(dir, 's.db');
    expect((await cli(['replay', SEED_CAMPAIGN, '--db', db, '-q'])).code).toBe(0);
    const store = fs.readFileSync(db);
    const cassette = path.join(SEED_CAMPAIGN, 'receipts.jsonl');
    const recorded = fs.readFileSync(cassette);
    const journal = path.join(dir, 'r.jsonl');
    const cases: [string[], string][] = [
      [['replay', SEED_CAMPAIGN, '--db', db, '--out', db], `${db}: --out names the run store`],
      [['replay', SEED_CAMPAIGN, '--no-store', '--out', cassette], `${cassette}: --out names the campaign's recorded receipts`],
      [['campaign', SEED_CAMPAIGN, '--model', 'm', '--base-url', 'http://127.0.0.1:9/v1', '--db', db, '--receipts', db, '--fresh'], `${db}: --receipts names the run store`],
      [['campaign', SEED_CAMPAIGN, '--model', 'm', '--base-url', 'http://127.0.0.1:9/v1', '--no-store', '--receipts', journal, '--out', journal], `${journal}: --out names the receipt journal`],
    ];
    for (const [args, message] of cases) {
      const r = await cli([...args, '-q']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toBe(`servicegym: error: ${message}; writing there would destroy it: give another file\n`);
    }
    expect(fs.readFileSync(db).equals(store)).toBe(true);
    expect(fs.readFileSync(cassette).equals(recorded)).toBe(true);
    expect(fs.existsSync(journal)).toBe(false);
  });

  it('sets a torn last line aside so a killed run can resume', () => {
    const dir = tmpDir('sg-torn-');
    const journal = path.join(dir, 'r.jsonl');
    fs.writeFileSync(journal, '{"a":1}\n{"b":2}\n{"c":');
    expect(dropTornLastLine(journal)).toBe(`${journal}.torn`);
    expect(fs.readFileSync(journal, 'utf8')).toBe('{"a":1}\n{"b":2}\n');
    expect(fs.readFileSync(`${journal}.torn`, 'utf8')).toBe('{"c":');
    fs.writeFileSync(journal, '{"a":1}');
    expect(dropTornLastLine(journal)).toBeNull();
    expect(fs.readFileSync(journal, 'utf8')).toBe('{"a":1}\n');
  });
});

describe('run --resume', () => {
  it('rejects a resume with other settings', async () => {
    const mock = await startTwoRoleMock({
      agent: () => ({ content: 'Basic economy cannot be changed. ###STOP###' }),
      user: (messages) => (messages.length <= 2 ? { content: 'Move 8KQ2ZD please.' } : { content: '###STOP###' }),
    });
    try {
      const db = path.join(tmpDir('sg-resume-'), 's.db');
      const first = await cli(['run', '--tasks', 'T01', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '--json']);
      expect(first.code).toBe(0);
      const runId = JSON.parse(first.out).run_id;
      const other = await cli(['run', '--tasks', 'T01', '--trials', '3', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '--resume', runId]);
      expect(other.code).toBe(2);
      expect(other.err).toContain('was started with other settings (trials: 1 vs 3)');
      const domain = await cli(['run', '--domain', 'retail', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '--resume', runId]);
      expect(domain.code).toBe(2);
      expect(domain.err).toContain('domain: "airline" vs "retail"');
      // A validate run in the same store is not a run to resume.
      const v = await cli(['validate', '--tasks', 'T01', '--db', db, '-q', '--json']);
      expect(v.code).toBe(0);
      const vid = JSON.parse(v.out).run_id;
      const wrong = await cli(['run', '--tasks', 'T01', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '--resume', vid]);
      expect(wrong.code).toBe(2);
      expect(wrong.err).toContain(`run '${vid}' was not started by 'servicegym run' (it is a validate run)`);
    } finally {
      await mock.close();
    }
  });

  it('rejects a temperature that is not a number', async () => {
    const r = await cli(['run', '--tasks', 'T01', '--agent-model', 'a', '--user-model', 'u', '--base-url', 'http://127.0.0.1:9/v1', '--temperature', 'abc', '--db', path.join(tmpDir('sg-t-'), 's.db'), '-q']);
    expect(r.code).toBe(2);
    expect(r.err).toContain("--temperature must be a number from 0 to 2, got 'abc'");
  });

  it("rejects numbers not written in decimal: '' and ' ' were read as 0, 0x10 as 16, 1e1 as 10", async () => {
    const base = ['run', '--tasks', 'T01', '--agent-model', 'a', '--user-model', 'u', '--base-url', 'http://127.0.0.1:9/v1', '--db', path.join(tmpDir('sg-num-'), 's.db'), '-q'];
    const cases: [string[], string][] = [
      [['--temperature', ''], "--temperature must be a number from 0 to 2, got ''"],
      [['--temperature', '0x1'], "--temperature must be a number from 0 to 2, got '0x1'"],
      [['--trials', '1e1'], "--trials must be a whole number from 1 to 10000, got '1e1'"],
      [['--trials', '0x2'], "--trials must be a whole number from 1 to 10000, got '0x2'"],
      [['--judge-votes', '0x3', '--judge-model', 'j'], "--judge-votes must be a whole number >= 1, got '0x3'"],
    ];
    for (const [flags, message] of cases) {
      const r = await cli([...base, ...flags]);
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.err).toBe(`servicegym: error: ${message}\n`);
    }
  });
});

describe('paths', () => {
  it('an unwritable store file is bad input, before any work', async () => {
    if (process.getuid?.() === 0) return; // root can write anyway; covered by the EACCES mapping below
    const db = path.join(tmpDir('sg-ro-'), 's.db');
    fs.writeFileSync(db, '');
    fs.chmodSync(db, 0o444);
    const r = await cli(['replay', '-q', '--db', db]);
    expect(r.code).toBe(2);
  });

  it('a folder where a file is expected, or a file where a folder is expected, exits 2 naming the path', async () => {
    const dir = tmpDir('sg-paths-');
    const r = await cli(['replay', '-q', '--no-store', '--out', dir, '--work-dir', path.join(dir, 'w')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${dir}: cannot open this path (EISDIR)`);
    const file = path.join(dir, 'f.json');
    fs.writeFileSync(file, '{}');
    const v = await cli(['import-record', file, '--out', file]);
    expect(v.code).toBe(2);
  });

  it('a record that is not UTF-8 is bad input naming the byte offset', async () => {
    const file = path.join(tmpDir('sg-utf-'), 'r.json');
    fs.writeFileSync(file, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    const r = await cli(['import-record', file, '--out', path.join(path.dirname(file), 'out')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('not valid UTF-8 text (first bad byte at offset 6)');
  });
});


describe('empty and mismatched inputs', () => {
  it('a tau2 tasks.json with a duplicate id, or with no tasks, is bad input naming the path', async () => {
    const dir = tmpDir('sg-dup-');
    const task = { id: '0', user_scenario: { instructions: 'x' }, evaluation_criteria: { actions: [], reward_basis: ['DB'] } };
    fs.writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify([task, task]));
    fs.writeFileSync(path.join(dir, 'policy.md'), 'p');
    fs.writeFileSync(path.join(dir, 'db.json'), JSON.stringify({ flights: {}, users: {}, reservations: {} }));
    const r = await cli(['validate', '--data-dir', dir, '--no-store', '-q']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${path.join(dir, 'tasks.json')} at $[1].id: duplicate task id '0' (first at $[0])`);
    fs.writeFileSync(path.join(dir, 'tasks.json'), '[]');
    const e = await cli(['validate', '--data-dir', dir, '--no-store', '-q']);
    expect(e.code).toBe(2);
    expect(e.err).toContain('no tasks');
  });

  it('conformance refuses an empty reference and a reference of another domain', async () => {
    const dir = tmpDir('sg-ref-');
    const task = { id: '0', user_scenario: { instructions: 'x' }, evaluation_criteria: { actions: [], reward_basis: ['DB'] } };
    fs.writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify([task]));
    fs.writeFileSync(path.join(dir, 'policy.md'), 'p');
    fs.writeFileSync(path.join(dir, 'db.json'), JSON.stringify({ flights: {}, users: {}, reservations: {} }));
    const ref = path.join(dir, 'ref.jsonl');
    fs.writeFileSync(ref, '');
    const r = await cli(['conformance', '--domain', 'airline', '--data-dir', dir, '--reference', ref]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('the reference file has no lines');
  });
});
