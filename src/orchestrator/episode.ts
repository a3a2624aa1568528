/**
 * One episode: the user and the agent take turns; the agent's tool calls run in the environment
 * in order, each result going back to the agent as a `tool` message, until the episode ends.
 *
 * Turn order (tau2, half-duplex): [canned greeting] → user → agent (tool calls … then text) →
 * user → … The user sees only the agent's text messages. Termination reasons:
 * - `user_stop`: the user's turn is a stop (`###STOP###`, `###TRANSFER###`, `###OUT-OF-SCOPE###`
 *   — the signal is kept in `userSignal`; a scripted user running out of replies);
 * - `agent_stop`: an agent text message containing `###STOP###` (not shown to the user);
 * - `transfer`: a successful call of a transfer tool, see {@link TransferEnd};
 * - `max_steps`: see {@link StepCounting};
 * - `too_many_errors`: `maxErrors` tool errors (consecutive or total);
 * - `agent_error` / `user_error`: an exception from the agent / user (provider failure after
 *   retries, replay miss, bug), or a protocol violation: an empty message (blank text, no tool
 *   calls), or for the agent text plus tool calls when `mixedMessages: 'agent_error'`; or a
 *   malformed model answer after the agent's retry (`failure.kind: 'malformed'`, the agent's failure).
 * A malformed tool call is not an agent error: the environment answers `Error: …` and the
 * episode goes on. The core reads no clock and draws no random numbers.
 */
import type { ChatMessage } from '../spec/messages.js';
import type { Receipt } from '../spec/receipt.js';
import { MalformedResponseError, ProviderError, ReplayMissError } from '../spec/errors.js';
import type { Environment } from '../env/environment.js';
import type { ModelCallResult } from '../models/chat-model.js';
import { UsageTracker, type UsageByRole } from '../models/usage.js';
import type { EpisodeTrace, TerminationReason } from '../evaluation/types.js';
import { AGENT_STOP_TOKEN, type Agent, type AgentTurn } from '../agents/agent.js';
import type { User, UserSignal, UserTurn, Utterance } from '../users/user.js';
import { resolveEpisodeSettings, type EpisodeSettings } from './settings.js';

/** Re-exported from the evaluator's types (the one definition). */
export type { TerminationReason } from '../evaluation/types.js';

/** The parties of one episode, the settings, and accounting hooks. */
export interface EpisodeOptions extends EpisodeSettings {
  agent: Agent;
  user: User;
  /** The episode's environment (fresh, with the task's initial state); its log becomes `toolLog`. */
  env: Environment<any>;
  /** A shared tracker (e.g. the campaign's) that also receives every call's usage. */
  usage?: UsageTracker;
  /** Called with each receipt as soon as its call returns (for append-only journals). */
  onReceipt?: (r: Receipt) => void;
}

/** Why an episode ended in `agent_error` / `user_error`. */
export interface EpisodeFailure {
  by: 'agent' | 'user';
  /**
   * `provider`: ProviderError or ReplayMissError (transport, provider fault); `malformed`: the
   * model answered with a malformed chat completion even on the retry (`raw` keeps the bodies);
   * `protocol`: empty or mixed message; `internal`: any other exception.
   */
  kind: 'provider' | 'malformed' | 'protocol' | 'internal';
  message: string;
  /** For `malformed`: every malformed response body received, as sent by the provider. */
  raw?: unknown[];
}

/**
 * Whether a failure is the infrastructure's (left out of scores, as tau2 drops such episodes)
 * rather than the agent's: provider and internal faults are; a protocol violation is the agent's
 * (or user's) own; malformed model output is the agent's failure, but the user simulator's
 * malformed output is the harness's (issue 10).
 */
export function isInfrastructureFailure(f: EpisodeFailure): boolean {
  if (f.kind === 'malformed') return f.by === 'user';
  return f.kind === 'provider' || f.kind === 'internal';
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
  /** Set for `agent_error` and `user_error`. */
  failure?: EpisodeFailure;
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
  return { by, kind: provider ? 'provider' : 'internal', message };
}

