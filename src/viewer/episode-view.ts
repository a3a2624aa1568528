/**
 * Stored episodes as the viewer shows them. Three stored shapes are read, by shape and never by
 * domain: a task run's (`{messages, tool_log, evaluation, evaluation_error, infra_error, usage}`,
 * src/run/task-run.ts); a campaign case's (`{result, messages, tool_log}`,
 * src/campaign/persist.ts), whose verdict becomes two checks (the transfer decision and the
 * judge's verdict); an optimiser rollout's (`{messages, dimensions, critical, valid,
 * infra_error}`), whose dimensions and critical violations become checks. Any other result
 * still shows its transcript.
 */
import type { EpisodeOutline, EpisodeRow } from '../store/store.js';
import { outcomeOf } from './matrix.js';
import { buildTranscript } from './transcript.js';
import type { CheckView, EpisodeDetail, EpisodeOutlineView, FieldDiffView, RubricView } from './types.js';

type Loose = Record<string, any>;

/** JSON paths picked out of each result to outline a run (see `RunStore.episodeOutlines`). */
export const OUTLINE_PATHS = {
  checks: '$.evaluation.checks',
  infra_error: '$.infra_error',
  evaluation_error: '$.evaluation_error',
  case_result: '$.result',
  dimensions: '$.dimensions',
  critical: '$.critical',
} as const;

const text = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : JSON.stringify(v));

const verdictOf = (v: unknown): CheckView['verdict'] => (v === 'pass' || v === 'fail' ? v : 'not_judged');

/** The two checks a campaign case's verdict rests on. */
function caseChecks(c: Loose): Omit<CheckView, 'weight' | 'weight_label'>[] {
  const decided = c.transferred === c.should_transfer;
  const reason = c.transfer_reason ? ` (transfer reason: ${text(c.transfer_reason)})` : '';
  const checks: Omit<CheckView, 'weight' | 'weight_label'>[] = [
    { id: 'transfer_decision', kind: 'transfer', verdict: decided ? 'pass' : 'fail', evidence: `${text(c.note)}${reason}`, diff: [] },
  ];
  if (c.handled !== null && c.handled !== undefined) {
    checks.push({ id: 'llm_judge', kind: 'nl_judge', verdict: c.handled ? 'pass' : 'fail', evidence: text(c.judge_reason), diff: [] });
  }
  return checks;
}

/** The checks of an optimiser rollout: one per judged dimension, and its critical violations. */
function rolloutChecks(dimensions: Loose, critical: unknown): Omit<CheckView, 'weight' | 'weight_label'>[] {
  const checks: Omit<CheckView, 'weight' | 'weight_label'>[] = Object.entries(dimensions).map(([name, d]) => ({
    id: name,
    kind: 'dimension',
    verdict: verdictOf((d as Loose)?.verdict),
    evidence: `${text((d as Loose)?.evidence)}${(d as Loose)?.quote ? ` — "${text((d as Loose).quote)}"` : ''}`,
    diff: [],
  }));
  if (Array.isArray(critical)) {
    checks.push({ id: 'critical', kind: 'critical', verdict: critical.length ? 'fail' : 'pass', evidence: critical.length ? critical.map(text).join('; ') : 'no critical violation', diff: [] });
  }
  return checks;
}

/** Ids of the failed checks of an outline (any stored shape). */
function failedChecks(extracted: Loose): string[] {
  const failed = (checks: { id: string; verdict: string }[]) => checks.filter((c) => c.verdict === 'fail').map((c) => text(c.id));
  if (Array.isArray(extracted.checks)) return failed(extracted.checks as { id: string; verdict: string }[]);
  if (extracted.case_result && typeof extracted.case_result === 'object') return failed(caseChecks(extracted.case_result));
  if (extracted.dimensions && typeof extracted.dimensions === 'object') return failed(rolloutChecks(extracted.dimensions, extracted.critical));
  return [];
}

/** The values {@link OUTLINE_PATHS} picks, taken from a whole stored result. */
export function extractOutline(result: unknown): Record<string, unknown> {
  const r = (result ?? {}) as Loose;
  return {
    checks: r.evaluation?.checks ?? null,
    infra_error: r.infra_error ?? null,
    evaluation_error: r.evaluation_error ?? null,
    case_result: r.result ?? null,
    dimensions: r.dimensions ?? null,
    critical: r.critical ?? null,
  };
}

/** One matrix cell from an outline picked with {@link OUTLINE_PATHS}. */
export function outlineView(o: EpisodeOutline): EpisodeOutlineView {
  const error = o.extracted.infra_error ? 'infra' : o.extracted.evaluation_error ? 'evaluation' : null;
  return {
    episode_id: o.episode_id,
    task_id: o.task_id,
    trial: o.trial,
    label: o.label,
    reward: o.reward,
    partial: o.partial,
    termination: o.termination,
    failed_checks: failedChecks(o.extracted),
    error,
    outcome: outcomeOf(o.reward, o.partial, error),
  };
}

function diffView(list: unknown): FieldDiffView[] {
  return Array.isArray(list) ? (list as Loose[]).map((d) => ({ path: text(d.path), op: d.op, before: d.before, after: d.after })) : [];
}

