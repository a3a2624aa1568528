/**
 * The records the hotel tasks name (seeds/001_14d444b6cd11c72e.txt T09 and the domain's own tasks
 * H01-H12), with their decoys: a second card on file, another reservation of the same guest,
 * namesakes. Booked nights carry their rate and tax as the reservation system priced them.
 */
import { nightTaxCents, stayDates } from '../rules.js';
import type { Guest, NightlyRate, Reservation } from '../schema.js';

/** Property tax rates in basis points (policy 2.1). */
export const TAX_BP: Record<string, number> = { 'LH-SEA': 1475, 'LH-PDX': 1350, 'LH-SFO': 1600 };

type Card = Guest['cards'][number];
interface SeedStay {
  id: string;
  property: string;
  room: string;
  plan: string;
  checkIn: string;
  checkOut: string;
  rates: number[];
  adults?: number;
  /** Paid at booking (prepaid plans): the card of the first payment. */
  paidWith?: string;
}
interface SeedGuest { id: string; first: string; last: string; tier: Guest['loyalty_tier']; phone: string; cards: Card[]; stays: SeedStay[] }

const card = (payment_id: string, brand: Card['brand'], last4: string): Card => ({ payment_id, brand, last4 });

const SEEDS: SeedGuest[] = [
  // T09: shorten H-55102 from 4 nights to 2, 36 hours before arrival (FLEX-PP).
  { id: 'emma_wu_819', first: 'Emma', last: 'Wu', tier: 'Silver', phone: '206-555-0819', cards: [card('card_8191', 'Visa', '2291'), card('card_8192', 'Amex', '1009')],
    stays: [
      { id: 'H-55102', property: 'LH-SEA', room: 'KING', plan: 'FLEX-PP', checkIn: '2026-10-20', checkOut: '2026-10-24', rates: [21_900, 21_900, 24_900, 27_900], paidWith: 'card_8191' },
      { id: 'H-55117', property: 'LH-PDX', room: 'KING', plan: 'FLEX-PP', checkIn: '2026-11-13', checkOut: '2026-11-15', rates: [18_900, 20_900], paidWith: 'card_8192' },
    ] },
  { id: 'emma_wu_402', first: 'Emma', last: 'Wu', tier: 'Member', phone: '415-555-0402', cards: [card('card_4021', 'Mastercard', '5580')],
    stays: [{ id: 'H-55103', property: 'LH-SEA', room: 'QQ', plan: 'FLEX-PP', checkIn: '2026-10-20', checkOut: '2026-10-23', rates: [20_900, 20_900, 23_900], paidWith: 'card_4021' }] },
  // H01: free cancellation, 5.5 days out; a namesake's booking at the same hotel is the decoy.
  { id: 'james_park_227', first: 'James', last: 'Park', tier: 'Gold', phone: '503-555-0227', cards: [card('card_2271', 'Visa', '7781')],
    stays: [{ id: 'H-61230', property: 'LH-PDX', room: 'QQ', plan: 'FLEX-PP', checkIn: '2026-10-24', checkOut: '2026-10-26', rates: [19_450, 21_450], paidWith: 'card_2271' }] },
  { id: 'james_park_559', first: 'James', last: 'Park', tier: 'Member', phone: '971-555-0559', cards: [card('card_5591', 'Visa', '3319')],
    stays: [{ id: 'H-61231', property: 'LH-PDX', room: 'KING', plan: 'FLEX-PP', checkIn: '2026-10-24', checkOut: '2026-10-25', rates: [20_450], paidWith: 'card_5591' }] },
  // H02: advance purchase, non-refundable.
  { id: 'olivia_grant_334', first: 'Olivia', last: 'Grant', tier: 'Member', phone: '650-555-0334', cards: [card('card_3341', 'Mastercard', '9124')],
    stays: [{ id: 'H-61402', property: 'LH-SFO', room: 'KING', plan: 'ADV-NR', checkIn: '2026-10-23', checkOut: '2026-10-25', rates: [23_120, 25_120], paidWith: 'card_3341' }] },
  // H03: SEMI-PP at 60 hours: half of a $199.99 night, rounded half up ($100.00).
  { id: 'marcus_lee_718', first: 'Marcus', last: 'Lee', tier: 'Silver', phone: '206-555-0718', cards: [card('card_7181', 'Visa', '6617')],
    stays: [{ id: 'H-61517', property: 'LH-SEA', room: 'QQ', plan: 'SEMI-PP', checkIn: '2026-10-21', checkOut: '2026-10-24', rates: [22_999, 19_999, 19_999], paidWith: 'card_7181' }] },
  // H04: extend by a night priced at the current rate ($234.50 + $31.66 tax in Portland).
  { id: 'priya_nair_505', first: 'Priya', last: 'Nair', tier: 'Gold', phone: '503-555-0505', cards: [card('card_5051', 'Amex', '3005'), card('card_5052', 'Visa', '8810')],
    stays: [{ id: 'H-61603', property: 'LH-PDX', room: 'KING', plan: 'FLEX-PP', checkIn: '2026-10-22', checkOut: '2026-10-24', rates: [21_450, 21_450], paidWith: 'card_5051' }] },
  // H05: MEM-FLEX exactly 60 hours before arrival: still free.
  { id: 'daniel_cho_611', first: 'Daniel', last: 'Cho', tier: 'Silver', phone: '425-555-0611', cards: [card('card_6111', 'Visa', '4416')],
    stays: [{ id: 'H-61710', property: 'LH-SEA', room: 'KING', plan: 'MEM-FLEX', checkIn: '2026-10-21', checkOut: '2026-10-23', rates: [25_900, 25_900], paidWith: 'card_6111' }] },
  // H06: the caller gives the wrong last name.
  { id: 'anna_schmidt_129', first: 'Anna', last: 'Schmidt', tier: 'Member', phone: '312-555-0129', cards: [card('card_1291', 'Visa', '2210')],
    stays: [{ id: 'H-61812', property: 'LH-SFO', room: 'STE', plan: 'FLEX-PP', checkIn: '2026-10-27', checkOut: '2026-10-30', rates: [41_900, 41_900, 44_900], paidWith: 'card_1291' }] },
  // H07: free cancellation; he asks for the refund on his other card.
  { id: 'lucas_moreau_846', first: 'Lucas', last: 'Moreau', tier: 'Member', phone: '415-555-0846', cards: [card('card_8461', 'Mastercard', '6002'), card('card_8462', 'Visa', '9931')],
    stays: [{ id: 'H-61905', property: 'LH-SFO', room: 'QQ', plan: 'FLEX-PP', checkIn: '2026-10-24', checkOut: '2026-10-26', rates: [26_480, 27_480], paidWith: 'card_8461' }] },
  // H08: wants to cancel, then shortens by one night instead (free, 6.5 days out).
  { id: 'sara_ito_392', first: 'Sara', last: 'Ito', tier: 'Silver', phone: '408-555-0392', cards: [card('card_3921', 'Visa', '1188')],
    stays: [{ id: 'H-62004', property: 'LH-SFO', room: 'KING', plan: 'FLEX-PP', checkIn: '2026-10-25', checkOut: '2026-10-28', rates: [27_990, 26_990, 26_990], paidWith: 'card_3921' }] },
  // H09: asks for a wedding block (12 rooms): transfer.
  { id: 'ben_adler_275', first: 'Ben', last: 'Adler', tier: 'Gold', phone: '206-555-0275', cards: [card('card_2751', 'Amex', '7275')], stays: [] },
  // H10: pay at hotel, 12 hours out: the penalty goes on the folio, no money moves.
  { id: 'nora_quinn_463', first: 'Nora', last: 'Quinn', tier: 'Member', phone: '503-555-0463', cards: [card('card_4631', 'Visa', '5463')],
    stays: [{ id: 'H-62110', property: 'LH-PDX', room: 'QQ', plan: 'FLEX-PH', checkIn: '2026-10-19', checkOut: '2026-10-21', rates: [16_900, 17_900] }] },
  // H11: found a lower rate online; no price matching.
  { id: 'tom_becker_580', first: 'Tom', last: 'Becker', tier: 'Silver', phone: '206-555-0580', cards: [card('card_5801', 'Mastercard', '0580')],
    stays: [{ id: 'H-62208', property: 'LH-SEA', room: 'KING', plan: 'FLEX-PP', checkIn: '2026-10-29', checkOut: '2026-10-31', rates: [26_900, 29_900], paidWith: 'card_5801' }] },
  // H12: cancels 36 hours out on FLEX-PP: the first night stays as a penalty.
  { id: 'mia_santos_377', first: 'Mia', last: 'Santos', tier: 'Member', phone: '415-555-0377', cards: [card('card_3771', 'Visa', '3771')],
    stays: [{ id: 'H-62301', property: 'LH-SFO', room: 'KING', plan: 'FLEX-PP', checkIn: '2026-10-20', checkOut: '2026-10-22', rates: [28_900, 28_900], paidWith: 'card_3771' }] },
];

