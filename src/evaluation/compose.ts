/**
 * Composition: one episode's full evaluation — the tau2 reward (product over `reward_basis`, 0 on
 * premature termination), every tau2 component as a diagnostic, the servicegym checks, and the
 * partial-credit score with its rubric breakdown.
 */
import type { LoadedDomain } from '../spec/domain.js';
import type { Check, RewardBasis, Task } from '../spec/task.js';
import type { FieldDiff, StateOps } from '../spec/state.js';
import type { ChatModel } from '../models/chat-model.js';
import { plainStateOps } from '../env/plain-state.js';
import { actionComponent } from './actions.js';
import { personaApplies, runCheck, stateOnlyCheckKinds } from './checks/index.js';
import { applyRuleVotes, judgeTranscriptRules } from './transcript-judge.js';
import { communicateComponent } from './communicate.js';
import { dbComponent } from './db.js';
import { envAssertionComponent } from './env-assertions.js';
import { combineVerdicts, type ComponentResult } from './evidence.js';
import { replayGold, type GoldReplay } from './gold.js';
import type { ReplayEnvOptions } from './initial-state.js';
import { judgeNlAssertions, nlComponent, type NlVerdict } from './nl.js';
import { indexActions, type LoggedCall } from './trace-index.js';
import type { CheckContext } from './checks/context.js';
import type { Receipt } from '../spec/receipt.js';
import { crossSideUse } from './cross-side.js';
import type { CheckResult, EpisodeTrace, RubricResult, TaskEvaluation, TerminationReason } from './types.js';
import { resolveStrict, strictBasis, transferClaimCheck, TRANSFER_CLAIM_FLAG, type StrictSetting } from './strict.js';
import type { GoldAction } from '../spec/task.js';
import type { GoldActionError } from './gold.js';

/** Strict mode: the gold actions an agent must match — those that did not fail in the gold replay. */
function requiredGoldActions(actions: readonly GoldAction[] | null | undefined, errors: readonly GoldActionError[]): GoldAction[] {
  const failed = new Set(errors.map((e) => e.action_id));
  return (actions ?? []).filter((a) => !failed.has(a.action_id));
}

/** Terminations that can earn reward (tau2: only the agent or the user ending the conversation). */
export const EARNING_TERMINATIONS: readonly TerminationReason[] = ['agent_stop', 'user_stop'];

/** The tau2 components in report order. */
const COMPONENTS: readonly RewardBasis[] = ['DB', 'ENV_ASSERTION', 'COMMUNICATE', 'NL_ASSERTION', 'ACTION'];

export interface EvaluateTaskOptions<S> {
  loaded: LoadedDomain<S>;
  task: Task;
  trace: EpisodeTrace<S>;
  /** The NL judge; without one, NL assertions and `nl` checks are `not_judged`. */
  judge?: ChatModel;
  /** The "now" and id seed the episode's environment used; the gold replay must use the same. */
  env?: ReplayEnvOptions;
  /**
   * Also send tau2 `nl_assertions` to the judge when NL_ASSERTION is not in `reward_basis`
   * (tau2's ALL_WITH_NL_ASSERTIONS). Default false: like tau2's ALL, they are then skipped.
   */
  judgeAllNl?: boolean;
  /**
   * Strict mode (`--strict`, see `strict.ts`): ACTION in every reward basis (gold actions that
   * fail in the gold replay not required), and a transfer claimed without a transfer call flagged
   * and scored 0. Default off: tau2's rewards.
   */
  strict?: StrictSetting;
  /** The episode's user persona in persona runs; checks limited to personas apply only to theirs. */
  persona?: string;
  /** Votes of the judge on each transcript rule with an `assertion` (majority decides); default 3. */
  judgeVotes?: number;
}

/** Per gold replay: `equal` and `diff` results among its start and final states (see {@link rememberComparisons}). */
const goldComparisons = new WeakMap<object, { equal: Map<unknown, Map<unknown, boolean>>; diff: Map<unknown, Map<unknown, FieldDiff[]>> }>();

/**
 * `ops` whose `equal` and `diff` remember their result per pair of states, for one evaluation:
 * the DB component and the checks compare the same states (gold final, start, episode final)
 * again and again. Each caller gets its own copy of a remembered diff array. An episode final
 * state that is an unwritten fork of the gold replay's start state (`ops.unwrittenFork`: it
 * compares as the start state does in every way) is compared as that start state, and the
 * results among the replay's two states are kept with the replay: the task's other such
 * episodes (an agent that changed nothing) reuse them.
 */
