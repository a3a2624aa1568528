/**
 * The helpdesk domain's back-end (seed task T18 and the helpdesk and shop tasks): the policy's
 * formulas, what the shop and the helpdesk refuse, the generated codes, the dataset's records,
 * and the API route: the oracle scores reward 1 and partial 100% on every task, and T18's faulty
 * agents score the seed's partials (35/25/25/15).
 */
import { describe, expect, it } from 'vitest';
import { ScriptedAgent, call, say, stop } from '../../../src/agents/scripted-agent.js';
import { loadDomain } from '../../../src/domains/index.js';
import { daysLate, generatedCode, macroVariables, renderMacro } from '../../../src/domains/helpdesk/rules.js';
import { servicegymHelpdeskJson } from '../../../src/domains/helpdesk/dataset.js';
import { Environment } from '../../../src/env/environment.js';
import { runDomainTasks } from '../../../src/run/task-run.js';
import type { Task } from '../../../src/spec/task.js';

const loaded = loadDomain('helpdesk');
const NOW = loaded.now!;
const task = (id: string): Task => loaded.tasks.find((t) => t.id === id)!;
let n = 0;
const exec = (env: Environment<any>, name: string, args: unknown) => env.execute({ id: `c${++n}`, type: 'function', function: { name, arguments: JSON.stringify(args) } });

describe('policy formulas', () => {
  const db = servicegymHelpdeskJson();
  it('T18: order #1207 was promised Nov 9 and delivered Nov 15, 6 days late; shipping $8.95 of $136.45', () => {
    const o = db.orders['1207'];
    expect(daysLate(o)).toBe(6);
    expect(o.shipping_line.price_cents).toBe(895);
    expect(o.total_cents).toBe(13645);
    expect(daysLate(db.orders['1234'])).toBe(0); // H05: on the promised day
    expect(daysLate(db.orders['1226'])).toBeNull(); // H03: in transit
  });
  it('generated codes depend on the scope and count only; macro variables are listed and filled', () => {
    expect(generatedCode('1207', 1)).toBe('SORRY-ZS6PYR');
    expect(generatedCode('1207', 2)).not.toBe(generatedCode('1207', 1));
    expect(macroVariables('Hi {{customer.first_name}}, code {{ discount_code }} {{discount_code}}')).toEqual(['customer.first_name', 'discount_code']);
    expect(renderMacro('A {{x}} B {{y}}', { x: ' 1 ', y: '  ' })).toBe('A 1 B {{y}}');
  });
});

