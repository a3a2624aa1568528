/**
 * A {@link Suite} over domain tasks (servicegym's own or a tau2-bench folder): a rollout is one
 * episode of the LLM agent (raw system prompt = the prompt under optimisation) against the LLM
 * user simulator, scored by the evaluator ({@link evaluateTask}).
 *
 * - critical violation: a failing `unchanged` check, a failing `zero_if_failed` check, or any
 *   successful agent write when the task's gold actions make no write;
 * - rule_compliance: fails on a critical violation or a failing ordering / confirmation /
 *   transcript / tool-count check;
 * - task_resolution: the tau2 reward is a success (1 within 1e-6);
 * - compliant_flexibility (boundary tasks, counted only when compliance passes): every
 *   communication check (tau2 COMMUNICATE / NL_ASSERTION, servicegym `communicate`, `nl`,
 *   `stated_amount`) passes; without such checks, the task's resolution.
 *
 * The stable prompt is servicegym's agent prompt around the domain policy (or a prompt file);
 * the `<policy>` block stays read-only for the proposer.
 *
 * Case variants (`variants`: user persona ids): each task is also the case `<task>~<persona>`,
 * the same task with the user simulator playing that persona (its instructions added to the
 * simulator's prompt), in the task's group; `splitRoles` spreads a task's variants over the roles.
 */