function rememberComparisons<S>(ops: StateOps<S>, gold: GoldReplay<S>, finalState: S, same: boolean): StateOps<S> {
  const canon = (s: S): S => (same && s === finalState ? gold.initialState : s);
  const kept = (s: S) => s === gold.initialState || s === gold.finalState;
  let shared = goldComparisons.get(gold);
  if (!shared) goldComparisons.set(gold, (shared = { equal: new Map(), diff: new Map() }));
  const memo = <R>(f: (a: S, b: S) => R, keep: Map<unknown, Map<unknown, R>>) => {
    const own = new Map<S, Map<S, R>>();
    return (x: S, y: S): R => {
      const a = canon(x);
      const b = canon(y);
      const seen = kept(a) && kept(b) ? (keep as Map<S, Map<S, R>>) : own;
      let row = seen.get(a);
      if (!row) seen.set(a, (row = new Map()));
      if (!row.has(b)) row.set(b, f(a, b));
      return row.get(b)!;
    };
  };
  const equal = memo((a, b) => ops.equal(a, b), shared.equal);
  const diff = memo((a, b) => ops.diff(a, b), shared.diff);
  return { ...ops, equal, diff: (a, b) => [...diff(a, b)] };
}

/** Per gold replay: results of state checks (without personas) for episodes whose final state is an unwritten fork of the start state. */
const unwrittenChecks = new WeakMap<object, Map<Check, CheckResult>>();

/** The result of state check `c` for an unwritten episode of `gold`'s task: made once, each caller getting its own copy. */
function unwrittenStateCheck(gold: GoldReplay<unknown>, c: Check, run: () => CheckResult): CheckResult {
  let made = unwrittenChecks.get(gold);
  if (!made) unwrittenChecks.set(gold, (made = new Map()));
  let r = made.get(c);
  if (!r) made.set(c, (r = run()));
  return r.diff ? { ...r, diff: [...r.diff] } : { ...r };
}

/**
 * Evaluates one episode of `task`.
 *
 * - strict (`opts.strict`): ACTION joins the basis, and a flagged episode (`flags`, e.g. a
 *   transfer claimed without the call) scores reward 0; see `strict.ts`.
 * - reward (tau2 §1.4): termination not in {@link EARNING_TERMINATIONS} ⇒ 0; otherwise the product
 *   of the `reward_basis` components (DB, ENV_ASSERTION, COMMUNICATE, NL_ASSERTION, ACTION); if a
 *   basis component is not judged the reward is null — unless another basis component is 0, which
 *   makes it 0. No `evaluation_criteria` ⇒ empty basis ⇒ 1 (tau2).
 * - partial: 0 on premature termination. With a `servicegym` block: Σ weights of rubric items whose
 *   checks all pass / 100, and 0 if any `zero_if_failed` check fails. Without one: the mean of the
 *   basis components, not-judged ones counting 0 (1 for an empty basis).
 * - not_judged: some check that feeds the reward or the partial score is `not_judged` (and the
 *   termination could earn reward); the scores are then lower bounds.
 * - checks: `tau2_db`, `tau2_env_assertion`, `tau2_communicate`, `tau2_nl_assertion`, `tau2_action`
 *   (always computed, as diagnostics too), then the servicegym checks in task order.
 * - db_diff: gold replay final state → episode final state.
 * - receipts: the judge call, if one was made (tau2 NL assertions and `nl` checks share one call).
 *
 * Throws BadInputError for an inconsistent trace (action causes vs messages), a malformed initial
 * state or an invalid regex in a check; judge failures (ProviderError, ReplayMissError) propagate.
 */
