/**
 * servicegym's own banking dataset, generated reproducibly from a seed: customers with
 * namesakes and shared ZIP codes, 1-3 accounts each, debit cards, two months of transactions
 * (purchases, deposits, ATM withdrawals and their fees, foreign purchases with their 3% fee,
 * pending authorisations), a few open disputes, card orders and security notes. The records the
 * tasks name are laid over it by `seed-records.ts`; generated ids live in ranges the seeds never use.
 */
import { Rng } from '../../../util/rng.js';
import { addDays, foreignFeeCents } from '../rules.js';
import type { Account, Address, Card, Customer, Dispute, Transaction } from '../types.js';
import type { BankTables } from '../tools-common.js';

/** The dataset's "now" (US Eastern). */
export const SERVICEGYM_BANK_NOW = '2026-10-02T14:00:00';

/** The generated tables (no call log: calls are made in episodes). */
export type GeneratedBank = Omit<BankTables, 'call_log'>;

const FIRST = ['James', 'Maria', 'Wei', 'Fatima', 'Liam', 'Priya', 'Carlos', 'Emily', 'Kwame', 'Olga', 'Noah', 'Yuki', 'Ahmed', 'Grace', 'Mateo', 'Chloe', 'Daniel', 'Amara', 'Ethan', 'Leila'];
const LAST = ['Nguyen', 'Smith', 'Garcia', 'Johnson', 'Kowalski', 'Okafor', 'Patel', 'Rossi', 'Kim', 'Brown', 'Haddad', 'Silva', 'Murphy', 'Schmidt'];
/** Few places, so ZIP codes are shared by many customers. */
const PLACES: [city: string, state: string, zip: string, areaCode: string][] = [
  ['Portland', 'OR', '97214', '503'], ['Portland', 'OR', '97205', '503'], ['Madison', 'WI', '53703', '608'], ['Austin', 'TX', '78704', '512'],
  ['Denver', 'CO', '80211', '720'], ['Atlanta', 'GA', '30306', '404'], ['Columbus', 'OH', '43215', '614'], ['Seattle', 'WA', '98107', '206'],
  ['Miami', 'FL', '33135', '305'], ['Chicago', 'IL', '60611', '312'], ['Boston', 'MA', '02108', '617'], ['Minneapolis', 'MN', '55408', '612'],
];
const STREETS = ['Oak St', 'Maple Ave', 'Cedar Ln', 'Park Blvd', 'Lake Dr', 'Hillcrest Rd', 'Main St', 'Elm St', '2nd Ave', 'Sunset Blvd'];
const MERCHANTS: [name: string, low: number, high: number][] = [
  ['WHOLE FOODS MARKET', 1_250, 21_980], ['SHELL OIL', 2_100, 8_875], ['AMAZON MKTPLACE', 899, 34_999], ['STARBUCKS', 375, 1_845],
  ['TARGET', 1_099, 25_431], ['CVS PHARMACY', 412, 6_390], ['UBER TRIP', 823, 6_412], ['NETFLIX.COM', 1_549, 2_299],
  ['HOME DEPOT', 1_988, 61_240], ['DELTA AIR LINES', 18_940, 89_310], ['COSTCO WHSE', 4_410, 52_177], ['CHIPOTLE', 1_062, 3_488],
];
const FOREIGN = ['BOULANGERIE PAUL PARIS FR', 'TESCO STORES LONDON GB', 'EL CORTE INGLES MADRID ES', 'LAWSON TOKYO JP'];
const PRODUCTS: Account['product'][] = ['Basic Checking', 'Student Checking', 'Everyday Checking', 'Everyday Checking', 'Premier Checking'];

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const isoDay = (rng: Rng, from: string, spanDays: number) => addDays(from, rng.int(0, spanDays));

function makeCustomer(rng: Rng, i: number): { customer: Customer; place: (typeof PLACES)[number] } {
  // Twenty first names and fourteen last names over hundreds of customers: namesakes are common.
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const place = rng.pick(PLACES);
  const id = `${first.toLowerCase()}_${last.toLowerCase()}_${1000 + i}`;
  const since = isoDay(rng, '1998-01-01', 10_100);
  const address: Address = { line1: `${rng.int(10, 9899)} ${rng.pick(STREETS)}`, line2: rng.chance(0.35) ? `Apt ${rng.int(1, 40)}${rng.pick(['', 'A', 'B'])}` : null, city: place[0], state: place[1], zip: place[2] };
  const tier: Customer['tier'] = rng.chance(0.12) ? 'Premier' : rng.chance(0.3) ? 'Plus' : 'Standard';
  return {
    place,
    customer: {
      customer_id: id, first_name: first, last_name: last, date_of_birth: isoDay(rng, '1945-01-01', 21_000), ssn_last4: pad(rng.int(0, 9999), 4),
      phone: `${place[3]}-555-${pad(rng.int(100, 9999), 4)}`, email: `${first.toLowerCase()}.${last.toLowerCase()}${1000 + i}@example.com`, tier, customer_since: since,
      mailing_address: address, account_ids: [],
    },
  };
}

