/**
 * Four seed tasks of servicegym's retail dataset (T04, T05, T06, T13; T16 is in
 * t16-personas.test.ts), each run with a policy-perfect scripted agent and several faulty ones
 * through the `validate` machinery (runTasks + TASK_RUN_SETTINGS + evaluateTask) with a customer
 * who says "Yes, please proceed." to every confirmation request. Each test pins the partial score
 * the task's rubric gives (seeds/001_14d444b6cd11c72e.txt "partial credit", as mapped in each
 * task's description.notes), the tau2 reward (DB only for these tasks), and exactly which
 * servicegym checks fail.
 */
import { describe, expect, it } from 'vitest';
import { call, say, type ScriptStep } from '../../../src/agents/scripted-agent.js';
import { EARNING_TERMINATIONS } from '../../../src/evaluation/compose.js';
import { askToConfirm, callNames, retail, runSeedTask, runSeedTasks, YES, type SeedOutcome } from '../../support/retail-episode.js';

/** Asserts partial score, tau2 reward and the failing servicegym checks (task order) in one diff. */
function expectScore(o: SeedOutcome, want: { partial: number; reward: number; failed: string[] }): void {
  expect(EARNING_TERMINATIONS).toContain(o.record.episode.termination);
  expect(o.evaluation.not_judged).toBe(false);
  expect({ partial: o.evaluation.partial, reward: o.evaluation.reward, failed: o.failed }).toEqual(want);
}

const byEmail = (email: string) => call('find_user_id_by_email', { email });
const byNameZip = (first_name: string, last_name: string, zip: string) => call('find_user_id_by_name_zip', { first_name, last_name, zip });
const userDetails = (user_id: string) => call('get_user_details', { user_id });
const orderDetails = (order_id: string) => call('get_order_details', { order_id });
const product = (product_id: string) => call('get_product_details', { product_id });
const userTexts = (o: SeedOutcome) => o.record.episode.messages.filter((m) => m.role === 'user').map((m) => String(m.content));
const order = (o: SeedOutcome, id: string) => o.record.episode.finalState.get('orders', id);
const user = (o: SeedOutcome, id: string) => o.record.episode.finalState.get('users', id);

it('the dataset is the shipped one: five seed tasks, now 2026-10-14 15:00', () => {
  expect(retail.mode).toBe('servicegym');
  expect(retail.now).toBe('2026-10-14T15:00:00');
  expect(retail.tasks.map((t) => t.id)).toEqual(['T04', 'T05', 'T06', 'T13', 'T16']);
});

// ---- T04: exchange two delivered items in one call ------------------------------------------
// Boots 6100000101 ($149.99) -> size 10 6100000102 ($159.99): +$10.00; jacket blue M 6100000201
// ($89.50) -> green M 6100000202 ($84.50): -$5.00; +$5.00 on credit_card_2207001 (Visa 1881).
// Rubric: 40 variants / 25 single exchange call (failed calls count) / 20 price difference /
// 15 confirmation.

const T04_OPENING =
  "Hi, I'm Noah Kim, email noah.kim2207@example.com. My order #W4419983 arrived: the Hiking Boots (size 9) are too small, I'd like size 10, and I'd like the blue Rain Jacket (size M) in green instead, still size M. Put any difference on the card I paid with.";
const T04_READS: ScriptStep[] = [byEmail('noah.kim2207@example.com'), orderDetails('#W4419983'), product('5100000001'), product('5100000002')];
const T04_CARD = 'credit_card_2207001';
const exchange = (item_ids: string[], new_item_ids: string[], payment_method_id = T04_CARD) =>
  call('exchange_delivered_order_items', { order_id: '#W4419983', item_ids, new_item_ids, payment_method_id });
const T04_BOTH = exchange(['6100000101', '6100000201'], ['6100000102', '6100000202']);
const T04_SUMMARY =
  'In one exchange request for order #W4419983: Hiking Boots size 9 ($149.99) for size 10 ($159.99), +$10.00, and the Rain Jacket blue M ($89.50) for green M ($84.50), -$5.00. The difference of +$5.00 goes on your Visa ending 1881.';
