/**
 * One episode: the user and the agent take turns; the agent's tool calls run in the environment
 * in order, each result going back to the agent as a `tool` message, until the episode ends.
 *
 * Turn order (tau2, half-duplex): [canned greeting] → user → agent (tool calls … then text) →
 * user → … The user sees only the agent's text messages. Termination reasons:
 * - `user_stop`: the user's turn is a stop (`###STOP###`, `###TRANSFER###`, `###OUT-OF-SCOPE###`
 *   — the signal is kept in `userSignal`; a scripted user running out of replies);
 * - `agent_stop`: an agent text message containing `###STOP###` (not shown to the user), or a
 *   successful call of one of the domain's `endTools` (tau2 solo mode's `done`);
 * - `transfer`: a successful call of a transfer tool, see {@link TransferEnd};
 * - `max_steps`: see {@link StepCounting};
 * - `too_many_errors`: `maxErrors` tool errors (consecutive or total);
 * - `agent_error` / `user_error`: an exception from the agent / user (provider failure after
 *   retries, replay miss, bug), or a protocol violation: an empty message (blank text, no tool
 *   calls), or for the agent text plus tool calls when `mixedMessages: 'agent_error'`; or a
 *   malformed model answer after the agent's retry (`failure.kind: 'malformed'`, the agent's
 *   failure); also the episode deadline passing during that party's turn (`failure.kind: 'deadline'`);
 * - `harness_error`: a tool's code threw something other than a ToolError, or the surface failed
 *   to open or close — a bug in the harness; the episode is invalid, never the agent's failure.
 * A malformed tool call is not an agent error: the environment answers `Error: …` and the
 * episode goes on. The environment is opened at the start and always closed at the end. The core
 * reads no clock and draws no random numbers (a deadline, when set, is a timer).
 */
import { contentText } from '../spec/content.js';
import type { ActionLogEntry } from '../spec/action-log.js';
import type { AssistantMessage, ChatMessage } from '../spec/messages.js';
import type { Receipt } from '../spec/receipt.js';
import { HarnessError, MalformedResponseError, ProviderError, ReplayMissError } from '../spec/errors.js';
import type { Environment, HarnessFault, ToolLogEntry } from '../env/environment.js';
import { systemMessage, type ModelCallResult } from '../models/chat-model.js';
import { UsageTracker, type UsageByRole } from '../models/usage.js';
import type { EpisodeTrace, TerminationReason } from '../evaluation/types.js';
import { AGENT_STOP_TOKEN, type Agent, type AgentTurn } from '../agents/agent.js';
import type { User, UserSignal, UserTurn, Utterance } from '../users/user.js';
import { resolveEpisodeSettings, type EpisodeSettings } from './settings.js';
import { Deadline, DeadlineError } from './deadline.js';
import { agentView, runUserToolCalls } from './user-tools.js';

/** Re-exported from the evaluator's types (the one definition). */
export type { TerminationReason } from '../evaluation/types.js';

/** The parties of one episode, the settings, and accounting hooks. */
export interface EpisodeOptions extends EpisodeSettings {
  agent: Agent;
  user: User;
  /**
   * The episode's environment (fresh, with the task's initial state, not yet opened): the episode
   * opens and always closes it; its logs become `toolLog` and `actionLog`.
   */
  env: Environment<any>;
  /** A shared tracker (e.g. the campaign's) that also receives every call's usage. */
  usage?: UsageTracker;
  /** Called with each receipt as soon as its call returns (for append-only journals). */
  onReceipt?: (r: Receipt) => void;
  /** Aborting it ends the episode like its deadline passing (e.g. a run-wide deadline). */
  signal?: AbortSignal;
}

/** Why an episode ended in `agent_error`, `user_error` or `harness_error`. */
export interface EpisodeFailure {
  by: 'agent' | 'user' | 'harness';
  /**
   * `provider`: ProviderError or ReplayMissError (transport, provider fault); `malformed`: the
   * model answered with a malformed chat completion even on the retry (`raw` keeps the bodies);
   * `protocol`: empty or mixed message; `deadline`: the episode deadline passed; `harness`: a
   * tool or surface failed (see `EpisodeResult.harness`); `internal`: any other exception.
   */
  kind: 'provider' | 'malformed' | 'protocol' | 'deadline' | 'harness' | 'internal';
  message: string;
  /** For `malformed`: every malformed response body received, as sent by the provider. */
  raw?: unknown[];
  /** The provider refused the credential (401/403): later calls cannot succeed either. */
  fatal?: true;
}

