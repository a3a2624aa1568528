/**
 * The JUnit XML that `-o results.xml` writes is checked against the rules of the JUnit schema CI
 * systems read (Jenkins' `junit-10.xsd`, the one GitLab, GitHub reporters and Jenkins accept):
 * well-formed XML 1.0; root `testsuites` (attributes name, time, tests, failures, disabled,
 * errors — nothing else; children: `testsuite` only); `testsuite` (required `tests`; allowed
 * name, tests, failures, errors, time, disabled, skipped, skips, timestamp, hostname, id, package,
 * assertions, file, skip, log, url; children testsuite, properties, testcase, system-out,
 * system-err); `testcase` (required `name`; allowed name, assertions, time, timestamp, classname,
 * status, class, file, line, log, group, url; children skipped, error, failure, system-out,
 * system-err); `failure`, `error`, `skipped` (allowed type, message; text content). Beyond the
 * schema, the counts must agree with the test cases, as CI dashboards sum them.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultLineOf, toJunit, xmlText, type EpisodeResultLine } from '../../src/run/results-export.js';
import { runCli as cli } from '../support/cli.js';
import { writeEvaluateResults } from '../../src/cli/results-flags.js';
import { startTwoRoleMock, type TwoRoleMock } from '../support/two-role-mock.js';
import { HAS_SHARED, needsShared, ROOT, SHARED, tmpDir } from '../support/paths.js';

interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decode(s: string, where: string): string {
  if (/[<]/.test(s)) throw new Error(`raw '<' in ${where}`);
  return s.replace(/&([^;]*);?/g, (m, body: string) => {
    if (!m.endsWith(';')) throw new Error(`unterminated entity in ${where}`);
    if (body in ENTITY) return ENTITY[body];
    const n = /^#x([0-9a-f]+)$/i.exec(body) ? parseInt(body.slice(2), 16) : /^#\d+$/.test(body) ? Number(body.slice(1)) : NaN;
    if (Number.isNaN(n)) throw new Error(`unknown entity &${body}; in ${where}`);
    return String.fromCodePoint(n);
  });
}

/** A strict little XML parser for the subset the exporter writes (declaration, elements, attributes, text). */
function parseXml(xml: string): El {
  if (/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u.test(xml)) throw new Error('character not allowed in XML 1.0');
  let i = 0;
  const decl = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/.exec(xml);
  if (!decl) throw new Error('missing XML declaration');
  i = decl[0].length;
  const stack: El[] = [];
  let root: El | null = null;
  const tag = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"]*")*)\s*(\/?)>/y;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt < 0 ? xml.length : lt);
    if (text.trim() !== '') {
      if (!stack.length) throw new Error('text outside the root');
      stack[stack.length - 1].text += decode(text, stack[stack.length - 1].name);
    }
    if (lt < 0) break;
    tag.lastIndex = lt;
    const m = tag.exec(xml);
    if (!m) throw new Error(`malformed tag at ${lt}: ${xml.slice(lt, lt + 60)}`);
    const [, close, name, attrText, selfClose] = m;
    if (close) {
      const open = stack.pop();
      if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name}>`);
    } else {
      const attrs: Record<string, string> = {};
      for (const a of attrText.matchAll(/([A-Za-z_][\w.-]*)="([^"]*)"/g)) {
        if (a[1] in attrs) throw new Error(`duplicate attribute ${a[1]} on <${name}>`);
        attrs[a[1]] = decode(a[2], `${name}@${a[1]}`);
      }
      const el: El = { name, attrs, children: [], text: '' };
      if (stack.length) stack[stack.length - 1].children.push(el);
      else if (root) throw new Error('two roots');
      else root = el;
      if (!selfClose) stack.push(el);
    }
    i = tag.lastIndex;
  }
  if (stack.length || !root) throw new Error('unclosed elements');
  return root;
}

const SCHEMA: Record<string, { required: string[]; allowed: string[]; children: string[] }> = {
  testsuites: { required: [], allowed: ['name', 'time', 'tests', 'failures', 'disabled', 'errors'], children: ['testsuite'] },
  testsuite: {
    required: ['tests'],
    allowed: ['name', 'tests', 'failures', 'errors', 'time', 'disabled', 'skipped', 'skips', 'timestamp', 'hostname', 'id', 'package', 'assertions', 'file', 'skip', 'log', 'url'],
    children: ['testsuite', 'properties', 'testcase', 'system-out', 'system-err'],
  },
  testcase: { required: ['name'], allowed: ['name', 'assertions', 'time', 'timestamp', 'classname', 'status', 'class', 'file', 'line', 'log', 'group', 'url'], children: ['skipped', 'error', 'failure', 'system-out', 'system-err'] },
  failure: { required: [], allowed: ['type', 'message'], children: [] },
  error: { required: [], allowed: ['type', 'message'], children: [] },
  skipped: { required: [], allowed: ['type', 'message'], children: [] },
};

/** Every schema violation of the document, as `path: problem` lines (empty when valid). */
function junitViolations(root: El): string[] {
  const out: string[] = [];
  if (root.name !== 'testsuites') out.push(`root is <${root.name}>, expected <testsuites>`);
  const walk = (el: El, at: string) => {
    const rule = SCHEMA[el.name];
    if (!rule) return void out.push(`${at}: element <${el.name}> is not in the schema`);
    for (const r of rule.required) if (!(r in el.attrs)) out.push(`${at}: missing required @${r}`);
    for (const a of Object.keys(el.attrs)) if (!rule.allowed.includes(a)) out.push(`${at}: attribute @${a} not allowed`);
    for (const c of el.children) if (!rule.children.includes(c.name)) out.push(`${at}: child <${c.name}> not allowed`);
    if (el.name !== 'failure' && el.name !== 'error' && el.name !== 'skipped' && el.text.trim()) out.push(`${at}: text content not allowed`);
    el.children.forEach((c, i) => walk(c, `${at}/${c.name}[${i}]`));
  };
  walk(root, '/testsuites');
  // Counts agree with the cases (what CI dashboards add up).
  const count = (cases: El[], child: string) => cases.filter((c) => c.children.some((x) => x.name === child)).length;
  for (const [i, suite] of root.children.entries()) {
    const cases = suite.children.filter((c) => c.name === 'testcase');
    const want = { tests: cases.length, failures: count(cases, 'failure'), errors: count(cases, 'error'), skipped: count(cases, 'skipped') };
    for (const [k, v] of Object.entries(want)) if (k in suite.attrs && Number(suite.attrs[k]) !== v) out.push(`/testsuites/testsuite[${i}]: @${k}=${suite.attrs[k]} but ${v} cases`);
    if (suite.attrs.time !== undefined && !/^\d+(\.\d+)?$/.test(suite.attrs.time)) out.push(`testsuite[${i}]: @time is not a decimal`);
    if (suite.attrs.timestamp !== undefined && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(suite.attrs.timestamp)) out.push(`testsuite[${i}]: @timestamp is not an ISO 8601 date-time without zone`);
  }
  for (const k of ['tests', 'failures', 'errors']) {
    const total = root.children.reduce((s, t) => s + Number(t.attrs[k] ?? 0), 0);
    if (k in root.attrs && Number(root.attrs[k]) !== total) out.push(`/testsuites: @${k}=${root.attrs[k]} but suites sum to ${total}`);
  }
  return out;
}

const line = (over: Partial<EpisodeResultLine>): EpisodeResultLine => ({
  task_id: 'T01', trial: 0, persona: null, termination: 'user_stop', reward: 1, partial: 1, status: 'passed', failing_checks: [], not_judged_checks: [], error: null, seconds: 1.25, ...over,
});

describe('JUnit output against the JUnit schema', () => {
  it('the checker itself rejects what the schema rejects', () => {
    expect(junitViolations(parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites skipped="1"><testsuite name="x"><testcase/></testsuite></testsuites>'))).toEqual([
      '/testsuites: attribute @skipped not allowed',
      '/testsuites/testsuite[0]: missing required @tests',
      '/testsuites/testsuite[0]/testcase[0]: missing required @name',
    ]);
    expect(() => parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="a<b"></testsuites>')).toThrow();
    expect(() => parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite></testsuites>')).toThrow();
  });

  it('passed, failed, error and not-judged episodes, with markup, quotes and control characters in the texts', () => {
    const xml = toJunit(
      [
        line({}),
        line({ task_id: 'T02', status: 'failed', reward: 0, partial: 0.4, failing_checks: ['order<1>', 'a&b'] }),
        line({ task_id: 'T03', trial: 1, persona: 'off-policy', status: 'error', reward: null, partial: null, error: 'infrastructure error: "500" \u0001 <html>', seconds: null }),
        line({ task_id: '7', status: 'not_judged', reward: null, partial: 0.5, not_judged_checks: ['tau2_nl_assertion'] }),
      ],
      { suite: 'run-x', classname: 'servicegym.retail', timestamp: '2026-12-01T14:00:00.123Z' },
    );
    const doc = parseXml(xml);
    expect(junitViolations(doc)).toEqual([]);
    const suite = doc.children[0];
    expect(suite.attrs).toMatchObject({ name: 'run-x', tests: '4', failures: '1', errors: '1', skipped: '1', timestamp: '2026-12-01T14:00:00' });
    const cases = suite.children;
    expect(cases.map((c) => c.attrs.name)).toEqual(['T01#0', 'T02#0', 'T03#1 (off-policy)', '7#0']);
    expect(cases[1].children[0].name).toBe('failure');
    expect(cases[1].children[0].attrs.message).toBe('reward 0; failing checks: order<1>, a&b');
    expect(cases[2].children[0].name).toBe('error');
    expect(cases[2].children[0].attrs.message).toBe('infrastructure error: "500"  <html>');
    expect(cases[3].children[0].name).toBe('skipped');
  });

  it('keeps tabs, CRs and LFs as character references (parsers turn raw ones in attributes into spaces)', () => {
    expect(xmlText('a\tb\r\nc "d" <e> & \u0007')).toBe('a&#9;b&#13;&#10;c &quot;d&quot; &lt;e&gt; &amp; ');
    const xml = toJunit([line({ status: 'error', reward: null, partial: null, error: 'harness error: line 1\r\n\tline 2' })], { suite: 'r', classname: 'c', timestamp: '2026-12-01T14:00:00Z' });
    expect(xml).toContain('message="harness error: line 1&#13;&#10;&#9;line 2"');
    expect(xml).not.toMatch(/message="[^"]*[\t\r\n]/);
  });

  it('`run`-style report rows become result lines with the documented statuses', () => {
    const ev = (reward: number | null) => ({ reward, partial: 0.5, reward_basis: ['DB'], rubric: [{ id: 'r', checks: ['c1', 'nl'] }], checks: [{ id: 'c1', verdict: 'fail' }, { id: 'nl', verdict: 'not_judged' }, { id: 'tau2_action', kind: 'ACTION', verdict: 'fail' }, { id: 'diag', verdict: 'fail' }, { id: 'zero', verdict: 'fail' }] }) as never;
    expect(resultLineOf({ taskId: 'A', trial: 0, termination: 'user_stop', evaluation: ev(1) }).status).toBe('passed');
    expect(resultLineOf({ taskId: 'A', trial: 0, termination: 'user_stop', evaluation: ev(0) })).toMatchObject({ status: 'failed', failing_checks: ['c1'], not_judged_checks: ['nl'] });
    // Only checks that count are listed: tau2_action outside the basis and a check no rubric item or zero_if_failed names are diagnostics.
    expect(resultLineOf({ taskId: 'A', trial: 0, termination: 'user_stop', evaluation: ev(0), task: { servicegym: { zero_if_failed: ['zero'] } as never } })).toMatchObject({ failing_checks: ['c1', 'zero'] });
    expect(resultLineOf({ taskId: 'A', trial: 0, termination: 'user_stop', evaluation: ev(null) }).status).toBe('not_judged');
    expect(resultLineOf({ taskId: 'A', trial: 0, termination: 'agent_error', evaluation: null, infraError: 'provider down' })).toMatchObject({ status: 'error', error: 'infrastructure error: provider down' });
  });

  it('validate -o results.jsonl and --fail-under on the own airline tasks', async () => {
    const dir = tmpDir('sg-val-out-');
    const file = path.join(dir, 'v.jsonl');
    const r = await cli(['validate', '--no-store', '-q', '--tasks', 'T01,T02', '-o', file, '--fail-under', '1']);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).map((l) => [l.task_id, l.status, l.reward])).toEqual([['T01', 'passed', 1], ['T02', 'passed', 1]]);
    const bad = await cli(['validate', '--no-store', '-q', '--tasks', 'T01', '--fail-under', '1.5']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--fail-under must be a reward from 0 to 1, got '1.5'");
    expect((await cli(['validate', '--no-store', '-q', '--tasks', 'T01', '-o', path.join(dir, 'v.txt')])).code).toBe(2);
  });

  it("evaluate's results: trajectories numbered per task as trials, a valid JUnit file, the fail-under verdict", () => {
    const dir = tmpDir('sg-eval-res-');
    const file = path.join(dir, 'e.xml');
    const ev = (reward: number | null) => ({ reward, partial: reward ?? 0.5, checks: [] }) as never;
    const logged: string[] = [];
    const under = writeEvaluateResults('/data/traj.jsonl', [
      { task_id: 'T01', termination: 'user_stop', evaluation: ev(1), evaluation_error: null },
      { task_id: 'T01', termination: 'user_stop', evaluation: ev(0), evaluation_error: null },
      { task_id: 'T02', termination: 'agent_error', evaluation: null, evaluation_error: 'boom' },
    ], { output: file, failUnder: 0.75 }, (l) => logged.push(l));
    expect(under).toBe('--fail-under 0.75: reward mean 0.500 is below it');
    expect(logged).toEqual([`results of 3 episodes written to ${file}`, under]);
    const doc = parseXml(fs.readFileSync(file, 'utf8'));
    expect(junitViolations(doc)).toEqual([]);
    expect(doc.children[0].attrs).toMatchObject({ name: 'evaluate traj.jsonl', tests: '3', failures: '1', errors: '1' });
    expect(doc.children[0].children.map((c) => c.attrs.name)).toEqual(['T01#0', 'T01#1', 'T02#0']);
  });

  it.skipIf(!HAS_SHARED)(needsShared('validate -o results.xml on tau2 retail: not-judged tasks are skipped cases, the file is valid'), async () => {
    const dir = tmpDir('sg-junit-');
    const file = path.join(dir, 'results.xml');
    const r = await cli(['validate', '--domain', 'retail', '--data-dir', path.join(SHARED, 'peers/tau2/retail'), '--tasks', '0,2,57', '--no-store', '-q', '-o', file]);
    expect(r.code).toBe(1); // task 2 or 57 is not judged: not at reward 1
    const doc = parseXml(fs.readFileSync(file, 'utf8'));
    expect(junitViolations(doc)).toEqual([]);
    expect(doc.children[0].attrs.tests).toBe('3');
    expect(Number(doc.children[0].attrs.skipped)).toBeGreaterThan(0);
  });
});

/** The files of a complete run and of the status lines, as written before not-started episodes were exported. */
const FIXTURES = path.join(ROOT, 'test', 'run', 'fixtures');

/** A results file without what depends on the clock: times, the start timestamp and model latencies. */
const timeless = (text: string) =>
  text
    .replace(/ time="\d+\.\d{3}"/g, ' time="T"')
    .replace(/ timestamp="[^"]*"/g, ' timestamp="S"')
    .replace(/"seconds":[\d.]+/g, '"seconds":L')
    .replace(/,[\d.]+\r\n/g, ',L\r\n');

describe('results of a run that stopped before every episode started', () => {
  let mock: TwoRoleMock;
  const saved = process.env.SERVICEGYM_API_KEY;
  const dir = tmpDir('sg-results-stopped-');
  // Episodes of one agent answer; every completion reports $0.01, so --max-cost $0.02 stops the run after its first episode (-j 1).
  beforeAll(async () => {
    process.env.SERVICEGYM_API_KEY = 'test-fake-key-results-7171';
    mock = await startTwoRoleMock(
      { agent: () => ({ content: 'Basic economy cannot be changed. ###STOP###' }), user: (messages) => (messages.length <= 2 ? { content: 'Move 8KQ2ZD please.' } : { content: '###STOP###' }) },
      { cost: 0.01 },
    );
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
    if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
    else process.env.SERVICEGYM_API_KEY = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const run = (db: string, file: string, extra: string[]) =>
    cli(['run', '--tasks', 'T01,T02', '--trials', '2', '-j', '1', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '-o', file, ...extra]);
  const halted = (db: string, runId: string) => {
    const sql = new Database(db, { readonly: true });
    const row = sql.prepare('SELECT summary FROM runs WHERE id = ?').get(runId) as { summary: string };
    sql.close();
    return JSON.parse(row.summary).halted as { reason: string; not_started: number } | undefined;
  };

  it('JUnit: every planned task × trial × persona that did not start is a skipped testcase saying why and how to continue; --resume then completes it', async () => {
    const db = path.join(dir, 'stopped.db');
    const file = path.join(dir, 'stopped.xml');
    const r = await run(db, file, ['--personas', 'impatient,vague', '--max-cost', '0.02', '--run-id', 'stop-1']);
    expect(r.code, r.err).toBe(1);
    const stop = halted(db, 'stop-1')!;
    expect(stop).toEqual({ reason: expect.stringMatching(/^--max-cost \$0\.02 reached \(provider-reported cost \$0\.0\d{3}\)$/), not_started: 7 });
    const doc = parseXml(fs.readFileSync(file, 'utf8'));
    expect(junitViolations(doc)).toEqual([]);
    const suite = doc.children[0];
    // 2 tasks × 2 trials × 2 personas planned, 1 ran: 7 skipped cases, as many as the stored summary says did not start.
    expect(suite.attrs).toMatchObject({ tests: '8', skipped: '7' });
    expect(doc.attrs.tests).toBe('8');
    expect(suite.children.map((c) => c.attrs.name)).toEqual(['T01#0 (impatient)', 'T01#1 (vague)', 'T01#2 (impatient)', 'T01#3 (vague)', 'T02#0 (impatient)', 'T02#1 (vague)', 'T02#2 (impatient)', 'T02#3 (vague)']);
    expect(suite.children.every((c) => c.attrs.classname === 'servicegym.airline')).toBe(true);
    const skipped = suite.children.filter((c) => c.children.some((x) => x.name === 'skipped'));
    expect(skipped.map((c) => c.attrs.name)).toEqual(suite.children.slice(1).map((c) => c.attrs.name));
    for (const c of skipped) expect(c.children).toEqual([{ name: 'skipped', attrs: { message: `not started: the run stopped (${stop.reason}); continue with --resume stop-1` }, children: [], text: '' }]);

    const done = path.join(dir, 'resumed.xml');
    const resumed = await run(db, done, ['--personas', 'impatient,vague', '--max-cost', '5', '--resume', 'stop-1']);
    expect(resumed.code, resumed.err).toBe(0);
    const complete = parseXml(fs.readFileSync(done, 'utf8')).children[0];
    expect(complete.attrs).toMatchObject({ tests: '8', skipped: '0' });
    expect(complete.children.filter((c) => c.children.some((x) => x.name === 'skipped'))).toEqual([]);
  }, 120_000);

  it('JSON Lines and CSV: a not_started line for each, its error saying why and how to continue', async () => {
    const lines: Record<string, unknown>[][] = [];
    for (const ext of ['jsonl', 'csv']) {
      const db = path.join(dir, `stopped-${ext}.db`);
      const file = path.join(dir, `stopped.${ext}`);
      expect((await run(db, file, ['--max-cost', '0.02', '--run-id', 'stop-2'])).code).toBe(1);
      const why = `not started: the run stopped (${halted(db, 'stop-2')!.reason}); continue with --resume stop-2`;
      const text = fs.readFileSync(file, 'utf8');
      if (ext === 'jsonl') lines.push(text.trim().split('\n').map((l) => JSON.parse(l)));
      else {
        const [head, ...rows] = text.trim().split('\r\n');
        expect(rows.slice(1)).toEqual(['T01,1,,,,,not_started,,,', 'T02,0,,,,,not_started,,,', 'T02,1,,,,,not_started,,,'].map((row) => `${row}${why.includes(',') ? `"${why}"` : why},`));
        lines.push(rows.map((row) => Object.fromEntries(head.split(',').map((k, i) => [k, row.split(',')[i]]))));
      }
    }
    expect(lines[0].map((l) => [l.task_id, l.trial, l.status])).toEqual([['T01', 0, 'passed'], ['T01', 1, 'not_started'], ['T02', 0, 'not_started'], ['T02', 1, 'not_started']]);
    expect(lines[0][1]).toEqual({ task_id: 'T01', trial: 1, persona: null, termination: null, reward: null, partial: null, status: 'not_started', failing_checks: [], not_judged_checks: [], error: expect.stringMatching(/^not started: the run stopped \(--max-cost \$0\.02 reached .*\); continue with --resume stop-2$/), seconds: null });
    expect(lines[1].map((l) => [l.task_id, l.trial, l.status])).toEqual([['T01', '0', 'passed'], ['T01', '1', 'not_started'], ['T02', '0', 'not_started'], ['T02', '1', 'not_started']]);
  }, 120_000);

  it("a complete run's JUnit, JSON Lines and CSV files are byte for byte what they were before (clock-dependent times aside)", async () => {
    for (const ext of ['xml', 'jsonl', 'csv']) {
      const file = path.join(dir, `complete.${ext}`);
      const r = await run(path.join(dir, `complete-${ext}.db`), file, ['--run-id', 'complete-1']);
      expect(r.code, r.err).toBe(0);
      expect(timeless(fs.readFileSync(file, 'utf8'))).toBe(fs.readFileSync(path.join(FIXTURES, `complete-run.${ext}`), 'utf8'));
    }
  }, 120_000);

  it('JUnit of every status is byte for byte what it was before', () => {
    const xml = toJunit(
      [
        line({}),
        line({ task_id: 'T02', status: 'failed', reward: 0, partial: 0.4, failing_checks: ['order<1>', 'a&b'] }),
        line({ task_id: 'T03', trial: 1, persona: 'off-policy', status: 'error', reward: null, partial: null, error: 'infrastructure error: "500" <html>', seconds: null }),
        line({ task_id: '7', status: 'not_judged', reward: null, partial: 0.5, not_judged_checks: ['tau2_nl_assertion'] }),
      ],
      { suite: 'run-x', classname: 'servicegym.retail', timestamp: '2026-12-01T14:00:00.123Z' },
    );
    expect(xml).toBe(fs.readFileSync(path.join(FIXTURES, 'junit-statuses.xml'), 'utf8'));
  });
});
