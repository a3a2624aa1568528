/**
 * The records the banking tasks name (seeds/001_14d444b6cd11c72e.txt T08, T14, T20, and the
 * domain's own tasks B01-B12), each with the decoys its task needs: namesakes, look-alike
 * transactions (same amount on another date, another amount on the same date), second cards.
 * Laid over the generated filler by the dataset (ids never collide: see generate.ts).
 */
import type { Account, Address, Card, Customer, Dispute, Transaction } from '../types.js';

/** Everything the seed layer adds, by table. */
export interface SeedLayer {
  customers: Record<string, Customer>;
  accounts: Record<string, Account>;
  cards: Record<string, Card>;
  transactions: Record<string, Transaction>;
  disputes: Record<string, Dispute>;
}

const addr = (line1: string, line2: string | null, city: string, state: string, zip: string): Address => ({ line1, line2, city, state, zip });

type Txn = [id: string, authorized: string, posted: string | null, description: string, cents: number, kind?: Transaction['kind'], related?: string];

interface SeedCustomer {
  id: string;
  first: string;
  last: string;
  dob: string;
  ssn: string;
  phone: string;
  tier: Customer['tier'];
  since: string;
  address: Address;
  accounts: { id: string; product: Account['product']; opened: string; balance: number; card?: { id: string; last4: string; network?: Card['network'] }; txns?: Txn[] }[];
}

