/**
 * A small test domain for the evaluator: accounts, orders and tickets on a copy-on-write table
 * DB, with read, write, generic and user-side tools, a StateOps, an initial-state hook and one
 * env-assertion function. Plus a trace builder that runs hand-written turns through a real
 * Environment, so messages and tool log always agree.
 */
import { z } from 'zod';
import { CowDb } from '../../src/env/cow-db.js';
import { Environment, type ToolLogEntry } from '../../src/env/environment.js';
import { ToolError, type ToolDef } from '../../src/spec/tool.js';
import type { Domain, LoadedDomain } from '../../src/spec/domain.js';
import type { StateOps } from '../../src/spec/state.js';
import type { ChatMessage } from '../../src/spec/messages.js';
import { TaskSchema, type Task } from '../../src/spec/task.js';
import { canonicalHash } from '../../src/util/canonical.js';
import { deepMerge, DEFAULT_REPLAY_ENV, taskInitialState, type ReplayEnvOptions } from '../../src/evaluation/initial-state.js';
import type { EpisodeTrace, TerminationReason } from '../../src/evaluation/types.js';

export interface Account { name: string; email: string; address: { city: string; zip: string }; balance: number; password_reset: boolean }
export interface Order { account_id: string; status: 'pending' | 'cancelled' | 'delivered'; total: number; items: string[] }
export interface Ticket { account_id: string; note: string }
export type MiniTables = { accounts: Record<string, Account>; orders: Record<string, Order>; tickets: Record<string, Ticket> };
export type MiniState = CowDb<MiniTables>;

const BASE: MiniTables = {
  accounts: {
    A1: { name: 'Ada Byron', email: 'ada@example.com', address: { city: 'Austin', zip: '78701' }, balance: 0, password_reset: false },
    A2: { name: 'Bo Chen', email: 'bo@example.com', address: { city: 'Boston', zip: '02108' }, balance: 10, password_reset: false },
  },
  orders: {
    O1: { account_id: 'A1', status: 'pending', total: 1234.5, items: ['lamp', 'desk'] },
    O2: { account_id: 'A1', status: 'delivered', total: 20, items: ['pen'] },
    O3: { account_id: 'A2', status: 'pending', total: 99.99, items: ['chair'] },
  },
  tickets: {},
};

export const miniStateOps: StateOps<MiniState> = {
  fork: (s) => s.branch(),
  equal: (a, b) => CowDb.equal(a, b),
  diff: (a, b) => CowDb.diff(a, b),
  hash: (s) => canonicalHash(s.materialize()),
};

const order = (db: MiniState, id: string): Order => {
  const o = db.get('orders', id);
  if (!o) throw new ToolError(`Order ${id} not found`);
  return o;
};

const tools: ToolDef<MiniState, any>[] = [
  {
    name: 'find_account', description: 'Find an account id by email.', kind: 'read', requestor: 'assistant',
    parameters: z.object({ email: z.string() }),
    invoke: ({ email }, { state }) => {
      const id = state.ids('accounts').find((k) => state.get('accounts', k)!.email === email);
      if (!id) throw new ToolError(`No account with email ${email}`);
      return id;
    },
  },
  {
    name: 'get_order', description: 'Read an order.', kind: 'read', requestor: 'assistant',
    parameters: z.object({ order_id: z.string() }),
    invoke: ({ order_id }, { state }) => order(state, order_id),
  },
  {
    name: 'cancel_order', description: 'Cancel a pending order and refund its total to the balance.', kind: 'write', requestor: 'assistant',
    parameters: z.object({ order_id: z.string(), reason: z.string() }),
    invoke: ({ order_id }, { state }) => {
      if (order(state, order_id).status !== 'pending') throw new ToolError(`Order ${order_id} is not pending`);
      const o = state.mut('orders', order_id);
      o.status = 'cancelled';
      state.mut('accounts', o.account_id).balance += o.total;
      return o;
    },
  },
  {
    name: 'update_address', description: "Change an account's address.", kind: 'write', requestor: 'assistant',
    parameters: z.object({ account_id: z.string(), city: z.string(), zip: z.string() }),
    invoke: ({ account_id, city, zip }, { state }) => {
      if (!state.has('accounts', account_id)) throw new ToolError(`Account ${account_id} not found`);
      state.mut('accounts', account_id).address = { city, zip };
      return 'Address updated';
    },
  },
  {
    name: 'create_ticket', description: 'Open a support ticket.', kind: 'write', requestor: 'assistant',
    parameters: z.object({ account_id: z.string(), note: z.string() }),
    invoke: ({ account_id, note }, { state, nextId }) => {
      const id = nextId('T');
      state.put('tickets', id, { account_id, note });
      return { ticket_id: id };
    },
  },
  {
    name: 'transfer_to_human_agents', description: 'Hand the customer to a human.', kind: 'generic', requestor: 'assistant',
    parameters: z.object({ summary: z.string() }),
    invoke: () => 'Transfer successful',
  },
  {
    name: 'reset_password', description: 'User-side: reset my password.', kind: 'write', requestor: 'user',
    parameters: z.object({ account_id: z.string() }),
    invoke: ({ account_id }, { state }) => {
      state.mut('accounts', account_id).password_reset = true;
      return 'done';
    },
  },
];