/** Two months of activity on a checking account with a card. */
function makeTransactions(rng: Rng, acct: Account, card: Card, next: () => string): Transaction[] {
  const out: Transaction[] = [];
  const push = (t: Omit<Transaction, 'transaction_id' | 'account_id' | 'related_transaction_id' | 'dispute_id'> & { related?: string }): Transaction => {
    const { related, ...rest } = t;
    const tx: Transaction = { transaction_id: next(), account_id: acct.account_id, related_transaction_id: related ?? null, dispute_id: null, ...rest };
    out.push(tx);
    return tx;
  };
  for (let n = rng.int(8, 16); n > 0; n--) {
    const [name, low, high] = rng.pick(MERCHANTS);
    const on = isoDay(rng, '2026-08-01', 61);
    const pending = on >= '2026-09-30' && rng.chance(0.6);
    push({ card_id: card.card_id, authorized_on: on, posted_on: pending ? null : addDays(on, rng.int(0, 1)), status: pending ? 'pending' : 'posted', kind: 'card_purchase', description: name, amount_cents: -rng.int(low, high) });
  }
  for (const on of ['2026-08-14', '2026-08-28', '2026-09-11', '2026-09-25']) {
    push({ card_id: null, authorized_on: on, posted_on: on, status: 'posted', kind: 'deposit', description: 'PAYROLL DIRECT DEP', amount_cents: rng.int(120_000, 480_000) + rng.int(0, 99) });
  }
  if (rng.chance(0.3)) {
    const on = isoDay(rng, '2026-08-01', 55);
    const w = push({ card_id: card.card_id, authorized_on: on, posted_on: on, status: 'posted', kind: 'atm_withdrawal', description: 'ATM WITHDRAWAL NON-NETWORK', amount_cents: -rng.pick([4_000, 6_000, 10_000, 20_000]) });
    push({ card_id: null, authorized_on: on, posted_on: on, status: 'posted', kind: 'fee', description: 'OUT-OF-NETWORK ATM FEE', amount_cents: -300, related: w.transaction_id });
  }
  if (rng.chance(0.15)) {
    const on = isoDay(rng, '2026-08-01', 55);
    const p = push({ card_id: card.card_id, authorized_on: on, posted_on: addDays(on, 1), status: 'posted', kind: 'card_purchase', description: rng.pick(FOREIGN), amount_cents: -rng.int(1_299, 48_850) });
    push({ card_id: null, authorized_on: addDays(on, 1), posted_on: addDays(on, 1), status: 'posted', kind: 'fee', description: 'FOREIGN TRANSACTION FEE', amount_cents: -foreignFeeCents(p.amount_cents), related: p.transaction_id });
  }
  return out;
}

/**
 * Generates the filler bank: `customers` customers (default 320). Same seed, same bank
 * (deep-equal, same key order). Ids: customers `<first>_<last>_1000+i`, accounts `ACC-1xxxx`,
 * cards `CRD-1xxxx`, transactions `TXN-1xxxxxx`, disputes `DSP-1xxxx`.
 */
export function generateBank(seed = 2026, customers = 320): GeneratedBank {
  const rng = new Rng(seed);
  const out: GeneratedBank = { customers: {}, accounts: {}, cards: {}, transactions: {}, disputes: {}, card_orders: {}, security_notes: {} };
  let acctNo = 10_000;
  let txnNo = 1_000_000;
  let dspNo = 10_000;
  const nextTxn = () => `TXN-${++txnNo}`;
  for (let i = 0; i < customers; i++) {
    const { customer } = makeCustomer(rng, i);
    out.customers[customer.customer_id] = customer;
    for (let k = rng.int(1, 3); k > 0; k--) {
      const id = `ACC-${++acctNo}`;
      const product = k === 1 || rng.chance(0.6) ? rng.pick(PRODUCTS) : 'Savings';
      const opened = addDays(customer.customer_since, rng.int(0, 900));
      const acct: Account = { account_id: id, customer_id: customer.customer_id, product, status: rng.chance(0.03) ? 'frozen' : 'open', opened_on: opened < '2026-06-01' ? opened : customer.customer_since, balance_cents: rng.int(1_000, 2_500_000) + rng.int(0, 99), card_ids: [] };
      customer.account_ids.push(id);
      out.accounts[id] = acct;
      if (product === 'Savings') continue;
      const card: Card = { card_id: `CRD-${acctNo}`, account_id: id, customer_id: customer.customer_id, network: rng.chance(0.7) ? 'Visa' : 'Mastercard', last4: pad(rng.int(0, 9999), 4), status: rng.chance(0.04) ? 'blocked' : 'active', block_reason: null, blocked_at: null, expires: `${rng.int(2027, 2030)}-${pad(rng.int(1, 12), 2)}`, issued_on: isoDay(rng, '2022-01-01', 1_300), replacement_order_id: null };
      if (card.status === 'blocked') {
        card.block_reason = rng.pick(['lost', 'stolen', 'damaged'] as const);
        card.blocked_at = `${isoDay(rng, '2026-08-01', 55)}T${pad(rng.int(8, 20), 2)}:${pad(rng.int(0, 59), 2)}:00`;
      }
      out.cards[card.card_id] = card;
      acct.card_ids.push(card.card_id);
      const txns = makeTransactions(rng, acct, card, nextTxn);
      for (const t of txns) out.transactions[t.transaction_id] = t;
      const disputable = txns.filter((t) => t.kind === 'card_purchase' && t.status === 'posted');
      if (disputable.length && rng.chance(0.05)) {
        const t = rng.pick(disputable);
        const d: Dispute = { dispute_id: `DSP-${++dspNo}`, transaction_id: t.transaction_id, account_id: id, customer_id: customer.customer_id, reason: rng.pick(['fraud', 'billing_error', 'not_received'] as const), amount_cents: -t.amount_cents, opened_on: [addDays(t.posted_on!, rng.int(1, 20)), SERVICEGYM_BANK_NOW.slice(0, 10)].sort()[0], status: 'open', provisional_credit_cents: 0 };
        out.disputes[d.dispute_id] = d;
        t.dispute_id = d.dispute_id;
      }
    }
  }
  return out;
}