const SEEDS: SeedCustomer[] = [
  // T08: Basic Checking (no provisional credit, policy 3.5); the $412.90 charge of 2026-09-20 and two look-alikes.
  { id: 'ben_ross_604', first: 'Ben', last: 'Ross', dob: '1981-04-17', ssn: '6604', phone: '503-555-0164', tier: 'Standard', since: '2019-03-02', address: addr('2218 SE Belmont St', null, 'Portland', 'OR', '97214'),
    accounts: [
      { id: 'ACC-60401', product: 'Basic Checking', opened: '2019-03-02', balance: 184_233, card: { id: 'CRD-60401', last4: '3391' }, txns: [
        ['TXN-8838412', '2026-08-28', '2026-08-29', 'HARBORVIEW DENTAL PC', -41_290],
        ['TXN-8839020', '2026-09-04', '2026-09-05', 'PGE ONLINE PAYMENT', -13_817],
        ['TXN-8840115', '2026-09-15', '2026-09-15', 'PAYROLL ACME LOGISTICS', 286_455, 'deposit'],
        ['TXN-8841188', '2026-09-20', '2026-09-20', 'FRED MEYER #0212 PORTLAND OR', -4_129],
        ['TXN-8841207', '2026-09-20', '2026-09-21', 'NXT ELECTRONICS ONLINE 8884120', -41_290],
        ['TXN-8842301', '2026-09-29', '2026-09-30', 'NEW SEASONS MARKET', -6_733],
      ] },
      { id: 'ACC-60402', product: 'Savings', opened: '2020-01-15', balance: 1_250_017 },
    ] },
  // Namesake of ben_ross_604 (T08 decoy).
  { id: 'ben_ross_318', first: 'Ben', last: 'Ross', dob: '1975-11-02', ssn: '3180', phone: '614-555-0318', tier: 'Plus', since: '2012-06-20', address: addr('77 E Long St', 'Apt 9', 'Columbus', 'OH', '43215'),
    accounts: [{ id: 'ACC-31801', product: 'Everyday Checking', opened: '2012-06-20', balance: 530_911, card: { id: 'CRD-31801', last4: '6604' }, txns: [['TXN-3180101', '2026-09-20', '2026-09-21', 'NXT ELECTRONICS ONLINE 8884120', -41_290]] }] },
  // T14: the holder; the caller (his spouse) cannot pass verification.
  { id: 'paul_meyer_221', first: 'Paul', last: 'Meyer', dob: '1968-02-09', ssn: '2210', phone: '608-555-0221', tier: 'Plus', since: '2004-09-30', address: addr('905 Williamson St', null, 'Madison', 'WI', '53703'),
    accounts: [
      { id: 'ACC-22101', product: 'Everyday Checking', opened: '2004-09-30', balance: 821_437, card: { id: 'CRD-22101', last4: '4417', network: 'Mastercard' }, txns: [['TXN-2210101', '2026-09-24', '2026-09-25', 'WOODMANS MARKET', -15_562]] },
      { id: 'ACC-22102', product: 'Savings', opened: '2010-04-01', balance: 4_410_890 },
    ] },
  // T20 (legacy CRM): Standard tier, so the expedited fee applies.
  { id: 'nina_berg_871', first: 'Nina', last: 'Berg', dob: '1990-07-23', ssn: '8712', phone: '612-555-0871', tier: 'Standard', since: '2016-01-11', address: addr('3120 Hennepin Ave', 'Apt 4', 'Minneapolis', 'MN', '55408'),
    accounts: [{ id: 'ACC-87101', product: 'Everyday Checking', opened: '2016-01-11', balance: 243_118, card: { id: 'CRD-87101', last4: '5502' }, txns: [['TXN-8710101', '2026-09-27', '2026-09-28', 'LUNDS & BYERLYS', -8_416]] }] },
  // B01: a lost card; a second checking card is the decoy.
  { id: 'maya_chen_330', first: 'Maya', last: 'Chen', dob: '1992-01-30', ssn: '3305', phone: '206-555-0330', tier: 'Plus', since: '2015-08-19', address: addr('1510 NW 57th St', null, 'Seattle', 'WA', '98107'),
    accounts: [
      { id: 'ACC-33001', product: 'Everyday Checking', opened: '2015-08-19', balance: 312_406, card: { id: 'CRD-33001', last4: '7720' } },
      { id: 'ACC-33002', product: 'Basic Checking', opened: '2021-02-03', balance: 40_951, card: { id: 'CRD-33002', last4: '2077' } },
    ] },
  // B02: Premier, stolen card, expedited with the fee waived; a Standard namesake is the decoy.
  { id: 'omar_haddad_512', first: 'Omar', last: 'Haddad', dob: '1979-09-14', ssn: '5129', phone: '312-555-0512', tier: 'Premier', since: '2008-03-11', address: addr('400 N Lake Shore Dr', 'Unit 2305', 'Chicago', 'IL', '60611'),
    accounts: [{ id: 'ACC-51201', product: 'Premier Checking', opened: '2008-03-11', balance: 2_481_775, card: { id: 'CRD-51201', last4: '9034' } }] },
  { id: 'omar_haddad_288', first: 'Omar', last: 'Haddad', dob: '1986-12-01', ssn: '2881', phone: '313-555-0288', tier: 'Standard', since: '2020-10-05', address: addr('14300 Michigan Ave', null, 'Dearborn', 'MI', '48126'),
    accounts: [{ id: 'ACC-28801', product: 'Everyday Checking', opened: '2020-10-05', balance: 98_302, card: { id: 'CRD-28801', last4: '9043' } }] },
  // B03: Standard, damaged card, expedited: the $25.00 fee applies even though she asks for a waiver.
  { id: 'lena_fischer_447', first: 'Lena', last: 'Fischer', dob: '1984-06-08', ssn: '4471', phone: '720-555-0447', tier: 'Standard', since: '2014-02-27', address: addr('2840 Tejon St', null, 'Denver', 'CO', '80211'),
    accounts: [{ id: 'ACC-44701', product: 'Everyday Checking', opened: '2014-02-27', balance: 167_590, card: { id: 'CRD-44701', last4: '6218' } }] },
  // B04: a double charge posted 64 days ago (outside 60 days); a later charge at the same shop is the decoy.
  { id: 'diego_ramos_158', first: 'Diego', last: 'Ramos', dob: '1995-03-22', ssn: '1587', phone: '305-555-0158', tier: 'Standard', since: '2018-07-07', address: addr('1235 SW 8th St', 'Apt 3B', 'Miami', 'FL', '33135'),
    accounts: [{ id: 'ACC-15801', product: 'Everyday Checking', opened: '2018-07-07', balance: 204_477, card: { id: 'CRD-15801', last4: '4180' }, txns: [
      ['TXN-1580101', '2026-07-29', '2026-07-30', 'SUNSET CAMERA SUPPLY', -18_745],
      ['TXN-1580102', '2026-07-29', '2026-07-30', 'SUNSET CAMERA SUPPLY', -18_745],
      ['TXN-1580103', '2026-08-12', '2026-08-13', 'SUNSET CAMERA SUPPLY', -1_875],
    ] }] },
  // B05: the caller gives a wrong date of birth.
  { id: 'ivy_tran_265', first: 'Ivy', last: 'Tran', dob: '1993-12-05', ssn: '2653', phone: '408-555-0265', tier: 'Standard', since: '2017-11-13', address: addr('980 Lick Mill Blvd', 'Apt 210', 'Santa Clara', 'CA', '95054'),
    accounts: [{ id: 'ACC-26501', product: 'Everyday Checking', opened: '2017-11-13', balance: 77_314, card: { id: 'CRD-26501', last4: '1265' } }] },
  // B06: an address change; the namesake in Tucson must stay untouched.
  { id: 'sofia_alvarez_702', first: 'Sofia', last: 'Alvarez', dob: '1988-10-19', ssn: '7020', phone: '512-555-0702', tier: 'Plus', since: '2011-05-16', address: addr('1701 S Congress Ave', 'Apt 5', 'Austin', 'TX', '78704'),
    accounts: [{ id: 'ACC-70201', product: 'Everyday Checking', opened: '2011-05-16', balance: 389_120, card: { id: 'CRD-70201', last4: '8702' } }] },
  { id: 'sofia_alvarez_519', first: 'Sofia', last: 'Alvarez', dob: '1991-01-04', ssn: '5190', phone: '520-555-0519', tier: 'Standard', since: '2019-09-09', address: addr('3302 E Speedway Blvd', null, 'Tucson', 'AZ', '85716'),
    accounts: [{ id: 'ACC-51901', product: 'Basic Checking', opened: '2019-09-09', balance: 25_606, card: { id: 'CRD-51901', last4: '5190' } }] },
  // B07: fraud on an Everyday Checking opened 2024-05-14: provisional credit is due.
  { id: 'grant_holloway_419', first: 'Grant', last: 'Holloway', dob: '1972-08-25', ssn: '4193', phone: '615-555-0419', tier: 'Standard', since: '2024-05-14', address: addr('1811 Division St', null, 'Nashville', 'TN', '37203'),
    accounts: [{ id: 'ACC-41901', product: 'Everyday Checking', opened: '2024-05-14', balance: 356_002, card: { id: 'CRD-41901', last4: '8120' }, txns: [
      ['TXN-4190101', '2026-09-03', '2026-09-04', 'GAMEVAULT DIGITAL', -1_064],
      ['TXN-4190102', '2026-09-27', '2026-09-28', 'QUIKPAY*GAMEVAULT', -106_418],
    ] }] },
  // B08: damaged card; asks for expedited, then switches to standard on hearing the fee.
  { id: 'hannah_okafor_583', first: 'Hannah', last: 'Okafor', dob: '1998-04-11', ssn: '5836', phone: '404-555-0583', tier: 'Standard', since: '2020-01-21', address: addr('725 Ponce De Leon Ave NE', 'Apt 1408', 'Atlanta', 'GA', '30306'),
    accounts: [{ id: 'ACC-58301', product: 'Everyday Checking', opened: '2020-01-21', balance: 118_234, card: { id: 'CRD-58301', last4: '3306' } }] },
  // B09: a wire recall, which only the wire team may handle (policy 7.1).
  { id: 'walter_brooks_091', first: 'Walter', last: 'Brooks', dob: '1957-12-30', ssn: '0914', phone: '617-555-0091', tier: 'Premier', since: '1999-04-02', address: addr('12 Louisburg Sq', null, 'Boston', 'MA', '02108'),
    accounts: [{ id: 'ACC-09101', product: 'Premier Checking', opened: '1999-04-02', balance: 6_120_450, card: { id: 'CRD-09101', last4: '0912' }, txns: [['TXN-0910101', '2026-10-01', '2026-10-01', 'OUTGOING WIRE REF W2610014471', -1_850_000, 'transfer']] }] },
  // B10: the garage charge is already disputed (DSP-0734, opened 2026-09-16).
  { id: 'ruth_kim_734', first: 'Ruth', last: 'Kim', dob: '1966-05-03', ssn: '7342', phone: '215-555-0734', tier: 'Plus', since: '2001-10-10', address: addr('2001 Walnut St', 'Apt 7C', 'Philadelphia', 'PA', '19103'),
    accounts: [{ id: 'ACC-73401', product: 'Everyday Checking', opened: '2001-10-10', balance: 602_287, card: { id: 'CRD-73401', last4: '7734' }, txns: [['TXN-7340011', '2026-09-14', '2026-09-15', 'CITYPARK GARAGE 0442', -7_620]] }] },
  // B11: fraud posted exactly 60 days ago (still disputable) on a Premier Checking only 74 days old (no provisional credit).
  { id: 'nolan_price_266', first: 'Nolan', last: 'Price', dob: '1983-02-14', ssn: '2669', phone: '702-555-0266', tier: 'Plus', since: '2026-07-20', address: addr('9000 W Sahara Ave', 'Unit 118', 'Las Vegas', 'NV', '89117'),
    accounts: [{ id: 'ACC-26601', product: 'Premier Checking', opened: '2026-07-20', balance: 1_202_366, card: { id: 'CRD-26601', last4: '2661' }, txns: [
      ['TXN-2660101', '2026-08-02', '2026-08-03', 'STREAMLINE MEDIA SUBSCR', -23_999],
      ['TXN-2660102', '2026-08-02', '2026-08-02', 'STREAMLINE MEDIA SUBSCR', -2_399],
    ] }] },
  // B12: a Premier customer charged a foreign transaction fee ($8.99 on $299.50); the ATM fee stays.
  { id: 'aisha_bello_840', first: 'Aisha', last: 'Bello', dob: '1987-07-07', ssn: '8405', phone: '202-555-0840', tier: 'Premier', since: '2013-03-18', address: addr('1625 16th St NW', 'Apt 301', 'Washington', 'DC', '20009'),
    accounts: [{ id: 'ACC-84001', product: 'Premier Checking', opened: '2013-03-18', balance: 1_877_301, card: { id: 'CRD-84001', last4: '8401' }, txns: [
      ['TXN-8400101', '2026-09-25', '2026-09-26', 'HOTEL LUTETIA PARIS FR', -29_950],
      ['TXN-8400102', '2026-09-26', '2026-09-26', 'FOREIGN TRANSACTION FEE', -899, 'fee', 'TXN-8400101'],
      ['TXN-8400103', '2026-09-26', '2026-09-26', 'OUT-OF-NETWORK ATM FEE', -300, 'fee'],
      ['TXN-8400104', '2026-09-26', '2026-09-26', 'ATM WITHDRAWAL 75 RUE DE RIVOLI', -12_000, 'atm_withdrawal'],
    ] }] },
];

