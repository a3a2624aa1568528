/**
 * `validate --personas` on servicegym's own datasets: the oracle (confirming each write, asking
 * again until the reply is an explicit yes) against the scripted persona customers must pass
 * every task with each of the four seed personas — the failing counts before the fix were airline
 * 18/20, retail 16/20, banking 60/76, hotel 34/52, insurance 38/52, utility 40/52 (confirmation
 * checks after a contradictory or off-policy reply) and telecom 4/14 with any persona (the persona
 * customer never did the phone-side gold steps). Counts are episodes at reward 1 and partial 100%.
 */
import { describe, expect, it } from 'vitest';
import { loadDomainAsync } from '../../src/domains/catalog.js';
import { runDomainTasks, type DomainEpisodeRecord } from '../../src/run/task-run.js';
import { SEED_PERSONAS } from '../../src/users/personas.js';
import { oracleReconfirmation } from '../../src/agents/oracle-agent.js';

/** Tasks per domain (each runs once per persona). */
const TASKS: Record<string, number> = { airline: 5, retail: 5, banking: 19, hotel: 13, insurance: 13, utility: 13, gds: 10, helpdesk: 11, telecom: 14 };

const perfect = (r: DomainEpisodeRecord) => r.evaluation?.reward === 1 && r.evaluation.partial === 1;
const failing = (records: readonly DomainEpisodeRecord[]) =>
  records.filter((r) => !perfect(r)).map((r) => `${r.taskId} ${r.persona}: ${r.evaluation?.checks.filter((c) => c.verdict !== 'pass').map((c) => c.id).join(', ') ?? r.infraError}`);

async function validate(domain: string, personas: readonly string[]) {
  const loaded = await loadDomainAsync(domain, {});
  return runDomainTasks({ loaded, tasks: loaded.tasks, trials: 1, concurrency: 4, agent: 'oracle', user: 'personas', personas: [...personas], runId: `personas-${domain}` });
}

describe('validate with the four seed personas passes every task', () => {
  for (const [domain, tasks] of Object.entries(TASKS)) {
    it(`${domain}: ${tasks * 4}/${tasks * 4} episodes`, async () => {
      const { records } = await validate(domain, SEED_PERSONAS);
      expect(failing(records)).toEqual([]);
      expect([records.filter(perfect).length, records.length]).toEqual([tasks * 4, tasks * 4]);
      expect(SEED_PERSONAS.map((p) => records.filter((r) => r.persona === p && perfect(r)).length)).toEqual([tasks, tasks, tasks, tasks]);
    }, 120_000);
  }
});

describe('telecom with personas: the customer does the phone-side gold steps', () => {
  it('plain: 14/14, every user-requestor gold action performed by the customer', async () => {
    const { records } = await validate('telecom', ['plain']);
    expect(failing(records)).toEqual([]);
    expect(records.filter(perfect).length).toBe(14);
    const loaded = await loadDomainAsync('telecom', {});
    for (const r of records) {
      const gold = loaded.tasks.find((t) => t.id === r.taskId)!.evaluation_criteria!.actions!.filter((a) => a.requestor === 'user').map((a) => a.name);
      expect(r.episode.actionLog.filter((a) => a.requestor === 'user').map((a) => a.name), r.taskId).toEqual(gold);
    }
  }, 120_000);
});

describe('an unclear reply to a confirmation request gets the request again; the write follows the explicit yes', () => {
  it('airline T02, contradictory and off-policy: the first write comes after the repeated request and a plain yes', async () => {
    const { records } = await validate('airline', ['contradictory', 'off-policy']);
    for (const r of records.filter((x) => x.taskId === 'T02')) {
      const msgs = r.episode.messages;
      const write = msgs.findIndex((m) => m.role === 'assistant' && m.tool_calls?.some((c) => c.function.name === 'update_reservation_flights'));
      const call = msgs[write].role === 'assistant' ? msgs[write].tool_calls![0] : undefined;
      const args: unknown = JSON.parse(call!.function.arguments);
      expect([msgs[write - 2].content, msgs[write - 1].content], r.persona).toEqual([oracleReconfirmation('update_reservation_flights', args), 'Yes, please proceed.']);
      expect(perfect(r), r.persona).toBe(true);
    }
  }, 120_000);
});
