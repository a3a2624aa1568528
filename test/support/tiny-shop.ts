/**
 * tiny-shop: a minimal test domain (two orders, three tools) with three tasks, for agent, user,
 * orchestrator and run tests. Not a product domain.
 *
 * Tools: `get_order` (read), `cancel_order` (write; only pending orders; records a refund),
 * `transfer_to_human_agents` (generic, "Transfer successful").
 */
import { z } from 'zod';
import type { Domain, LoadedDomain } from '../../src/spec/domain.js';
import { ToolError, type ToolDef } from '../../src/spec/tool.js';
import { TaskSchema, type Task } from '../../src/spec/task.js';
import { Environment } from '../../src/env/environment.js';

export interface TinyShopState {
  orders: Record<string, { customer: string; status: 'pending' | 'delivered' | 'cancelled'; total: number; items: string[] }>;
  refunds: { order_id: string; amount: number; ticket: string }[];
}

const tools: ToolDef<TinyShopState, any>[] = [
  {
    name: 'get_order',
    description: 'Look up an order by id.',
    kind: 'read',
    requestor: 'assistant',
    parameters: z.object({ order_id: z.string().describe('Order id, e.g. O1') }),
    invoke: ({ order_id }, { state }) => {
      const o = state.orders[order_id];
      if (!o) throw new ToolError(`Order ${order_id} not found`);
      return { order_id, ...o };
    },
  },
  {
    name: 'cancel_order',
    description: 'Cancel a pending order and refund its total to the original payment method.',
    kind: 'write',
    requestor: 'assistant',
    parameters: z.object({ order_id: z.string(), reason: z.enum(['no longer needed', 'ordered by mistake']) }),
    invoke: ({ order_id, reason }, { state, nextId }) => {
      const o = state.orders[order_id];
      if (!o) throw new ToolError(`Order ${order_id} not found`);
      if (o.status !== 'pending') throw new ToolError(`Order ${order_id} is ${o.status} and cannot be cancelled`);
      o.status = 'cancelled';
      const refund = { order_id, amount: o.total, ticket: nextId('R') };
      state.refunds.push(refund);
      return { ...refund, reason };
    },
  },
  {
    name: 'transfer_to_human_agents',
    description: 'Transfer the customer to a human agent, with a summary of the issue.',
    kind: 'generic',
    requestor: 'assistant',
    parameters: z.object({ summary: z.string() }),
    invoke: () => 'Transfer successful',
  },
];

export const TINY_SHOP_POLICY = [
  '# Tiny Shop policy',
  '- Pending orders may be cancelled; the total is refunded to the original payment method.',
  '- Delivered orders cannot be cancelled or refunded by the agent; transfer the customer to a human agent.',
  '- Before cancelling, state the order and the refund amount and get an explicit yes from the customer.',
].join('\n');

export const tinyShopDomain: Domain<TinyShopState> = {
  name: 'tiny-shop',
  description: 'A two-order test shop.',
  policy: TINY_SHOP_POLICY,
  tools,
  initialState: () => ({
    orders: {
      O1: { customer: 'ana', status: 'pending', total: 42.5, items: ['desk lamp'] },
      O2: { customer: 'ana', status: 'delivered', total: 10, items: ['usb hub'] },
    },
    refunds: [],
  }),
  outputStyle: { ensureAscii: true },
};

export const tinyShopTasks: Task[] = [
  TaskSchema.parse({
    id: 'cancel_o1',
    user_scenario: {
      persona: 'Ana, polite and brief.',
      instructions: {
        domain: 'tiny-shop',
        reason_for_call: 'You want to cancel order O1 because you no longer need it.',
        known_info: 'Your order id is O1.',
        unknown_info: 'You do not know the order total.',
        task_instructions: 'Confirm the cancellation when asked. End the chat once the agent says it is done.',
      },
    },
    evaluation_criteria: {
      actions: [
        { action_id: 'a0', name: 'get_order', arguments: { order_id: 'O1' } },
        { action_id: 'a1', name: 'cancel_order', arguments: { order_id: 'O1', reason: 'no longer needed' } },
      ],
      communicate_info: ['42.5'],
      reward_basis: ['DB', 'COMMUNICATE'],
    },
  }),
  TaskSchema.parse({
    id: 'refund_o2',
    user_scenario: { instructions: 'You want a refund for delivered order O2. Accept a transfer to a human.' },
    evaluation_criteria: {
      actions: [{ action_id: 'a0', name: 'transfer_to_human_agents', arguments: { summary: 'refund for delivered order O2' }, compare_args: [] }],
      reward_basis: ['DB'],
    },
  }),
  TaskSchema.parse({
    id: 'status_o2',
    user_scenario: { instructions: 'Ask whether order O2 was delivered.' },
    evaluation_criteria: { actions: [{ action_id: 'a0', name: 'get_order', arguments: { order_id: 'O2' } }], communicate_info: ['delivered'], reward_basis: ['DB', 'COMMUNICATE'] },
  }),
];

export const tinyShop: LoadedDomain<TinyShopState> = {
  domain: tinyShopDomain,
  mode: 'servicegym',
  policy: TINY_SHOP_POLICY,
  tasks: tinyShopTasks,
  source: 'test',
};

export const TINY_NOW = '2026-01-01T00:00:00Z';

/** A fresh tiny-shop environment. */
export function tinyEnv(): Environment<TinyShopState> {
  return new Environment(tinyShopDomain, { now: TINY_NOW });
}

/** The state after running a task's assistant gold actions on a fresh environment (the test's own gold replay). */
export async function tinyGoldState(task: Task): Promise<TinyShopState> {
  const env = tinyEnv();
  for (const [i, a] of (task.evaluation_criteria?.actions ?? []).entries()) {
    await env.execute({ id: `g${i}`, type: 'function', function: { name: a.name, arguments: JSON.stringify(a.arguments) } });
  }
  return env.state;
}

export function tinyTask(id: string): Task {
  const t = tinyShopTasks.find((x) => x.id === id);
  if (!t) throw new Error(`no tiny-shop task ${id}`);
  return t;
}
