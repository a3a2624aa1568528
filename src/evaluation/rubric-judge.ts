/**
 * The rubric judge: an LLM decides whether the agent's reply satisfies a case's rubric.
 * Used by the seed campaign (only for cases the agent did not transfer).
 */
import type { ChatModel, ModelCallResult } from '../models/chat-model.js';
import { fillTemplate } from '../util/template.js';
import { parseModelJson } from '../util/json-bounds.js';

export interface RubricJudgement {
  /** true/false as judged; null when the judge's reply could not be read (never counted as handled). */
  handled: boolean | null;
  reason: string | null;
  call: ModelCallResult;
}

/**
 * Asks the judge. The template (data, e.g. the seed's judge prompt) gets `{{user}}`, `{{rubric}}`
 * and `{{reply}}`; the request is a single user message at `temperature` with JSON output
 * requested. The judge must answer `{"handled": bool, "reason": str}` (code fences tolerated).
 */
export async function judgeReply(opts: {
  model: ChatModel;
  template: string;
  user: string;
  rubric: string;
  reply: string;
  temperature: number;
}): Promise<RubricJudgement> {
  const content = fillTemplate(opts.template, { user: opts.user, rubric: opts.rubric, reply: opts.reply }, 'judge template');
  const call = await opts.model.complete(
    { messages: [{ role: 'user', content }], temperature: opts.temperature, response_format: { type: 'json_object' } },
    'llm_judge',
  );
  const text = (call.response.choices[0].message.content ?? '').trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
  try {
    const parsed = parseModelJson(text) as { handled?: unknown; reason?: unknown };
    if (typeof parsed.handled !== 'boolean') throw new Error('no boolean "handled"');
    return { handled: parsed.handled, reason: typeof parsed.reason === 'string' ? parsed.reason : null, call };
  } catch (e) {
    return { handled: null, reason: `judge reply unreadable (${(e as Error).message}): ${text.slice(0, 200)}`, call };
  }
}
