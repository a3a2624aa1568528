/**
 * The prompt-sensitive scripted model of the optimiser tests, one handler for the mock HTTP
 * server and for the in-process test double ({@link InProcessModel}), so both behave alike.
 *
 * Task agent (seed campaign cases), with a seeded draw u ∈ [0, 1) keyed by (sha256 of the system
 * prompt, the customer's message, the request's `seed`):
 * - policy disputes (B1–B5): transfer, unless the prompt carries the rule {@link FIX_MARKER};
 *   then handle (look up the policy, reply) except when u < `fixFail`. Without the rule they are
 *   handled by luck when u < `baseHandle`;
 * - mandatory escalations (H4 asks for a human, H5 an emergency): transfer, except when
 *   u < `holdoutFail`; with {@link VIOLATION_MARKER} in the prompt H5 is rebooked with
 *   `change_flight` instead — a write on a must-escalate case, a critical violation;
 * - ordinary requests (H1–H3): change the flight / the seat / read the baggage policy and reply,
 *   except when u < `holdoutFail` (then an over-transfer).
 * Judge: always `{"handled": true}`. Proposer: see {@link ProposerMode}.
 */
import crypto from 'node:crypto';
import type { MockHandler, MockReply } from '../../src/models/mock-server.js';
import type { ChatModel, ChatRequestInput, ModelCallResult } from '../../src/models/chat-model.js';
import { withModel } from '../../src/models/chat-model.js';
import type { ChatResponse, ModelRole } from '../../src/spec/messages.js';
import { ProviderError } from '../../src/spec/errors.js';
import { parseClauses, clausesTouched } from '../../src/optimizer/clauses.js';
import { BOUNDARY_USERS, FIX_MARKER, FIX_OLD_STR, NON_UNIQUE_OLD_STR, REPLY_TEXT, roleOf } from './prompt-sensitive-model.js';

export { FIX_MARKER, FIX_OLD_STR, NON_UNIQUE_OLD_STR };

/** A clause that makes the agent rebook an emergency instead of escalating it. */
export const VIOLATION_MARKER = '遇到航班受影响的紧急情况时，先直接为乘客改签';
const VIOLATION_OLD = '2. 优先使用工具查询真实信息后再回答，不要编造政策或订单信息。';
const VIOLATION_NEW = `2. 优先使用工具查询真实信息后再回答，不要编造政策或订单信息；${VIOLATION_MARKER}，再视情况转接。`;

/** Fix wordings (all carry {@link FIX_MARKER}); proposal i uses wording i mod 3. */
export const FIX_WORDINGS = [
  '绝不因政策争议或乘客不满而转接，而应先查政策、耐心解释并提供合规的替代方案。',
  '绝不因政策争议或乘客不满而转接；应先查询政策，解释规则并提供合规的替代方案。',
  '绝不因政策争议而转接人工：先查政策、说明规则，再给出合规的可选方案。',
];
const NOOP_OLD = '礼貌、专业、简洁地回应乘客';
const NOOP_WORDS = ['简明', '精炼', '扼要', '简练', '简要', '利落', '清楚', '干脆', '明了'];

/**
 * What the proposer proposes:
 * - `fix`: replaces the over-transfer clause with a no-transfer rule (a real fix);
 * - `noop`: rewords the politeness clause (changes the text, not the behaviour);
 * - `fix_violation`: the fix plus {@link VIOLATION_MARKER} (one new critical violation on H5);
 * - `bad_quote`: the fix citing a quote that is not in the cited trajectory;
 * - `non_unique`: an edit whose old_str occurs three times;
 * - `copy_token`: the fix with the order number `ABC123` copied into the prompt;
 * - `fix_and_noop`: the fix plus the no-op rewording (two edits, one of which does nothing).
 */
export type ProposerMode = 'fix' | 'noop' | 'fix_violation' | 'bad_quote' | 'non_unique' | 'copy_token' | 'fix_and_noop';

/** Failure rates of the scripted task agent. */
export interface ModelRates {
  baseHandle: number;
  fixFail: number;
  holdoutFail: number;
}

export const DEFAULT_RATES: ModelRates = { baseHandle: 0.1, fixFail: 0.1, holdoutFail: 0.02 };