export const miniDomain: Domain<MiniState> = {
  name: 'mini',
  description: 'Evaluator test domain: accounts, orders, tickets.',
  tools,
  initialState: () => new CowDb(BASE),
  state: miniStateOps,
  outputStyle: { ensureAscii: true },
  applyInitialState: (state, data) => {
    const patch = (data.agent_data ?? {}) as Partial<Record<keyof MiniTables, Record<string, unknown>>>;
    for (const [table, rows] of Object.entries(patch) as [keyof MiniTables, Record<string, unknown>][]) {
      for (const [id, row] of Object.entries(rows)) {
        state.put(table, id, (state.has(table, id) ? deepMerge(state.get(table, id), row) : row) as never);
      }
    }
    return state;
  },
  assertions: {
    assert_order_status: (state, args) => state.get('orders', String(args.order_id))?.status === args.status,
  },
};

export const miniLoaded: LoadedDomain<MiniState> = { domain: miniDomain, mode: 'servicegym', policy: 'Be helpful.', tasks: [], source: 'test' };

/** A task parsed with the real schema (defaults applied); `user_scenario` filled in. */
export function miniTask(fields: Record<string, unknown>): Task {
  return TaskSchema.parse({ user_scenario: { instructions: 'Cancel my order.' }, ...fields });
}

/** One hand-written turn: text from either side, agent tool calls (one message), or a user-side tool call. */
export type Turn =
  | { user: string }
  | { agent: string }
  | { calls: [name: string, args: Record<string, unknown> | string][] }
  | { userCall: [name: string, args: Record<string, unknown>] };

/**
 * Builds an episode trace: a system message, then each turn; agent calls are executed in a real
 * Environment (started at the task's initial state) with ids `call_1`, `call_2`, … and followed
 * by their tool messages; user-side calls go to the log only.
 */
export async function buildTrace(
  turns: Turn[],
  opts: { termination?: TerminationReason; task?: Task; env?: ReplayEnvOptions; domain?: Domain<MiniState> } = {},
): Promise<EpisodeTrace<MiniState> & { toolLog: ToolLogEntry[] }> {
  const domain = opts.domain ?? miniDomain;
  const envOpts = opts.env ?? DEFAULT_REPLAY_ENV;
  const state = opts.task ? await taskInitialState(domain, opts.task, envOpts) : undefined;
  const env = new Environment<MiniState>(domain, { now: envOpts.now, idSeed: envOpts.idSeed, state });
  const messages: ChatMessage[] = [{ role: 'system', content: 'Be helpful.' }];
  let n = 0;
  for (const t of turns) {
    if ('user' in t) messages.push({ role: 'user', content: t.user });
    else if ('agent' in t) messages.push({ role: 'assistant', content: t.agent });
    else if ('userCall' in t) await env.execute({ id: 'u', type: 'function', function: { name: t.userCall[0], arguments: JSON.stringify(t.userCall[1]) } }, 'user');
    else {
      const tcs = t.calls.map(([name, args]) => ({
        id: `call_${++n}`,
        type: 'function' as const,
        function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
      }));
      const at = messages.length;
      messages.push({ role: 'assistant', content: null, tool_calls: tcs });
      for (const tc of tcs) messages.push({ role: 'tool', tool_call_id: tc.id, content: (await env.execute(tc, 'assistant', { message_index: at })).output });
    }
  }
  return { messages, toolLog: env.log, actionLog: env.actionLog, termination: opts.termination ?? 'user_stop', finalState: env.state };
}