/** Current rates the tasks depend on, laid over the generated rate table. */
export const SEED_RATES: NightlyRate[] = [{ property_id: 'LH-PDX', room_type: 'KING', rate_plan_id: 'FLEX-PP', date: '2026-10-24', rate_cents: 23_450, rooms_left: 3 }];

/** The time a seed booking was made and paid. */
const BOOKED_AT = '2026-09-02T11:20:00';

/** The seed layer: guests and their reservations. */
export function hotelSeedRecords(): { guests: Record<string, Guest>; reservations: Record<string, Reservation> } {
  const guests: Record<string, Guest> = {};
  const reservations: Record<string, Reservation> = {};
  for (const g of SEEDS) {
    guests[g.id] = { guest_id: g.id, first_name: g.first, last_name: g.last, email: `${g.first.toLowerCase()}.${g.last.toLowerCase()}@example.net`, phone: g.phone, loyalty_tier: g.tier, cards: g.cards, reservation_ids: g.stays.map((s) => s.id) };
    for (const s of g.stays) {
      const dates = stayDates(s.checkIn, s.checkOut);
      if (dates.length !== s.rates.length) throw new Error(`seed stay ${s.id}: ${dates.length} nights, ${s.rates.length} rates`);
      const nights = dates.map((date, i) => ({ date, rate_cents: s.rates[i], tax_cents: nightTaxCents(s.rates[i], TAX_BP[s.property]) }));
      const total = nights.reduce((a, n) => a + n.rate_cents + n.tax_cents, 0);
      const payments = s.paidWith ? [{ payment_id: s.paidWith, kind: 'charge' as const, amount_cents: total, at: BOOKED_AT }] : [];
      reservations[s.id] = {
        reservation_id: s.id, guest_id: g.id, property_id: s.property, room_type: s.room, rate_plan_id: s.plan, check_in: s.checkIn, check_out: s.checkOut, adults: s.adults ?? 2,
        status: 'confirmed', nights, charges: [], payments, total_cents: total, balance_cents: payments.length ? 0 : -total,
      };
    }
  }
  return { guests, reservations };
}
