/**
 * Stored episodes as the viewer shows them, from their run-log records (src/spec/run-log.ts,
 * read by src/store/run-log.ts). The evaluation's kind decides the checks: a task evaluation's own
 * checks and rubric; a campaign case's verdict as two checks (the transfer decision and the
 * judge's verdict); an optimiser rollout's dimensions and critical violations. An episode without
 * an evaluation still shows its transcript.
 */
import { explainScore } from './score-explained.js';
import type { EpisodeOutline } from '../store/store.js';
import { RECORD_PATHS, type StoredEpisode } from '../store/run-log.js';
import {
  CaseEvaluationRecordSchema,
  RolloutEvaluationRecordSchema,
  TaskEvaluationRecordSchema,
  type CaseEvaluationRecord,
  type EpisodeRunLog,
  type RolloutEvaluationRecord,
  type TaskEvaluationRecord,
} from '../spec/run-log.js';
import { checkCounts, countedFailures, type CountingTask } from '../evaluation/counted.js';
import type { TaskEvaluation } from '../evaluation/types.js';
import { outcomeOf } from './matrix.js';
import { buildTranscript } from './transcript.js';
import { episodeExtras } from './episode-extras.js';
import type { Searchable } from './search.js';
import type { CheckView, EpisodeDetail, EpisodeOutlineView, FieldDiffView, RubricView, TaskInfoResolver } from './types.js';

/** Record paths picked to outline a run (see `RunStore.episodeOutlines`). */
export const OUTLINE_PATHS = {
  checks: RECORD_PATHS.checks,
  reward_basis: RECORD_PATHS.reward_basis,
  rubric: RECORD_PATHS.rubric,
  infra_error: RECORD_PATHS.infra_error,
  harness_error: RECORD_PATHS.harness_error,
  evaluation_error: RECORD_PATHS.evaluation_error,
  case_result: RECORD_PATHS.case_result,
  dimensions: RECORD_PATHS.dimensions,
  critical: RECORD_PATHS.critical,
} as const;

type Check = Omit<CheckView, 'weight' | 'weight_label' | 'counts'>;
type CaseResult = CaseEvaluationRecord['result'];

const text = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : JSON.stringify(v));

const verdictOf = (v: unknown): CheckView['verdict'] => (v === 'pass' || v === 'fail' ? v : 'not_judged');

/** The two checks a campaign case's verdict rests on. */
function caseChecks(c: CaseResult): Check[] {
  const decided = c.transferred === c.should_transfer;
  const reason = c.transfer_reason ? ` (transfer reason: ${c.transfer_reason})` : '';
  const checks: Check[] = [{ id: 'transfer_decision', kind: 'transfer', verdict: decided ? 'pass' : 'fail', evidence: `${c.note}${reason}`, diff: [] }];
  if (c.handled !== null) checks.push({ id: 'llm_judge', kind: 'nl_judge', verdict: c.handled ? 'pass' : 'fail', evidence: text(c.judge_reason), diff: [] });
  return checks;
}

/** The checks of an optimiser rollout: one per judged dimension, and its critical violations. */
function rolloutChecks(dimensions: RolloutEvaluationRecord['dimensions'], critical: string[]): Check[] {
  const checks: Check[] = Object.entries(dimensions).map(([name, d]) => ({
    id: name,
    kind: 'dimension',
    verdict: verdictOf(d.verdict),
    evidence: `${text(d.evidence)}${d.quote ? ` — "${d.quote}"` : ''}`,
    diff: [],
  }));
  checks.push({ id: 'critical', kind: 'critical', verdict: critical.length ? 'fail' : 'pass', evidence: critical.length ? critical.join('; ') : 'no critical violation', diff: [] });
  return checks;
}

const PickedTaskEvaluation = TaskEvaluationRecordSchema.pick({ checks: true, reward_basis: true, rubric: true });