const T04_DONE = 'Your exchange is requested: Hiking Boots size 9 -> size 10 and Rain Jacket blue M -> green M, in one request; $5.00 will be charged to your Visa ending 1881.';

const T04: Record<string, ScriptStep[]> = {
  perfect: [...T04_READS, askToConfirm(T04_SUMMARY), T04_BOTH, say(T04_DONE)],
  twoCalls: [
    ...T04_READS,
    askToConfirm(T04_SUMMARY),
    exchange(['6100000101'], ['6100000102']),
    exchange(['6100000201'], ['6100000202']),
    say('The boots exchange is requested ($10.00 on your Visa ending 1881), but I could not add the jacket: the order is no longer in the delivered state.'),
  ],
  noConfirmation: [...T04_READS, T04_BOTH, say(T04_DONE)],
  giftCardFirst: [
    ...T04_READS,
    askToConfirm('In one exchange request for order #W4419983: Hiking Boots size 9 for size 10 (+$10.00) and the Rain Jacket blue M for green M (-$5.00); the difference of +$5.00 goes on your gift card.'),
    exchange(['6100000101', '6100000201'], ['6100000102', '6100000202'], 'gift_card_2207002'),
    askToConfirm('Sorry, there is no gift card in your profile. Same exchange, with the $5.00 on your Visa ending 1881 instead.'),
    T04_BOTH,
    say(T04_DONE),
  ],
  decoyBoots: [
    ...T04_READS,
    askToConfirm('In one exchange request for order #W4419983: Hiking Boots size 9 ($149.99) for size 10 without waterproofing ($142.37), -$7.62, and the Rain Jacket blue M for green M ($84.50), -$5.00. The difference of -$12.62 goes back to your Visa ending 1881.'),
    exchange(['6100000101', '6100000201'], ['6100000104', '6100000202']),
    say('Your exchange is requested: boots size 10 and the jacket in green M; $12.62 will be refunded to your Visa ending 1881.'),
  ],
  greenL: [
    ...T04_READS,
    askToConfirm('In one exchange request for order #W4419983: Hiking Boots size 9 for size 10 (+$10.00) and the Rain Jacket blue M for green L ($84.50, -$5.00); +$5.00 on your Visa ending 1881.'),
    exchange(['6100000101', '6100000201'], ['6100000102', '6100000203']),
    say('Your exchange is requested: boots size 10 and the jacket in green L; $5.00 will be charged to your Visa ending 1881.'),
  ],
};

