/**
 * The model-call path's two shortcuts (issue 17 item 1) agree with what they replace: the fast
 * chat-completion check accepts exactly what `ChatResponseSchema` accepts, and the request's wire
 * text is `JSON.stringify(request)` byte for byte, also once its messages were sent before.
 */
import { describe, expect, it } from 'vitest';
import { isChatResponse } from '../../src/models/response-check.js';
import { requestJson } from '../../src/models/transport.js';
import { ChatResponseSchema } from '../../src/spec/messages.js';
import { Rng } from '../../src/util/rng.js';

const good = () => ({
  id: 'c1',
  object: 'chat.completion',
  model: 'm',
  choices: [
    { index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }], reasoning_content: 'x' } },
  ],
  usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, cost: 0.001 },
});

/** Values that break one field or another: wrong types, nulls, negatives, fractions, huge integers, holes. */
const ODD: unknown[] = [null, undefined, 0, -1, 1.5, 2 ** 60, '', 'x', 'function', 'assistant', true, [], {}, [1], { a: 1 }, new Array(2)];

/** Every path to a value inside `x` (objects and arrays), root excluded. */
function paths(x: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof x !== 'object' || x === null) return [];
  return Object.keys(x).flatMap((k) => {
    const p = [...at, Array.isArray(x) ? Number(k) : k];
    return [p, ...paths((x as Record<string, unknown>)[k], p)];
  });
}

function setAt(root: unknown, p: (string | number)[], v: unknown): void {
  let cur = root as Record<string | number, unknown>;
  for (const k of p.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  if (v === undefined && !Array.isArray(cur)) delete cur[p[p.length - 1]];
  else cur[p[p.length - 1]] = v;
}

describe('the fast chat-completion check', () => {
  it('accepts well-formed bodies (loose: extra fields pass) and agrees with the schema on every one-field change', () => {
    expect(isChatResponse(good())).toBe(true);
    expect(isChatResponse({ choices: [{ message: { role: 'assistant', content: 'hi' } }] })).toBe(true);
    let cases = 0;
    for (const p of paths(good())) {
      for (const v of ODD) {
        const body = good();
        setAt(body, p, v);
        expect(isChatResponse(body), `${p.join('.')} = ${JSON.stringify(v)}`).toBe(ChatResponseSchema.safeParse(body).success);
        cases++;
      }
    }
    expect(cases).toBeGreaterThan(300);
  });

  it('agrees with the schema on random bodies and non-objects', () => {
    const rng = new Rng(17);
    const pick = <T>(xs: readonly T[]): T => xs[rng.int(0, xs.length - 1)];
    for (let i = 0; i < 2000; i++) {
      const body = good();
      for (let n = rng.int(0, 3); n > 0; n--) {
        const ps = paths(body);
        if (ps.length) setAt(body, pick(ps), pick(ODD));
      }
      if (rng.next() < 0.1) (body as Record<string, unknown>).choices = [];
      expect(isChatResponse(body), JSON.stringify(body)).toBe(ChatResponseSchema.safeParse(body).success);
    }
    for (const v of ODD) expect(isChatResponse(v)).toBe(ChatResponseSchema.safeParse(v).success);
  });
});

describe('the request wire text', () => {
  it('is JSON.stringify of the request, byte for byte, as the conversation grows', () => {
    const tools = [{ type: 'function', function: { name: 'get_user_details', parameters: { type: 'object', properties: { user_id: { type: 'string' } } } } }];
    const messages: unknown[] = [{ role: 'system', content: 'Policy: "quotes", é, \u2028 and \\ back-slashes' }];
    for (let turn = 0; turn < 6; turn++) {
      const request = { model: 'm', messages: messages.slice(), tools: tools.slice(), temperature: 0, seed: undefined, tool_choice: null };
      expect(requestJson(request)).toBe(JSON.stringify(request));
      messages.push(turn % 2 ? { role: 'assistant', content: null, tool_calls: [{ id: `c${turn}`, type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] } : { role: 'user', content: `turn ${turn}` });
    }
    const odd = { model: 'm', messages: [1, 'two', null, undefined, [3], new Array(2)] };
    expect(requestJson(odd)).toBe(JSON.stringify(odd));
    expect(requestJson([1, { a: 2 }])).toBe(JSON.stringify([1, { a: 2 }]));
  });
});
