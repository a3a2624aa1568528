/**
 * A fast structural check of a chat-completions body, equivalent to `ChatResponseSchema` (see
 * `src/spec/messages.ts`) for every JSON value: it says whether the schema accepts the body, without
 * building zod's issue lists. Callers run the schema only when this says no, to name the problem.
 * The equivalence is tested against the schema on generated bodies (test/models/response-check.test.ts).
 */
import type { ChatResponse } from '../spec/messages.js';

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const optional = (x: unknown, ok: (v: unknown) => boolean) => x === undefined || ok(x);
const isString = (x: unknown): x is string => typeof x === 'string';
const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
/** Every element passes (holes in a sparse array do not). */
const all = (xs: unknown[], ok: (v: unknown) => boolean) => {
  for (let i = 0; i < xs.length; i++) if (!ok(xs[i])) return false;
  return true;
};
const isCount = (x: unknown) => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

function isToolCall(x: unknown): boolean {
  if (!isObject(x) || !isString(x.id) || !optional(x.type, (t) => t === 'function')) return false;
  const f = x.function;
  return isObject(f) && isString(f.name) && isString(f.arguments);
}

function isAssistantMessage(x: unknown): boolean {
  if (!isObject(x) || x.role !== 'assistant') return false;
  if (!optional(x.content, (c) => c === null || isString(c))) return false;
  return optional(x.tool_calls, (t) => Array.isArray(t) && all(t, isToolCall));
}

function isChoice(x: unknown): boolean {
  return isObject(x) && optional(x.index, isNumber) && optional(x.finish_reason, (f) => f === null || isString(f)) && isAssistantMessage(x.message);
}

function isUsage(x: unknown): boolean {
  return isObject(x) && isCount(x.prompt_tokens) && isCount(x.completion_tokens) && optional(x.total_tokens, isCount) && optional(x.cost, isNumber);
}

/** Whether `ChatResponseSchema` accepts `body` (loose objects: extra fields pass). */
export function isChatResponse(body: unknown): body is ChatResponse {
  if (!isObject(body) || !optional(body.id, isString) || !optional(body.model, isString)) return false;
  const choices = body.choices;
  if (!Array.isArray(choices) || choices.length < 1 || !all(choices, isChoice)) return false;
  return optional(body.usage, isUsage);
}