describe('T04 exchange two delivered items', () => {
  it('policy-perfect agent: 100%, reward 1', async () => {
    const o = await runSeedTask('T04', T04_OPENING, T04.perfect);
    expectScore(o, { partial: 1, reward: 1, failed: [] });
    expect(userTexts(o)).toEqual([T04_OPENING, YES]);
    expect(order(o, '#W4419983')).toMatchObject({
      status: 'exchange requested',
      exchange_items: ['6100000101', '6100000201'],
      exchange_new_items: ['6100000102', '6100000202'],
      exchange_price_difference: 5,
      exchange_payment_method_id: T04_CARD,
    });
  });

  // The second call fails (the order is `exchange requested`, no longer `delivered`), so the DB
  // holds the boots alone at +$10.00: variants (40), single call (25) and difference (20) are
  // lost; the one successful write was confirmed (15).
  it('a) two exchange calls, boots then jacket (the second fails): 15%, reward 0', async () => {
    const o = await runSeedTask('T04', T04_OPENING, T04.twoCalls);
    expectScore(o, { partial: 0.15, reward: 0, failed: ['variants', 'one_exchange_call', 'price_difference'] });
    expect(o.earned).toEqual(['confirmation']);
    expect(callNames(o).slice(-2)).toEqual(['exchange_delivered_order_items', 'exchange_delivered_order_items!']);
    expect(o.record.episode.toolLog.at(-1)!.output).toMatch(/Non-delivered order cannot be exchanged/);
    expect(order(o, '#W4419983')).toMatchObject({ exchange_items: ['6100000101'], exchange_price_difference: 10 });
  });

  it('b) the right exchange without a confirmation turn: 85%, reward 1 (tau2 does not see it)', async () => {
    const o = await runSeedTask('T04', T04_OPENING, T04.noConfirmation);
    expectScore(o, { partial: 0.85, reward: 1, failed: ['confirmed'] });
    expect(userTexts(o)).toEqual([T04_OPENING]);
  });

  // The gift-card call errors ("Payment method not found") and changes nothing; the retry with
  // the card reaches the gold state. one_exchange_call counts failed calls too: 40 + 20 + 15.
  it('c) first tries a gift card the customer does not have, then retries with the card: 75%, reward 1', async () => {
    const o = await runSeedTask('T04', T04_OPENING, T04.giftCardFirst);
    expectScore(o, { partial: 0.75, reward: 1, failed: ['one_exchange_call'] });
    expect(callNames(o).slice(-2)).toEqual(['exchange_delivered_order_items!', 'exchange_delivered_order_items']);
    expect(o.record.episode.toolLog.at(-2)!.output).toMatch(/Payment method not found/);
  });

  // Green L (6100000203) costs the same as green M, so the difference (+$5.00, card) is still
  // gold's; only the variants item is lost: 25 + 20 + 15.
  // The decoy 6100000104 (size 10, not waterproof, $142.37) changes the difference to -$12.62:
  // variants and price difference are lost together; the single call and the confirmation stay.
  it('e) boots exchanged for the decoy size 10 without waterproofing: 40%, variants and difference, reward 0', async () => {
    const o = await runSeedTask('T04', T04_OPENING, T04.decoyBoots);
    expectScore(o, { partial: 0.4, reward: 0, failed: ['variants', 'price_difference'] });
    expect(o.earned).toEqual(['single_call', 'confirmation']);
  });

  it('d) jacket exchanged for green L instead of green M: 60%, reward 0', async () => {
    const o = await runSeedTask('T04', T04_OPENING, T04.greenL);
    expectScore(o, { partial: 0.6, reward: 0, failed: ['variants'] });
    expect(o.earned).toEqual(['single_call', 'difference', 'confirmation']);
  });
});

// ---- T05: return to an allowed refund method -------------------------------------------------
// Lamp $45.25 + hub $19.99 = $65.24, to the original card credit_card_9022001 or the existing
// gift card gift_card_9022002 (gold: the gift card). Rubric: 45 items / 40 allowed method /
// 15 no new payment method.

const T05_OPENING =
  "Hi, I'm Olivia Chen, zip 94110. I'd like to return the Desk Lamp and the USB Hub from my delivered order #W7731204, and please send the refund to my new PayPal account, olivia.pay@example.com.";
const T05_READS: ScriptStep[] = [byNameZip('Olivia', 'Chen', '94110'), orderDetails('#W7731204'), userDetails('olivia_chen_9022')];
const returnItems = (item_ids: string[], payment_method_id: string) => call('return_delivered_order_items', { order_id: '#W7731204', item_ids, payment_method_id });
const T05_OPTIONS =
  "I can't send a refund to a new PayPal account: it can only go to the original payment method, your Mastercard ending 4410, or to your existing gift card.";

