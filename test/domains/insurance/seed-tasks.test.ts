/**
 * Insurance seed task T10 (seeds/001_14d444b6cd11c72e.txt) and own tasks with policy-perfect and
 * faulty scripted agents (one per rubric item) through the machinery `validate` uses; exact partials.
 */
import { describe, expect, it } from 'vitest';
import { call, say, type ScriptStep } from '../../../src/agents/scripted-agent.js';
import { EARNING_TERMINATIONS } from '../../../src/evaluation/compose.js';
import { askToConfirm, seedTaskRunner, type SeedOutcome } from '../../support/seed-episode.js';

const { loaded, runSeedTask } = seedTaskRunner('insurance');

function expectScore(o: SeedOutcome, want: { partial: number; reward: number; failed: string[] }): void {
  expect(EARNING_TERMINATIONS).toContain(o.record.episode.termination);
  expect({ partial: Math.round(o.evaluation.partial * 1000) / 1000, reward: o.evaluation.reward, failed: o.failed }).toEqual(want);
}

it('the dataset ships thirteen tasks, now 2026-10-14 10:00 Central', () => {
  expect(loaded.now).toBe('2026-10-14T10:00:00');
  expect(loaded.tasks.map((t) => t.id)).toEqual(['T10', 'I01', 'I02', 'I03', 'I04', 'I05', 'I06', 'I07', 'I08', 'I09', 'I10', 'I11', 'I12']);
});

// ---- T10: 30 eligibility / 40 premium exact / 20 endorsement fields / 10 confirmation
const OPEN = "Hi, I'm Carlos Diaz, policy AP-77120, born 1978-05-02, ZIP 60614. Please add my daughter Sofia Diaz, born 2009-03-14, licensed on 2026-09-28 (she had a permit before), from October 20.";
const reads = [call('get_policyholder', { customer_id: 'carlos_diaz_350' }), call('get_policy', { policy_id: 'AP-77120' })];
const ASK = askToConfirm('I will add Sofia Diaz (born 2009-03-14) as a licensed driver, licensed 2026-09-28, from 2026-10-20; the additional premium is $146.83 for the rest of the term.');
type Add = { licence_status?: string; licence_date?: string; relationship?: string; effective_date?: string; additional_premium_cents?: number };
const add = (o: Add = {}) => call('endorse_add_driver', { policy_id: 'AP-77120', first_name: 'Sofia', last_name: 'Diaz', date_of_birth: '2009-03-14', relationship: 'child', licence_status: 'licensed', licence_date: '2026-09-28', effective_date: '2026-10-20', additional_premium_cents: 14_683, ...o });
const DONE = say('Sofia is on your policy from 2026-10-20; $146.83 is added for the rest of the term. Your coverages are unchanged.');
const t10 = (...steps: ScriptStep[]) => runSeedTask('T10', OPEN, steps);

describe('T10 add a driver mid-term with prorated premium', () => {
  it('perfect: 100%, reward 1', async () => {
    expectScore(await t10(...reads, ASK, add(), DONE), { partial: 1, reward: 1, failed: [] });
  });
  it('lists her as a permit holder with no surcharge: loses eligibility (30) and the premium (40)', async () => {
    expectScore(await t10(...reads, ASK, add({ licence_status: 'permit', licence_date: '2026-01-10', additional_premium_cents: 0 }), DONE), { partial: 0.3, reward: 0, failed: ['eligibility', 'premium_exact'] });
  });
  it('charges the full-term surcharge instead of pro-rata: loses the premium (40)', async () => {
    expectScore(await t10(...reads, ASK, add({ additional_premium_cents: 63_977 }), DONE), { partial: 0.6, reward: 0, failed: ['premium_exact'] });
  });
  it('rates the Corolla instead of the CR-V: loses the premium (40)', async () => {
    expectScore(await t10(...reads, ASK, add({ additional_premium_cents: Math.round((49_036.5 * 42) / 183) }), DONE), { partial: 0.6, reward: 0, failed: ['premium_exact'] });
  });
  it('records her as other household: loses the endorsement fields (20)', async () => {
    expectScore(await t10(...reads, ASK, add({ relationship: 'other_household' }), DONE), { partial: 0.8, reward: 0, failed: ['endorsement_fields'] });
  });
  it('endorses without confirming: loses the confirmation (10)', async () => {
    expectScore(await t10(...reads, add(), DONE), { partial: 0.9, reward: 1, failed: ['confirmed_before_writes'] });
  });
});

