/**
 * Every helpdesk task is solvable through the Harbordesk and shop admin UIs alone: the oracle's
 * scripted browser actions (role + accessible name), on the real web surface in Chromium, score reward 1 and partial
 * 100%; T18's faulty routes score exactly the seed's partials (refund of items 65%, reusable code
 * 75%, reply without the code 75%, ticket left open 85%). Skipped without Chromium.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadDomain } from '../../../src/domains/index.js';
import { ORACLE_UI_SCRIPTS, T18_FAULTY_UI_SCRIPTS } from '../../../src/domains/helpdesk/apps/ui-scripts.js';
import { closeSharedBrowser } from '../../../src/surfaces/browser-pool.js';
import { runUiEpisode } from './ui-harness.js';
import { CHROMIUM_NEED, lacks, needing } from '../../support/needs.js';

const TIMEOUT = 300_000;

describe.skipIf(lacks(CHROMIUM_NEED))(needing('helpdesk apps in Chromium', CHROMIUM_NEED), () => {
  afterAll(closeSharedBrowser);

  it('every task has an oracle UI script', () => {
    expect(Object.keys(ORACLE_UI_SCRIPTS).sort()).toEqual(loadDomain('helpdesk').tasks.map((t) => t.id).sort());
  });

  it.each(Object.keys(ORACLE_UI_SCRIPTS))('%s: the oracle UI script earns reward 1 and partial 100%', async (id) => {
    const { result, evaluation } = await runUiEpisode(id, ORACLE_UI_SCRIPTS[id]);
    expect(result.failure?.message ?? null).toBeNull();
    expect(result.toolLog.filter((t) => t.error).map((t) => t.output)).toEqual([]);
    expect(result.termination).toBe('user_stop');
    expect(evaluation.checks.filter((c) => c.verdict !== 'pass').map((c) => `${c.id}: ${c.evidence}`)).toEqual([]);
    expect(evaluation.partial).toBe(1);
    expect(evaluation.reward).toBe(1);
    // every write came from a click, recorded as the API domain's operation with the step that caused it
    expect(result.actionLog.filter((a) => a.mutating).every((a) => a.cause?.tool_call_id !== undefined)).toBe(true);
  }, TIMEOUT);

  it.each(Object.entries(T18_FAULTY_UI_SCRIPTS))('T18 faulty route %s scores the seed partial', async (_name, { steps, partial }) => {
    const { result, evaluation } = await runUiEpisode('T18', steps);
    expect(result.toolLog.filter((t) => t.error).map((t) => t.output)).toEqual([]);
    expect(evaluation.partial).toBeCloseTo(partial, 10);
    expect(evaluation.reward).toBe(0);
  }, TIMEOUT);
});
