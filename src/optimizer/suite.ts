/**
 * The optimiser's view of a task suite: cases, the stable prompt, and one rollout = one episode
 * of a prompt on a case with a trial seed, scored on the three learning-signal dimensions.
 *
 * Implementations: {@link ../optimizer/campaign-suite.ts} (seed-like campaign cases: transfer
 * expectation plus rubric judge) and {@link ../optimizer/task-suite.ts} (servicegym or tau2 domain
 * tasks through the evaluator).
 */
import type { ChatMessage } from '../spec/messages.js';
import type { ChatModel } from '../models/chat-model.js';
import type { UsageByRole, UsageTracker } from '../models/usage.js';
import { sha256Hex } from '../util/canonical.js';
import { DIMENSIONS, type Dimension } from './learning-signal.js';

export type { Dimension };
/** The three dimensions, in the seed's order (the seed learning signal's list). */
export const DIMENSION_NAMES: readonly Dimension[] = DIMENSIONS;

/**
 * A dimension's verdict on one rollout. `not_applicable`: the dimension does not apply to the
 * case (flexibility outside boundary cases); `not_counted`: compliant_flexibility when
 * rule_compliance failed (flexibility counts only within policy).
 */
export interface DimensionResult {
  verdict: 'pass' | 'fail' | 'not_applicable' | 'not_counted';
  evidence: string;
  /** Verbatim text from the trajectory supporting the verdict (absent when none applies). */
  quote?: string;
}

/** `boundary`: cases the prompt should improve (policy disputes); `holdout`: cases that must not regress. */
export type CaseGroup = 'boundary' | 'holdout';

/** One case of a suite. */
export interface SuiteCase {
  id: string;
  group: CaseGroup;
  /** The case's own inputs (user message, scenario), read by the case-specific token check. */
  inputs: string[];
  /**
   * For a suite with case variants: the case the variant was made from (also set on that
   * original case itself), so the split can put one case's variants into different roles.
   */
  base?: string;
  /** The variant (a user persona id), absent on the original case. */
  variant?: string;
}

/** One rollout's result (what the cache and journal keep). */
export interface Rollout {
  case_id: string;
  trial: number;
  seed: number;
  /** sha256 of the prompt text. */
  prompt_sha256: string;
  /** False for an infrastructure fault (provider failure, replay miss, evaluator error): such a rollout is never scored. */
  valid: boolean;
  infra_error?: string;
  /** task_resolution passed and no critical violation. */
  success: boolean;
  /** Critical violations (forbidden writes or state changes), each described. */
  critical: string[];
  dimensions: Record<Dimension, DimensionResult>;
  termination: string;
  /** The trajectory (evidence quotes must occur in it). */
  messages: ChatMessage[];
  /** Calls, tokens and provider-reported cost per role (latency excluded: it is not reproducible). */
  usage: UsageByRole;
}

/** The models a rollout may use. The agent is required; suites say which others they need. */
export interface SuiteModels {
  agent: ChatModel;
  user?: ChatModel;
  judge?: ChatModel;
  /** Sampling temperature of agent and user. */
  temperature: number;
}

/** A rollout request. */
export interface RolloutRequest {
  prompt: string;
  caseId: string;
  trial: number;
  seed: number;
}

/** A suite the optimiser can run; see the module doc. */
export interface Suite {
  /** E.g. `campaign:record-9-3` or `tasks:airline`; part of the rollout cache key. */
  readonly id: string;
  /** Bumped when a suite's scoring changes; part of the rollout cache key. */
  readonly harnessVersion: string;
  readonly cases: readonly SuiteCase[];
  /** The stable prompt text and where it came from. */
  readonly stablePrompt: string;
  readonly stableSource: string;
  /** System message for the proposer (the campaign's coding-agent prompt, or servicegym's default). */
  readonly proposerSystem: string;
  /** The surface every rollout runs on (registry name, `src/surfaces/index.ts`), recorded with the run and its rollouts. */
  readonly surface: string;
  /** Runs one rollout. Model failures become `valid: false`; only bugs (and a kill) throw. */
  runRollout(req: RolloutRequest, models: SuiteModels): Promise<Rollout>;
  /** Failure patterns over the parent's feedback rollouts, one sentence each. */
  diagnose(rollouts: readonly Rollout[]): string[];
}

/** Renders a trajectory as the plain text evidence quotes are checked against. */
export function renderTrajectory(messages: readonly ChatMessage[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (typeof m.content === 'string' && m.content !== '') lines.push(`${m.role}: ${m.content}`);
    if (m.role === 'assistant') {
      for (const tc of m.tool_calls ?? []) lines.push(`tool_call ${tc.function.name} ${tc.function.arguments}`);
    }
  }
  return lines.join('\n');
}

/** Whitespace-collapsed text, so quotes match across line breaks and repeated spaces. */
export function normalizeSpace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Is `quote` (at least 4 characters) verbatim in the trajectory, up to whitespace? */
export function quoteOccurs(quote: string, messages: readonly ChatMessage[]): boolean {
  const q = normalizeSpace(quote);
  return [...q].length >= 4 && normalizeSpace(renderTrajectory(messages)).includes(q);
}

/** Strips per-call latency from usage (rollout records must be reproducible). */
export function usageWithoutLatency(usage: UsageByRole): UsageByRole {
  const out: UsageByRole = {};
  for (const [role, u] of Object.entries(usage) as [keyof UsageByRole, NonNullable<UsageByRole[keyof UsageByRole]>][]) {
    out[role] = { ...u, latency_seconds: 0 };
  }
  return out;
}

/** The raw arguments text of the first assistant call of `name` (a verbatim quote), or ''. */
export function toolCallArguments(messages: readonly ChatMessage[], name: string): string {
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    const tc = m.tool_calls?.find((t) => t.function.name === name);
    if (tc) return tc.function.arguments;
  }
  return '';
}

/** An invalid rollout (infrastructure fault): never scored. */
export function invalidRollout(req: RolloutRequest, message: string, usage: UsageTracker): Rollout {
  const na: DimensionResult = { verdict: 'not_applicable', evidence: 'not scored: infrastructure fault' };
  return {
    case_id: req.caseId, trial: req.trial, seed: req.seed, prompt_sha256: sha256Hex(req.prompt), valid: false, infra_error: message,
    success: false, critical: [], dimensions: { rule_compliance: na, task_resolution: na, compliant_flexibility: na },
    termination: 'infra_error', messages: [], usage: usageWithoutLatency(usage.byRole),
  };
}