describe('own insurance tasks', () => {
  it('I08: rounding the surcharge down ($166.66) loses the premium item (50)', async () => {
    const o = await runSeedTask('I08', "I'm Julia Berg, AP-78338, born 1979-04-25, ZIP 97214. Add my nephew Erik Berg, born 2004-02-11, licensed 2020-03-01, from October 21.", [
      call('get_policyholder', { customer_id: 'julia_berg_338' }), call('get_policy', { policy_id: 'AP-78338' }), askToConfirm('Erik, licensed, from 2026-10-21; $120.63.'),
      call('endorse_add_driver', { policy_id: 'AP-78338', first_name: 'Erik', last_name: 'Berg', date_of_birth: '2004-02-11', relationship: 'other_household', licence_status: 'licensed', licence_date: '2020-03-01', effective_date: '2026-10-21', additional_premium_cents: 12_062 }),
      say('Done.'),
    ]);
    expectScore(o, { partial: 0.5, reward: 0, failed: ['premium_exact'] });
  });
  it('I10: adding the son after he said he would wait loses the main item (45) and the no-write item (15)', async () => {
    const o = await runSeedTask('I10', ["I'm Nathan Cole, AP-78254, born 1972-11-30, ZIP 30306. What would adding my son Tyler cost? Born 2009-08-01, licensed 2026-08-20.", "That's too much for now, I'll wait."], [
      call('get_policyholder', { customer_id: 'nathan_cole_254' }), say('It would be $494.49 for the rest of the term.'),
      call('endorse_add_driver', { policy_id: 'AP-78254', first_name: 'Tyler', last_name: 'Cole', date_of_birth: '2009-08-01', relationship: 'child', licence_status: 'licensed', licence_date: '2026-08-20', effective_date: '2026-10-14', additional_premium_cents: 49_449 }),
      say('I went ahead and added him anyway.'),
    ]);
    expectScore(o, { partial: 0.4, reward: 0, failed: ['no_endorsement', 'nothing_written'] });
  });
});

describe('insurance tools', () => {
  it('refuse backdating, under-16 and suspended drivers, and duplicates', async () => {
    const { Environment } = await import('../../../src/env/environment.js');
    const env = new Environment(loaded.domain, { now: loaded.now!, idSeed: '' });
    const run = async (args: Record<string, unknown>) => (await Promise.resolve(env.execute({ id: 'x', type: 'function', function: { name: 'endorse_add_driver', arguments: JSON.stringify({ policy_id: 'AP-77120', first_name: 'Sofia', last_name: 'Diaz', date_of_birth: '2009-03-14', relationship: 'child', licence_status: 'licensed', licence_date: '2026-09-28', effective_date: '2026-10-20', additional_premium_cents: 14_683, ...args }) } }))).output;
    expect(await run({ effective_date: '2026-10-01' })).toBe('Error: Effective date 2026-10-01 is before today (2026-10-14); endorsements cannot be backdated');
    expect(await run({ effective_date: '2026-12-01' })).toBe('Error: Effective date 2026-12-01 is outside the term 2026-06-01 to 2026-12-01');
    expect(await run({ date_of_birth: '2011-02-02' })).toBe('Error: Drivers under 16 cannot be listed');
    expect(await run({ licence_status: 'suspended' })).toBe("Error: A driver with licence status 'suspended' cannot be listed; refer to underwriting");
    expect(JSON.parse(await run({})).term_premium_cents).toBe(151_143 + 14_683);
    expect(await run({})).toBe('Error: Sofia Diaz is already listed on AP-77120 (AP-77120-D3)');
  });
});

describe('the insurance dataset', () => {
  it('is at realistic scale with namesakes and several policies per holder', async () => {
    const { servicegymInsuranceJson } = await import('../../../src/domains/insurance/index.js');
    const db = servicegymInsuranceJson();
    const holders = Object.values(db.holders);
    expect(holders.length).toBeGreaterThanOrEqual(400);
    expect(Object.keys(db.policies).length).toBeGreaterThanOrEqual(450);
    const names = holders.map((h) => `${h.first_name} ${h.last_name}`);
    expect(names.length - new Set(names).size).toBeGreaterThan(150);
    expect(db.holders.carlos_diaz_350.policy_ids).toEqual(['AP-77120', 'AP-77185']);
    expect(Object.values(db.policies).every((p) => p.term_premium_cents === p.vehicles.reduce((s, v) => s + Object.values(v.premiums).reduce((a, b) => a + (b ?? 0), 0), 0))).toBe(true);
  });
});
