/**
 * Data lints: facts about a dataset's tasks that change what a reward means, reported before
 * anyone reads a score (issue 10, item 5). For tau2 retail at a2c0247: 112 tasks on
 * `[DB, NL_ASSERTION]`, 40 with NL assertions (a judge is needed), 36 whose `communicate_info`
 * is no longer counted (COMMUNICATE left the basis in tau2 1.0.0), transfers the reward does not
 * check, gold actions that fail in the gold replay, and the known-bad tasks with their reasons.
 * A pure function of the loaded dataset (the gold replays are cached per task).
 */
import type { LoadedDomain } from '../spec/domain.js';
import type { RewardBasis, Task } from '../spec/task.js';
import { replayGold } from './gold.js';
import { STRICT_TRANSFER_TOOLS, strictBasis } from './strict.js';

/** One lint rule's finding. `level`: `info` describes the data; `warn` means some reward can mislead. */
export interface LintFinding {
  rule: string;
  level: 'info' | 'warn';
  /** One line for people, e.g. `112 tasks on [DB, NL_ASSERTION]`. */
  summary: string;
  task_ids: string[];
  /** Per task detail where there is one (a reason, the failing gold actions). */
  details?: Record<string, string>;
}

/** A dataset's lint report. */
export interface LintReport {
  domain: string;
  mode: string;
  source: string;
  tasks: number;
  /** Present when the report describes strict evaluation (`--strict`: ACTION in every reward basis). */
  strict?: true;
  findings: LintFinding[];
}

const plural = (n: number, w = 'task') => `${n} ${w}${n === 1 ? '' : 's'}`;
const basisOf = (t: Task): RewardBasis[] => t.evaluation_criteria?.reward_basis ?? [];
const has = (t: Task, b: RewardBasis) => basisOf(t).includes(b);

function basisFindings(tasks: readonly Task[], strict: boolean): LintFinding[] {
  const groups = new Map<string, string[]>();
  for (const t of tasks) {
    const key = `[${(strict ? strictBasis(basisOf(t)) : basisOf(t)).join(', ')}]`;
    groups.set(key, [...(groups.get(key) ?? []), t.id]);
  }
  return [...groups.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([key, ids]) => ({ rule: 'reward_basis', level: 'info' as const, summary: `${plural(ids.length)} on ${key}`, task_ids: ids }));
}

function criteriaFindings(tasks: readonly Task[], transferTools: readonly string[], strict: boolean): LintFinding[] {
  const out: LintFinding[] = [];
  const add = (rule: string, level: 'info' | 'warn', text: (n: number) => string, pick: (t: Task) => boolean) => {
    const ids = tasks.filter(pick).map((t) => t.id);
    if (ids.length) out.push({ rule, level, summary: text(ids.length), task_ids: ids });
  };
  const nl = (t: Task) => (t.evaluation_criteria?.nl_assertions ?? []).length > 0;
  const ci = (t: Task) => (t.evaluation_criteria?.communicate_info ?? []).length > 0;
  const actions = (t: Task) => t.evaluation_criteria?.actions ?? [];
  add('nl_assertions', 'info', (n) => `${plural(n)} with NL assertions (judged only with --judge-model)`, (t) => nl(t) && has(t, 'NL_ASSERTION'));
  add('nl_assertions_not_counted', 'warn', (n) => `${plural(n)} with NL assertions not counted (NL_ASSERTION not in reward_basis)`, (t) => nl(t) && !has(t, 'NL_ASSERTION'));
  add('communicate_info_not_counted', 'warn', (n) => `${plural(n)} with communicate_info no longer counted (COMMUNICATE not in reward_basis)`, (t) => ci(t) && !has(t, 'COMMUNICATE'));
  const uncountedActions = (t: Task) => actions(t).length > 0 && !has(t, 'ACTION');
  const uncheckedTransfer = (t: Task) => !has(t, 'ACTION') && actions(t).some((a) => transferTools.includes(a.name));
  if (strict) {
    // Strict evaluation adds ACTION to every basis (src/evaluation/strict.ts): say what that counts.
    add('actions_counted_strict', 'info', (n) => `${plural(n)} whose gold actions count only under --strict (ACTION added to their reward_basis)`, uncountedActions);
    add('transfer_checked_strict', 'info', (n) => `${plural(n)} whose gold transfer --strict checks (a real transfer call is required; an agent that only says it transfers scores 0)`, uncheckedTransfer);
  } else {
    add('actions_not_counted', 'info', (n) => `${plural(n)} with gold actions not counted (ACTION not in reward_basis; --strict counts them)`, uncountedActions);
    add('transfer_not_checked', 'warn', (n) => `${plural(n)} whose gold requires a transfer the reward does not check (an agent that only says it transfers passes; --strict checks it)`, uncheckedTransfer);
  }
  return out;
}

