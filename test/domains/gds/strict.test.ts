/**
 * Strict scoring of the GDS tasks (issue 14): the ACTION check judges what reached the PNR store —
 * the host operations end transaction commits (`sell_segment`, `cancel_segment`, `add_ssr`, ...,
 * `end_transaction`) — not the keystrokes. The oracle types its own entries on the terminal and
 * calls the operations on the API surface; both reach reward 1 strictly on all ten tasks. Faulty
 * T12 agents (seeds/001_14d444b6cd11c72e.txt) keep their seed partials and fail the ACTION
 * component naming the gold operation they did not commit; other entries with the same effect pass.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, say, type ScriptStep } from '../../../src/agents/scripted-agent.js';
import { evaluateTask } from '../../../src/evaluation/compose.js';
import { Environment } from '../../../src/env/environment.js';
import { runDomainTasks } from '../../../src/run/task-run.js';
import { getSurface } from '../../../src/surfaces/index.js';
import type { GdsState } from '../../../src/domains/gds/index.js';
import { runCli } from '../../support/cli.js';
import { tmpDir } from '../../support/paths.js';
import { seedTaskRunner, type SeedOutcome } from '../../support/seed-episode.js';

const { loaded, env, seedTask, runSeedTask } = seedTaskRunner('gds');
const IDS = ['T12', 'G01', 'G02', 'G03', 'G04', 'G05', 'G06', 'G07', 'G08', 'G09'];
const gds = (command: string) => call('gds_command', { command });
const run = (id: string, ...cmds: (string | ScriptStep)[]) => runSeedTask(id, 'Please work this PNR per the IRROPS policy.', [...cmds.map((c) => (typeof c === 'string' ? gds(c) : c)), say('Done.')]);

/** The episode scored strictly (ACTION joins the reward basis), as `validate --strict` scores it. */
async function strictly(o: SeedOutcome) {
  const ev = await evaluateTask({ loaded, task: seedTask(o.record.taskId), trace: o.record.episode, env, strict: true });
  const action = ev.checks.find((c) => c.id === 'tau2_action')!;
  return { reward: ev.reward, partial: Math.round(ev.partial * 1000) / 1000, action: ev.reward_breakdown.ACTION, evidence: action.evidence };
}

const T12_GOLD = '4/4 gold actions matched: T12_0 → #0, T12_1 → #2, T12_2 → #1, T12_3 → #3';
const SELL_XA208 = 'T12_0 sell_segment {"class":"M","count":2,"date":"2026-10-20","flight":"XA208","locator":"LKJ8TQ"}';
const CANCEL_XA204 = 'T12_1 cancel_segment {"date":"2026-10-20","flight":"XA204","locator":"LKJ8TQ"}';
const WCHR_XA208 = 'T12_2 add_ssr {"code":"WCHR","date":"2026-10-20","flight":"XA208","locator":"LKJ8TQ","passenger":"1.1"}';
const END_AGENT = 'T12_3 end_transaction {"locator":"LKJ8TQ","received_from":"AGENT"}';

describe('the oracle, strictly', () => {
  it('validate --domain gds --strict: all ten tasks at reward 1 and partial 100%; the default basis too', async () => {
    for (const flags of [['--strict'], [], ['--strict', '--surface', 'api']]) {
      const r = await runCli(['validate', '--domain', 'gds', '--no-store', '-q', '--json', ...flags]);
      expect(r.code, `${flags.join(' ')}: ${r.err}`).toBe(0);
      const out = JSON.parse(r.out) as { strict: boolean; summary: { reward_mean: number; partial_mean: number }; tasks: { task_id: string; reward: number; partial: number; failing: string[] }[] };
      expect(out.strict).toBe(flags.includes('--strict'));
      expect(out.tasks.map((t) => [t.task_id, t.reward, t.partial, t.failing])).toEqual(IDS.map((id) => [id, 1, 1, []]));
      expect([out.summary.reward_mean, out.summary.partial_mean]).toEqual([1, 1]);
    }
  }, 300_000);

  it('on the terminal every gold operation is matched by what the typed entries committed', async () => {
    const res = await runDomainTasks({ loaded, tasks: loaded.tasks, trials: 1, concurrency: 2, agent: 'oracle', user: 'personas', runId: 'gds-strict', strict: true, surface: getSurface('terminal') });
    const rows = res.records.map((r) => [r.taskId, r.evaluation!.reward, r.evaluation!.reward_breakdown.DB, r.evaluation!.reward_breakdown.ACTION, r.episode.toolLog.every((t) => t.name === 'gds_command')]);
    expect(rows).toEqual(IDS.map((id) => [id, 1, 1, 1, true]));
    const t12 = res.records.find((r) => r.taskId === 'T12')!;
    expect(t12.evaluation!.checks.find((c) => c.id === 'tau2_action')!.evidence).toBe(T12_GOLD);
    expect(t12.episode.actionLog.map((a) => a.name)).toEqual(['sell_segment', 'add_ssr', 'cancel_segment', 'end_transaction']);
    // G01: the meal for Ms Lindqvist (passenger 2.1) on both segments is committed, not just an ended record.
    const g01 = res.records.find((r) => r.taskId === 'G01')!;
    expect(g01.episode.actionLog.map((a) => [a.name, (a.arguments as { flight?: string }).flight ?? null])).toEqual([['add_ssr', 'XA420'], ['add_ssr', 'XA425'], ['end_transaction', null]]);
  }, 300_000);
});