export interface OptimizerHandlerOptions {
  proposer?: ProposerMode | ((ctx: { round: number; index: number }) => ProposerMode);
  rates?: Partial<ModelRates>;
}

const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/** The seeded draw in [0, 1). */
export function draw(system: string, user: string, seed: unknown): number {
  return parseInt(sha(`${sha(system)}|${user}|${String(seed)}`).slice(0, 8), 16) / 2 ** 32;
}

const callId = (body: any, name: string): string => `call_${name}_${sha(JSON.stringify(body?.messages ?? [])).slice(0, 12)}`;
const call = (body: any, name: string, args: unknown): MockReply => ({ tool_calls: [{ name, id: callId(body, name), arguments: args }] });

function taskAgent(body: any, rates: ModelRates): MockReply {
  const messages: any[] = body?.messages ?? [];
  if (messages.at(-1)?.role === 'tool') return { content: REPLY_TEXT };
  const system = String(messages.find((m) => m.role === 'system')?.content ?? '');
  const user = String(messages.find((m) => m.role === 'user')?.content ?? '');
  const u = draw(system, user, body?.seed);
  const transfer = (reason: string) => call(body, 'transfer_to_human', { reason });
  const lookUp = () => call(body, 'get_refund_policy', { fare_type: '经济舱特价票' });
  if (user.includes('晕倒')) {
    if (system.includes(VIOLATION_MARKER)) return call(body, 'change_flight', { confirmation_code: 'ABC123', new_flight: 'YS1236' });
    return u < rates.holdoutFail ? lookUp() : transfer('紧急安全事件');
  }
  if (user.includes('人工')) return u < rates.holdoutFail ? lookUp() : transfer('乘客明确要求人工客服');
  if (BOUNDARY_USERS.has(user)) {
    const handles = system.includes(FIX_MARKER) ? u >= rates.fixFail : u < rates.baseHandle;
    return handles ? lookUp() : transfer('乘客对政策不满');
  }
  if (u < rates.holdoutFail) return transfer('乘客诉求需要人工处理');
  if (user.includes('改到')) return call(body, 'change_flight', { confirmation_code: 'ABC123', new_flight: '8月3日' });
  if (user.includes('座位')) return call(body, 'change_seat', { confirmation_code: 'ABC123', seat: '32A' });
  return call(body, 'get_baggage_policy', { cabin: '经济舱' });
}

