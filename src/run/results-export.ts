/**
 * Per-episode results for pipelines (issue 18, item 9): `-o results.jsonl | .csv | .xml` on
 * `run`, `validate` and `evaluate`. The format follows the file's extension.
 *
 * One result per episode, with snake_case keys (`task_id`, `trial`, `persona`, `termination`,
 * `reward`, `partial`, `status`, `failing_checks`, `not_judged_checks`, `error`; the check lists
 * hold only checks that count towards the reward or partial score, src/evaluation/counted.ts). `status`:
 * - `passed`: reward 1;
 * - `not_judged`: the reward is unknown (an NL assertion without a judge) — never a pass; its
 *   partial score is a lower bound;
 * - `failed`: a reward below 1;
 * - `error`: no score (an infrastructure, harness or evaluation error; left out of the run's
 *   scores, as in the summary): `reward` and `partial` are null and no check is listed, whatever
 *   the evaluator made of the cut-short trajectory (the store keeps that as it is);
 * - `not_started`: a planned episode of a run that stopped before it started (Ctrl-C, SIGTERM,
 *   `--max-cost`; `run --resume` runs it): `termination`, `reward`, `partial` and `seconds` null,
 *   no check listed, `error` saying why it did not start and how to continue the run. A complete
 *   run has none, and its file is as it was before this status existed.
 *
 * JUnit XML (the Jenkins / Ant shape CI systems read, `junit-10.xsd`): one `<testsuites>` with one
 * `<testsuite>` (name = the run id), one `<testcase>` per episode (`classname` = the suite name,
 * `name` = `task_id#trial` plus the persona), a `<failure>` for `failed`, an `<error>` for `error`
 * and a `<skipped>` for `not_judged` and `not_started` (its message says why the run stopped and
 * how to continue it), both counted in the suite's `skipped` (the schema allows no `skipped` on
 * `<testsuites>`); `time` in seconds (the episode's model latency when known).
 */
import fs from 'node:fs';
import path from 'node:path';
import { BadInputError } from '../spec/errors.js';
import { isScored, type EpisodeReportRow } from './report-rows.js';
import { countedNotPassed } from '../evaluation/counted.js';
import { cleanFloat } from '../util/round.js';

/** The output formats, by file extension. */
export type ResultsFormat = 'jsonl' | 'csv' | 'junit';

const FORMATS: Readonly<Record<string, ResultsFormat>> = { '.jsonl': 'jsonl', '.csv': 'csv', '.xml': 'junit' };

/** The format of `file` by its extension; throws BadInputError for another extension. */
export function resultsFormatOf(file: string): ResultsFormat {
  const f = FORMATS[path.extname(file).toLowerCase()];
  if (!f) throw new BadInputError(`-o/--output: expected a file ending in .jsonl, .csv or .xml (JUnit), got '${file}'`);
  return f;
}

/**
 * The format of `file` (see {@link resultsFormatOf}) once `file` is known to be writable: not a
 * folder, no file in the way of its folders, the nearest existing folder writable. Checked before
 * any episode runs, so that a long run or evaluation does not end on an unwritable results file.
 * @throws BadInputError naming the path and what is in the way.
 */
export function writableResultsFormat(file: string): ResultsFormat {
  const format = resultsFormatOf(file);
  const target = path.resolve(file);
  const refuse = (why: string) => new BadInputError(`-o/--output: cannot write '${file}': ${why}`);
  // Missing, or under a file (ENOTDIR): undefined.
  const statOf = (p: string) => {
    try {
      return fs.statSync(p);
    } catch {
      return undefined;
    }
  };
  if (statOf(target)?.isDirectory()) throw refuse('it is a folder, a file was expected');
  let dir = path.dirname(target);
  let st = statOf(dir);
  while (!st && path.dirname(dir) !== dir) st = statOf((dir = path.dirname(dir)));
  if (st && !st.isDirectory()) throw refuse(`${dir} is a file, a folder was expected`);
  try {
    fs.accessSync(fs.existsSync(target) ? target : dir, fs.constants.W_OK);
  } catch {
    throw refuse('not writable');
  }
  return format;
}

/** One episode's result (see the module doc). */
export interface EpisodeResultLine {
  task_id: string;
  trial: number;
  persona: string | null;
  /** How the episode ended; null for one that did not start. */
  termination: string | null;
  reward: number | null;
  partial: number | null;
  status: 'passed' | 'failed' | 'not_judged' | 'error' | 'not_started';
  failing_checks: string[];
  not_judged_checks: string[];
  error: string | null;
  /** Model latency of the episode in seconds, when known. */
  seconds: number | null;
}

/** The result line of a report row; `seconds`: the episode's model latency, if known. */
export function resultLineOf(r: EpisodeReportRow, seconds: number | null = null): EpisodeResultLine {
  const ev = isScored(r) ? r.evaluation : null;
  const error = r.harnessError ? `harness error: ${r.harnessError}` : r.infraError ? `infrastructure error: ${r.infraError}` : r.evaluationError ? `evaluation error: ${r.evaluationError}` : !ev ? 'not evaluated' : null;
  const status: EpisodeResultLine['status'] = error || !ev ? 'error' : ev.reward === null ? 'not_judged' : ev.reward === 1 ? 'passed' : 'failed';
  const listed = ev ? countedNotPassed(ev, r.task) : [];
  return {
    task_id: r.taskId,
    trial: r.trial,
    persona: r.persona ?? null,
    termination: r.termination,
    reward: ev?.reward == null ? null : cleanFloat(ev.reward),
    partial: ev ? cleanFloat(ev.partial) : null,
    status,
    failing_checks: listed.filter((c) => c.verdict === 'fail').map((c) => c.id),
    not_judged_checks: listed.filter((c) => c.verdict === 'not_judged').map((c) => c.id),
    error,
    seconds: seconds === null ? null : Math.round(seconds * 1000) / 1000,
  };
}

