/**
 * A mock model for live-campaign tests that plays the seed campaign's three roles from the
 * request body alone, and whose task agent reacts to the system prompt:
 *
 * - coding agent (`tool_choice` forces `apply_edits`): one edit replacing the stable prompt's
 *   over-transfer clause (`当乘客表达不满` … `不要自行与乘客争辩政策。`) by a no-transfer rule that
 *   contains {@link FIX_MARKER}; with `nonUniqueOldStr` the old_str is {@link NON_UNIQUE_OLD_STR},
 *   which occurs several times in the prompt;
 * - judge (`response_format` set): `{"handled": true, "reason": "ok"}`;
 * - task agent (tools, no forced tool): after a tool result it replies with text; otherwise it
 *   transfers the should-transfer cases (H4 asks for `人工`, H5 `晕倒`), transfers a boundary
 *   dispute (B1–B5) unless the system prompt contains {@link FIX_MARKER}, and otherwise first
 *   calls `get_refund_policy`.
 *
 * So the stable prompt scores holdout 5/5 and boundary 0/5, the candidate 5/5 and 5/5, and the
 * `manual` control (whose rule reads `绝不能因为对方不满就一转了之`, not the marker) over-transfers
 * like the stable prompt: 5/5 and 0/5.
 *
 * Tool-call ids are derived from the request (not the server's request counter), so a resumed
 * run against a fresh server sends the same follow-up requests as an uninterrupted one.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { MockHandler, MockReply } from '../../src/models/mock-server.js';
import { SEED_CAMPAIGN } from './paths.js';

export const STABLE_PROMPT = fs.readFileSync(path.join(SEED_CAMPAIGN, 'prompts', 'stable.txt'), 'utf8');
export const MANUAL_PROMPT = fs.readFileSync(path.join(SEED_CAMPAIGN, 'prompts', 'manual.txt'), 'utf8');
const CASES: { id: string; group: string; user: string }[] = JSON.parse(fs.readFileSync(path.join(SEED_CAMPAIGN, 'cases.json'), 'utf8'));

/** The phrase that makes the task agent handle boundary disputes instead of transferring them. */
export const FIX_MARKER = '绝不因政策争议';

function clause(text: string, start: string, end: string): string {
  const i = text.indexOf(start);
  const j = text.indexOf(end, i);
  if (i < 0 || j < 0) throw new Error(`stable prompt has no clause ${start}…${end}`);
  return text.slice(i, j + end.length);
}

/** The unique clause of the stable prompt the coding agent replaces. */
export const FIX_OLD_STR = clause(STABLE_PROMPT, '当乘客表达不满', '不要自行与乘客争辩政策。');
export const FIX_NEW_STR = '绝不因政策争议或乘客不满而转接，而应先查政策、耐心解释并提供合规的替代方案。';
/** An old_str that occurs more than once in the stable prompt. */
export const NON_UNIQUE_OLD_STR = '转接人工客服';

export const occurrences = (text: string, needle: string): number => text.split(needle).length - 1;

if (occurrences(STABLE_PROMPT, FIX_OLD_STR) !== 1) throw new Error('FIX_OLD_STR must occur exactly once in the stable prompt');
if (occurrences(STABLE_PROMPT, NON_UNIQUE_OLD_STR) < 2) throw new Error('NON_UNIQUE_OLD_STR must occur more than once');

/** The candidate prompt the default coding-agent reply produces. */
export const CANDIDATE_PROMPT = STABLE_PROMPT.replace(FIX_OLD_STR, () => FIX_NEW_STR);

export const BOUNDARY_USERS = new Set(CASES.filter((c) => c.group === 'boundary').map((c) => c.user));
export const REPLY_TEXT = '已为您处理。';

export interface PromptSensitiveOptions {
  /** The coding agent proposes an old_str that is not unique in the prompt. */
  nonUniqueOldStr?: boolean;
}

export type Role = 'coding_agent' | 'llm_judge' | 'task_agent';

/** Which role a chat-completions request body belongs to, as the handler decides it. */
export function roleOf(body: any): Role {
  if (body?.tool_choice?.function?.name === 'apply_edits') return 'coding_agent';
  if (body?.response_format) return 'llm_judge';
  return 'task_agent';
}

const callId = (body: any, name: string): string =>
  `call_${name}_${crypto.createHash('sha256').update(JSON.stringify(body?.messages ?? [])).digest('hex').slice(0, 12)}`;

/** The handler; see the module comment. */
export function promptSensitiveHandler(opts: PromptSensitiveOptions = {}): MockHandler {
  return (body): MockReply => {
    const role = roleOf(body);
    if (role === 'coding_agent') {
      const edit = opts.nonUniqueOldStr
        ? { old_str: NON_UNIQUE_OLD_STR, new_str: '转接人工坐席' }
        : { old_str: FIX_OLD_STR, new_str: FIX_NEW_STR };
      return { tool_calls: [{ name: 'apply_edits', id: callId(body, 'apply_edits'), arguments: { edits: [edit], rationale: '收紧转接边界：政策争议不转人工。' } }] };
    }
    if (role === 'llm_judge') return { content: JSON.stringify({ handled: true, reason: 'ok' }) };
    const messages: any[] = body?.messages ?? [];
    const system = String(messages.find((m) => m.role === 'system')?.content ?? '');
    const last = messages.at(-1);
    if (last?.role === 'tool') return { content: REPLY_TEXT };
    const user = String(messages.find((m) => m.role === 'user')?.content ?? '');
    const transfer = (reason: string): MockReply => ({
      tool_calls: [{ name: 'transfer_to_human', id: callId(body, 'transfer_to_human'), arguments: { reason } }],
    });
    if (user.includes('人工')) return transfer('乘客明确要求人工客服');
    if (user.includes('晕倒')) return transfer('紧急安全事件');
    if (BOUNDARY_USERS.has(user) && !system.includes(FIX_MARKER)) return transfer('乘客对政策不满');
    return { tool_calls: [{ name: 'get_refund_policy', id: callId(body, 'get_refund_policy'), arguments: { fare_type: '经济舱特价票' } }] };
  };
}
