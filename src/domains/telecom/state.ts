/**
 * Episode state of the telecom domain: the agent-side DB, the user-side DB (the customer's phone
 * and surroundings), and tau2's sync between them. Both DBs are small (≈10 kB), so the state is
 * plain JSON, forked by cloning.
 */
import { createHash } from 'node:crypto';
import { diffState } from '../../env/diff.js';
import type { StateOps } from '../../spec/state.js';
import { canonicalEqual } from '../../util/canonical.js';
import { clonePlain } from '../../util/clone.js';
import { pyDumps } from '../../util/pyjson.js';
import { simulateNetworkSearch } from './device.js';
import { TELECOM_DB_TYPES, TELECOM_USER_DB_TYPES, type Line, type TelecomDb, type TelecomUserDb } from './schema.js';

/** One episode's telecom state. */
export interface TelecomState {
  db: TelecomDb;
  user: TelecomUserDb;
  /**
   * tau2-compatible quirk, not part of either DB: after `break_vpn`, tau2's shared default VPN
   * profile is the broken one, so a later `connect_vpn` in the same episode connects to a poor
   * server. Never shared between episodes here; absent in the corrected mode.
   */
  vpnDefaultPoor?: boolean;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** tau2's agent-DB hash: sha256 of `json.dumps(db.model_dump(), sort_keys=True, default=str)`. */
export function telecomDbHash(s: TelecomState): string {
  return sha256(pyDumps(s.db, { sortKeys: true, types: TELECOM_DB_TYPES }));
}

/** tau2's user-DB hash (device + surroundings), same recipe. */
export function telecomUserDbHash(s: TelecomState): string {
  return sha256(pyDumps(s.user, { sortKeys: true, types: TELECOM_USER_DB_TYPES }));
}

/**
 * State operations: `hash`/`diff` cover the agent DB (tau2's `db_hash`, `diff`); `userDb`
 * covers the user DB (`user_db_hash`, `user_db_diff`); `equal` compares both, as tau2's DB
 * reward needs both hashes to match.
 */
export const telecomStateOps: StateOps<TelecomState> = {
  fork: (s) => clonePlain(s),
  equal: (a, b) => canonicalEqual(a.db, b.db) && canonicalEqual(a.user, b.user),
  diff: (a, b) => diffState(a.db, b.db),
  hash: telecomDbHash,
  userDb: { hash: telecomUserDbHash, diff: (a, b) => diffState(a.user, b.user) },
};

const digits = (p: string) => p.replace(/\D/g, '');

/** The line with this phone number (digits compared); throws tau2's message. */
export function lineByPhone(db: TelecomDb, phone: string): Line {
  const want = digits(phone);
  const line = want ? db.lines.find((l) => digits(l.phone_number) === want) : undefined;
  if (!line) throw new Error(`Line with phone number ${phone} not found`);
  return line;
}

/**
 * tau2 `sync_tools()`, run after every tool call on the live path: when the phone's owner is
 * known (`surroundings.phone_number`), copy the line's state onto the surroundings — line
 * active, roaming allowed, data usage exceeded (used ≥ plan limit + refuelled) — mark a paid
 * payment request's bill Paid and drop the request, then raise a request for the customer's
 * first bill awaiting payment if there is none. Throws (`Wrong scenario, …`) when the phone
 * number has no line or the line's plan is unknown.
 */
export function syncTelecom(s: TelecomState): void {
  const sur = s.user.surroundings;
  if (sur.phone_number === null) return;
  const phone = sur.phone_number;
  const want = digits(phone);
  const line = want ? s.db.lines.find((l) => digits(l.phone_number) === want) : undefined;
  if (!line) throw new Error(`Wrong scenario, line not found for phone number: ${phone}`);
  sur.line_active = line.status === 'Active';
  sur.roaming_allowed = line.roaming_enabled;
  const plan = s.db.plans.find((p) => p.plan_id === line.plan_id);
  if (!plan) throw new Error(`Plan with ID ${line.plan_id} not found`);
  sur.mobile_data_usage_exceeded = line.data_used_gb >= plan.data_limit_gb + line.data_refueling_gb;
  if (sur.payment_request?.paid) {
    const bill = s.db.bills.find((b) => b.bill_id === sur.payment_request!.bill_id);
    if (!bill) throw new Error(`Bill with ID ${sur.payment_request.bill_id} not found`);
    bill.status = 'Paid';
    sur.payment_request = null;
  }
  if (sur.payment_request === null) {
    const customer = s.db.customers.find((c) => digits(c.phone_number) === want || c.line_ids.some((id) => s.db.lines.some((l) => l.line_id === id && digits(l.phone_number) === want)));
    if (!customer) throw new Error(`Customer with phone number ${phone} not found`);
    for (const id of customer.bill_ids) {
      const bill = s.db.bills.find((b) => b.bill_id === id);
      if (!bill) throw new Error(`Bill with ID ${id} not found`);
      if (bill.status === 'Awaiting Payment') {
        sur.payment_request = { bill_id: bill.bill_id, amount_due: bill.total_due, paid: false };
        break;
      }
    }
  }
}

export { simulateNetworkSearch };
