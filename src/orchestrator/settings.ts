/**
 * Episode settings and their defaults (tau2's conventions unless stated).
 */

/** tau2's canned first agent message, sent (not generated) before the user speaks. */
export const DEFAULT_GREETING = 'Hi! How can I help you today?';

/** The tool that hands the customer to a human, in tau2's domains. */
export const DEFAULT_TRANSFER_TOOLS: readonly string[] = ['transfer_to_human_agents'];

/**
 * What `maxSteps` counts.
 * - `messages` (tau2): every agent message, user message and batch of tool results is one step;
 *   the limit is checked after each step except while tool results are pending, so the episode
 *   ends (`max_steps`) after the step that reaches it.
 * - `agent_turns` (seed campaign): agent messages only, checked before each agent turn, so at
 *   most `maxSteps` agent model calls are made.
 */
export type StepCounting = 'messages' | 'agent_turns';

/**
 * When a successful call of a transfer tool ends the episode (termination `transfer`).
 * - `after_reply` (default): the tool result goes back to the agent, whose next turn (normally
 *   its hand-off message to the customer) is recorded — tool calls in it are executed — and then
 *   the episode ends without the user speaking again.
 * - `on_call` (seed campaign): right after the tool-call batch that contains the transfer.
 * - `never` (tau2 parity): the transfer tool is an ordinary tool; the conversation goes on and
 *   the user simulator's `###TRANSFER###` ends it as `user_stop` (which tau2 can reward). The
 *   call is still reported in `EpisodeResult.transfer`.
 * A pending transfer turns a step-limit end into `transfer`.
 */
export type TransferEnd = 'after_reply' | 'on_call' | 'never';

/** How an episode runs; every field optional (defaults in {@link resolveEpisodeSettings}). */
export interface EpisodeSettings {
  /** Canned first agent message; null for none (campaigns). Default {@link DEFAULT_GREETING}. */
  greeting?: string | null;
  /** Step limit (see {@link StepCounting}); default 200 (tau2's CLI default). */
  maxSteps?: number;
  /** Default `messages`. */
  stepCounting?: StepCounting;
  /** Tool errors after which the episode ends as `too_many_errors`; default 10. */
  maxErrors?: number;
  /**
   * `consecutive` (default): an error-free tool result resets the count. `total`: every tool
   * error of the episode counts (tau2's orchestrator).
   */
  errorCounting?: 'consecutive' | 'total';
  /** Tool names that transfer the customer; default {@link DEFAULT_TRANSFER_TOOLS}. */
  transferTools?: readonly string[];
  /** Default `after_reply`. */
  transferEnds?: TransferEnd;
  /**
   * An agent message with both text and tool calls: `allow` (default; tau2 with communication
   * validation off — the tool calls run and the text is not shown to the user) or `agent_error`
   * (tau2 with validation on).
   */
  mixedMessages?: 'allow' | 'agent_error';
  /**
   * An exception from the agent or the user (a provider failure after retries, a replay miss, a
   * bug in a scripted step): `end` (default) ends the episode as `agent_error` / `user_error` with
   * the failure recorded; `throw` rethrows it (campaigns: a failed call aborts the campaign, which
   * resumes from its journal).
   */
  modelErrors?: 'end' | 'throw';
  /**
   * Wall-clock limit of the episode in seconds (null: none, the default). When it passes, the
   * running step is abandoned, the episode ends as `agent_error` / `user_error` with
   * `failure.kind: 'deadline'` (an infrastructure fault, left out of scores), and the environment
   * is closed.
   */
  deadlineSeconds?: number | null;
}

/** Settings with every default filled in. */
export type ResolvedEpisodeSettings = Required<EpisodeSettings>;

/** Fills in the defaults; throws RangeError for a non-positive `maxSteps`, `maxErrors` or `deadlineSeconds`. */
export function resolveEpisodeSettings(s: EpisodeSettings): ResolvedEpisodeSettings {
  const out: ResolvedEpisodeSettings = {
    greeting: s.greeting === undefined ? DEFAULT_GREETING : s.greeting,
    maxSteps: s.maxSteps ?? 200,
    stepCounting: s.stepCounting ?? 'messages',
    maxErrors: s.maxErrors ?? 10,
    errorCounting: s.errorCounting ?? 'consecutive',
    transferTools: s.transferTools ?? DEFAULT_TRANSFER_TOOLS,
    transferEnds: s.transferEnds ?? 'after_reply',
    mixedMessages: s.mixedMessages ?? 'allow',
    modelErrors: s.modelErrors ?? 'end',
    deadlineSeconds: s.deadlineSeconds ?? null,
  };
  if (!(Number.isInteger(out.maxSteps) && out.maxSteps > 0)) throw new RangeError(`maxSteps must be a positive integer, got ${out.maxSteps}`);
  if (!(Number.isInteger(out.maxErrors) && out.maxErrors > 0)) throw new RangeError(`maxErrors must be a positive integer, got ${out.maxErrors}`);
  if (out.deadlineSeconds !== null && !(out.deadlineSeconds > 0)) throw new RangeError(`deadlineSeconds must be positive, got ${out.deadlineSeconds}`);
  return out;
}