/** Runs one episode to its end. Rethrows agent/user exceptions only with `modelErrors: 'throw'`. */
export async function runEpisode<S = unknown>(opts: EpisodeOptions): Promise<EpisodeResult<S>> {
  const s = resolveEpisodeSettings(opts);
  const { agent, user, env } = opts;
  const messages: ChatMessage[] = [{ role: 'system', content: agent.systemPrompt() }];
  const transcript: Utterance[] = [];
  const receipts: Receipt[] = [];
  const tracker = new UsageTracker();
  const events: EpisodeEvent[] = [];
  let finalText = '';
  let steps = 0;
  let agentTurns = 0;
  let errors = 0;
  let transfer: EpisodeResult['transfer'];
  /** agentTurns at the transfer call, while a transfer is waiting for the agent's hand-off turn. */
  let pendingTransferTurn: number | null = null;

  const account = (call: ModelCallResult | undefined) => {
    if (!call) return;
    receipts.push(call.receipt);
    tracker.add(call.receipt.kind, call.response.usage, call.elapsedSeconds);
    opts.usage?.add(call.receipt.kind, call.response.usage, call.elapsedSeconds);
    opts.onReceipt?.(call.receipt);
  };
  const done = (termination: TerminationReason, extra: Partial<EpisodeResult<S>> = {}): EpisodeResult<S> => ({
    messages,
    toolLog: env.log,
    termination,
    finalState: env.state as S,
    receipts,
    usage: tracker.byRole,
    finalText,
    transfer,
    steps,
    agentTurns,
    events,
    ...extra,
  });
  const limitReached = () => done(pendingTransferTurn !== null ? 'transfer' : 'max_steps');
  const messageLimit = () => s.stepCounting === 'messages' && steps >= s.maxSteps;
  const fail = (by: 'agent' | 'user', e: unknown) => {
    if (s.modelErrors === 'throw') throw e;
    return done(by === 'agent' ? 'agent_error' : 'user_error', { failure: classify(by, e) });
  };

  if (s.greeting !== null) {
    messages.push({ role: 'assistant', content: s.greeting });
    transcript.push({ from: 'agent', text: s.greeting });
  }

  for (;;) {
    // ---- the user's turn
    let turn: UserTurn;
    try {
      turn = await user.respond(transcript);
    } catch (e) {
      return fail('user', e);
    }
    account(turn.call);
    if (turn.note) events.push({ at: messages.length, kind: 'user_note', detail: turn.note });
    if (turn.kind === 'stop') {
      if (turn.text !== null) {
        messages.push({ role: 'user', content: turn.text });
        transcript.push({ from: 'user', text: turn.text });
        if (s.stepCounting === 'messages') steps++;
      }
      return done('user_stop', { userSignal: turn.signal });
    }
    if (turn.text.trim() === '') {
      return done('user_error', { failure: { by: 'user', kind: 'protocol', message: 'the user sent an empty message' } });
    }
    messages.push({ role: 'user', content: turn.text });
    transcript.push({ from: 'user', text: turn.text });
    if (s.stepCounting === 'messages') steps++;
    if (messageLimit()) return limitReached();

    // ---- the agent's turns, until it writes to the user
    for (;;) {
      if (s.stepCounting === 'agent_turns' && agentTurns >= s.maxSteps) return limitReached();
      let at: AgentTurn;
      try {
        at = await agent.step(messages);
      } catch (e) {
        return fail('agent', e);
      }
      account(at.call);
      const message = at.message;
      messages.push(message);
      agentTurns++;
      steps++;
      const calls = message.tool_calls ?? [];
      const text = typeof message.content === 'string' ? message.content : '';
      const hasText = text.trim() !== '';
      if (calls.length === 0 && !hasText) {
        return done('agent_error', { failure: { by: 'agent', kind: 'protocol', message: 'the agent sent an empty message (no text, no tool calls)' } });
      }
      if (calls.length > 0 && hasText && s.mixedMessages === 'agent_error') {
        return done('agent_error', { failure: { by: 'agent', kind: 'protocol', message: 'the agent sent text and tool calls in one message' } });
      }
      const handOffTurn = pendingTransferTurn !== null && agentTurns > pendingTransferTurn;

      if (calls.length > 0) {
        let transferNow = false;
        for (const tc of calls) {
          const entry = env.execute(tc, 'assistant');
          messages.push({ role: 'tool', tool_call_id: tc.id, content: entry.output });
          if (entry.error) errors++;
          else if (s.errorCounting === 'consecutive') errors = 0;
          if (!entry.error && !transfer && s.transferTools.includes(entry.name)) {
            transfer = { name: entry.name, arguments: entry.arguments };
            transferNow = true;
          }
        }
        if (s.stepCounting === 'messages') steps++;
        if (transferNow && s.transferEnds === 'on_call') return done('transfer');
        if (transferNow && s.transferEnds === 'after_reply') pendingTransferTurn = agentTurns;
        if (handOffTurn) return done('transfer');
        if (errors >= s.maxErrors) return done('too_many_errors');
        if (messageLimit()) return limitReached();
        continue;
      }

      finalText = text;
      if (handOffTurn) return done('transfer');
      if (text.includes(AGENT_STOP_TOKEN)) return done('agent_stop');
      transcript.push({ from: 'agent', text });
      if (messageLimit()) return limitReached();
      break;
    }
  }
}
