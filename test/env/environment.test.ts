import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Environment } from '../../src/env/environment.js';
import { toWireTool } from '../../src/env/wire-tools.js';
import { ToolError, type ToolDef } from '../../src/spec/tool.js';
import type { Domain } from '../../src/spec/domain.js';
import { yunshuDomain } from '../../src/domains/yunshu/index.js';

interface S { items: Record<string, { qty: number }> }
const tools: ToolDef<S, any>[] = [
  {
    name: 'get_item', description: 'Read an item.', kind: 'read', requestor: 'assistant',
    parameters: z.object({ id: z.string() }),
    invoke: ({ id }, { state }) => {
      const it = state.items[id];
      if (!it) throw new ToolError(`Item ${id} not found`);
      return it;
    },
  },
  {
    name: 'set_qty', description: 'Write an item.', kind: 'write', requestor: 'assistant',
    parameters: z.object({ id: z.string(), qty: z.number().int().min(0) }),
    invoke: ({ id, qty }, { state, nextId }) => {
      state.items[id] = { qty };
      return { ok: true, ticket: nextId('T') };
    },
  },
  {
    name: 'boom', description: 'A buggy tool.', kind: 'read', requestor: 'assistant', parameters: z.object({}),
    invoke: () => { throw new Error('kaput'); },
  },
  { name: 'toggle', description: 'User-side.', kind: 'write', requestor: 'user', parameters: z.object({}), invoke: () => 'done' },
];
const domain: Domain<S> = { name: 't', description: 't', tools, initialState: () => ({ items: { a: { qty: 1 } } }), outputStyle: { ensureAscii: true } };
const call = (name: string, args: string) => ({ id: 'c1', type: 'function' as const, function: { name, arguments: args } });

describe('Environment', () => {
  it('runs tools and serialises results the Python way', async () => {
    const env = new Environment(domain, { now: '2026-01-01T00:00:00Z', idSeed: 'X' });
    expect((await env.execute(call('get_item', '{"id":"a"}'))).output).toBe('{"qty": 1}');
    const w = (await env.execute(call('set_qty', '{"id":"b","qty":2}')));
    expect(w).toMatchObject({ step: 1, output: '{"ok": true, "ticket": "TX1"}', error: false, mutating: true });
    expect(env.diff()).toEqual([{ path: '/items/b', op: 'add', before: null, after: { qty: 2 } }]);
    expect(env.changed()).toBe(true);
  });
  it('turns every bad call into an Error tool message and never throws', async () => {
    const env = new Environment(domain, { now: 'n' });
    expect((await env.execute(call('nope', '{}'))).output).toBe("Error: Tool 'nope' not found.");
    expect((await env.execute(call('toggle', '{}'))).output).toBe("Error: Tool 'toggle' not found.");
    expect((await env.execute(call('get_item', '{"id":'))).output).toMatch(/^Error: arguments for get_item are not valid JSON/);
    expect((await env.execute(call('set_qty', '{"id":"a","qty":-1}'))).output).toMatch(/^Error: invalid arguments for set_qty: qty:/);
    expect((await env.execute(call('set_qty', '{"id":"a"}'))).output).toMatch(/^Error: invalid arguments for set_qty: qty:/);
    expect((await env.execute(call('get_item', '{"id":"zz"}'))).output).toBe('Error: Item zz not found');
    expect(env.log.every((e) => e.error && !e.mutating && e.harnessError === undefined)).toBe(true);
    expect(env.harnessFault).toBeNull();
    expect(env.changed()).toBe(false);
    expect((await env.execute(call('toggle', '{}'), 'user')).output).toBe('done');
  });
  it('a tool that throws something other than a ToolError is a harness error, never a plain tool error', async () => {
    const env = new Environment(domain, { now: 'n' });
    const entry = await env.execute(call('boom', ''), 'assistant', { message_index: 1 });
    expect(entry).toMatchObject({ name: 'boom', output: 'Error: harness error in tool boom', error: true, harnessError: 'Error: kaput' });
    expect(env.harnessFault).toEqual({ tool: 'boom', message: 'Error: kaput' });
  });
  it('records one back-end action per API tool call, malformed calls included, with its cause', async () => {
    const env = new Environment(domain, { now: 'n', idSeed: 'X' });
    await env.execute(call('get_item', '{"id":"a"}'), 'assistant', { message_index: 2 });
    await env.execute({ id: 'c2', type: 'function', function: { name: 'set_qty', arguments: '{"id":"a","qty":5}' } }, 'assistant', { message_index: 4 });
    await env.execute(call('nope', '{}'), 'assistant', { message_index: 6 });
    await env.execute(call('toggle', '{}'), 'user');
    expect(env.actionLog).toEqual([
      { seq: 0, requestor: 'assistant', name: 'get_item', arguments: { id: 'a' }, result: '{"qty": 1}', error: false, mutating: false, cause: { message_index: 2, tool_call_id: 'c1' } },
      { seq: 1, requestor: 'assistant', name: 'set_qty', arguments: { id: 'a', qty: 5 }, result: '{"ok": true, "ticket": "TX1"}', error: false, mutating: true, cause: { message_index: 4, tool_call_id: 'c2' } },
      { seq: 2, requestor: 'assistant', name: 'nope', arguments: '{}', result: "Error: Tool 'nope' not found.", error: true, mutating: false, cause: { message_index: 6, tool_call_id: 'c1' } },
      { seq: 3, requestor: 'user', name: 'toggle', arguments: {}, result: 'done', error: false, mutating: true },
    ]);
    expect(env.log).toHaveLength(4);
  });
  it('exports zod parameters as plain JSON Schema', async () => {
    expect(toWireTool(tools[1])).toEqual({
      type: 'function',
      function: { name: 'set_qty', description: 'Write an item.', parameters: { type: 'object', properties: { id: { type: 'string' }, qty: { type: 'integer', minimum: 0, maximum: 9007199254740991 } }, required: ['id', 'qty'] } },
    });
  });
});

