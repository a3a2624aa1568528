/**
 * What the evaluator takes and gives. The evaluator is a pure function of the task, the
 * episode trace and (for NL assertions) a judge model's recorded answers.
 */
import type { ChatMessage } from '../spec/messages.js';
import type { RewardBasis } from '../spec/task.js';
import type { FieldDiff } from '../spec/state.js';
import type { Receipt } from '../spec/receipt.js';
import type { ActionLogEntry } from '../spec/action-log.js';

/**
 * How an episode ended (tau2's termination reasons, plus `harness_error`: a tool's code threw or a
 * surface failed — a bug in the harness, so the episode is invalid and left out of scores, like
 * an infrastructure fault). Only `agent_stop` and `user_stop` can earn reward.
 */
export type TerminationReason =
  | 'user_stop'
  | 'agent_stop'
  | 'transfer'
  | 'max_steps'
  | 'too_many_errors'
  | 'agent_error'
  | 'user_error'
  | 'harness_error';

/** Everything the evaluator needs from an episode. */
export interface EpisodeTrace<S = unknown> {
  /** The whole trajectory in OpenAI chat format (system message first). */
  messages: ChatMessage[];
  /**
   * The back-end action log: every operation the back-end performed, in order, each with the
   * message and tool call that caused it. Ordering, confirmation and forbidden-write checks and
   * the tau2 ACTION component read this, never the agent's tool calls.
   */
  actionLog: ActionLogEntry[];
  termination: TerminationReason;
  /** The environment state at the end of the episode. */
  finalState: S;
}

export type Verdict = 'pass' | 'fail' | 'not_judged';

/** One evaluated check: a tau2 component or a servicegym check. */
export interface CheckResult {
  id: string;
  kind: string;
  verdict: Verdict;
  /** Why: the regex match, the out-of-order calls, the differing fields, the judge's reason. */
  evidence: string;
  /** Differing fields, for DB checks. */
  diff?: FieldDiff[];
  /** Transcript rules: what decided the verdict — the rule's patterns, or the LLM judge's majority. */
  decided_by?: 'pattern' | 'judge';
  /** Judge-decided rules: readable votes, the majority's size, and whether the patterns gave the same verdict. */
  agreement?: { votes: number; majority: number; pattern_agrees: boolean };
}

export interface RubricResult {
  id: string;
  weight: number;
  description: string;
  verdict: Verdict;
  checks: string[];
}

export interface TaskEvaluation {
  task_id: string;
  termination: TerminationReason;
  /** tau2 reward: product over reward_basis; 0 on premature termination; null when a basis component could not be judged. */
  reward: number | null;
  /** Component scores keyed by tau2 basis name (DB, COMMUNICATE, …), including non-basis diagnostics. */
  reward_breakdown: Partial<Record<RewardBasis, number | null>>;
  reward_basis: RewardBasis[];
  /** Weighted partial credit in [0, 1] (not-judged items count as not earned; see `not_judged`). */
  partial: number;
  /** True when some check needed a judge and none was given (scores are then lower bounds). */
  not_judged: boolean;
  checks: CheckResult[];
  rubric: RubricResult[];
  /** Gold final state vs episode final state differences (empty when equal). */
  db_diff: FieldDiff[];
  /** Judge receipts made while evaluating. */
  receipts: Receipt[];
  /** Set when evaluated in strict mode (`reward_basis` then includes ACTION). */
  strict?: boolean;
  /** Strict mode: what the episode was flagged for (e.g. `transfer_claimed_without_call`); empty when nothing. */
  flags?: string[];
  /** Cross-side tool use, when there was any (domains with user tools only; see `cross-side.ts`). */
  cross_side?: CrossSideUse;
}

/** One cross-side use: who, which tool, and where (tool-log step or message index). */
export interface CrossSideEvent {
  kind: 'agent_called_user_tool' | 'user_called_agent_tool' | 'agent_told_user_agent_tool';
  tool: string;
  /** Action-log position for calls, message index for instructions. */
  at: number;
}

/** The episode's cross-side uses; `count` is their number. */
export interface CrossSideUse {
  count: number;
  events: CrossSideEvent[];
}
