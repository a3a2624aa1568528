/**
 * Filler around the task records, generated deterministically from a seed: more shop customers
 * with orders (on time, late, in transit), and more tickets in every status, so the inbox, the
 * sidebar and the orders list look like a working shop's. Ids never collide with the seed records.
 */
import type { HelpdeskTables, ShopCustomer, Ticket } from '../schema.js';
import { CATALOGUE, buildOrder, delivered, type OrderSpec } from './catalogue.js';
import { requesterOf, SERVICEGYM_HELPDESK_NOW } from './seed-records.js';
import { Rng } from '../../../util/rng.js';

/** The project's seeded generator (`util/rng.ts`, mulberry32) as a function. */
function prng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

const FIRST = ['Ava', 'Ben', 'Chloe', 'Diego', 'Elena', 'Felix', 'Gia', 'Hugo', 'Iris', 'Jonah', 'Keiko', 'Luis', 'Maya', 'Nils', 'Olive', 'Pablo', 'Quinn', 'Rosa', 'Sven', 'Tara'];
const LAST = ['Adler', 'Brooks', 'Castro', 'Dunn', 'Ellis', 'Fischer', 'Garcia', 'Hale', 'Ito', 'Jensen', 'Kerr', 'Lopez', 'Moreau', 'Novak', 'Ortega'];
const CITIES: [string, string, string][] = [['Seattle', 'WA', '98101'], ['Boise', 'ID', '83702'], ['Omaha', 'NE', '68102'], ['Savannah', 'GA', '31401'], ['Albany', 'NY', '12207'], ['Fresno', 'CA', '93721']];
const SUBJECTS: [string, string][] = [
  ['Gift wrapping?', 'Hi, do you offer gift wrapping for order #{o}? Thanks!'],
  ['Change shipping address', 'Hello, can I still change the address on order #{o}? I am moving next week.'],
  ['Candle scent question', 'Is the cedar & fig candle strongly scented? I bought one in order #{o} and loved it.'],
  ['Thank you!', 'Just wanted to say the throw from order #{o} is beautiful. Thank you!'],
  ['Invoice needed', 'Could you send me an invoice for order #{o} with my company name?'],
];
const KEYS = Object.keys(CATALOGUE) as (keyof typeof CATALOGUE)[];
const SEED_ORDER_IDS = new Set(['1176', '1188', '1198', '1207', '1215', '1219', '1226', '1231', '1234', '1240', '1245', '1255']);
const SEED_TICKET_IDS = new Set(['5521', '5530', '5534', '5538', '5541', '5545']);

const iso = (day: number) => new Date(Date.parse('2026-09-01T00:00:00Z') + day * 86_400_000).toISOString().slice(0, 10);

/** `count` filler customers with 1-3 orders each and a ticket for about half of them. */
export function generateHelpdeskFiller(seed = 2026, count = 40): HelpdeskTables {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const t: HelpdeskTables = { customers: {}, orders: {}, refunds: {}, discount_codes: {}, requesters: {}, tickets: {}, macros: {} };
  let orderNo = 1100;
  let ticketNo = 5480;
  const nextOrder = () => { do orderNo++; while (SEED_ORDER_IDS.has(String(orderNo))); return String(orderNo); };
  const nextTicket = () => { do ticketNo++; while (SEED_TICKET_IDS.has(String(ticketNo))); return String(ticketNo); };
  const today = SERVICEGYM_HELPDESK_NOW.slice(0, 10);
  for (let i = 0; i < count; i++) {
    const [first, last] = [FIRST[i % FIRST.length], LAST[(i * 7) % LAST.length]];
    const [city, state, zip] = pick(CITIES);
    const c: ShopCustomer = { customer_id: `cus_${3000 + i * 13}`, name: { first_name: first, last_name: last }, email: `${first}.${last}${i}@example.net`.toLowerCase(), phone: `555-02${String(i).padStart(2, '0')}-${1000 + i}`, address: { address1: `${10 + i * 3} Main St`, address2: '', city, country: 'USA', state, zip }, created_on: iso(-200 + i), order_ids: [] };
    const n = 1 + Math.floor(r() * 3);
    for (let k = 0; k < n; k++) {
      const id = nextOrder();
      const placed = Math.floor(r() * 75);
      const promised = placed + 5 + Math.floor(r() * 3);
      const late = r() < 0.25 ? 1 + Math.floor(r() * 7) : -Math.floor(r() * 2);
      const deliveredDay = promised + late;
      const inTransit = iso(deliveredDay) > today;
      const items: OrderSpec['items'] = [[pick(KEYS), 1 + Math.floor(r() * 2)]];
      if (r() < 0.4) items.push([pick(KEYS.filter((x) => x !== items[0][0])), 1]);
      const fulfillment = inTransit
        ? { status: 'in_transit' as const, carrier: 'UPS', tracking_number: `1Z84A0E2039${String(700000 + Number(id)).padStart(7, '0')}`, shipped_on: iso(placed + 1), promised_by: iso(promised), delivered_on: null }
        : delivered('USPS', `94001118992233${String(10000000 + Number(id) * 7)}`, iso(placed + 1), iso(promised), iso(deliveredDay));
      t.orders[id] = buildOrder({ order_id: id, customer: c, placed_at: `${iso(placed)}T${String(8 + Math.floor(r() * 12)).padStart(2, '0')}:${String(Math.floor(r() * 60)).padStart(2, '0')}:00Z`, items, shipping: r() < 0.2 ? 'express' : r() < 0.15 ? 'free' : 'standard', fulfillment });
      c.order_ids.push(id);
    }
    t.customers[c.customer_id] = c;
    const req = requesterOf(c);
    t.requesters[req.requester_id] = req;
    if (r() < 0.5) {
      const [subject, body] = pick(SUBJECTS);
      const id = nextTicket();
      const day = 60 + Math.floor(r() * 18);
      const at = `${iso(day)}T${String(8 + Math.floor(r() * 10)).padStart(2, '0')}:15:00Z`;
      const status: Ticket['status'] = day < 74 ? 'closed' : r() < 0.5 ? 'pending' : 'open';
      const oid = c.order_ids[c.order_ids.length - 1];
      t.tickets[id] = { ticket_id: id, subject, requester_id: req.requester_id, channel: pick(['email', 'chat', 'contact_form'] as const), status, tags: status === 'closed' ? ['general'] : [], created_at: at, updated_at: at, messages: [{ message_id: `${id}-1`, from: 'customer', public: true, body: body.replace('{o}', oid), macro_id: null, sent_at: at }] };
    }
  }
  return t;
}
