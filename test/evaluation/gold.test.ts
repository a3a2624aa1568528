import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clearGoldCache, replayGold } from '../../src/evaluation/gold.js';
import { taskInitialState, deepMerge } from '../../src/evaluation/initial-state.js';
import type { Domain } from '../../src/spec/domain.js';
import { BadInputError } from '../../src/spec/errors.js';
import { miniDomain, miniTask, type MiniState } from '../support/mini-domain.js';

const goldTask = miniTask({
  id: 'gold_1',
  evaluation_criteria: {
    actions: [
      { action_id: 'a1', name: 'find_account', arguments: { email: 'ada@example.com' } },
      { action_id: 'a2', name: 'get_order', arguments: { order_id: 'O9' } },
      { action_id: 'a3', name: 'cancel_order', arguments: { order_id: 'O1', reason: 'no longer needed' } },
      { action_id: 'a4', requestor: 'user', name: 'reset_password', arguments: { account_id: 'A1' } },
    ],
  },
});

describe('gold replay', () => {
  it('runs every gold action with its requestor, swallowing and recording errors', async () => {
    const g = (await replayGold(miniDomain, goldTask));
    expect(g.task_id).toBe('gold_1');
    expect(g.log.map((e) => [e.requestor, e.name, e.error])).toEqual([
      ['assistant', 'find_account', false],
      ['assistant', 'get_order', true],
      ['assistant', 'cancel_order', false],
      ['user', 'reset_password', false],
    ]);
    expect(g.errors).toEqual([{ action_id: 'a2', name: 'get_order', requestor: 'assistant', output: 'Error: Order O9 not found' }]);
    expect(g.finalState.get('orders', 'O1')!.status).toBe('cancelled');
    expect(g.finalState.get('accounts', 'A1')).toMatchObject({ balance: 1234.5, password_reset: true });
    // the start state is kept apart from the replay
    expect(g.initialState.get('orders', 'O1')!.status).toBe('pending');
    expect(miniDomain.state!.diff(g.initialState, g.finalState).map((d) => d.path)).toEqual([
      '/orders/O1/status',
      '/accounts/A1/balance',
      '/accounts/A1/password_reset',
    ]);
  });

  it('uses the requestor to pick the tool set (a user tool asked for by the assistant fails)', async () => {
    const t = miniTask({ id: 'gold_req', evaluation_criteria: { actions: [{ action_id: 'x', name: 'reset_password', arguments: { account_id: 'A1' } }] } });
    expect((await replayGold(miniDomain, t)).errors).toEqual([{ action_id: 'x', name: 'reset_password', requestor: 'assistant', output: "Error: Tool 'reset_password' not found." }]);
  });

  it('caches per domain instance and task, and forgets on request', async () => {
    const a = (await replayGold(miniDomain, goldTask));
    expect((await replayGold(miniDomain, goldTask))).toBe(a);
    // same id, different gold content: not served from the cache
    const other = miniTask({ id: 'gold_1', evaluation_criteria: { actions: [] } });
    expect((await replayGold(miniDomain, other)).finalState.get('orders', 'O1')!.status).toBe('pending');
    // another domain instance has its own cache
    const twin: Domain<MiniState> = { ...miniDomain };
    expect((await replayGold(twin, goldTask))).not.toBe(a);
    clearGoldCache(miniDomain);
    const b = (await replayGold(miniDomain, goldTask));
    expect(b).not.toBe(a);
    expect(miniDomain.state!.equal(a.finalState, b.finalState)).toBe(true);
  });

  it('passes the replay options to the tools (ids from the id seed)', async () => {
    const t = miniTask({ id: 'gold_ticket', evaluation_criteria: { actions: [{ action_id: 't', name: 'create_ticket', arguments: { account_id: 'A1', note: 'n' } }] } });
    const g = (await replayGold(miniDomain, t, { now: '2026-01-01T00:00:00Z', idSeed: 'S' }));
    expect(g.log[0].output).toBe('{"ticket_id": "TS1"}');
    expect(g.finalState.ids('tickets')).toEqual(['TS1']);
  });
});

