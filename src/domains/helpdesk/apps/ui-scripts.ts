/**
 * Scripted browser actions for the helpdesk domain's tasks, each addressed by ARIA role and
 * accessible name (never by CSS or position): the oracle's route through the Harbordesk and shop
 * admin apps, proving every task solvable through the UI alone, and the faulty routes of seed task
 * T18 (items refunded, a reusable code, a reply without the code, the ticket left open), whose
 * partial scores are the seed's.
 */
import { PRIYA_USED_CODE } from '../data/seed-records.js';

/** One browser action. `app` names one of the domain's web apps (`helpdesk`, `shop`). */
export type UiStep =
  | { action: 'goto'; app: 'helpdesk' | 'shop'; path: string }
  | { action: 'click'; role: 'button' | 'link'; name: string }
  | { action: 'fill'; role: 'textbox' | 'spinbutton'; name: string; value: string }
  | { action: 'select'; name: string; option: string }
  | { action: 'check' | 'uncheck'; name: string };

const goto = (app: 'helpdesk' | 'shop', path: string): UiStep => ({ action: 'goto', app, path });
const click = (name: string, role: 'button' | 'link' = 'button'): UiStep => ({ action: 'click', role, name });
const fill = (name: string, value: string, role: 'textbox' | 'spinbutton' = 'textbox'): UiStep => ({ action: 'fill', role, name, value });
const select = (name: string, option: string): UiStep => ({ action: 'select', name, option });

/** The T18 code: the shop's first generated code for order 1207. */
export const T18_CODE = 'SORRY-ZS6PYR';

const openTicket = (id: string, subject: string): UiStep[] => [goto('helpdesk', '/views/open'), click(`#${id} ${subject}`, 'link')];
const macro = (name: string, vars: [string, string][]): UiStep[] => [select('Macro', name), click('Apply macro'), ...vars.map(([label, value]) => fill(label, value))];
const sidebarShippingRefund = (order: string): UiStep[] => [click(`Order #${order}`, 'link'), click('Refund shipping'), select('Reason', 'Late delivery'), click('Confirm shipping refund')];
const shopOrder = (order: string): UiStep[] => [goto('shop', '/orders'), fill('Search orders', order), click('Filter'), click(`#${order}`, 'link')];

const T18_OPEN = openTicket('5521', 'Order #1207 arrived 6 days late');
const T18_CODE_STEPS = (usage: 'Single use' | 'Unlimited'): UiStep[] => [click('Create discount code'), fill('Percent off', '10', 'spinbutton'), select('Usage', usage), click('Create code')];
const T18_REPLY: UiStep[] = macro('Late delivery apology', [['Order number', '1207'], ['Refund amount', '$8.95'], ['Discount code', T18_CODE]]);

/** The oracle's route per task id. */
export const ORACLE_UI_SCRIPTS: Record<string, UiStep[]> = {
  T18: [...T18_OPEN, ...sidebarShippingRefund('1207'), ...T18_CODE_STEPS('Single use'), ...T18_REPLY, click('Send and close')],
  H01: [...openTicket('5530', 'Late express delivery - want my money back'), ...sidebarShippingRefund('1215'), ...macro('Late delivery - shipping refunded', [['Order number', '1215'], ['Refund amount', '$14.95']]), click('Send and close')],
  H02: [...openTicket('5534', 'Discount code not working'), ...macro('Discount code already used', [['Discount code', PRIYA_USED_CODE], ['Order number', '1219']]), click('Send and close')],
  H03: [
    ...openTicket('5538', 'Where is my order #1226?'),
    click('Order #1226', 'link'),
    ...macro('Order status update', [['Order number', '1226'], ['Carrier', 'UPS'], ['Tracking number', '1Z84A0E20391876543'], ['Promised by', 'Nov 20, 2026']]),
    click('Send'),
    select('Status', 'Pending'),
    click('Update status'),
  ],
  H04: [
    ...openTicket('5541', 'Pour-over arrived cracked'),
    ...shopOrder('1231'),
    click('Refund'),
    fill('Refund quantity: Ceramic pour-over dripper', '1', 'spinbutton'),
    select('Reason', 'Damaged on arrival'),
    click('Refund'),
    goto('helpdesk', '/tickets/5541'),
    ...macro('Damaged item refund', [['Item title', 'Ceramic pour-over dripper'], ['Order number', '1231'], ['Refund amount', '$32.75']]),
    click('Send and close'),
  ],
  H05: [...openTicket('5545', 'Slow delivery on #1234'), click('Order #1234', 'link'), ...macro('Delivered on time', [['Order number', '1234'], ['Delivered on', 'Nov 16, 2026'], ['Promised by', 'Nov 16, 2026']]), click('Send and close')],
  S01: [...shopOrder('1240'), click('Refund'), fill('Refund quantity: Soy candle, cedar & fig', '2', 'spinbutton'), select('Reason', 'Returned items'), click('Refund')],
  S02: [...shopOrder('1198'), fill('Add a note', 'Refund declined: outside the 30-day return window (delivered 2026-10-10).'), click('Post note')],
  S03: [
    goto('shop', '/discounts'),
    click('Create discount'),
    fill('Percent off', '15', 'spinbutton'),
    fill('Total usage limit', '1', 'spinbutton'),
    { action: 'check', name: 'Limit to one use per customer' },
    fill('Customer email', 'grace.park@example.com'),
    fill('Order number', '1245'),
    click('Create discount'),
  ],
  S04: [goto('shop', '/discounts'), click('HARVEST-20', 'link'), click('Disable code')],
  S05: [...shopOrder('1255'), fill('Add a note', 'Shipping was already refunded on 2026-11-11 (RF-1255-1); no second refund.'), click('Post note')],
};

/** Faulty routes of T18, each with the partial score the seed's weights give it (35/25/25/15). */
export const T18_FAULTY_UI_SCRIPTS: Record<string, { steps: UiStep[]; partial: number }> = {
  items_refunded: {
    steps: [
      ...T18_OPEN,
      ...shopOrder('1207'),
      click('Refund'),
      fill('Refund quantity: Linen throw blanket', '1', 'spinbutton'),
      fill('Refund quantity: Stoneware mug set (4)', '1', 'spinbutton'),
      fill('Shipping to refund', '8.95'),
      select('Reason', 'Late delivery'),
      click('Refund'),
      goto('helpdesk', '/tickets/5521?order=1207'),
      ...T18_CODE_STEPS('Single use'),
      ...T18_REPLY,
      click('Send and close'),
    ],
    partial: 0.65,
  },
  reusable_code: { steps: [...T18_OPEN, ...sidebarShippingRefund('1207'), ...T18_CODE_STEPS('Unlimited'), ...T18_REPLY, click('Send and close')], partial: 0.75 },
  reply_without_code: {
    steps: [...T18_OPEN, ...sidebarShippingRefund('1207'), ...T18_CODE_STEPS('Single use'), fill('Reply text', "Hi Dana,\n\nSorry your order #1207 was late. I've refunded the $8.95 shipping charge.\n\nSam"), click('Send and close')],
    partial: 0.75,
  },
  ticket_left_open: { steps: [...T18_OPEN, ...sidebarShippingRefund('1207'), ...T18_CODE_STEPS('Single use'), ...T18_REPLY, click('Send')], partial: 0.85 },
};