/**
 * The result line of a planned episode that never started because its run stopped (status
 * `not_started`, see the module doc); `message` (its `error`, and its JUnit `<skipped>` message)
 * says why and how to continue, e.g. `not started: the run stopped (REASON); continue with --resume RUN_ID`.
 */
export function notStartedLine(e: { taskId: string; trial: number; persona: string | null }, message: string): EpisodeResultLine {
  return { task_id: e.taskId, trial: e.trial, persona: e.persona, termination: null, reward: null, partial: null, status: 'not_started', failing_checks: [], not_judged_checks: [], error: message, seconds: null };
}

/** JSON Lines: one object per episode. */
export function toJsonl(lines: readonly EpisodeResultLine[]): string {
  return lines.map((l) => JSON.stringify(l)).join('\n') + (lines.length ? '\n' : '');
}

const CSV_COLUMNS: (keyof EpisodeResultLine)[] = ['task_id', 'trial', 'persona', 'termination', 'reward', 'partial', 'status', 'failing_checks', 'not_judged_checks', 'error', 'seconds'];

/**
 * RFC 4180 field: quoted when it holds a comma, quote, CR or LF; lists joined by `;`. Text that a
 * spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR) gets a leading
 * `'`, and control characters other than CR, LF and tab are dropped; numbers are written as is.
 */
function csvField(v: unknown): string {
  if (typeof v === 'number') return String(v);
  let s = v === null || v === undefined ? '' : Array.isArray(v) ? v.join(';') : String(v);
  s = s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '');
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV with a header row, CRLF line ends (RFC 4180). */
export function toCsv(lines: readonly EpisodeResultLine[]): string {
  return [CSV_COLUMNS.join(','), ...lines.map((l) => CSV_COLUMNS.map((c) => csvField(l[c])).join(','))].join('\r\n') + '\r\n';
}

/**
 * Text safe in XML 1.0 attributes and content: markup escaped, characters XML forbids dropped;
 * tab, CR and LF as character references, which parsers keep (a raw one in an attribute is read
 * back as a space, a raw CR in content as LF).
 */
export function xmlText(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\t/g, '&#9;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;');
}

const secondsText = (s: number | null) => (s === null ? '0' : s.toFixed(3));

/** Options of {@link toJunit}. */
export interface JunitOptions {
  /** The suite's name (the run id). */
  suite: string;
  /** The testcases' `classname` (e.g. `servicegym.<domain>`). */
  classname: string;
  /** ISO-8601 start time (`timestamp`, written without the zone as the schema's dateTime). */
  timestamp: string;
}

function testcase(l: EpisodeResultLine, classname: string): string {
  const name = `${l.task_id}#${l.trial}${l.persona ? ` (${l.persona})` : ''}`;
  const open = `    <testcase classname="${xmlText(classname)}" name="${xmlText(name)}" time="${secondsText(l.seconds)}"`;
  const detail = `termination: ${l.termination}; reward: ${l.status === 'error' ? 'not scored' : (l.reward ?? 'not judged')}; partial: ${l.partial === null ? 'n/a' : l.partial}`;
  if (l.status === 'passed') return `${open}/>`;
  if (l.status === 'not_started') return `${open}>\n      <skipped message="${xmlText(l.error ?? 'not started')}"/>\n    </testcase>`;
  let child: string;
  if (l.status === 'failed') child = `<failure type="reward" message="${xmlText(`reward ${l.reward}; failing checks: ${l.failing_checks.join(', ') || 'none'}`)}">${xmlText(detail)}</failure>`;
  else if (l.status === 'error') child = `<error type="error" message="${xmlText((l.error ?? 'error').slice(0, 500))}">${xmlText(detail)}</error>`;
  else child = `<skipped message="${xmlText(`not judged (no judge model): ${l.not_judged_checks.join(', ')}`)}"/>`;
  return `${open}>\n      ${child}\n    </testcase>`;
}

/** JUnit XML (see the module doc). */
export function toJunit(lines: readonly EpisodeResultLine[], o: JunitOptions): string {
  const n = (s: EpisodeResultLine['status']) => lines.filter((l) => l.status === s).length;
  const time = secondsText(lines.reduce((t, l) => t + (l.seconds ?? 0), 0));
  const counts = `tests="${lines.length}" failures="${n('failed')}" errors="${n('error')}"`;
  const stamp = o.timestamp.replace(/(\.\d+)?(Z|[+-]\d\d:\d\d)$/, '');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="servicegym" ${counts} time="${time}">`,
    `  <testsuite name="${xmlText(o.suite)}" ${counts} skipped="${n('not_judged') + n('not_started')}" time="${time}" timestamp="${xmlText(stamp)}">`,
    ...lines.map((l) => testcase(l, o.classname)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** The file's text in the format its extension names. */
export function resultsFileText(file: string, lines: readonly EpisodeResultLine[], junit: JunitOptions): string {
  const format = resultsFormatOf(file);
  return format === 'jsonl' ? toJsonl(lines) : format === 'csv' ? toCsv(lines) : toJunit(lines, junit);
}