/** Each check with the rubric points that depend on it. */
function weigh(checks: Omit<CheckView, 'weight' | 'weight_label'>[], rubric: RubricView[], basis: string[]): CheckView[] {
  return checks.map((c) => {
    const items = rubric.filter((r) => r.checks.includes(c.id));
    const weight = items.length ? items.reduce((s, r) => s + r.weight, 0) : null;
    const parts = items.map((r) => `${r.weight} (${r.id})`);
    if (basis.includes(c.kind)) parts.push('in the tau2 reward');
    return { ...c, weight, weight_label: parts.length ? parts.join(', ') : 'diagnostic' };
  });
}

function taskRunParts(r: Loose): Pick<EpisodeDetail, 'checks' | 'rubric' | 'reward_basis' | 'reward_breakdown' | 'db_diff' | 'facts'> {
  const ev = (r.evaluation ?? {}) as Loose;
  const rubric: RubricView[] = (Array.isArray(ev.rubric) ? (ev.rubric as Loose[]) : []).map((x) => ({
    id: text(x.id),
    weight: Number(x.weight) || 0,
    description: text(x.description),
    verdict: verdictOf(x.verdict),
    checks: Array.isArray(x.checks) ? x.checks.map(text) : [],
  }));
  const basis: string[] = Array.isArray(ev.reward_basis) ? ev.reward_basis.map(text) : [];
  const checks = (Array.isArray(ev.checks) ? (ev.checks as Loose[]) : []).map((c) => ({
    id: text(c.id),
    kind: text(c.kind),
    verdict: verdictOf(c.verdict),
    evidence: text(c.evidence),
    diff: diffView(c.diff),
  }));
  const facts = ev.not_judged ? [{ name: 'not judged', value: 'some checks needed a judge; scores are lower bounds' }] : [];
  if (ev.strict === true) facts.push({ name: 'strict', value: `evaluated in strict mode${Array.isArray(ev.flags) && ev.flags.length ? `; flagged: ${ev.flags.map(text).join(', ')}` : ''}` });
  const failure = r.failure as Loose | undefined;
  if (failure && typeof failure === 'object') {
    facts.push({ name: `${text(failure.by)} failure (${text(failure.kind)})`, value: text(failure.message) });
    if (Array.isArray(failure.raw)) failure.raw.forEach((body, i) => facts.push({ name: `raw response ${i + 1}`, value: JSON.stringify(body) }));
  }
  return { checks: weigh(checks, rubric, basis), rubric, reward_basis: basis, reward_breakdown: (ev.reward_breakdown ?? {}) as Record<string, number | null>, db_diff: diffView(ev.db_diff), facts };
}

function campaignParts(c: Loose): Pick<EpisodeDetail, 'checks' | 'rubric' | 'reward_basis' | 'reward_breakdown' | 'db_diff' | 'facts'> {
  const checks = caseChecks(c);
  const rubric: RubricView[] = [{ id: 'case', weight: 100, description: text(c.rubric), verdict: c.correct ? 'pass' : 'fail', checks: checks.map((x) => x.id) }];
  const facts = [
    ['group', c.group],
    ['should transfer', c.should_transfer],
    ['transferred', c.transferred],
    ['verdict', c.note],
    ['tool calls', Array.isArray(c.tool_calls) ? c.tool_calls.join(', ') : c.tool_calls],
  ]
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([name, v]) => ({ name: String(name), value: text(v) }));
  return { checks: weigh(checks, rubric, []), rubric, reward_basis: [], reward_breakdown: {}, db_diff: [], facts };
}

function rolloutParts(r: Loose): Pick<EpisodeDetail, 'checks' | 'rubric' | 'reward_basis' | 'reward_breakdown' | 'db_diff' | 'facts'> {
  const checks = rolloutChecks(r.dimensions as Loose, r.critical);
  const facts = [
    ['valid', r.valid],
    ['seed', r.seed],
  ]
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([name, v]) => ({ name: String(name), value: text(v) }));
  return { checks: weigh(checks, [], []), rubric: [], reward_basis: [], reward_breakdown: {}, db_diff: [], facts };
}

/** Everything the episode page shows, from a stored episode and its place in the run. */
export function episodeDetail(
  row: EpisodeRow,
  run: EpisodeDetail['run'],
  outline: EpisodeOutlineView,
  position: EpisodeDetail['position'],
): EpisodeDetail {
  const r = (row.result ?? {}) as Loose;
  const infra = r.infra_error ? text(r.infra_error) : null;
  const evaluation = r.evaluation_error ? text(r.evaluation_error) : null;
  const parts = r.evaluation
    ? taskRunParts(r)
    : r.result && typeof r.result === 'object'
      ? campaignParts(r.result as Loose)
      : r.dimensions && typeof r.dimensions === 'object'
        ? rolloutParts(r)
        : { checks: [], rubric: [], reward_basis: [], reward_breakdown: {}, db_diff: [], facts: [] };
  return {
    run,
    episode: outline,
    position,
    transcript: buildTranscript(r.messages, r.tool_log, infra),
    ...parts,
    errors: { infra, evaluation },
    usage: r.usage ?? null,
  };
}