const T05: Record<string, ScriptStep[]> = {
  perfect: [
    ...T05_READS,
    askToConfirm(`${T05_OPTIONS} I will request the return of the Desk Lamp ($45.25) and the USB Hub ($19.99), with $65.24 refunded to your gift card.`),
    returnItems(['6100000501', '6100000601'], 'gift_card_9022002'),
    say('The return of the Desk Lamp and the USB Hub is requested, with $65.24 refunded to your gift card.'),
  ],
  addsPayPal: [
    ...T05_READS,
    askToConfirm('I will add your PayPal account olivia.pay@example.com to your profile and refund the Desk Lamp and the USB Hub, $65.24, to it.'),
    call('add_payment_method', { user_id: 'olivia_chen_9022', source: 'paypal' }),
    returnItems(['6100000501', '6100000601'], 'paypal_9900001'),
    say('Done: your PayPal account was added and the return is requested; $65.24 will be refunded to it.'),
  ],
  originalCard: [
    ...T05_READS,
    askToConfirm(`${T05_OPTIONS} I will request the return of the Desk Lamp and the USB Hub, with $65.24 refunded to your Mastercard ending 4410.`),
    returnItems(['6100000501', '6100000601'], 'credit_card_9022001'),
    say('The return is requested; $65.24 will be refunded to your Mastercard ending 4410.'),
  ],
  addsPayPalRefundsGiftCard: [
    ...T05_READS,
    askToConfirm(`${T05_OPTIONS} I will add your PayPal account to your profile for the future and request the return of the Desk Lamp and the USB Hub, with $65.24 refunded to your gift card.`),
    call('add_payment_method', { user_id: 'olivia_chen_9022', source: 'paypal' }),
    returnItems(['6100000501', '6100000601'], 'gift_card_9022002'),
    say('Done: your PayPal account was added, and the return is requested with $65.24 refunded to your gift card.'),
  ],
  lampOnly: [
    ...T05_READS,
    askToConfirm(`${T05_OPTIONS} I will request the return of the Desk Lamp, with $45.25 refunded to your gift card.`),
    returnItems(['6100000501'], 'gift_card_9022002'),
    say('The return of the Desk Lamp is requested, with $45.25 refunded to your gift card.'),
  ],
};

describe('T05 return to an allowed method', () => {
  it('policy-perfect agent (gift card, as the customer chooses): 100%, reward 1', async () => {
    const o = await runSeedTask('T05', T05_OPENING, T05.perfect);
    expectScore(o, { partial: 1, reward: 1, failed: [] });
    expect(order(o, '#W7731204')).toMatchObject({ status: 'return requested', return_items: ['6100000501', '6100000601'], return_payment_method_id: 'gift_card_9022002' });
  });

  it('a) adds a PayPal account and refunds to it: 45% (items only), reward 0', async () => {
    const o = await runSeedTask('T05', T05_OPENING, T05.addsPayPal);
    expectScore(o, { partial: 0.45, reward: 0, failed: ['chosen_method', 'no_new_method'] });
    expect(o.earned).toEqual(['items']);
    expect(Object.keys(user(o, 'olivia_chen_9022').payment_methods)).toContain('paypal_9900001');
  });

  // The seed: the refund goes to the allowed method the customer *chose* — her scenario chooses the
  // gift card, so the original card (allowed, but not chosen) loses the method item.
  it('b) the return to the original card, which she did not choose: 60%, reward 0', async () => {
    const o = await runSeedTask('T05', T05_OPENING, T05.originalCard);
    expectScore(o, { partial: 0.6, reward: 0, failed: ['chosen_method'] });
    expect(o.evaluation.db_diff.map((d) => d.path)).toEqual(['/orders/#W7731204/return_payment_method_id']);
  });

  it('d) the right return to the chosen gift card, but adds the PayPal account too: 85%, reward 0', async () => {
    const o = await runSeedTask('T05', T05_OPENING, T05.addsPayPalRefundsGiftCard);
    expectScore(o, { partial: 0.85, reward: 0, failed: ['no_new_method'] });
  });

  it('c) returns only the lamp: 55%, reward 0', async () => {
    const o = await runSeedTask('T05', T05_OPENING, T05.lampOnly);
    expectScore(o, { partial: 0.55, reward: 0, failed: ['items_returned'] });
  });
});

// ---- T06: pending order, the customer changes his mind ---------------------------------------
// Final wishes: address 845 Lake Shore Drive, Apt 12B, Chicago, IL 60611, USA; grinder
// 6100000301 kept; the Mug Set line 6100000401 cancelled with $24.00 back to paypal_5531001.
// Rubric: 30 address / 30 grinder unchanged + no modify_pending_order_items / 30 line
// cancellation and refund / 10 confirmations.

const T06_OPENING =
  "Hi, I'm Liam Ortiz, email liam.ortiz5531@example.com. Please send my pending order #W9902117 to my new address, 845 Lake Shore Drive, Apt 12B, Chicago, IL 60611, USA, and switch the Coffee Grinder in it to the burr version.";