/**
 * Whether a failure is the infrastructure's (left out of scores, as tau2 drops such episodes)
 * rather than the agent's: provider and internal faults are; a protocol violation is the agent's
 * (or user's) own; malformed model output is the agent's failure, but the user simulator's
 * malformed output is the harness's (issue 10); a passed deadline is infrastructure. A `harness`
 * failure is reported apart, as a harness error (also left out of scores).
 */
export function isInfrastructureFailure(f: EpisodeFailure): boolean {
  if (f.kind === 'malformed') return f.by === 'user';
  return f.kind === 'provider' || f.kind === 'internal' || f.kind === 'deadline';
}

/** A remark attached to the trajectory, e.g. the confirm-then-stop guard firing. */
export interface EpisodeEvent {
  /** Index in `messages` of the message the event concerns. */
  at: number;
  kind: 'user_note';
  detail: string;
}

/** An episode: the {@link EpisodeTrace} the evaluator reads, plus accounting and diagnostics. */
export interface EpisodeResult<S = unknown> extends EpisodeTrace<S> {
  /** The tool calls as the agent (and the user) made them, with what they saw, in order. */
  toolLog: ToolLogEntry[];
  /** Receipts of every model call of the episode (agent and user), in call order. */
  receipts: Receipt[];
  /** This episode's usage per role. */
  usage: UsageByRole;
  /** The agent's last text message shown or meant for the user ('' if none). */
  finalText: string;
  /** The first successful transfer call (also with `transferEnds: 'never'`). */
  transfer?: { name: string; arguments: unknown };
  /** The user's stop signal, for `user_stop`. */
  userSignal?: UserSignal;
  /** Set for `agent_error`, `user_error` and `harness_error`. */
  failure?: EpisodeFailure;
  /** For `harness_error` caused by a tool: which tool, and what it threw. */
  harness?: HarnessFault;
  /** Steps counted as configured (see StepCounting). */
  steps: number;
  /** Agent messages (model calls for an LLM agent). */
  agentTurns: number;
  events: EpisodeEvent[];
}

function classify(by: 'agent' | 'user', e: unknown): EpisodeFailure {
  if (e instanceof MalformedResponseError) return { by, kind: 'malformed', message: `${e.name}: ${e.message}`, raw: e.raw };
  const provider = e instanceof ProviderError || e instanceof ReplayMissError;
  const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return { by, kind: provider ? 'provider' : 'internal', message, ...(e instanceof ProviderError && e.fatal ? { fatal: true as const } : {}) };
}

/** The failure of a harness fault. */
export function harnessFailure(fault: HarnessFault): EpisodeFailure {
  return { by: 'harness', kind: 'harness', message: `tool ${fault.tool} threw ${fault.message}` };
}

/**
 * Runs one episode to its end: opens the environment, plays the turns, closes the environment
 * (always, also when a party throws with `modelErrors: 'throw'`). Rethrows agent/user exceptions
 * only with `modelErrors: 'throw'`. A surface that fails to open or close ends the episode as
 * `harness_error`.
 */
export async function runEpisode<S = unknown>(opts: EpisodeOptions): Promise<EpisodeResult<S>> {
  const s = resolveEpisodeSettings(opts);
  const deadline = new Deadline(s.deadlineSeconds, opts.signal);
  const run = new EpisodeRun<S>(opts, s, deadline);
  let result: EpisodeResult<S>;
  try {
    try {
      await deadline.within(opts.env.open());
    } catch (e) {
      const timedOut = e instanceof DeadlineError;
      return run.done(timedOut ? 'agent_error' : 'harness_error', {
        failure: timedOut ? deadline.failure('agent', 'while the environment opened') : { by: 'harness', kind: 'harness', message: describe(e) },
      });
    }
    result = await run.play();
  } finally {
    deadline.clear();
    await opts.env.close();
  }
  const fault = opts.env.harnessFault;
  if (fault && result.termination !== 'harness_error') return { ...result, termination: 'harness_error', failure: harnessFailure(fault), harness: fault };
  return result;
}