/** The disputes already on file (B10). */
const DISPUTES: Dispute[] = [
  { dispute_id: 'DSP-0734', transaction_id: 'TXN-7340011', account_id: 'ACC-73401', customer_id: 'ruth_kim_734', reason: 'billing_error', amount_cents: 7_620, opened_on: '2026-09-16', status: 'open', provisional_credit_cents: 0 },
];

/** The seed layer: customers, accounts, cards, transactions and disputes of the tasks. */
export function bankSeedRecords(): SeedLayer {
  const out: SeedLayer = { customers: {}, accounts: {}, cards: {}, transactions: {}, disputes: {} };
  for (const s of SEEDS) {
    out.customers[s.id] = {
      customer_id: s.id, first_name: s.first, last_name: s.last, date_of_birth: s.dob, ssn_last4: s.ssn, phone: s.phone,
      email: `${s.first.toLowerCase()}.${s.last.toLowerCase()}${s.id.slice(-3)}@example.com`, tier: s.tier, customer_since: s.since,
      mailing_address: s.address, account_ids: s.accounts.map((a) => a.id),
    };
    for (const a of s.accounts) {
      out.accounts[a.id] = { account_id: a.id, customer_id: s.id, product: a.product, status: 'open', opened_on: a.opened, balance_cents: a.balance, card_ids: a.card ? [a.card.id] : [] };
      if (a.card) {
        out.cards[a.card.id] = { card_id: a.card.id, account_id: a.id, customer_id: s.id, network: a.card.network ?? 'Visa', last4: a.card.last4, status: 'active', block_reason: null, blocked_at: null, expires: '2029-08', issued_on: '2025-08-01', replacement_order_id: null };
      }
      for (const [id, authorized, posted, description, cents, kind, related] of a.txns ?? []) {
        const card = (kind === undefined && cents < 0) || kind === 'atm_withdrawal' ? a.card?.id ?? null : null;
        out.transactions[id] = {
          transaction_id: id, account_id: a.id, card_id: card, posted_on: posted, authorized_on: authorized, status: posted ? 'posted' : 'pending',
          kind: kind ?? (cents < 0 ? 'card_purchase' : 'deposit'), description, amount_cents: cents, related_transaction_id: related ?? null, dispute_id: null,
        };
      }
    }
  }
  for (const d of DISPUTES) {
    out.disputes[d.dispute_id] = d;
    out.transactions[d.transaction_id].dispute_id = d.dispute_id;
  }
  return out;
}