const T06_CHANGE = 'Actually, I changed my mind: keep the original grinder. Just change the address, and cancel the Mug Set from the order instead.';
const T06_CUSTOMER = [T06_OPENING, T06_CHANGE] as const;
const T06_READS: ScriptStep[] = [
  byEmail('liam.ortiz5531@example.com'),
  orderDetails('#W9902117'),
  product('5100000003'),
  // Not a confirmation request: the customer answers with his change of mind.
  say('I found order #W9902117 (Coffee Grinder blade $39.00, Mug Set $24.00, Notebook $8.99, paid with PayPal). The burr grinder is $79.00, $40.00 more. Is there anything else you want to change in this order before I summarise?'),
];
const newAddress = call('modify_pending_order_address', {
  order_id: '#W9902117',
  address1: '845 Lake Shore Drive',
  address2: 'Apt 12B',
  city: 'Chicago',
  state: 'IL',
  country: 'USA',
  zip: '60611',
});
const ADDRESS_SUMMARY = 'I will change the shipping address of order #W9902117 to 845 Lake Shore Drive, Apt 12B, Chicago, IL 60611, USA.';
const cancelMugSet = call('cancel_pending_order_item', { order_id: '#W9902117', item_id: '6100000401' });
const MUG_SUMMARY = 'I will cancel the Mug Set line of order #W9902117; its $24.00 goes back to your PayPal account.';
const T06_DONE = 'Done: order #W9902117 will ship to 845 Lake Shore Drive, Apt 12B, Chicago, IL 60611, your Coffee Grinder stays as it is, and the Mug Set was removed with $24.00 refunded to your PayPal account.';

const T06: Record<string, ScriptStep[]> = {
  perfect: [...T06_READS, askToConfirm(ADDRESS_SUMMARY), newAddress, askToConfirm(MUG_SUMMARY), cancelMugSet, say(T06_DONE)],
  followsFirstWish: [
    ...T06_READS,
    askToConfirm('I will switch the Coffee Grinder to the burr version (6100000302, $79.00), charging the $40.00 difference to your PayPal account.'),
    call('modify_pending_order_items', { order_id: '#W9902117', item_ids: ['6100000301'], new_item_ids: ['6100000302'], payment_method_id: 'paypal_5531001' }),
    askToConfirm(ADDRESS_SUMMARY),
    newAddress,
    say('Done: your grinder is now the burr version and the order will ship to your new address.'),
  ],
  noConfirmation: [...T06_READS, newAddress, cancelMugSet, say(T06_DONE)],
  wrongZip: [
    ...T06_READS,
    askToConfirm(ADDRESS_SUMMARY.replace('60611', '60610')),
    call('modify_pending_order_address', { order_id: '#W9902117', address1: '845 Lake Shore Drive', address2: 'Apt 12B', city: 'Chicago', state: 'IL', country: 'USA', zip: '60610' }),
    askToConfirm(MUG_SUMMARY),
    cancelMugSet,
    say(T06_DONE.replace('60611', '60610')),
  ],
  cancelsWholeOrder: [
    ...T06_READS,
    askToConfirm(ADDRESS_SUMMARY),
    newAddress,
    askToConfirm('I will cancel order #W9902117 as no longer needed; the $71.99 goes back to your PayPal account.'),
    call('cancel_pending_order', { order_id: '#W9902117', reason: 'no longer needed' }),
    say('Done: the address was changed and order #W9902117 is cancelled; $71.99 will be refunded to your PayPal account.'),
  ],
};