/** The parts of a stored task evaluation (or of its {@link EpisodeDetail}) that decide which checks count. */
type CheckedEvaluation = {
  checks: readonly { id: string; kind: string; verdict: CheckView['verdict'] }[];
  reward_basis: readonly string[];
  rubric: readonly { checks: readonly string[] }[];
};

/** An outline's checks that did not pass, split by whether they count (see {@link checkLists}). */
type CheckLists = Pick<EpisodeOutlineView, 'failed_checks' | 'diagnostic_checks'>;

/**
 * The checks of a task evaluation that did not pass, split as the CLI's reports split them
 * (src/evaluation/counted.ts): `failed_checks` are the failed checks that count towards the reward
 * or partial score ({@link countedFailures}); `diagnostic_checks` the failed checks that count
 * towards neither ({@link checkCounts}), e.g. `tau2_action` outside strict mode (an unjudged NL
 * assertion outside the basis is no finding, so it is in neither list). `task` supplies the
 * servicegym `zero_if_failed` ids when it is known; without it those checks count only through
 * the rubric.
 */
export function checkLists(ev: CheckedEvaluation, task?: CountingTask): CheckLists {
  const evaluation = ev as unknown as Pick<TaskEvaluation, 'checks' | 'reward_basis' | 'rubric'>;
  return {
    failed_checks: countedFailures(evaluation, task).map((c) => c.id),
    diagnostic_checks: evaluation.checks.filter((c) => c.verdict === 'fail' && !checkCounts(c, evaluation, task)).map((c) => c.id),
  };
}

/** Checks of an outline that did not pass (values picked with {@link OUTLINE_PATHS}); campaign and optimiser checks all count. */
function outlineChecks(extracted: Record<string, unknown>): CheckLists {
  const failed = (checks: { id: string; verdict: string }[]) => ({ failed_checks: checks.filter((c) => c.verdict === 'fail').map((c) => c.id), diagnostic_checks: [] });
  const ev = PickedTaskEvaluation.safeParse({ checks: extracted.checks, reward_basis: extracted.reward_basis, rubric: extracted.rubric });
  if (ev.success) return checkLists(ev.data);
  const c = CaseEvaluationRecordSchema.shape.result.safeParse(extracted.case_result);
  if (c.success) return failed(caseChecks(c.data));
  const dims = RolloutEvaluationRecordSchema.shape.dimensions.safeParse(extracted.dimensions);
  const critical = RolloutEvaluationRecordSchema.shape.critical.safeParse(extracted.critical);
  if (dims.success) return failed(rolloutChecks(dims.data, critical.success ? critical.data : []));
  return { failed_checks: [], diagnostic_checks: [] };
}

/** The values {@link OUTLINE_PATHS} picks, taken from a whole record. */
export function extractOutline(r: EpisodeRunLog): Record<string, unknown> {
  const ev = r.evaluation;
  return {
    checks: ev?.kind === 'task' ? ev.checks : null,
    reward_basis: ev?.kind === 'task' ? ev.reward_basis : null,
    rubric: ev?.kind === 'task' ? ev.rubric : null,
    infra_error: r.termination.infra_error,
    harness_error: r.termination.harness_error ?? null,
    evaluation_error: r.evaluation_error,
    case_result: ev?.kind === 'case' ? ev.result : null,
    dimensions: ev?.kind === 'rollout' ? ev.dimensions : null,
    critical: ev?.kind === 'rollout' ? ev.critical : null,
  };
}

/**
 * One matrix cell from an outline picked with {@link OUTLINE_PATHS}. An episode left out of the
 * scores (`error`) has no reward, partial score or failed checks here, as in the CLI's reports:
 * what the evaluator made of its cut-short trajectory stays in the store, not in the outline.
 */