/** The prompt, signal, round and proposal index of a proposer request. */
export function readProposerRequest(body: any): { prompt: string; signal: any; round: number; index: number } {
  const text = String(body.messages.find((m: any) => m.role === 'user').content);
  const prompt = text.match(/# Current prompt\n---\n([\s\S]*)\n---$/)![1];
  const signal = JSON.parse(text.match(/```json\n([\s\S]*?)\n```/)![1]);
  const [, round, index] = text.match(/round (\d+), proposal (\d+) of/)!.map(Number);
  return { prompt, signal, round, index: index - 1 };
}

/** The edit of `mode`'s patch, or null when it does not apply to this prompt. */
function proposerReply(body: any, mode: ProposerMode, round: number, index: number, prompt: string, signal: any): MockReply {
  const clauses = parseClauses(prompt);
  const clauseOf = (old: string) => {
    const at = prompt.indexOf(old);
    return at < 0 ? 'S0.1' : clausesTouched(clauses, at, at + old.length)[0].id;
  };
  const boundary = new Set(signal.cases.filter((c: any) => c.group === 'boundary').map((c: any) => c.case_id));
  const item = signal.dimensions.task_resolution.find((x: any) => boundary.has(x.case_id) && x.quote) ?? signal.dimensions.task_resolution.find((x: any) => x.quote);
  const evidence = [{ case_id: item.case_id, trial: item.trial, quote: item.quote }];
  const edit = (old: string, neu: string, intent: string, ev = evidence) => ({ old_str: old, new_str: neu, clause: clauseOf(old), intent, source_cases: [item.case_id], evidence: ev });
  const fixable = prompt.includes(FIX_OLD_STR);
  const fix = edit(FIX_OLD_STR, FIX_WORDINGS[index % FIX_WORDINGS.length], 'clarify-rule');
  const noop = edit(NOOP_OLD, `礼貌、专业、${NOOP_WORDS[((round - 1) * 3 + index) % NOOP_WORDS.length]}地回应乘客`, 'clarify-rule');
  let edits: unknown[];
  if (mode === 'noop' || (!fixable && mode !== 'non_unique')) edits = [noop];
  else if (mode === 'fix') edits = [fix];
  else if (mode === 'fix_and_noop') edits = [fix, noop];
  else if (mode === 'fix_violation') edits = [fix, edit(VIOLATION_OLD, VIOLATION_NEW, 'add-exception-procedure')];
  else if (mode === 'bad_quote') edits = [{ ...fix, evidence: [{ ...evidence[0], quote: '乘客说要投诉到民航局' }] }];
  else if (mode === 'copy_token') edits = [{ ...fix, new_str: `${fix.new_str}例如订单 ABC123 的退款争议。` }];
  else edits = [{ ...fix, old_str: NON_UNIQUE_OLD_STR, new_str: '转接人工坐席', clause: clauseOf(FIX_OLD_STR) }];
  return call(body, 'apply_edits', { edits, rationale: `mode ${mode}` });
}

/** The handler; see the module doc. */
export function optimizerHandler(opts: OptimizerHandlerOptions = {}): MockHandler {
  const rates = { ...DEFAULT_RATES, ...opts.rates };
  return (body): MockReply => {
    const role = roleOf(body);
    if (role === 'llm_judge') return { content: JSON.stringify({ handled: true, reason: 'ok' }) };
    if (role === 'task_agent') return taskAgent(body, rates);
    const req = readProposerRequest(body);
    const mode = typeof opts.proposer === 'function' ? opts.proposer(req) : (opts.proposer ?? 'fix');
    return proposerReply(body, mode, req.round, req.index, req.prompt, req.signal);
  };
}

/** Tokens as the mock server counts them (JSON length / 4). */
const tokens = (v: unknown): number => Math.ceil((JSON.stringify(v ?? null) ?? '').length / 4);

/**
 * A {@link ChatModel} that answers in process from a {@link MockHandler}, as the mock server
 * would (same completion shape and usage); error replies throw {@link ProviderError}. Once
 * `kill` says yes for a call (0-based index), that call and every later one throw a plain Error,
 * as if the process died; `fail` makes single calls fail as a provider outage would.
 */
export class InProcessModel implements ChatModel {
  readonly provider = 'in-process';
  readonly endpoint = 'memory://mock/v1/chat/completions';
  calls = 0;
  private dead = false;
  readonly byRole: Partial<Record<ModelRole, number>> = {};

  constructor(
    readonly model: string,
    private readonly handler: MockHandler,
    private readonly opts: { kill?: (index: number, role: ModelRole) => boolean; fail?: (index: number, role: ModelRole) => boolean } = {},
  ) {}

  async complete(input: ChatRequestInput, role: ModelRole): Promise<ModelCallResult> {
    const index = this.calls++;
    if (this.dead || this.opts.kill?.(index, role)) {
      this.dead = true;
      throw new Error(`killed at call ${index}`);
    }
    if (this.opts.fail?.(index, role)) throw new ProviderError(`${role} call to ${this.endpoint} failed: 500 mock outage`, { status: 500 });
    this.byRole[role] = (this.byRole[role] ?? 0) + 1;
    const request = structuredClone(withModel(this.model, input));
    const reply = await this.handler(request, { index, log: [] });
    if ('status' in reply || 'hang' in reply || 'raw' in reply) throw new ProviderError(`${role} call failed: ${JSON.stringify(reply)}`);
    const message: any =
      'tool_calls' in reply
        ? { role: 'assistant', content: reply.content ?? null, tool_calls: reply.tool_calls.map((t, k) => ({ id: t.id ?? `call_${index}_${k}`, type: 'function', function: { name: t.name, arguments: typeof t.arguments === 'string' ? t.arguments : JSON.stringify(t.arguments ?? {}) } })) }
        : { role: 'assistant', content: reply.content };
    const prompt = tokens(request.messages);
    const completion = tokens(message);
    const response: ChatResponse = {
      id: `inproc-${index}`,
      model: this.model,
      choices: [{ index: 0, finish_reason: 'tool_calls' in reply ? 'tool_calls' : 'stop', message }],
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    };
    return { response, elapsedSeconds: 0, receipt: { kind: role, provider: this.provider, endpoint: this.endpoint, request, response, elapsed_seconds: 0 } };
  }
}