describe('yunshu mock domain', () => {
  const env = () => new Environment(yunshuDomain, { now: '2026-07-29T17:12:17Z' });
  it('returns the recorded outputs byte for byte', async () => {
    const e = env();
    expect((await e.execute(call('lookup_reservation', '{"confirmation_code":"ABC123"}'))).output).toBe(
      '{"confirmation_code": "ABC123", "passenger": "张伟", "flight": "YS1234 上海虹桥→北京首都 2026-08-01 09:00", "cabin": "经济舱", "fare_type": "经济舱特价票", "status": "已出票"}',
    );
    expect((await e.execute(call('change_flight', '{"confirmation_code":"ABC123","new_flight":"8月3日"}'))).output).toBe('{"result": "success", "new_flight": "8月3日", "fee": "改签费 200 元"}');
    expect((await e.execute(call('get_baggage_policy', '{"cabin":"经济舱"}'))).output).toBe('{"cabin": "经济舱", "free_allowance": "20kg", "excess_fee": "逾重费 50 元/kg"}');
    expect((await e.execute(call('change_seat', '{"confirmation_code":"ABC123","seat":"32A"}'))).output).toBe('{"result": "success", "seat": "32A"}');
    expect((await e.execute(call('get_refund_policy', '{"fare_type":"经济舱特价票"}'))).output).toBe(
      '{"fare_type": "经济舱特价票", "policy": "经济舱特价票为不可退票产品，不支持自愿退款；如未起飞可申请退还机建燃油等税费。"}',
    );
    expect(e.state.changes).toHaveLength(2);
  });
});

describe('tool argument validation', () => {
  it('gives the same arguments and errors on the first calls of a schema (zod without its compiled fast path) as on later ones', async () => {
    const { validateArguments } = await import('../../src/env/dispatch.js');
    const tool: ToolDef<unknown> = {
      name: 'book',
      description: 'books',
      parameters: z.strictObject({ user_id: z.string(), seats: z.array(z.strictObject({ row: z.number().int(), cabin: z.enum(['economy', 'business']) })), note: z.string().optional(), insurance: z.enum(['yes', 'no']).default('no') }),
      kind: 'write',
      requestor: 'assistant',
      invoke: () => 'ok',
    };
    const good = { seats: [{ cabin: 'business', row: 3 }], user_id: 'u1' };
    const bad = { user_id: 'u1', seats: [{ row: 1.5, cabin: 'first' }], extra: true };
    const results = Array.from({ length: 150 }, () => [validateArguments(tool, good), validateArguments(tool, bad)]);
    expect(results[0][0]).toEqual({ ok: true, args: { user_id: 'u1', seats: [{ row: 3, cabin: 'business' }], insurance: 'no' } });
    expect(results[0][1].ok).toBe(false);
    for (const r of results) expect(JSON.stringify(r)).toBe(JSON.stringify(results[0]));
  });
});