export function outlineView(o: EpisodeOutline): EpisodeOutlineView {
  const error = o.extracted.infra_error ? 'infra' : o.extracted.harness_error ? 'harness' : o.extracted.evaluation_error ? 'evaluation' : null;
  return {
    episode_id: o.episode_id,
    task_id: o.task_id,
    trial: o.trial,
    label: o.label,
    reward: error ? null : o.reward,
    partial: error ? null : o.partial,
    termination: o.termination,
    ...(error ? { failed_checks: [], diagnostic_checks: [] } : outlineChecks(o.extracted)),
    error,
    outcome: outcomeOf(o.reward, o.partial, error),
  };
}

function diffView(list: readonly FieldDiffView[] | undefined): FieldDiffView[] {
  return (list ?? []).map((d) => ({ path: d.path, op: d.op, before: d.before, after: d.after }));
}

/** Each check with the rubric points that depend on it; `counts` tells whether it counts (default: every check does). */
function weigh(checks: Check[], rubric: RubricView[], basis: string[], counts: (c: Check) => boolean = () => true): CheckView[] {
  return checks.map((c) => {
    const items = rubric.filter((r) => r.checks.includes(c.id));
    const weight = items.length ? items.reduce((s, r) => s + r.weight, 0) : null;
    const parts = items.map((r) => `${r.weight} (${r.id})`);
    if (basis.includes(c.kind)) parts.push('in the tau2 reward');
    return { ...c, weight, weight_label: parts.length ? parts.join(', ') : 'diagnostic', counts: counts(c) };
  });
}

/** Whether `check` of the task evaluation `ev` counts ({@link checkCounts}); `task` supplies its `zero_if_failed` ids when known. */
function countsIn(ev: CheckedEvaluation, task?: CountingTask): (check: { id: string; kind: string }) => boolean {
  const evaluation = ev as unknown as Pick<TaskEvaluation, 'reward_basis' | 'rubric'>;
  return (check) => checkCounts(check as TaskEvaluation['checks'][number], evaluation, task);
}

type Parts = Pick<EpisodeDetail, 'checks' | 'rubric' | 'reward_basis' | 'reward_breakdown' | 'db_diff' | 'facts'>;

function taskRunParts(ev: TaskEvaluationRecord, failure: EpisodeRunLog['termination']['failure']): Parts {
  const rubric: RubricView[] = ev.rubric.map((x) => ({ ...x, checks: [...x.checks] }));
  const checks = ev.checks.map((c) => ({ id: c.id, kind: c.kind, verdict: c.verdict, evidence: c.evidence, diff: diffView(c.diff) }));
  const facts = ev.not_judged ? [{ name: 'not judged', value: 'some checks needed a judge; scores are lower bounds' }] : [];
  if (ev.strict === true) facts.push({ name: 'strict', value: `evaluated in strict mode${ev.flags?.length ? `; flagged: ${ev.flags.join(', ')}` : ''}` });
  if (failure) {
    facts.push({ name: `${failure.by} failure (${failure.kind})`, value: failure.message });
    (failure.raw ?? []).forEach((body, i) => facts.push({ name: `raw response ${i + 1}`, value: JSON.stringify(body) }));
  }
  return { checks: weigh(checks, rubric, ev.reward_basis, countsIn(ev)), rubric, reward_basis: [...ev.reward_basis], reward_breakdown: { ...ev.reward_breakdown }, db_diff: diffView(ev.db_diff), facts };
}

const factsOf = (pairs: [string, unknown][]) =>
  pairs.filter(([, v]) => v !== undefined && v !== null).map(([name, v]) => ({ name, value: text(v) }));

function campaignParts(c: CaseResult): Parts {
  const checks = caseChecks(c);
  const rubric: RubricView[] = [{ id: 'case', weight: 100, description: c.rubric, verdict: c.correct ? 'pass' : 'fail', checks: checks.map((x) => x.id) }];
  const facts = factsOf([
    ['group', c.group],
    ['should transfer', c.should_transfer],
    ['transferred', c.transferred],
    ['verdict', c.note],
    ['tool calls', c.tool_calls.join(', ')],
  ]);
  return { checks: weigh(checks, rubric, []), rubric, reward_basis: [], reward_breakdown: {}, db_diff: [], facts };
}