function describe(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** The state of one episode in progress (see {@link runEpisode}). */
class EpisodeRun<S> {
  readonly messages: ChatMessage[];
  private readonly transcript: Utterance[] = [];
  private readonly receipts: Receipt[] = [];
  private readonly tracker = new UsageTracker();
  private readonly events: EpisodeEvent[] = [];
  private finalText = '';
  private steps = 0;
  private agentTurns = 0;
  private errors = 0;
  private transfer: EpisodeResult['transfer'];
  /** agentTurns at the transfer call, while a transfer is waiting for the agent's hand-off turn. */
  private pendingTransferTurn: number | null = null;

  constructor(
    private readonly opts: EpisodeOptions,
    private readonly s: ReturnType<typeof resolveEpisodeSettings>,
    private readonly deadline: Deadline,
  ) {
    this.messages = [systemMessage(opts.agent.systemPrompt())];
  }

  done(termination: TerminationReason, extra: Partial<EpisodeResult<S>> = {}): EpisodeResult<S> {
    const env = this.opts.env;
    return {
      messages: this.messages,
      toolLog: env.log,
      actionLog: env.actionLog as ActionLogEntry[],
      termination,
      finalState: env.state as S,
      receipts: this.receipts,
      usage: this.tracker.byRole,
      finalText: this.finalText,
      transfer: this.transfer,
      steps: this.steps,
      agentTurns: this.agentTurns,
      events: this.events,
      ...extra,
    };
  }

  private account(call: ModelCallResult | undefined): void {
    if (!call) return;
    this.receipts.push(call.receipt);
    this.tracker.add(call.receipt.kind, call.response.usage, call.elapsedSeconds, call.receipt.retries);
    this.opts.usage?.add(call.receipt.kind, call.response.usage, call.elapsedSeconds, call.receipt.retries);
    this.opts.onReceipt?.(call.receipt);
  }

  private limitReached(): EpisodeResult<S> {
    return this.done(this.pendingTransferTurn !== null ? 'transfer' : 'max_steps');
  }

  private messageLimit(): boolean {
    return this.s.stepCounting === 'messages' && this.steps >= this.s.maxSteps;
  }

  private fail(by: 'agent' | 'user', e: unknown): EpisodeResult<S> {
    if (e instanceof DeadlineError) return this.done(by === 'agent' ? 'agent_error' : 'user_error', { failure: this.deadline.failure(by, `during the ${by}'s turn`) });
    if (e instanceof HarnessError) return this.done('harness_error', { failure: { by: 'harness', kind: 'harness', message: describe(e) } });
    if (this.s.modelErrors === 'throw') throw e;
    return this.done(by === 'agent' ? 'agent_error' : 'user_error', { failure: classify(by, e) });
  }

  private say(from: 'agent' | 'user', text: string): void {
    if (from === 'agent') this.messages.push({ role: 'assistant', content: text });
    else this.messages.push({ role: 'user', content: text });
    this.transcript.push({ from, text });
  }

  /** Plays turns until the episode ends. */
  async play(): Promise<EpisodeResult<S>> {
    if (this.s.greeting !== null) this.say('agent', this.s.greeting);
    for (;;) {
      const ended = await this.userTurn();
      if (ended) return ended;
      const agentEnded = await this.agentSide();
      if (agentEnded) return agentEnded;
    }
  }

  /** The user's turn; resolves to the episode's end, or null when the agent's turn follows. */
  private async userTurn(): Promise<EpisodeResult<S> | null> {
    let turn: UserTurn;
    for (;;) {
      try {
        turn = await this.deadline.within(this.opts.user.respond(this.transcript));
      } catch (e) {
        return this.fail('user', e);
      }
      this.account(turn.call);
      if (turn.note) this.events.push({ at: this.messages.length, kind: 'user_note', detail: turn.note });
      if (turn.kind !== 'tool_calls') break;
      // the customer's own device actions (see user-tools.ts); then the customer goes on
      try {
        this.errors += await this.deadline.within(runUserToolCalls(this.opts.env, turn.calls, this.messages, this.transcript));
      } catch (e) {
        return this.fail('user', e);
      }
      this.steps++;
      if (this.errors >= this.s.maxErrors) return this.done('too_many_errors');
      if (this.steps >= this.s.maxSteps) return this.limitReached();
    }
    if (turn.kind === 'stop') {
      if (turn.text !== null) {
        this.say('user', turn.text);
        if (this.s.stepCounting === 'messages') this.steps++;
      }
      return this.done('user_stop', { userSignal: turn.signal });
    }
    if (turn.text.trim() === '') {
      return this.done('user_error', { failure: { by: 'user', kind: 'protocol', message: 'the user sent an empty message' } });
    }
    this.say('user', turn.text);
    if (this.s.stepCounting === 'messages') this.steps++;
    return this.messageLimit() ? this.limitReached() : null;
  }

  /** The agent's turns until it writes to the user; resolves to the episode's end, or null when the user's turn follows. */
  private async agentSide(): Promise<EpisodeResult<S> | null> {
    const s = this.s;
    for (;;) {
      if (s.stepCounting === 'agent_turns' && this.agentTurns >= s.maxSteps) return this.limitReached();
      let at: AgentTurn;
      try {
        at = await this.deadline.within(this.opts.agent.step(agentView(this.messages)));
      } catch (e) {
        return this.fail('agent', e);
      }
      this.account(at.call);
      const message = at.message;
      const index = this.messages.length;
      this.messages.push(message);
      this.agentTurns++;
      this.steps++;
      const calls = message.tool_calls ?? [];
      const text = contentText(message.content);
      const hasText = text.trim() !== '';
      if (calls.length === 0 && !hasText) {
        return this.done('agent_error', { failure: { by: 'agent', kind: 'protocol', message: 'the agent sent an empty message (no text, no tool calls)' } });
      }
      if (calls.length > 0 && hasText && s.mixedMessages === 'agent_error') {
        return this.done('agent_error', { failure: { by: 'agent', kind: 'protocol', message: 'the agent sent text and tool calls in one message' } });
      }
      const handOffTurn = this.pendingTransferTurn !== null && this.agentTurns > this.pendingTransferTurn;
      if (calls.length > 0) {
        const ended = await this.runCalls(message.tool_calls!, index, handOffTurn);
        if (ended) return ended;
        continue;
      }
      this.finalText = text;
      if (handOffTurn) return this.done('transfer');
      if (text.includes(AGENT_STOP_TOKEN)) return this.done('agent_stop');
      this.transcript.push({ from: 'agent', text });
      return this.messageLimit() ? this.limitReached() : null;
    }
  }

  /** Executes one message's tool calls in order; resolves to the episode's end, or null to go on. */
  private async runCalls(calls: NonNullable<AssistantMessage['tool_calls']>, index: number, handOffTurn: boolean): Promise<EpisodeResult<S> | null> {
    const s = this.s;
    const env = this.opts.env;
    let transferNow = false;
    let endNow = false;
    for (const tc of calls) {
      let entry: ToolLogEntry;
      try {
        entry = await this.deadline.within(env.execute(tc, 'assistant', { message_index: index }));
      } catch (e) {
        return this.fail('agent', e);
      }
      this.messages.push({ role: 'tool', tool_call_id: tc.id, content: entry.parts ?? entry.output });
      if (env.harnessFault) return this.done('harness_error', { failure: harnessFailure(env.harnessFault), harness: env.harnessFault });
      if (entry.error) this.errors++;
      else if (s.errorCounting === 'consecutive') this.errors = 0;
      if (!entry.error && !this.transfer && s.transferTools.includes(entry.name)) {
        this.transfer = { name: entry.name, arguments: entry.arguments };
        transferNow = true;
      }
      if (!entry.error && env.domain.endTools?.includes(entry.name)) endNow = true;
    }
    if (s.stepCounting === 'messages') this.steps++;
    if (endNow) return this.done('agent_stop');
    if (transferNow && s.transferEnds === 'on_call') return this.done('transfer');
    if (transferNow && s.transferEnds === 'after_reply') this.pendingTransferTurn = this.agentTurns;
    if (handOffTurn) return this.done('transfer');
    if (this.errors >= s.maxErrors) return this.done('too_many_errors');
    if (this.messageLimit()) return this.limitReached();
    return null;
  }
}
