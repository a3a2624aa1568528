/**
 * One episode: the agent talks with the user and calls tools in the environment until someone
 * stops. Termination reasons follow tau2: `user_stop`, `agent_stop`, `transfer`, `max_steps`,
 * `too_many_errors`, `agent_error`.
 */
import type { ChatMessage } from '../spec/messages.js';
import type { Receipt } from '../spec/receipt.js';
import type { Environment, ToolLogEntry } from '../env/environment.js';
import type { LLMAgent } from '../agents/llm-agent.js';
import type { User } from '../users/scripted-user.js';
import type { UsageTracker } from '../models/usage.js';

export type TerminationReason = 'user_stop' | 'agent_stop' | 'transfer' | 'max_steps' | 'too_many_errors' | 'agent_error';

export interface EpisodeOptions {
  agent: LLMAgent;
  user: User;
  env: Environment<any>;
  /** Most agent model calls in the episode. */
  maxSteps: number;
  /** Tool names that hand the customer to a human and end the episode. */
  transferTools: string[];
  /** Consecutive tool errors after which the episode ends (`too_many_errors`). Default 10. */
  maxConsecutiveErrors?: number;
  usage?: UsageTracker;
  /** Called with each receipt as soon as the call returns (for append-only journals). */
  onReceipt?: (r: Receipt) => void;
}

export interface EpisodeResult {
  /** The whole trajectory, system message first, in OpenAI chat format. */
  messages: ChatMessage[];
  termination: TerminationReason;
  toolLog: ToolLogEntry[];
  /** The transfer call, when the episode ended in a transfer. */
  transfer?: { name: string; arguments: unknown };
  /** The agent's last text message ('' if it never wrote one). */
  finalText: string;
  receipts: Receipt[];
  /** Error text for `agent_error`. */
  error?: string;
}

/** Runs one episode. Model errors end it as `agent_error` only when `catchErrors`; otherwise they propagate. */
export async function runEpisode(opts: EpisodeOptions): Promise<EpisodeResult> {
  const maxErrors = opts.maxConsecutiveErrors ?? 10;
  const messages: ChatMessage[] = [opts.agent.systemMessage(), { role: 'user', content: opts.user.first() }];
  const receipts: Receipt[] = [];
  let finalText = '';
  let steps = 0;
  let consecutiveErrors = 0;
  const done = (termination: TerminationReason, extra: Partial<EpisodeResult> = {}): EpisodeResult => ({
    messages,
    termination,
    toolLog: opts.env.log,
    finalText,
    receipts,
    ...extra,
  });
  for (;;) {
    if (steps >= opts.maxSteps) return done('max_steps');
    const { message, call } = await opts.agent.step(messages);
    steps++;
    receipts.push(call.receipt);
    opts.usage?.add(call.receipt.kind, call.response.usage, call.elapsedSeconds);
    opts.onReceipt?.(call.receipt);
    messages.push(message);
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) {
      finalText = message.content ?? '';
      const turn = opts.user.reply(finalText);
      if (turn.message === null) return done('user_stop');
      messages.push({ role: 'user', content: turn.message });
      continue;
    }
    let transfer: EpisodeResult['transfer'];
    for (const tc of calls) {
      const entry = opts.env.execute(tc, 'assistant');
      messages.push({ role: 'tool', tool_call_id: tc.id, content: entry.output });
      consecutiveErrors = entry.error ? consecutiveErrors + 1 : 0;
      if (!entry.error && opts.transferTools.includes(entry.name) && !transfer) {
        transfer = { name: entry.name, arguments: entry.arguments };
      }
    }
    if (transfer) return done('transfer', { transfer });
    if (consecutiveErrors >= maxErrors) return done('too_many_errors');
  }
}