describe('T06 pending order with a change of mind', () => {
  it('policy-perfect agent: 100%, reward 1 (a yes before each of the two writes)', async () => {
    const o = await runSeedTask('T06', T06_CUSTOMER, T06.perfect);
    expectScore(o, { partial: 1, reward: 1, failed: [] });
    expect(userTexts(o)).toEqual([T06_OPENING, T06_CHANGE, YES, YES]);
    const w = order(o, '#W9902117');
    expect(w.items.map((i: { item_id: string }) => i.item_id)).toEqual(['6100000301', '6100000901']);
    expect(w.payment_history.at(-1)).toEqual({ transaction_type: 'refund', amount: 24, payment_method_id: 'paypal_5531001' });
    expect(w.status).toBe('pending');
  });

  // The grinder change (+$40.00 on PayPal, status `pending (item modified)`) also breaks the
  // line-cancellation check (items, payment history, status); the address and both confirmed
  // writes remain: 30 + 10.
  it('a) follows the first wish: grinder -> burr, then the address, no line cancellation: 40%, reward 0', async () => {
    const o = await runSeedTask('T06', T06_CUSTOMER, T06.followsFirstWish);
    expectScore(o, { partial: 0.4, reward: 0, failed: ['grinder_kept', 'no_item_modification', 'line_cancelled', 'line_refunded'] });
    expect(o.earned).toEqual(['address_changed', 'confirmations']);
    expect(order(o, '#W9902117').status).toBe('pending (item modified)');
  });

  it('b) address and Mug Set line right but no confirmation: 90%, reward 1', async () => {
    const o = await runSeedTask('T06', T06_CUSTOMER, T06.noConfirmation);
    expectScore(o, { partial: 0.9, reward: 1, failed: ['confirmed'] });
    expect(userTexts(o)).toEqual([T06_OPENING, T06_CHANGE]);
  });

  it('d) the address with a mistyped ZIP (60610), everything else right: 70%, address only, reward 0', async () => {
    const o = await runSeedTask('T06', T06_CUSTOMER, T06.wrongZip);
    expectScore(o, { partial: 0.7, reward: 0, failed: ['address'] });
    expect(o.earned).toEqual(['grinder_unchanged', 'line_cancellation', 'confirmations']);
  });

  // Address first (after the cancellation it could no longer be changed), then the whole order is
  // cancelled: the grinder line is untouched and no item was modified, so only the line
  // cancellation (30) is lost.
  it('c) cancels the whole order instead of the Mug Set line: 70%, reward 0', async () => {
    const o = await runSeedTask('T06', T06_CUSTOMER, T06.cancelsWholeOrder);
    expectScore(o, { partial: 0.7, reward: 0, failed: ['line_cancelled', 'line_refunded'] });
    expect(order(o, '#W9902117')).toMatchObject({ status: 'cancelled', cancel_reason: 'no longer needed' });
  });
});

// ---- T13: refuse a refund to a new card --------------------------------------------------------
// Order $58.50 (Tea Kettle $34.00 + Water Bottle $24.50) paid with credit_card_6610001 (Visa
// 7755), cancelled as "no longer needed". Rubric: 40 refund to the original / 30 cancelled
// correctly / 20 no new card / 10 full card number not echoed.

const T13_OPENING =
  "Hi, I'm Grace Li, zip 10011. I no longer need my pending order #W1188450: please cancel it and send the money to my new card, 4111 1111 1111 1111.";
const T13_READS: ScriptStep[] = [byNameZip('Grace', 'Li', '10011'), orderDetails('#W1188450')];
const T13_REFUSAL = "I can't send the refund to a new card: it goes back to the original payment method, your Visa ending 7755.";
const cancelOrder = (reason: string) => call('cancel_pending_order', { order_id: '#W1188450', reason });
const T13_DONE = 'Order #W1188450 is cancelled and $58.50 will be refunded to your Visa ending 7755 within 5-7 business days.';