describe('back-end operations', () => {
  it('a refund cannot exceed what is refundable and updates the order; refunds are numbered per order', async () => {
    const env = new Environment(loaded.domain, { now: NOW });
    const over = await exec(env, 'refund_order', { order_id: '#1207', line_items: [], shipping_cents: 896, reason: 'late_delivery' });
    expect(over.output).toBe('Error: Order 1207 has 895 cents of shipping left to refund, not 896');
    expect((await exec(env, 'refund_order', { order_id: '1207', line_items: [], shipping_cents: 0, reason: 'late_delivery' })).output).toMatch(/Nothing to refund/);
    expect((await exec(env, 'refund_order', { order_id: '1207', line_items: [{ line_id: 'li-1207-1', quantity: 2 }], shipping_cents: 0, reason: 'returned' })).output).toMatch(/has 1 refundable unit/);
    const ok = JSON.parse((await exec(env, 'refund_order', { order_id: '1207', line_items: [], shipping_cents: 895, reason: 'late_delivery' })).output);
    expect(ok).toMatchObject({ refund_id: 'RF-1207-1', shipping_cents: 895, total_cents: 895, created_at: NOW });
    const o = JSON.parse((await exec(env, 'get_order', { order_id: '1207' })).output);
    expect(o).toMatchObject({ refunded_cents: 895, shipping_refunded_cents: 895, financial_status: 'partially_refunded', refund_ids: ['RF-1207-1'] });
    expect((await exec(env, 'refund_order', { order_id: '1207', line_items: [], shipping_cents: 1, reason: 'late_delivery' })).output).toMatch(/0 cents of shipping left/);
  });

  it('codes: generated per order, a duplicate refused, disable once; a used code keeps its record', async () => {
    const env = new Environment(loaded.domain, { now: NOW });
    const args = { percent_off: 10, usage_limit: 1, once_per_customer: true, customer_id: 'cus_4471', order_id: '1207', code: null };
    expect(JSON.parse((await exec(env, 'create_discount_code', args)).output).code).toBe('SORRY-ZS6PYR');
    expect(JSON.parse((await exec(env, 'create_discount_code', { ...args, usage_limit: null })).output).code).toBe('SORRY-UHKD4W');
    expect((await exec(env, 'create_discount_code', { ...args, code: 'sorry-zs6pyr' })).output).toBe('Error: Discount code SORRY-ZS6PYR already exists');
    expect((await exec(env, 'create_discount_code', { ...args, code: 'no spaces' })).output).toMatch(/Invalid code/);
    expect((await exec(env, 'disable_discount_code', { code: 'HARVEST-20' })).error).toBe(false);
    expect((await exec(env, 'disable_discount_code', { code: 'HARVEST-20' })).output).toBe('Error: Discount code HARVEST-20 is already disabled');
    expect(JSON.parse((await exec(env, 'list_discount_codes', { customer_id: 'cus_4502' })).output)).toMatchObject([{ code: 'SORRY-Z6Q9Y3', times_used: 1, usage_limit: 1 }]);
  });

  it('a reply with an unfilled macro variable or no text is refused; a macro reply adds its tags; status changes are checked', async () => {
    const env = new Environment(loaded.domain, { now: NOW });
    expect((await exec(env, 'reply_to_ticket', { ticket_id: '5521', body: 'Your code: {{discount_code}}', macro_id: 'late-delivery-apology' })).output).toBe('Error: Fill in the macro variable(s) before sending: discount_code');
    expect((await exec(env, 'reply_to_ticket', { ticket_id: '5521', body: '   ' })).output).toBe('Error: The reply is empty');
    const msg = JSON.parse((await exec(env, 'reply_to_ticket', { ticket_id: '#5521', body: 'Sorry!', macro_id: 'late-delivery-apology' })).output);
    expect(msg).toEqual({ message_id: '5521-2', from: 'agent', public: true, body: 'Sorry!', macro_id: 'late-delivery-apology', sent_at: NOW });
    expect(JSON.parse((await exec(env, 'get_ticket', { ticket_id: '5521' })).output)).toMatchObject({ tags: ['late-delivery'], requester: { name: 'Dana Whitfield', email: 'dana.whitfield@example.com' } });
    expect((await exec(env, 'set_ticket_status', { ticket_id: '5521', status: 'open' })).output).toBe('Error: Ticket 5521 is already open');
    expect((await exec(env, 'add_ticket_tag', { ticket_id: '5521', tag: 'Late-Delivery' })).output).toBe('Error: Ticket 5521 already has tag late-delivery');
    expect((await exec(env, 'find_customer', { email: 'nobody@example.com' })).output).toBe('Error: No shop customer with email nobody@example.com');
  });
});

describe('the dataset', () => {
  it('has T18 exactly as the seed states it and at least 5 more tasks per app, each weighted to 100', () => {
    const t18 = task('T18');
    expect(t18.servicegym!.partial_credit.map((p) => [p.id, p.weight])).toEqual([['shipping_only_refund', 35], ['discount_code', 25], ['reply_with_code', 25], ['closed', 15]]);
    expect(t18.ticket).toContain('#5521');
    expect(loaded.tasks.filter((t) => /^H\d/.test(t.id)).length).toBeGreaterThanOrEqual(5);
    expect(loaded.tasks.filter((t) => /^S\d/.test(t.id)).length).toBeGreaterThanOrEqual(5);
    const db = servicegymHelpdeskJson();
    expect(Object.keys(db.tickets).length).toBeGreaterThan(20);
    expect(Object.keys(db.orders).length).toBeGreaterThan(50);
    expect(Object.values(db.tickets).some((t) => t.status === 'closed') && Object.values(db.tickets).some((t) => t.status === 'pending')).toBe(true);
  });
});

