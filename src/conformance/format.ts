/**
 * Text rendering of a conformance report: one line per task, then the summary line
 * `conformance: N/M tasks identical`.
 */
import { excerptAt } from './compare.js';
import type { ConformanceReport, TaskConformance } from './run.js';

const short = (h: string) => h.slice(0, 12);
const quote = (s: string) => JSON.stringify(s);

/** What differs in one task, as clauses (empty when identical). */
export function taskProblems(t: TaskConformance): string[] {
  if (t.setupError) return [`not replayed: ${t.setupError}`];
  const out: string[] = [];
  if (t.initialHash && !t.initialHash.ok) out.push(`initial hash ${short(t.initialHash.got)} != reference ${short(t.initialHash.expected)}`);
  const bad = t.actions.filter((a) => !a.ok);
  if (bad.length) {
    const a = bad[0];
    let what: string;
    if (a.firstDiff < 0) what = `error flag ${a.got.error} != reference ${a.expected.error}`;
    else
      what = `output differs at char ${a.firstDiff}: expected ${quote(excerptAt(a.expected.output, a.firstDiff))}, got ${quote(excerptAt(a.got.output, a.firstDiff))}`;
    out.push(`action ${a.index} ${a.name}: ${what}${bad.length > 1 ? ` (+${bad.length - 1} more actions differ)` : ''}`);
  }
  if (t.diff && !t.diff.ok) {
    const first = t.diff.missing[0] ?? t.diff.extra[0];
    out.push(`diff mismatch: ${t.diff.missing.length} missing, ${t.diff.extra.length} extra (first: ${t.diff.missing.length ? 'missing' : 'extra'} ${first.op} ${first.path})`);
  }
  if (t.finalHash && !t.finalHash.ok) out.push(`final hash ${short(t.finalHash.got)} != reference ${short(t.finalHash.expected)}`);
  if (t.initialUserHash && !t.initialUserHash.ok) out.push(`initial user-DB hash ${short(t.initialUserHash.got)} != reference ${short(t.initialUserHash.expected)}`);
  if (t.userDiff && !t.userDiff.ok) {
    const first = t.userDiff.missing[0] ?? t.userDiff.extra[0];
    out.push(`user-DB diff mismatch: ${t.userDiff.missing.length} missing, ${t.userDiff.extra.length} extra (first: ${t.userDiff.missing.length ? 'missing' : 'extra'} ${first.op} ${first.path})`);
  }
  if (t.finalUserHash && !t.finalUserHash.ok) out.push(`final user-DB hash ${short(t.finalUserHash.got)} != reference ${short(t.finalUserHash.expected)}`);
  return out;
}

/** One line per task. */
export function taskLine(t: TaskConformance): string {
  const problems = taskProblems(t);
  const n = t.actions.length;
  return `task ${t.task_id}: ${problems.length ? `DIFFERS — ${problems.join('; ')}` : `ok (${n} action${n === 1 ? '' : 's'})`}`;
}

/** The whole report as text, ending with the summary line. */
export function conformanceText(r: ConformanceReport): string {
  return [...r.tasks.map(taskLine), `conformance: ${r.identical}/${r.total} tasks identical`].join('\n') + '\n';
}