import type { LoadedDomain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import { BadInputError, ProviderError, ReplayMissError } from '../spec/errors.js';
import { UsageTracker } from '../models/usage.js';
import { agentSystemPrompt } from '../agents/llm-agent.js';
import type { Surface } from '../spec/surface.js';
import { buildEpisode, ownSurfaceName, surfaceOf } from '../orchestrator/build.js';
import { runEpisode, type EpisodeResult } from '../orchestrator/episode.js';
import { evaluateTask } from '../evaluation/compose.js';
import type { KnownBadTask } from '../evaluation/strict.js';
import { isSuccess } from '../evaluation/pass-k.js';
import type { CheckResult, TaskEvaluation } from '../evaluation/types.js';
import { sha256Hex } from '../util/canonical.js';
import type { CaseGroup, Dimension, DimensionResult, Rollout, RolloutRequest, Suite, SuiteCase, SuiteModels } from './suite.js';
import { parsePersonas } from '../users/personas.js';
import { invalidRollout, toolCallArguments, usageWithoutLatency } from './suite.js';

/** Bumped when task rollouts are scored differently (part of the cache key). */
export const TASK_HARNESS_VERSION = 'task-rollout/1';

/** servicegym's proposer system message for task suites. */
export const DEFAULT_PROPOSER_SYSTEM =
  "You are a prompt engineer improving a customer-service agent's system prompt from failure trajectories. " +
  'Make minimal, exact search/replace edits through the apply_edits tool. Keep the policy intact: never loosen a rule, ' +
  'never copy customer-specific details (names, ids, amounts) into the prompt, and ground every edit in quoted evidence.';

/** tau2's episode conventions (as `servicegym run`): transfer is an ordinary tool, every tool error counts. */
const EPISODE_SETTINGS = { transferEnds: 'never', errorCounting: 'total' } as const;

const RULE_KINDS = new Set(['order', 'confirmation_before_write', 'transcript', 'tool_calls', 'no_extra_writes']);
const COMMUNICATION = new Set(['tau2_communicate', 'tau2_nl_assertion']);
const COMMUNICATION_KINDS = new Set(['communicate', 'nl', 'stated_amount']);

/** The scenario text the case-specific token check reads. */
function scenarioText(task: Task): string {
  const s = task.user_scenario;
  const ins = typeof s.instructions === 'string' ? s.instructions : Object.values(s.instructions).filter((v) => typeof v === 'string').join('\n');
  return [s.persona ?? '', ins].join('\n');
}

/** Options of {@link TaskSuite}. */
export interface TaskSuiteOptions {
  /** Task ids in the suite (default: all of the dataset's). */
  tasks?: string[];
  /** Task ids that are boundary cases; the others are holdout. Default: every task is boundary. */
  boundary?: string[];
  /** The stable prompt (default: servicegym's agent prompt around the policy). */
  prompt?: { text: string; source: string };
  /**
   * Case variants: user persona ids (src/users/personas.ts, `+` combines). Each task is then also
   * a case `<task>~<persona>` whose user simulator plays that persona; the split spreads one
   * task's variants over the roles (see `splitRoles`).
   */
  variants?: string[];
  /** The surface the agent works on (`suite.surface`); default the dataset's own (`LoadedDomain.surface`), else api. */
  surface?: Surface;
  /**
   * Strict evaluation of every rollout (`optimize --strict`, see `src/evaluation/strict.ts`); the
   * dataset's known-bad tasks are left out of the suite (`excluded`).
   */
  strict?: boolean;
}

/**
 * Validates case-variant personas: known ids (`+` combines), each a real variant — not `plain`
 * (the original already is the plain customer) and no persona twice in one combination.
 * Throws BadInputError.
 */
export function variantPersonas(list: readonly string[]): string[] {
  const ids = parsePersonas(list);
  for (const id of ids) {
    const parts = id.split('+');
    if (parts.includes('plain')) throw new BadInputError(`variant '${id}': 'plain' is the original case itself, not a variant`);
    if (new Set(parts).size !== parts.length) throw new BadInputError(`variant '${id}' repeats a persona`);
  }
  return ids;
}

/** The case id of task `taskId` played with persona `variant`. */
export const variantCaseId = (taskId: string, variant: string): string => `${taskId}~${variant}`;

/** Domain tasks as a suite; see the module doc. */
export class TaskSuite implements Suite {
  readonly id: string;
  readonly harnessVersion: string;
  /** Known-bad tasks left out by `strict`, with their reasons. */
  readonly excluded: KnownBadTask[];
  private readonly strict: boolean;
  readonly cases: SuiteCase[];
  readonly stablePrompt: string;
  readonly stableSource: string;
  readonly proposerSystem = DEFAULT_PROPOSER_SYSTEM;
  /** The surface's registry name (recorded with the run and its rollouts). */
  readonly surface: string;
  private readonly surfaceImpl: Surface;
  private readonly byId: Map<string, { task: Task; variant?: string }>;
  private readonly writeTools: Set<string>;
  private readonly env: { now: string; idSeed: string };

  /** Throws Error for unknown task ids (the config loader reports them as bad input first). */
  constructor(private readonly loaded: LoadedDomain<any>, opts: TaskSuiteOptions = {}) {
    const all = new Map(loaded.tasks.map((t) => [t.id, t]));
    this.strict = opts.strict === true;
    this.harnessVersion = this.strict ? `${TASK_HARNESS_VERSION}+strict` : TASK_HARNESS_VERSION;
    const bad = new Map(this.strict ? (loaded.knownBadTasks ?? []).filter((k) => !k.stale).map((k) => [k.id, k]) : []);
    const requested = opts.tasks ?? loaded.tasks.map((t) => t.id);
    this.excluded = requested.flatMap((id) => (bad.has(id) ? [bad.get(id)!] : []));
    const ids = requested.filter((id) => !bad.has(id));
    for (const id of [...ids, ...(opts.boundary ?? [])]) if (!all.has(id)) throw new Error(`task suite: unknown task ${id}`);
    const boundary = opts.boundary ? new Set(opts.boundary) : null;
    const variants = opts.variants?.length ? variantPersonas(opts.variants) : [];
    this.byId = new Map();
    this.cases = [];
    for (const id of ids) {
      const task = all.get(id)!;
      const base = { group: (!boundary || boundary.has(id) ? 'boundary' : 'holdout') as CaseGroup, inputs: [scenarioText(task)], ...(variants.length ? { base: id } : {}) };
      this.cases.push({ id, ...base });
      this.byId.set(id, { task });
      for (const v of variants) {
        const caseId = variantCaseId(id, v);
        this.cases.push({ id: caseId, ...base, variant: v });
        this.byId.set(caseId, { task, variant: v });
      }
    }
    this.surfaceImpl = surfaceOf({ loaded, surface: opts.surface });
    this.surface = this.surfaceImpl.name;
    // Another surface than the dataset's own is another suite (the rollout cache is keyed by suite id).
    this.id = `tasks:${loaded.domain.name}${this.surface !== ownSurfaceName(loaded) ? `@${this.surface}` : ''}`;
    this.stablePrompt = opts.prompt?.text ?? agentSystemPrompt(loaded.policy);
    this.stableSource = opts.prompt?.source ?? `${loaded.domain.name} policy (${loaded.source})`;
    this.writeTools = new Set(loaded.domain.tools.filter((t) => t.kind === 'write').map((t) => t.name));
    this.env = { now: loaded.now ?? '1970-01-01T00:00:00Z', idSeed: '' };
  }

  async runRollout(req: RolloutRequest, models: SuiteModels): Promise<Rollout> {
    const entry = this.byId.get(req.caseId);
    if (!entry) throw new Error(`task suite: unknown case ${req.caseId}`);
    const { task, variant } = entry;
    if (!models.user) throw new Error('task suite: a user simulator model is needed');
    const usage = new UsageTracker();
    const parties = await buildEpisode({
      loaded: this.loaded,
      task,
      trial: req.trial,
      agent: { kind: 'llm', model: models.agent, systemPrompt: req.prompt, temperature: models.temperature, seed: req.seed },
      user: { kind: 'llm', model: models.user, persona: variant, temperature: models.temperature, seed: req.seed },
      env: this.env,
      surface: this.surfaceImpl,
    });
    const ep = await runEpisode({
      ...EPISODE_SETTINGS,
      ...parties,
      modelErrors: 'end',
      usage,
    });
    if (ep.failure && ['provider', 'harness', 'deadline'].includes(ep.failure.kind)) return invalidRollout(req, ep.failure.message, usage);
    let evaluation: TaskEvaluation;
    try {
      evaluation = await evaluateTask({ loaded: this.loaded, task, trace: ep, judge: models.judge, env: this.env, strict: this.strict, persona: variant });
    } catch (e) {
      if (e instanceof ProviderError || e instanceof ReplayMissError) return invalidRollout(req, `judge: ${e.name}: ${e.message}`, usage);
      throw e;
    }
    for (const r of evaluation.receipts) usage.add(r.kind, r.response.usage, r.elapsed_seconds);
    return this.score(req, task, ep, evaluation, usage);
  }

  /** Scores one episode of case `req.caseId` (a task or one of its variants). */
  private score(req: RolloutRequest, task: Task, ep: EpisodeResult<any>, ev: TaskEvaluation, usage: UsageTracker): Rollout {
    const zero = new Set(task.servicegym?.zero_if_failed ?? []);
    const failing = ev.checks.filter((c) => c.verdict === 'fail');
    const goldWrites = (task.evaluation_criteria?.actions ?? []).filter((a) => this.writeTools.has(a.name));
    const writes = ep.actionLog.filter((a) => a.mutating && a.requestor === 'assistant');
    const critical = [
      ...failing.filter((c) => c.kind === 'unchanged' || zero.has(c.id)).map((c) => `${c.id} (${c.kind}) failed: ${c.evidence}`),
      ...(goldWrites.length === 0 ? writes.map((w) => `write where the task's gold makes none: ${w.name}(${JSON.stringify(w.arguments)})`) : []),
    ];
    const ruleFails = failing.filter((c) => RULE_KINDS.has(c.kind));
    const lastText = [...ep.messages].reverse().find((m) => m.role === 'assistant' && typeof m.content === 'string' && m.content.trim() !== '');
    const textQuote = lastText && typeof lastText.content === 'string' ? [...lastText.content].slice(0, 120).join('') : undefined;
    const writeQuote = writes[0] ? toolCallArguments(ep.messages, writes[0].name) || undefined : undefined;
    const rule: DimensionResult = critical.length
      ? { verdict: 'fail', evidence: critical[0], quote: writeQuote ?? textQuote }
      : ruleFails.length
        ? { verdict: 'fail', evidence: ruleFails.map((c) => `${c.id}: ${c.evidence}`).join('; '), quote: textQuote }
        : { verdict: 'pass', evidence: 'no forbidden write, state change or ordering/confirmation/transcript violation' };
    const resolved = isSuccess(ev.reward);
    const resolution: DimensionResult = {
      verdict: resolved ? 'pass' : 'fail',
      evidence: resolved ? `reward ${ev.reward}` : `reward ${ev.reward} (termination ${ev.termination}; failing: ${failing.map((c) => c.id).join(', ') || 'none'})`,
      quote: textQuote,
    };
    const comm: CheckResult[] = ev.checks.filter((c) => (COMMUNICATION.has(c.id) || COMMUNICATION_KINDS.has(c.kind)) && c.verdict !== 'not_judged' && !c.evidence.startsWith('no '));
    const group = this.cases.find((c) => c.id === req.caseId)!.group;
    const commOk = comm.length ? comm.every((c) => c.verdict === 'pass') : resolved;
    const flex: DimensionResult =
      group !== 'boundary'
        ? { verdict: 'not_applicable', evidence: 'holdout task' }
        : rule.verdict === 'fail'
          ? { verdict: 'not_counted', evidence: 'rule_compliance failed: flexibility counts only within policy' }
          : { verdict: commOk ? 'pass' : 'fail', evidence: comm.length ? comm.map((c) => `${c.id} ${c.verdict}`).join('; ') : resolution.evidence, quote: textQuote };
    const dimensions: Record<Dimension, DimensionResult> = { rule_compliance: rule, task_resolution: resolution, compliant_flexibility: flex };
    return {
      case_id: req.caseId, trial: req.trial, seed: req.seed, prompt_sha256: sha256Hex(req.prompt), valid: true,
      success: resolved && critical.length === 0, critical, dimensions, termination: ep.termination,
      messages: ep.messages, usage: usageWithoutLatency(usage.byRole),
    };
  }

  diagnose(rollouts: readonly Rollout[]): string[] {
    const valid = rollouts.filter((r) => r.valid && !r.success);
    const byEvidence = new Map<string, string[]>();
    for (const r of valid) {
      for (const d of ['rule_compliance', 'task_resolution'] as const) {
        if (r.dimensions[d].verdict !== 'fail') continue;
        const key = `${d}: ${r.dimensions[d].evidence.slice(0, 160)}`;
        byEvidence.set(key, [...(byEvidence.get(key) ?? []), `${r.case_id}#${r.trial}`]);
      }
    }
    return [...byEvidence].map(([k, where]) => `${k} (${where.length} rollout(s): ${where.slice(0, 4).join(', ')})`);
  }
}
