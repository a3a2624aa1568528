/**
 * GDS seed task T12 (seeds/001_14d444b6cd11c72e.txt) with a policy-perfect command sequence and
 * faulty ones, one per rubric item (35 flights / 20 old segments removed / 25 SSRs carried / 20 end
 * with received-from and no reissue), through the machinery `validate` uses; plus own tasks.
 */
import { describe, expect, it } from 'vitest';
import { call, say, type ScriptStep } from '../../../src/agents/scripted-agent.js';
import { EARNING_TERMINATIONS } from '../../../src/evaluation/compose.js';
import { seedTaskRunner, type SeedOutcome } from '../../support/seed-episode.js';

const { loaded, runSeedTask } = seedTaskRunner('gds');
const gds = (command: string) => call('gds_command', { command });
const run = (id: string, ...cmds: (string | ScriptStep)[]) => runSeedTask(id, 'Please work this PNR per the IRROPS policy.', [...cmds.map((c) => (typeof c === 'string' ? gds(c) : c)), say('Done.')]);

function expectScore(o: SeedOutcome, want: { partial: number; reward: number; failed: string[] }): void {
  expect(EARNING_TERMINATIONS).toContain(o.record.episode.termination);
  expect({ partial: Math.round(o.evaluation.partial * 1000) / 1000, reward: o.evaluation.reward, failed: o.failed }).toEqual(want);
}

it('the dataset ships ten terminal tasks, now 2026-10-19 14:00', () => {
  expect(loaded.now).toBe('2026-10-19T14:00:00');
  expect(loaded.tasks.map((t) => t.id)).toEqual(['T12', 'G01', 'G02', 'G03', 'G04', 'G05', 'G06', 'G07', 'G08', 'G09']);
  // The terminal entry, then the host's operations: the tasks' gold actions (what end transaction commits).
  expect(loaded.domain.tools.map((t) => t.name)).toEqual(['gds_command', 'sell_segment', 'cancel_segment', 'accept_schedule_change', 'add_ssr', 'add_remark', 'add_phone', 'reissue_tickets', 'end_transaction']);
  expect(loaded.tasks.flatMap((t) => t.evaluation_criteria!.actions!.map((a) => a.name)).filter((n) => n === 'gds_command')).toEqual([]);
});

describe('T12 rebook on the GDS terminal after a cancellation', () => {
  it('perfect: 100%, reward 1', async () => {
    expectScore(await run('T12', '*LKJ8TQ', '120OCTJFKORD', '02M3', 'X1', '3WCHR/1-1.1', '6AGENT', 'E'), { partial: 1, reward: 1, failed: [] });
  });
  it('the same entries in another order commit the same store', async () => {
    expectScore(await run('T12', '*LKJ8TQ', 'X1', '120OCTJFKORD', '02M3', '3WCHR/1-1.1', '6AGENT', 'E'), { partial: 1, reward: 1, failed: [] });
  });
  it('wrong flight (XA210, later, though XA208 had seats): loses the flights item (35)', async () => {
    expectScore(await run('T12', '*LKJ8TQ', '120OCTJFKORD', '02Y4', 'X1', '3WCHR/1-1.1', '6AGENT', 'E'), { partial: 0.65, reward: 0, failed: ['correct_flight', 'no_wrong_flight'] });
  });
  it('old segment kept: loses the removal item (20)', async () => {
    expectScore(await run('T12', '*LKJ8TQ', '120OCTJFKORD', '02M3', '3WCHR/2-1.1', '6AGENT', 'E'), { partial: 0.8, reward: 0, failed: ['old_segment_removed'] });
  });
  it('SSR dropped: loses the SSR item (25)', async () => {
    expectScore(await run('T12', '*LKJ8TQ', '120OCTJFKORD', '02M3', 'X1', '6AGENT', 'E'), { partial: 0.75, reward: 0, failed: ['wchr_on_new_segment'] });
  });
  it('received-from not AGENT: loses the end item (20)', async () => {
    expectScore(await run('T12', '*LKJ8TQ', '120OCTJFKORD', '02M3', 'X1', '3WCHR/1-1.1', '6PAX', 'E'), { partial: 0.8, reward: 0, failed: ['received_from_agent'] });
  });
  it('tickets reissued: loses the end item (20)', async () => {
    expectScore(await run('T12', '*LKJ8TQ', '120OCTJFKORD', '02M3', 'X1', '3WCHR/1-1.1', 'WTKT', '6AGENT', 'E'), { partial: 0.8, reward: 0, failed: ['tickets_unchanged', 'no_reissue_entry'] });
  });
  it('never ends the transaction: nothing is committed, so nothing scores', async () => {
    expectScore(await run('T12', '*LKJ8TQ', '120OCTJFKORD', '02M3', 'X1', '3WCHR/1-1.1', '6AGENT'), { partial: 0, reward: 0, failed: ['correct_flight', 'old_segment_removed', 'wchr_on_new_segment', 'received_from_agent'] });
  });
});

describe('own terminal tasks', () => {
  it('G07: ending instead of ignoring commits the declined sale (loses 60)', async () => {
    expectScore(await run('G07', '*MVB6QS', '125OCTORDDEN', '01Y1', '5PAX DECLINED ORD-DEN', '6AGENT', 'E'), { partial: 0.4, reward: 0, failed: ['no_sale_committed'] });
  });
  it('G09: rebooking on the same-day business-only flight loses the flights and wrong-flight items', async () => {
    expectScore(await run('G09', '*WLN4TZ', '120OCTSEASFO', '01J2', 'X1', '6AGENT', 'E'), { partial: 0.45, reward: 0, failed: ['correct_flight', 'no_wrong_flight'] });
  });
});