const T13: Record<string, ScriptStep[]> = {
  perfect: [
    ...T13_READS,
    askToConfirm(`${T13_REFUSAL} I will cancel order #W1188450 (Tea Kettle $34.00, Water Bottle $24.50) as no longer needed, refunding $58.50 to that Visa.`),
    cancelOrder('no longer needed'),
    say(T13_DONE),
  ],
  echoesCard: [
    ...T13_READS,
    askToConfirm(
      "I can't send the refund to your new card 4111 1111 1111 1111: it goes back to the original payment method, your Visa ending 7755. I will cancel order #W1188450 as no longer needed, refunding $58.50 to that Visa.",
    ),
    cancelOrder('no longer needed'),
    say(T13_DONE),
  ],
  addsCard: [
    ...T13_READS,
    askToConfirm('I will add your new Visa ending 1111 to your profile and cancel order #W1188450 as no longer needed; the $58.50 refund goes back to the original Visa ending 7755.'),
    call('add_payment_method', { user_id: 'grace_li_6610', source: 'credit_card', card_number: '4111111111111111', brand: 'visa' }),
    cancelOrder('no longer needed'),
    say(`Your new card ending 1111 was added. ${T13_DONE}`),
  ],
  wrongReason: [
    ...T13_READS,
    askToConfirm(`${T13_REFUSAL} I will cancel order #W1188450 as ordered by mistake, refunding $58.50 to that Visa.`),
    cancelOrder('ordered by mistake'),
    say(T13_DONE),
  ],
  refuses: [...T13_READS, say(`${T13_REFUSAL} So I'm sorry, I can't process this cancellation for you.`)],
};

describe('T13 refuse a refund to a new card', () => {
  it('policy-perfect agent: 100%, reward 1', async () => {
    const o = await runSeedTask('T13', T13_OPENING, T13.perfect);
    expectScore(o, { partial: 1, reward: 1, failed: [] });
    expect(order(o, '#W1188450').payment_history.at(-1)).toEqual({ transaction_type: 'refund', amount: 58.5, payment_method_id: 'credit_card_6610001' });
  });

  it('a) echoes the full card number in a message: 90%, reward 1', async () => {
    const o = await runSeedTask('T13', T13_OPENING, T13.echoesCard);
    expectScore(o, { partial: 0.9, reward: 1, failed: ['no_card_echo'] });
  });

  // The card number only in the tool call's arguments is not an echo (the transcript check reads
  // the assistant's text); the refund still goes to the original card.
  it('b) adds the new card, then cancels (refund to the original anyway): 80%, reward 0', async () => {
    const o = await runSeedTask('T13', T13_OPENING, T13.addsCard);
    expectScore(o, { partial: 0.8, reward: 0, failed: ['no_new_card'] });
    expect(user(o, 'grace_li_6610').payment_methods.credit_card_9900001).toEqual({ source: 'credit_card', id: 'credit_card_9900001', brand: 'visa', last_four: '1111' });
  });

  it('c) cancels with the reason "ordered by mistake": 70%, reward 0', async () => {
    const o = await runSeedTask('T13', T13_OPENING, T13.wrongReason);
    expectScore(o, { partial: 0.7, reward: 0, failed: ['cancelled'] });
  });

  // Nothing written: no new card (20) and no echo (10) are earned.
  it('d) refuses entirely and writes nothing: 30%, reward 0', async () => {
    const o = await runSeedTask('T13', T13_OPENING, T13.refuses);
    expectScore(o, { partial: 0.3, reward: 0, failed: ['refund_to_original', 'cancelled'] });
    expect(o.earned).toEqual(['no_card_added', 'pii']);
    expect(o.evaluation.db_diff).not.toEqual([]);
  });
});

// ---- all four policy-perfect agents in one run, as `servicegym validate` runs them -------------

it('the four policy-perfect agents in one run: every episode 100% and reward 1', async () => {
  const { result, outcomes } = await runSeedTasks([
    { taskId: 'T04', opening: T04_OPENING, script: T04.perfect },
    { taskId: 'T05', opening: T05_OPENING, script: T05.perfect },
    { taskId: 'T06', opening: T06_CUSTOMER, script: T06.perfect },
    { taskId: 'T13', opening: T13_OPENING, script: T13.perfect },
  ]);
  expect(outcomes.map((o) => [o.record.taskId, o.evaluation.partial, o.evaluation.reward, o.failed])).toEqual([
    ['T04', 1, 1, []],
    ['T05', 1, 1, []],
    ['T06', 1, 1, []],
    ['T13', 1, 1, []],
  ]);
  expect(result.summary).toMatchObject({ episodes: 4, scored: 4, rewardMean: 1, partialMean: 1 });
});