function rolloutParts(ev: RolloutEvaluationRecord, seed: number | null): Parts {
  const facts = factsOf([
    ['valid', ev.valid],
    ['seed', seed],
  ]);
  return { checks: weigh(rolloutChecks(ev.dimensions, ev.critical), [], []), rubric: [], reward_basis: [], reward_breakdown: {}, db_diff: [], facts };
}

function partsOf(r: EpisodeRunLog): Parts {
  const ev = r.evaluation;
  if (ev?.kind === 'task') return taskRunParts(ev, r.termination.failure);
  if (ev?.kind === 'case') return campaignParts(ev.result);
  if (ev?.kind === 'rollout') return rolloutParts(ev, r.seeds.episode);
  return { checks: [], rubric: [], reward_basis: [], reward_breakdown: {}, db_diff: [], facts: [] };
}

/** Everything the episode page shows, from a stored episode and its place in the run. */
export function episodeDetail(
  episode: StoredEpisode,
  run: EpisodeDetail['run'],
  outline: EpisodeOutlineView,
  position: EpisodeDetail['position'],
): EpisodeDetail {
  const r = episode.record;
  const infra = r.termination.infra_error;
  return {
    run,
    episode: outline,
    position,
    transcript: buildTranscript(r.messages, r.tool_calls, infra),
    ...partsOf(r),
    errors: { infra, harness: r.termination.harness_error ?? null, evaluation: r.evaluation_error },
    usage: Object.keys(r.usage).length ? r.usage : null,
    ...episodeExtras(r),
    score_explained: r.evaluation?.kind === 'task' ? explainScore(r.evaluation, r.termination.reason) : null,
  };
}

/**
 * What the text search reads of a stored episode (src/viewer/search.ts): its task id and label
 * (the store's columns, as the matrix shows them), its transcript and its checks, built as
 * {@link episodeDetail} builds them, without the rest of the episode page.
 */
export function searchableOf(episode: StoredEpisode, outline: Pick<EpisodeOutlineView, 'task_id' | 'label'>): Searchable {
  const r = episode.record;
  return { episode: outline, transcript: buildTranscript(r.messages, r.tool_calls, r.termination.infra_error), checks: checkTexts(r) };
}

/** The ids and evidence of the checks {@link partsOf} lists, in its order, without weighing them against the rubric. */
function checkTexts(r: EpisodeRunLog): Pick<Check, 'id' | 'evidence'>[] {
  const ev = r.evaluation;
  if (ev?.kind === 'task') return ev.checks.map((c) => ({ id: c.id, evidence: c.evidence }));
  if (ev?.kind === 'case') return caseChecks(ev.result);
  if (ev?.kind === 'rollout') return rolloutChecks(ev.dimensions, ev.critical);
  return [];
}

/**
 * `detail` with its task from `resolve` (when there is a resolver, a domain and such a task). A
 * task evaluation's failed and diagnostic checks (and each check's `counts`) are split again with
 * the task's `zero_if_failed` ids ({@link checkLists}), which the run log does not store.
 */
export function withTask(detail: EpisodeDetail, resolve?: TaskInfoResolver): EpisodeDetail {
  const domain = detail.run.domain;
  const task = resolve && domain ? resolve(domain, detail.episode.task_id) : null;
  if (!task?.zero_if_failed?.length || !detail.score_explained) return { ...detail, task };
  const counting = { servicegym: { zero_if_failed: task.zero_if_failed } };
  const counts = countsIn(detail, counting);
  const checks = detail.checks.map((c) => ({ ...c, counts: counts(c) }));
  // An episode left out of the scores lists no check (outlineView).
  return { ...detail, task, checks, episode: detail.episode.error ? detail.episode : { ...detail.episode, ...checkLists(detail, counting) } };
}