describe('T12 faulty agents, strictly: the seed partials stay, the ACTION component names the missing operation', () => {
  it('wrong flight (XA210): partial 65%, unmatched the sale and the SSR on XA208', async () => {
    const o = await run('T12', '*LKJ8TQ', '120OCTJFKORD', '02Y4', 'X1', '3WCHR/1-1.1', '6AGENT', 'E');
    expect(await strictly(o)).toEqual({ reward: 0, partial: 0.65, action: 0, evidence: `2/4 gold actions matched; unmatched: ${SELL_XA208}, ${WCHR_XA208}` });
  });
  it('old segment kept: partial 80%, unmatched the cancellation of XA204', async () => {
    const o = await run('T12', '*LKJ8TQ', '120OCTJFKORD', '02M3', '3WCHR/2-1.1', '6AGENT', 'E');
    expect(await strictly(o)).toEqual({ reward: 0, partial: 0.8, action: 0, evidence: `3/4 gold actions matched; unmatched: ${CANCEL_XA204}` });
  });
  it('SSR dropped: partial 75%, unmatched the WCHR on XA208', async () => {
    const o = await run('T12', '*LKJ8TQ', '120OCTJFKORD', '02M3', 'X1', '6AGENT', 'E');
    expect(await strictly(o)).toEqual({ reward: 0, partial: 0.75, action: 0, evidence: `3/4 gold actions matched; unmatched: ${WCHR_XA208}` });
  });
  it('received-from PAX: partial 80%, unmatched the end transaction with AGENT', async () => {
    const o = await run('T12', '*LKJ8TQ', '120OCTJFKORD', '02M3', 'X1', '3WCHR/1-1.1', '6PAX', 'E');
    expect(await strictly(o)).toEqual({ reward: 0, partial: 0.8, action: 0, evidence: `3/4 gold actions matched; unmatched: ${END_AGENT}` });
  });
  it('tickets reissued: partial 80%; every gold operation was committed (ACTION 1), the reissue fails the store checks', async () => {
    const o = await run('T12', '*LKJ8TQ', '120OCTJFKORD', '02M3', 'X1', '3WCHR/1-1.1', 'WTKT', '6AGENT', 'E');
    expect(await strictly(o)).toEqual({ reward: 0, partial: 0.8, action: 1, evidence: '4/4 gold actions matched: T12_0 → #0, T12_1 → #3, T12_2 → #1, T12_3 → #4' });
    expect(o.record.episode.actionLog.map((a) => a.name)).toEqual(['sell_segment', 'add_ssr', 'reissue_tickets', 'cancel_segment', 'end_transaction']);
  });
  it('never ended: nothing committed, so no gold operation is matched', async () => {
    const o = await run('T12', '*LKJ8TQ', '120OCTJFKORD', '02M3', 'X1', '3WCHR/1-1.1', '6AGENT');
    expect(await strictly(o)).toEqual({ reward: 0, partial: 0, action: 0, evidence: `0/4 gold actions matched; unmatched: ${SELL_XA208}, ${CANCEL_XA204}, ${WCHR_XA208}, ${END_AGENT}` });
  });
});

describe('other entries with the same effect pass strictly', () => {
  it('a detour (XA210 sold, then cancelled before the end) and the SSR for all segments: reward 1, the detour is no back-end action', async () => {
    const o = await run('T12', '*LKJ8TQ', '120OCTJFKORD', '02Y4', 'X2', '02M3', 'X1', '3WCHR-1.1', '6AGENT', 'E');
    expect(await strictly(o)).toEqual({ reward: 1, partial: 1, action: 1, evidence: T12_GOLD });
    expect(o.record.episode.actionLog.map((a) => `${a.name} ${(a.arguments as { flight?: string }).flight ?? ''}`.trim())).toEqual(['sell_segment XA208', 'add_ssr XA208', 'cancel_segment XA204', 'end_transaction']);
    // The history shows the net change too.
    const screens = o.record.episode.toolLog.map((t) => t.output);
    expect(screens.at(-1)).toBe('OK 1400 LKJ8TQ');
  });
});

