/**
 * The auto-insurance back-end's tools (policy administration): policyholder and policy look-ups,
 * endorsements that add or remove a driver mid-term with the premium change the agent computed by
 * the rules (data/auto_policy_rules.md), contact updates. The system refuses what an
 * administration system refuses (dates outside the term or before today, duplicate drivers,
 * drivers it cannot list); rating is the agent's.
 */
import { recordOrToolError } from '../common/record-lookup.js';
import { z } from 'zod';
import type { CowDb } from '../../env/cow-db.js';
import { ToolError, type ToolDef } from '../../spec/tool.js';
import { ageOn, daysBetween } from './rules.js';
import { LICENCE_STATUSES, RELATIONSHIPS, type Holder, type Policy } from './schema.js';

export type InsuranceTables = { holders: Record<string, Holder>; policies: Record<string, Policy> };
export type InsuranceDb = CowDb<InsuranceTables>;
export type InsuranceTool<A = any> = ToolDef<InsuranceDb, A>;

/** The record or a tool error `<Label> <id> not found` (see recordOrToolError). */
const must = <K extends keyof InsuranceTables>(db: InsuranceDb, table: K, id: string, label: string): InsuranceTables[K][string] => recordOrToolError(db, table, id, label);
const isoDateArg = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected an ISO date YYYY-MM-DD');
const policyIdArg = z.string().describe("The policy number, for example 'AP-77120'.");

/** Refuses an effective date before today, outside the term, or more than 30 days ahead (rule 4.2). */
function checkEffective(p: Policy, effective: string, today: string): void {
  if (p.status !== 'active') throw new ToolError(`Policy ${p.policy_id} is ${p.status}`);
  if (effective < today) throw new ToolError(`Effective date ${effective} is before today (${today}); endorsements cannot be backdated`);
  if (effective < p.term_start || effective >= p.term_end) throw new ToolError(`Effective date ${effective} is outside the term ${p.term_start} to ${p.term_end}`);
  if (daysBetween(today, effective) > 30) throw new ToolError(`Effective date ${effective} is more than 30 days ahead`);
}

/** Recomputes the written term premium from the vehicles and endorsements (mutates `p`). */
function rewrite(p: Policy): Policy {
  p.term_premium_cents = p.vehicles.reduce((s, v) => s + Object.values(v.premiums).reduce((a, b) => a + b, 0), 0) + p.endorsements.reduce((s, e) => s + e.premium_change_cents, 0);
  return p;
}

export const findPolicyholders: InsuranceTool<{ first_name: string; last_name: string }> = {
  name: 'find_policyholders',
  description: 'Find policyholders by first and last name (case-insensitive). Returns {customer_id, first_name, last_name, zip, policy_ids} for each match; namesakes are common.',
  parameters: z.strictObject({ first_name: z.string().min(1), last_name: z.string().min(1) }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ first_name, last_name }, { state }) =>
    state.ids('holders').map((id) => state.get('holders', id)!).filter((h) => h.first_name.toLowerCase() === first_name.trim().toLowerCase() && h.last_name.toLowerCase() === last_name.trim().toLowerCase())
      .map((h) => ({ customer_id: h.customer_id, first_name: h.first_name, last_name: h.last_name, zip: h.zip, policy_ids: h.policy_ids })),
};

export const getPolicyholder: InsuranceTool<{ customer_id: string }> = {
  name: 'get_policyholder',
  description: "Get a policyholder's record: name, date of birth, garaging ZIP, phone, email and policy numbers. Use it to verify the caller (rule 1.1).",
  parameters: z.strictObject({ customer_id: z.string() }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ customer_id }, { state }) => must(state, 'holders', customer_id, 'Policyholder'),
};

export const getPolicy: InsuranceTool<{ policy_id: string }> = {
  name: 'get_policy',
  description: 'Get a policy: status, term start and end, coverages, vehicles with their full-term premium per coverage (cents), drivers (relationship, date of birth, licence status and date), endorsements and the written term premium.',
  parameters: z.strictObject({ policy_id: policyIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ policy_id }, { state }) => must(state, 'policies', policy_id, 'Policy'),
};

type AddArgs = { policy_id: string; first_name: string; last_name: string; date_of_birth: string; relationship: (typeof RELATIONSHIPS)[number]; licence_status: (typeof LICENCE_STATUSES)[number]; licence_date: string; effective_date: string; additional_premium_cents: number };