async function goldErrorFinding(loaded: LoadedDomain<any>, tasks: readonly Task[]): Promise<LintFinding | null> {
  const env = { now: loaded.now ?? '1970-01-01T00:00:00Z', idSeed: '' };
  const writes = new Set(loaded.domain.tools.filter((t) => t.kind === 'write').map((t) => t.name));
  const details: Record<string, string> = {};
  let writesFailing = 0;
  for (const t of tasks) {
    const errors = (await replayGold(loaded.domain, t, env)).errors;
    if (!errors.length) continue;
    if (errors.some((e) => writes.has(e.name))) writesFailing++;
    details[t.id] = errors.map((e) => `${e.action_id} ${e.name}: ${e.output}`).join('; ');
  }
  const ids = Object.keys(details);
  if (!ids.length) return null;
  return {
    rule: 'gold_action_errors', level: 'warn', task_ids: ids, details,
    summary: `${plural(ids.length)} with gold actions that fail in the gold replay (${plural(writesFailing)} with a failing write; --strict does not require failing actions)`,
  };
}

function knownBadFindings(loaded: LoadedDomain<any>): LintFinding[] {
  const list = loaded.knownBadTasks ?? [];
  const live = list.filter((k) => !k.stale);
  const stale = list.filter((k) => k.stale);
  const out: LintFinding[] = [];
  if (live.length) out.push({ rule: 'known_bad', level: 'warn', summary: `${plural(live.length)} known bad: gold contradicts the scenario (--strict excludes them)`, task_ids: live.map((k) => k.id), details: Object.fromEntries(live.map((k) => [k.id, k.reason])) });
  if (stale.length) out.push({ rule: 'known_bad_stale', level: 'info', summary: `${plural(stale.length, 'known-bad entry')} no longer apply (task missing or changed since the audit)`, task_ids: stale.map((k) => k.id), details: Object.fromEntries(stale.map((k) => [k.id, k.stale!])) });
  return out;
}

/**
 * Lints the dataset's tasks (default: all of `loaded.tasks`): reward-basis groups, NL assertions,
 * uncounted `communicate_info` / NL assertions / gold actions, unchecked transfers, failing gold
 * actions, known-bad tasks. `transferTools` names the transfer tools (default tau2's). With
 * `strict` the report describes strict evaluation: the basis groups include ACTION, and the gold
 * actions and transfers the declared basis leaves out are reported as what `--strict` counts.
 */
export async function lintDataset(loaded: LoadedDomain<any>, opts: { tasks?: readonly Task[]; transferTools?: readonly string[]; strict?: boolean } = {}): Promise<LintReport> {
  const tasks = opts.tasks ?? loaded.tasks;
  const strict = opts.strict === true;
  const findings = [...basisFindings(tasks, strict), ...criteriaFindings(tasks, opts.transferTools ?? STRICT_TRANSFER_TOOLS, strict)];
  const gold = await goldErrorFinding(loaded, tasks);
  if (gold) findings.push(gold);
  findings.push(...knownBadFindings(loaded));
  findings.push(...(loaded.lints?.(tasks) ?? []));
  return { domain: loaded.domain.name, mode: loaded.mode, source: loaded.source, tasks: tasks.length, ...(strict ? { strict: true as const } : {}), findings };
}

/** The report as text: a header, then one line per finding with its task ids (and details when `verbose`). */
export function formatLintReport(r: LintReport, verbose = false): string {
  const lines = [`lint: ${r.domain} (${r.mode} dataset, ${r.source}): ${plural(r.tasks)}${r.strict ? ' (strict: ACTION counted in every reward)' : ''}`];
  for (const f of r.findings) {
    const ids = f.task_ids.length > 20 ? `${f.task_ids.slice(0, 20).join(', ')}, …` : f.task_ids.join(', ');
    lines.push(`  ${f.level === 'warn' ? '!' : '-'} ${f.summary}: ${ids}`);
    if (f.details && (verbose || f.rule === 'known_bad')) for (const [id, d] of Object.entries(f.details)) lines.push(`      ${id}: ${d}`);
  }
  return lines.join('\n');
}