export async function evaluateTask<S>(opts: EvaluateTaskOptions<S>): Promise<TaskEvaluation> {
  const { loaded, task, trace } = opts;
  const domain = loaded.domain;

  const criteria = task.evaluation_criteria ?? null;
  const strict = resolveStrict(opts.strict);
  const declared: RewardBasis[] = criteria ? [...criteria.reward_basis] : [];
  const basis: RewardBasis[] = strict ? strictBasis(declared) : declared;
  const premature = !EARNING_TERMINATIONS.includes(trace.termination);
  const calls = indexActions(trace);
  const gold = await replayGold(domain, task, opts.env);
  const plainOps: StateOps<S> = domain.state ?? plainStateOps;
  const unwritten = trace.finalState !== gold.initialState && plainOps.unwrittenFork?.(gold.initialState, trace.finalState) === true;
  const ops = rememberComparisons(plainOps, gold, trace.finalState, unwritten);

  const nl = await judgeNl(opts, basis);
  const components = tau2Components(opts, { ops, gold, calls, nl, strict: strict !== null });
  const ctx: CheckContext<S> = { task, trace, calls, gold, initialState: gold.initialState, domain, ops, persona: opts.persona };
  const { sgChecks, ruleReceipts } = await servicegymChecks(opts, ctx, nl.sgNlVerdicts, unwritten);
  const sg = task.servicegym;
  const byId = new Map(sgChecks.map((c) => [c.id, c]));
  const rubric = rubricOf(sg, byId);

  const strictChecks = strict ? [transferClaimCheck(trace.messages, calls, strict.transferTools)] : [];
  const flags = strictChecks.some((c) => c.verdict === 'fail') ? [TRANSFER_CLAIM_FLAG] : [];
  const basisScores = basis.map((b) => components[b].score);
  const reward = rewardOf(premature, flags.length > 0, basisScores);
  const partial = partialOf(premature, sg, byId, rubric, basisScores);

  const scoring: CheckResult[] = basis.map((b) => components[b].check);
  if (sg) {
    const ids = new Set([...sg.partial_credit.flatMap((i) => i.checks), ...sg.zero_if_failed]);
    scoring.push(...sgChecks.filter((c) => ids.has(c.id)));
  }

  const breakdown: TaskEvaluation['reward_breakdown'] = {};
  for (const b of COMPONENTS) breakdown[b] = components[b].score;
  const crossSide = crossSideUse(domain, trace);
  return {
    task_id: task.id,
    termination: trace.termination,
    reward,
    reward_breakdown: breakdown,
    reward_basis: basis,
    partial,
    not_judged: !premature && scoring.some((c) => c.verdict === 'not_judged'),
    checks: [...COMPONENTS.map((b) => components[b].check), ...sgChecks, ...strictChecks],
    rubric,
    db_diff: components.DB.check.diff ?? [],
    receipts: [...nl.receipts, ...ruleReceipts],
    ...(strict ? { strict: true, flags } : {}),
    ...(crossSide && crossSide.count > 0 ? { cross_side: crossSide } : {}),
  };
}

/** An episode's NL verdicts ({@link judgeNl}): the tau2 assertions' and the servicegym `nl` checks' (by check id). */
interface NlJudging {
  /** How many tau2 NL assertions the task has, sent to the judge or not. */
  tau2Count: number;
  /** Whether they were sent (NL_ASSERTION counts, or `judgeAllNl`). */
  tau2Sent: boolean;
  tau2Verdicts: NlVerdict[];
  sgNlVerdicts: Map<string, NlVerdict>;
  /** The judge call, if one was made. */
  receipts: Receipt[];
}

/** One judge call for the tau2 NL assertions (when they count, or with `judgeAllNl`) and the servicegym `nl` checks. */
async function judgeNl<S>(opts: EvaluateTaskOptions<S>, basis: readonly RewardBasis[]): Promise<NlJudging> {
  const tau2Nl = opts.task.evaluation_criteria?.nl_assertions ?? [];
  const judgeTau2Nl = tau2Nl.length > 0 && (basis.includes('NL_ASSERTION') || opts.judgeAllNl === true);
  const sgNl = (opts.task.servicegym?.checks ?? []).flatMap((c) => (c.kind === 'nl' ? [c] : []));
  const sent = [...(judgeTau2Nl ? tau2Nl : []), ...sgNl.map((c) => c.assertion)];
  const judged = await judgeNlAssertions(opts.judge, opts.trace.messages, sent);
  const tau2Verdicts = judgeTau2Nl ? judged.verdicts.slice(0, tau2Nl.length) : [];
  const offset = tau2Verdicts.length;
  const sgNlVerdicts = new Map<string, NlVerdict>(sgNl.map((c, i) => [c.id, judged.verdicts[offset + i]]));
  return { tau2Count: tau2Nl.length, tau2Sent: judgeTau2Nl, tau2Verdicts, sgNlVerdicts, receipts: judged.receipts };
}

