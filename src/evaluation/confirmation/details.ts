/**
 * Whether an agent's confirmation request names the write it asks about: the policies (airline
 * 1.2, retail 1.2) require the agent to "list the action details and obtain explicit
 * confirmation". Derived from the write's tool name and arguments alone (no domain knowledge):
 *
 * - the action: a word of the tool name's verb family ("cancel", "update" → change / move /
 *   upgrade …, "exchange" → swap / replace …) or its object ("baggages" → bag, "insurance"), or
 *   the tool name itself;
 * - identifiers: top-level string arguments a customer can recognise — codes mixing letters and digits
 *   (`3PZK9W`, `HAT301`, `#W4419983`; the `#` optional), at least one of its dates (`2026-10-21`,
 *   also written "October 21" / "Oct 21" / "21 October"; an unchanged check-in may go unsaid), and free text with digits such as an address line
 *   ("845 Lake Shore Drive"); internal ids with underscores and plain digit strings (item ids, zip
 *   codes) are not required, nor are identifiers nested in lists (the full itinerary of a flight
 *   change repeats unchanged flights);
 * - amounts: numeric arguments named like an amount (`amount`, `price`, `total`, `fee`, `cost`, or ending `_amount` …; not counts such as `total_baggages`),
 *   as a number in the text (`$150`, `150.00`, `1,320`; `…_cents` arguments in units: 28573 → 285.73);
 * - the payment method of a `payment…` argument: its id, or its kind's distinguishing word
 *   (`gift_card_…` → "gift", `paypal_…` → "paypal", `certificate_…` → "certificate"); a
 *   card (`credit_card_…`, `card_…`) is also named by "card", "visa", "mastercard", "amex", "discover", "debit".
 */

/** Verb families: a tool-name verb and the words that name the same action. */
const VERB_FAMILIES: Record<string, string[]> = {
  cancel: ['cancel'],
  update: ['update', 'chang', 'modif', 'mov', 'upgrad', 'downgrad', 'switch', 'rebook', 'add', 'remov', 'set'],
  modify: ['modif', 'chang', 'updat', 'switch', 'mov', 'add', 'remov', 'replac'],
  change: ['chang', 'modif', 'updat', 'mov', 'switch', 'rebook', 'upgrad'],
  exchange: ['exchang', 'swap', 'replac', 'switch'],
  return: ['return', 'refund', 'send back'],
  send: ['send', 'issu', 'giv', 'credit', 'add', 'compensat'],
  add: ['add', 'includ', 'purchas', 'buy'],
  book: ['book', 'reserv'],
  remove: ['remov', 'delet', 'cancel', 'drop'],
  transfer: ['transfer'],
  post: ['post', 'charg', 'bill', 'appl'],
};
/** Tool-name words that do not name what is acted on. */
const GENERIC_NOUNS = new Set(['reservation', 'order', 'user', 'pending', 'delivered', 'and', 'items', 'item', 'details', 'split', 'payment', 'travel']);
const AMOUNT_KEY = /(^|_)(amount|price|total|fee|cost|charge)(_cents)?$/i;
const CENTS_KEY = /_cents$/i;
const PAYMENT_KEY = /payment/i;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const CARD_WORDS = /\b(credit|visa|mastercard|master card|amex|american express|discover|debit)\b/i;

/** A write the request should describe. */
export interface WriteToDescribe {
  name: string;
  arguments: unknown;
}

function stem(w: string): string {
  return w.toLowerCase().replace(/(gages|ages|s)$/, '').replace(/e$/, '');
}