export const endorseAddDriver: InsuranceTool<AddArgs> = {
  name: 'endorse_add_driver',
  description:
    'Endorse a policy to add a driver from effective_date (today to 30 days ahead, inside the term). Give the licence status the driver holds on that date (permit or licensed) with the date it was issued, and the additional premium in cents computed by the rating rules (pro-rata to term end; 0 when no surcharge applies). Coverages do not change. Refused for drivers under 16, suspended or unlicensed drivers, and drivers already listed. Returns the endorsement and the new written premium.',
  parameters: z.strictObject({
    policy_id: policyIdArg, first_name: z.string().min(1), last_name: z.string().min(1), date_of_birth: isoDateArg, relationship: z.enum(RELATIONSHIPS),
    licence_status: z.enum(LICENCE_STATUSES), licence_date: isoDateArg, effective_date: isoDateArg, additional_premium_cents: z.number().int().nonnegative().describe('Additional premium in integer cents (14683 = $146.83).'),
  }),
  kind: 'write',
  requestor: 'assistant',
  invoke: (a, { state, now }) => {
    const p = must(state, 'policies', a.policy_id, 'Policy');
    checkEffective(p, a.effective_date, now.slice(0, 10));
    if (ageOn(a.date_of_birth, a.effective_date) < 16) throw new ToolError('Drivers under 16 cannot be listed');
    if (a.licence_status === 'suspended' || a.licence_status === 'none') throw new ToolError(`A driver with licence status '${a.licence_status}' cannot be listed; refer to underwriting`);
    if (a.licence_date > a.effective_date) throw new ToolError(`licence_date ${a.licence_date} is after the effective date`);
    const same = p.drivers.find((d) => d.removed_date === null && d.first_name.toLowerCase() === a.first_name.toLowerCase() && d.last_name.toLowerCase() === a.last_name.toLowerCase() && d.date_of_birth === a.date_of_birth);
    if (same) throw new ToolError(`${a.first_name} ${a.last_name} is already listed on ${a.policy_id} (${same.driver_id})`);
    const m = state.mut('policies', a.policy_id);
    const driver_id = `${a.policy_id}-D${m.drivers.length + 1}`;
    m.drivers.push({ driver_id, first_name: a.first_name.trim(), last_name: a.last_name.trim(), date_of_birth: a.date_of_birth, relationship: a.relationship, licence_status: a.licence_status, licence_date: a.licence_date, effective_date: a.effective_date, removed_date: null });
    const endorsement = { endorsement_id: `${a.policy_id}-E${m.endorsements.length + 1}`, kind: 'add_driver' as const, driver_id, effective_date: a.effective_date, premium_change_cents: a.additional_premium_cents };
    m.endorsements.push(endorsement);
    rewrite(m);
    return { endorsement, term_premium_cents: m.term_premium_cents };
  },
};

export const endorseRemoveDriver: InsuranceTool<{ policy_id: string; driver_id: string; effective_date: string; return_premium_cents: number }> = {
  name: 'endorse_remove_driver',
  description: 'Endorse a policy to remove a listed driver (not the named insured) from effective_date, returning the pro-rata unearned part of that driver\'s surcharge (cents, 0 when none). Returns the endorsement and the new written premium.',
  parameters: z.strictObject({ policy_id: policyIdArg, driver_id: z.string(), effective_date: isoDateArg, return_premium_cents: z.number().int().nonnegative() }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ policy_id, driver_id, effective_date, return_premium_cents }, { state, now }) => {
    const p = must(state, 'policies', policy_id, 'Policy');
    checkEffective(p, effective_date, now.slice(0, 10));
    const d = p.drivers.find((x) => x.driver_id === driver_id);
    if (!d) throw new ToolError(`Driver ${driver_id} is not on ${policy_id}`);
    if (d.removed_date !== null) throw new ToolError(`Driver ${driver_id} was already removed on ${d.removed_date}`);
    if (d.relationship === 'named_insured') throw new ToolError('The named insured cannot be removed');
    const m = state.mut('policies', policy_id);
    m.drivers.find((x) => x.driver_id === driver_id)!.removed_date = effective_date;
    const endorsement = { endorsement_id: `${policy_id}-E${m.endorsements.length + 1}`, kind: 'remove_driver' as const, driver_id, effective_date, premium_change_cents: -return_premium_cents };
    m.endorsements.push(endorsement);
    rewrite(m);
    return { endorsement, term_premium_cents: m.term_premium_cents };
  },
};

export const updateContact: InsuranceTool<{ customer_id: string; phone?: string; email?: string }> = {
  name: 'update_contact',
  description: "Update a policyholder's phone (NNN-NNN-NNNN) and/or email. Returns the updated record.",
  parameters: z.strictObject({ customer_id: z.string(), phone: z.string().regex(/^\d{3}-\d{3}-\d{4}$/, 'expected NNN-NNN-NNNN').optional(), email: z.string().email().optional() }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ customer_id, phone, email }, { state }) => {
    must(state, 'holders', customer_id, 'Policyholder');
    if (phone === undefined && email === undefined) throw new ToolError('give a phone or an email to update');
    const m = state.mut('holders', customer_id);
    if (phone !== undefined) m.phone = phone;
    if (email !== undefined) m.email = email;
    return m;
  },
};

/** The tools in the order the agent sees them (without the generic ones). */
export const insuranceTools: InsuranceTool[] = [findPolicyholders, getPolicyholder, getPolicy, endorseAddDriver, endorseRemoveDriver, updateContact];