/** The tau2 components of one episode, in {@link COMPONENTS} order; with `strict`, ACTION requires only the gold actions that did not fail in the gold replay. */
function tau2Components<S>(
  opts: EvaluateTaskOptions<S>,
  e: { ops: StateOps<S>; gold: GoldReplay<S>; calls: LoggedCall[]; nl: NlJudging; strict: boolean },
): Record<RewardBasis, ComponentResult> {
  const criteria = opts.task.evaluation_criteria ?? null;
  const { trace } = opts;
  return {
    DB: dbComponent(e.ops, e.gold, trace.finalState),
    ENV_ASSERTION: envAssertionComponent(opts.loaded.domain, criteria?.env_assertions, trace.finalState),
    COMMUNICATE: communicateComponent(criteria?.communicate_info, trace.messages),
    NL_ASSERTION: nlComponent(
      e.nl.tau2Verdicts,
      e.nl.tau2Count > 0 && !e.nl.tau2Sent ? `${e.nl.tau2Count} assertion(s) not sent to the judge: NL_ASSERTION is not in reward_basis` : undefined,
    ),
    ACTION: actionComponent(e.strict ? requiredGoldActions(criteria?.actions, e.gold.errors) : criteria?.actions, e.calls),
  };
}

/**
 * The servicegym checks in task order. Transcript rules with an assertion are judged by the LLM
 * (`judgeVotes` votes, majority decides) when there is a judge, else by their patterns; state
 * checks of an unwritten episode are made once per gold replay.
 */
async function servicegymChecks<S>(
  opts: EvaluateTaskOptions<S>,
  ctx: CheckContext<S>,
  sgNlVerdicts: ReadonlyMap<string, NlVerdict>,
  unwritten: boolean,
): Promise<{ sgChecks: CheckResult[]; ruleReceipts: Receipt[] }> {
  const checks = opts.task.servicegym?.checks ?? [];
  const votes = opts.judgeVotes ?? 3;
  const judgedRules = checks.flatMap((c) =>
    c.kind === 'transcript' && c.assertion !== undefined && !(c.personas && !personaApplies(c.personas, opts.persona)) ? [{ id: c.id, assertion: c.assertion }] : [],
  );
  const ruleVotes = opts.judge && judgedRules.length > 0 ? await judgeTranscriptRules(opts.judge, opts.trace.messages, judgedRules, votes) : undefined;
  const sgChecks = checks.map((c) => {
    const r = unwritten && !c.personas && stateOnlyCheckKinds.has(c.kind) ? unwrittenStateCheck(ctx.gold, c, () => runCheck(c, ctx, sgNlVerdicts)) : runCheck(c, ctx, sgNlVerdicts);
    return c.kind === 'transcript' && !r.evidence.startsWith('not applicable') ? applyRuleVotes(r, ruleVotes?.byRule.get(c.id), votes) : r;
  });
  return { sgChecks, ruleReceipts: ruleVotes?.receipts ?? [] };
}

/** The rubric items of a servicegym block with their verdicts (all of an item's checks combined); none without one. */
function rubricOf(sg: Task['servicegym'], byId: ReadonlyMap<string, CheckResult>): RubricResult[] {
  return (sg?.partial_credit ?? []).map((item) => ({
    id: item.id,
    weight: item.weight,
    description: item.description,
    verdict: combineVerdicts(item.checks.map((id) => byId.get(id)!.verdict)),
    checks: [...item.checks],
  }));
}

/** The reward: 0 on premature termination, a flag or a basis component at 0; null when a basis component is not judged; else the product. */
function rewardOf(premature: boolean, flagged: boolean, basisScores: readonly (number | null)[]): number | null {
  if (premature) return 0;
  if (flagged) return 0;
  if (basisScores.includes(0)) return 0;
  if (basisScores.includes(null)) return null;
  return basisScores.reduce<number>((p, s) => p * (s as number), 1);
}

/** The partial score: 0 on premature termination; the rubric's (zeroed by a failed `zero_if_failed` check) with a servicegym block; else the mean of the basis scores. */
function partialOf(
  premature: boolean,
  sg: Task['servicegym'],
  byId: ReadonlyMap<string, CheckResult>,
  rubric: readonly RubricResult[],
  basisScores: readonly (number | null)[],
): number {
  if (premature) return 0;
  if (sg) {
    const zeroed = sg.zero_if_failed.some((id) => byId.get(id)!.verdict === 'fail');
    return zeroed ? 0 : rubric.reduce((s, r) => s + (r.verdict === 'pass' ? r.weight : 0), 0) / 100;
  }
  return basisScores.length === 0 ? 1 : basisScores.reduce<number>((s, x) => s + (x ?? 0), 0) / basisScores.length;
}