describe('task initial state', () => {
  it('applies initialization_data through the domain hook, then initialization_actions by tool name', async () => {
    const t = miniTask({
      id: 'init_1',
      initial_state: {
        initialization_data: { agent_data: { orders: { O2: { status: 'pending' } } } },
        initialization_actions: [{ env_type: 'assistant', func_name: 'cancel_order', arguments: { order_id: 'O2', reason: 'setup' } }],
      },
      evaluation_criteria: { actions: [{ action_id: 'g', name: 'update_address', arguments: { account_id: 'A1', city: 'Dallas', zip: '75201' } }] },
    });
    const s = (await taskInitialState(miniDomain, t));
    expect(s.get('orders', 'O2')).toEqual({ account_id: 'A1', status: 'cancelled', total: 20, items: ['pen'] });
    expect(s.get('accounts', 'A1')!.balance).toBe(20);
    const g = (await replayGold(miniDomain, t));
    expect(g.log.map((e) => e.name)).toEqual(['update_address']);
    expect(g.initialState.get('orders', 'O2')!.status).toBe('cancelled');
    expect(g.finalState.get('accounts', 'A1')!.address).toEqual({ city: 'Dallas', zip: '75201' });
    expect(miniDomain.initialState().get('orders', 'O2')!.status).toBe('delivered');
  });

  it('rejects a failing or malformed initialization action, naming the task and the action', async () => {
    const bad = miniTask({ id: 'init_bad', initial_state: { initialization_actions: [{ env_type: 'assistant', func_name: 'cancel_order', arguments: { order_id: 'O2', reason: 'x' } }] } });
    await expect(taskInitialState(miniDomain, bad)).rejects.toThrow(BadInputError);
    await expect(taskInitialState(miniDomain, bad)).rejects.toThrow(
      'at tasks[id=init_bad].initial_state.initialization_actions[0]: initialization action cancel_order failed: Error: Order O2 is not pending',
    );
    const malformed = miniTask({ id: 'init_m', initial_state: { initialization_actions: [{ env_type: 'robot', func_name: 'x' }] } });
    await expect(taskInitialState(miniDomain, malformed)).rejects.toThrow(/initialization_actions\[0\]: expected \{env_type/);
  });

  it('deep-merges agent_data into a plain-object state when the domain has no hook (lists replaced)', async () => {
    interface P { items: Record<string, { qty: number; tags?: string[] }>; list: number[] }
    const plain: Domain<P> = {
      name: 'plain', description: 'p', outputStyle: { ensureAscii: true },
      initialState: () => ({ items: { a: { qty: 1, tags: ['x', 'y'] } }, list: [1, 2] }),
      tools: [{ name: 'noop', description: 'n', kind: 'read', requestor: 'assistant', parameters: z.object({}), invoke: () => 'ok' }],
    };
    const t = miniTask({ id: 'plain_1', initial_state: { initialization_data: { agent_data: { items: { a: { tags: ['z'] }, b: { qty: 2 } }, list: [3] } } } });
    expect((await taskInitialState(plain, t))).toEqual({ items: { a: { qty: 1, tags: ['z'] }, b: { qty: 2 } }, list: [3] });
    const u = miniTask({ id: 'plain_2', initial_state: { initialization_data: { user_data: { device: {} } } } });
    await expect(taskInitialState(plain, u)).rejects.toThrow("domain 'plain' has no user-side state to apply user_data to");
    const { applyInitialState: _hook, ...noHook } = miniDomain;
    const c = miniTask({ id: 'cow_1', initial_state: { initialization_data: { agent_data: { orders: {} } } } });
    await expect(taskInitialState(noHook, c)).rejects.toThrow(
      "domain 'mini' cannot apply agent_data: its state is not a plain object and it has no applyInitialState hook",
    );
  });

  it('deepMerge never mutates its inputs', async () => {
    const target = { a: { b: [1], c: 1 } };
    const patch = { a: { b: [2] } };
    expect(deepMerge(target, patch)).toEqual({ a: { b: [2], c: 1 } });
    expect(target).toEqual({ a: { b: [1], c: 1 } });
  });
});

describe('deepMerge edge cases', () => {
  it('keeps a __proto__ key from task data as a plain key', async () => {
    const merged = deepMerge({ a: 1 }, JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.keys(merged)).toEqual(['a', '__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