function namesAction(text: string, tool: string): boolean {
  const t = text.toLowerCase();
  if (t.includes(tool.toLowerCase())) return true;
  const [verb, ...rest] = tool.toLowerCase().split('_');
  const family = VERB_FAMILIES[verb] ?? [stem(verb)];
  const words = [...family, ...rest.filter((w) => !GENERIC_NOUNS.has(w)).map(stem)];
  return words.some((w) => new RegExp(`\\b${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i').test(t));
}

/** Every (key, value, depth) leaf of an argument object; depth 0 for top-level scalars. */
function leaves(v: unknown, key = '', depth = -1): [string, unknown, number][] {
  if (Array.isArray(v)) return v.flatMap((x) => leaves(x, key, depth + 1));
  if (v !== null && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => leaves(x, k, depth + 1));
  return [[key, v, Math.max(0, depth)]];
}

function mentionsDate(text: string, iso: string): boolean {
  if (text.includes(iso)) return true;
  const [, m, d] = iso.split('-').map(Number);
  const month = MONTHS[m - 1];
  if (!month) return false;
  const mon = `(${month}|${month.slice(0, 3)}\\.?)`;
  const day = `0?${d}(st|nd|rd|th)?`;
  return new RegExp(`\\b${mon}\\s+${day}\\b|\\b${day}\\s+(of\\s+)?${mon}\\b|\\b0?${m}/0?${d}\\b`, 'i').test(text);
}

function mentionsNumber(text: string, n: number): boolean {
  for (const m of text.matchAll(/(?<![\w.])\$?\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?(?![\w])/g)) {
    if (Number(`${m[1].replace(/,/g, '')}${m[2] ?? ''}`) === n) return true;
  }
  return false;
}

function mentionsPayment(text: string, id: string): boolean {
  if (text.toLowerCase().includes(id.toLowerCase())) return true;
  const kind = id.replace(/_?\d+$/, '').split('_');
  if (['credit', 'debit', 'card'].includes(kind[0]) && (CARD_WORDS.test(text) || /\bcard\b/i.test(text))) return true;
  return new RegExp(`\\b${kind[0]}`, 'i').test(text.replace(/_/g, ' '));
}

/** A customer-recognisable identifier or free text with a number (see the module doc). */
function isRecognisable(s: string): boolean {
  if (s.includes('_')) return false;
  if (/^#?(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{4,}$/.test(s)) return true;
  return /\s/.test(s) && /\d/.test(s) && /[a-z]/i.test(s);
}

/**
 * What the request `text` (the agent's messages asking for confirmation) fails to name about
 * `write`, as short phrases for evidence (`the action (cancel_reservation)`, `3PZK9W`,
 * `2026-10-21`, `amount 150`, `payment gift_card_1180002`); empty when it names everything.
 */
export function missingDetails(text: string, write: WriteToDescribe): string[] {
  const missing: string[] = [];
  const seen = new Set<string>();
  let amountStated = false;
  const dates: string[] = [];
  for (const [key, value, depth] of leaves(write.arguments)) {
    const tag = `${key}=${JSON.stringify(value)}`;
    if (seen.has(tag)) continue;
    seen.add(tag);
    if (typeof value === 'number' && AMOUNT_KEY.test(key)) {
      const shown = CENTS_KEY.test(key) ? value / 100 : value;
      if (mentionsNumber(text, shown)) amountStated = true;
      else missing.push(`${key} ${value}`);
    } else if (typeof value === 'string' && PAYMENT_KEY.test(key)) {
      if (!mentionsPayment(text, value)) missing.push(`payment ${value}`);
    } else if (depth > 0) {
      continue; // nested identifiers (a full itinerary's flights, item lists) are not required
    } else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
      dates.push(value);
    } else if (typeof value === 'string' && isRecognisable(value)) {
      const bare = value.replace(/^#/, '').toLowerCase();
      if (!text.toLowerCase().includes(bare)) missing.push(value);
    }
  }
  // Dates: at least one (a change of stay or flight names the date it sets; an unchanged one may be left out).
  const dateStated = dates.some((d) => mentionsDate(text, d));
  if (dates.length > 0 && !dateStated) missing.push(dates.length === 1 ? dates[0] : `a date (${dates.join(' or ')})`);
  // The action is named by its words, or by the amount it moves or the date it sets ("the penalty is
  // $285.73", "checking out 2026-10-22").
  if (!amountStated && !dateStated && !namesAction(text, write.name)) missing.unshift(`the action (${write.name})`);
  return missing;
}