describe('the host operations', () => {
  const exec = (e: Environment<GdsState>, name: string, args: Record<string, unknown>) => e.execute({ id: `c${e.log.length}`, type: 'function', function: { name, arguments: JSON.stringify(args) } });

  it('stage on the work area, refuse as the terminal does, and reach the action log only at end transaction', async () => {
    const e = new Environment<GdsState>(loaded.domain, { now: loaded.now!, idSeed: '', state: loaded.domain.initialState() });
    const lk = { locator: 'LKJ8TQ' };
    const refusals = [
      await exec(e, 'sell_segment', { ...lk, flight: 'XA204', date: '2026-10-20', class: 'M', count: 2 }),
      await exec(e, 'sell_segment', { ...lk, flight: 'XA206', date: '2026-10-20', class: 'M', count: 2 }),
      await exec(e, 'add_ssr', { ...lk, code: 'WCHR', passenger: '1.1', flight: 'XA204', date: '2026-10-20' }),
      await exec(e, 'cancel_segment', { ...lk, flight: 'XA999', date: '2026-10-20' }),
      await exec(e, 'end_transaction', { locator: 'QWM4RA', received_from: 'AGENT' }),
    ];
    expect(refusals.map((r) => r.output)).toEqual(['Error: UNABLE - FLIGHT NOT OPERATING', 'Error: UNABLE - NO SEATS', 'Error: UNABLE - SEGMENT XA204 2026-10-20 NOT ACTIVE', 'Error: NO SUCH SEGMENT', 'Error: LKJ8TQ IN WORK AREA, NOT QWM4RA']);
    expect((await exec(e, 'sell_segment', { ...lk, flight: 'XA208', date: '2026-10-20', class: 'M', count: 2 })).output).toBe('OK - PENDING 1 CHANGE(S) ON LKJ8TQ');
    expect((await exec(e, 'add_remark', { locator: 'QWM4RA', text: 'X' })).output).toBe('Error: FINISH OR IGNORE - CHANGES PENDING');
    expect(e.actionLog).toEqual([]);
    expect(e.changed()).toBe(false);
    await exec(e, 'cancel_segment', { ...lk, flight: 'XA204', date: '2026-10-20' });
    await exec(e, 'add_ssr', { ...lk, code: 'WCHR', passenger: '1.1', flight: 'XA208', date: '2026-10-20' });
    expect((await exec(e, 'end_transaction', { ...lk, received_from: 'agent' })).output).toBe('OK LKJ8TQ');
    expect(e.actionLog.map((a) => [a.seq, a.name, a.mutating, a.arguments])).toEqual([
      [0, 'sell_segment', true, { ...lk, flight: 'XA208', date: '2026-10-20', class: 'M', count: 2 }],
      [1, 'add_ssr', true, { ...lk, code: 'WCHR', passenger: '1.1', flight: 'XA208', date: '2026-10-20' }],
      [2, 'cancel_segment', true, { ...lk, flight: 'XA204', date: '2026-10-20' }],
      [3, 'end_transaction', true, { ...lk, received_from: 'AGENT' }],
    ]);
    const pnr = e.state.db.get('pnrs', 'LKJ8TQ')!;
    expect([Object.keys(pnr.segments), pnr.received_from]).toEqual([['XA611-2026-10-24', 'XA208-2026-10-20'], 'AGENT']);
  });
});

describe('stored strict runs re-score from their records', () => {
  it.each([['terminal'], ['api']])('on the %s surface: every episode reproduced, ACTION included', async (surface) => {
    const db = path.join(tmpDir('sg-gds-strict-'), 'store.db');
    const v = await runCli(['validate', '--domain', 'gds', '--strict', '--surface', surface, '--db', db, '-q', '--json']);
    expect(v.code, v.err).toBe(0);
    const r = await runCli(['rescore', (JSON.parse(v.out) as { run_id: string }).run_id, '--db', db, '--json']);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out) as { same: number; different: number; outcomes: { differences: string[] }[] };
    expect([out.same, out.different, out.outcomes.flatMap((o) => o.differences)]).toEqual([10, 0, []]);
  }, 300_000);
});
