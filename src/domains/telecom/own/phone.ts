/**
 * The customer's phone in servicegym's own telecom dataset: what it shows is derived from its
 * own settings and from the line on the carrier's side (policy section 3), and the two sides are
 * brought together after every tool call of either side ({@link syncKestrel}), as in tau2's
 * telecom: a paid payment request marks the bill paid; a bill awaiting payment raises a request on
 * the phone; the phone's status is recomputed.
 */
import type { CowDb } from '../../../env/cow-db.js';
import { CORRECT_APN, type KestrelTables, type Phone, type PhoneStatus } from './schema.js';

/** One episode's state: the carrier's tables (copy-on-write view) and the customer's phone. */
export interface KestrelState {
  db: CowDb<KestrelTables>;
  phone: Phone;
}

/** MB in a GB for allowances (policy 7.1). */
export const MB_PER_GB = 1024;

/** Whether the phone is abroad (any country but the US). */
export const isAbroad = (p: Phone): boolean => p.country !== 'US';

/**
 * The phone's status from both sides. Service needs a line, airplane mode off, a ready SIM and
 * an active line; mobile data then needs (in this order) the mobile-data switch on, the correct
 * APN (`kestrel.net`), abroad the phone's Data roaming on and the line's roaming service enabled,
 * and data left (used MB < (plan GB + top-up GB) × 1024). `problem` names the first cause found.
 */
export function phoneStatus(db: CowDb<KestrelTables>, p: Phone): PhoneStatus {
  const off = (problem: string): PhoneStatus => ({ service: 'no_service', network: 'none', mobile_data: 'not_working', problem });
  const line = p.line_id ? db.get('lines', p.line_id) : undefined;
  if (!line) return off('no_line');
  if (p.airplane_mode) return off('airplane_mode');
  if (p.sim !== 'ready') return off(p.sim === 'puk_locked' ? 'sim_puk_locked' : 'sim_not_detected');
  if (line.status !== 'active') return off(`line_${line.status}`);
  const network = p.network_mode === '3g_only' ? '3G' : p.network_mode === '4g_only' || isAbroad(p) ? '4G' : '5G';
  const data = (problem: string | null): PhoneStatus => ({ service: 'connected', network, mobile_data: problem ? 'not_working' : 'working', problem });
  if (!p.mobile_data) return data('mobile_data_off');
  if (p.apn.name !== CORRECT_APN) return data('apn_incorrect');
  if (isAbroad(p) && !p.data_roaming) return data('data_roaming_off');
  if (isAbroad(p) && !line.roaming_enabled) return data('line_roaming_disabled');
  const plan = db.get('plans', line.plan_id);
  if (plan && line.data_used_mb >= (plan.data_gb + line.topup_gb) * MB_PER_GB) return data('allowance_used_up');
  return data(null);
}

/** Download speed of the connection check in Mbps (0 without mobile data): 5G 300, 4G 60, 3G 3; data saver × 0.2. */
export function connectionSpeedMbps(p: Phone): number {
  if (p.status.mobile_data !== 'working') return 0;
  const base = p.status.network === '5G' ? 300 : p.status.network === '4G' ? 60 : 3;
  return p.data_saver ? base / 5 : base;
}

const sameStatus = (a: PhoneStatus, b: PhoneStatus) => a.service === b.service && a.network === b.network && a.mobile_data === b.mobile_data && a.problem === b.problem;

/**
 * Brings the two sides together (run by the environment after every successful call, and on the
 * task's start state): a paid payment request marks its bill `paid` and is dropped; without a
 * request, the customer's first bill `awaiting_payment` raises one; the phone's status is
 * recomputed. Writes a record only when something changes.
 */
export function syncKestrel(s: KestrelState): void {
  const p = s.phone;
  const line = p.line_id ? s.db.get('lines', p.line_id) : undefined;
  if (line) {
    if (p.payment_request?.paid) {
      if (s.db.has('bills', p.payment_request.bill_id)) s.db.mut('bills', p.payment_request.bill_id).status = 'paid';
      p.payment_request = null;
    }
    if (p.payment_request === null) {
      const customer = s.db.get('customers', line.customer_id);
      const bill = customer?.bill_ids.map((id) => s.db.get('bills', id)).find((b) => b?.status === 'awaiting_payment');
      if (bill) p.payment_request = { bill_id: bill.bill_id, amount_cents: bill.total_cents, paid: false };
    }
  }
  const status = phoneStatus(s.db, p);
  if (!sameStatus(status, p.status)) p.status = status;
}