/** T18 through the API with one policy breach each, and the partial the seed's weights give. */
const T18_REPLY = (code: string) => `Hi Dana, sorry #1207 was late. Shipping refunded; your single-use 10% code: ${code}`;
const T18_FAULTY: Record<string, [steps: ReturnType<typeof call>[], partial: number]> = {
  items_refunded: [[call('refund_order', { order_id: '1207', line_items: [{ line_id: 'li-1207-1', quantity: 1 }, { line_id: 'li-1207-2', quantity: 1 }], shipping_cents: 895, reason: 'late_delivery' }), call('create_discount_code', { percent_off: 10, usage_limit: 1, once_per_customer: true, customer_id: 'cus_4471', order_id: '1207', code: null }), call('reply_to_ticket', { ticket_id: '5521', body: T18_REPLY('SORRY-ZS6PYR') }), call('set_ticket_status', { ticket_id: '5521', status: 'closed' })], 0.65],
  reusable_code: [[call('refund_order', { order_id: '1207', line_items: [], shipping_cents: 895, reason: 'late_delivery' }), call('create_discount_code', { percent_off: 10, usage_limit: null, once_per_customer: false, customer_id: 'cus_4471', order_id: '1207', code: null }), call('reply_to_ticket', { ticket_id: '5521', body: T18_REPLY('SORRY-ZS6PYR') }), call('set_ticket_status', { ticket_id: '5521', status: 'closed' })], 0.75],
  reply_without_code: [[call('refund_order', { order_id: '1207', line_items: [], shipping_cents: 895, reason: 'late_delivery' }), call('create_discount_code', { percent_off: 10, usage_limit: 1, once_per_customer: true, customer_id: 'cus_4471', order_id: '1207', code: null }), call('reply_to_ticket', { ticket_id: '5521', body: 'Hi Dana, sorry #1207 was late. I refunded the shipping.' }), call('set_ticket_status', { ticket_id: '5521', status: 'closed' })], 0.75],
  ticket_left_open: [[call('refund_order', { order_id: '1207', line_items: [], shipping_cents: 895, reason: 'late_delivery' }), call('create_discount_code', { percent_off: 10, usage_limit: 1, once_per_customer: true, customer_id: 'cus_4471', order_id: '1207', code: null }), call('reply_to_ticket', { ticket_id: '5521', body: T18_REPLY('SORRY-ZS6PYR') })], 0.85],
};

describe('the API route', () => {
  it('the oracle scores reward 1 and partial 100% on every task', async () => {
    const res = await runDomainTasks({ loaded, tasks: loaded.tasks, trials: 1, concurrency: 2, agent: 'oracle', user: 'personas', runId: 'helpdesk' });
    expect(res.records.map((r) => [r.taskId, r.evaluation?.reward, r.evaluation?.partial])).toEqual(loaded.tasks.map((t) => [t.id, 1, 1]));
  }, 120_000);

  it.each(Object.entries(T18_FAULTY))('T18 faulty agent %s scores the seed partial on the ticket-driven episode', async (_name, [steps, partial]) => {
    const res = await runDomainTasks({ loaded, tasks: [task('T18')], trials: 1, concurrency: 1, agent: 'scripted', user: 'ticket', runId: 'faulty', makeAgent: () => new ScriptedAgent([...steps, say('Done.'), stop()]) });
    const r = res.records[0];
    expect(r.episode.termination).toBe('user_stop');
    expect(r.evaluation!.partial).toBeCloseTo(partial, 10);
    expect(r.evaluation!.reward).toBe(0);
  }, 60_000);
});
