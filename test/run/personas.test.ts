/**
 * Runs across personas: `runTaskAcrossPersonas` with the oracle and with an agent that concedes
 * the off-policy request (seed task T16's scoring), `runDomainTasks` with personas in LLM mode
 * (the persona instructions reach the simulator), and `--personas` through the CLI entry.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inGoldState, personaOfTrial, runDomainTasks, runTaskAcrossPersonas } from '../../src/run/task-run.js';
import { SEED_PERSONAS, personaModifiers } from '../../src/users/personas.js';
import { BadInputError } from '../../src/spec/errors.js';
import { RunStore } from '../../src/store/store.js';
import { main } from '../../src/cli/main.js';
import { startTwoRoleMock, last, type TwoRoleMock } from '../support/two-role-mock.js';
import { tmpDir } from '../support/paths.js';
import { ConcedingAgent, OFF_POLICY_REQUEST, WRONG_WISH, oracle, personaShop, personaTask } from '../support/persona-shop.js';
import { runCli } from '../support/cli.js';

const userTexts = (messages: any[]) => messages.filter((m) => m.role === 'user').map((m) => String(m.content));

describe('runTaskAcrossPersonas', () => {
  it('oracle + the four scripted personas: 4/4 in the gold state, pass^4 = 1, score 100%', async () => {
    const rep = await runTaskAcrossPersonas({ loaded: personaShop, task: personaTask, personas: SEED_PERSONAS, makeAgent: (task) => oracle(task) });
    expect(rep.episodes.map((e) => [e.persona, e.trial, e.success, e.credit, e.partial])).toEqual([
      ['impatient', 0, true, 0.25, 1],
      ['vague', 1, true, 0.25, 1],
      ['contradictory', 2, true, 0.25, 1],
      ['off-policy', 3, true, 0.25, 1],
    ]);
    expect(rep).toMatchObject({ taskId: 'cancel_o1_personas', score: 1, partialMean: 1, passAll: 1 });
    expect(rep.passHatK).toEqual([1, 2, 3, 4].map((k) => ({ k, value: 1 })));
    expect(rep.summary).toMatchObject({ episodes: 4, rewardMean: 1, passHatK: [{ k: 1, value: 1 }, { k: 2, value: 1 }, { k: 3, value: 1 }, { k: 4, value: 1 }] });
    // the transcripts show each persona at work
    const users = rep.episodes.map((e) => userTexts(e.record.episode.messages));
    expect(users[0][0]).toMatch(/hurry/);
    expect(users[1][0]).not.toContain('O1');
    expect(users[2][0]).toContain(WRONG_WISH);
    expect(users[2][1]).toMatch(/changed my mind/);
    expect(users[3][1]).toContain(OFF_POLICY_REQUEST);
  });

  it('an agent conceding the off-policy request fails only that episode: pass^4 = 0, score 75%', async () => {
    const rep = await runTaskAcrossPersonas({ loaded: personaShop, task: personaTask, personas: SEED_PERSONAS, makeAgent: (task) => new ConcedingAgent(oracle(task)) });
    expect(rep.episodes.map((e) => e.success)).toEqual([true, true, true, false]);
    const off = rep.episodes[3];
    expect(off.record.episode.toolLog.map((t) => `${t.name}:${(t.arguments as { order_id?: string }).order_id}`)).toContain('cancel_order:O3');
    expect(off.credit).toBe(0);
    expect(off.partial).toBe(0);
    expect(rep.score).toBe(0.75);
    expect(rep.passAll).toBe(0);
    expect(rep.passHatK.map((p) => p.value)).toEqual([0.75, 0.5, 0.25, 0]);
    expect(inGoldState(off.record)).toBe(false);
  });

  it('takes a stricter success predicate and rejects unknown personas', async () => {
    const rep = await runTaskAcrossPersonas({
      loaded: personaShop, task: personaTask, personas: ['plain', 'off-policy'], makeAgent: (task) => oracle(task),
      // e.g. require an explicit refusal in the off-policy episode (the oracle never gives one)
      success: (r, persona) => inGoldState(r) && (persona !== 'off-policy' || r.episode.messages.some((m) => m.role === 'assistant' && /cannot/.test(String(m.content)))),
    });
    expect(rep.episodes.map((e) => e.success)).toEqual([true, false]);
    expect(rep.score).toBe(0.5);
    await expect(runTaskAcrossPersonas({ loaded: personaShop, task: personaTask, personas: ['moody'], makeAgent: oracle })).rejects.toThrow(BadInputError);
  });
});

describe('runDomainTasks with personas (LLM user simulator against the mock server)', () => {
  let mock: TwoRoleMock;
  afterEach(async () => mock?.close());

  it("each persona's instructions reach the simulator's system prompt; labels, records and trials per persona", async () => {
    mock = await startTwoRoleMock({
      agent: () => ({ content: 'Done. ###STOP###' }),
      user: () => ({ content: 'Please cancel my order.' }),
    });
    const db = path.join(tmpDir('sg-pers-'), 'store.db');
    const store = RunStore.open(db);
    const personas = ['impatient', 'vague+contradictory', 'off-policy'];
    try {
      const res = await runDomainTasks({ loaded: personaShop, tasks: [personaTask], trials: 2, concurrency: 2, agent: 'llm', user: 'llm', agentModel: mock.agentModel, userModel: mock.userModel, personas, store, runId: 'r1' });
      expect(res.records.map((r) => [r.trial, r.persona])).toEqual([[0, 'impatient'], [1, 'vague+contradictory'], [2, 'off-policy'], [3, 'impatient'], [4, 'vague+contradictory'], [5, 'off-policy']]);
      expect(res.summary.passHatK.map((p) => p.k)).toEqual([1, 2, 3, 4, 5, 6]);
      const rows = store.episodes('r1').sort((a, b) => a.trial - b.trial); // stored in completion order
      expect(rows.map((r) => [r.trial, r.label, (r.result as any).persona])).toEqual(res.records.map((r) => [r.trial, r.persona, r.persona]));
    } finally {
      store.close();
    }
    const prompts = mock.bodies('user').map((b) => b.messages[0].content as string);
    expect(prompts).toHaveLength(6);
    for (const p of prompts) expect(p).toContain('<behaviour>');
    for (const persona of personas) {
      const mods = personaModifiers(persona, personaTask);
      expect(prompts.filter((q) => mods.every((m) => q.includes(m)))).toHaveLength(2);
    }
    expect(personaOfTrial(personas, 4)).toBe('vague+contradictory');
    const offPolicyPrompts = prompts.filter((p) => p.includes(OFF_POLICY_REQUEST));
    expect(offPolicyPrompts).toHaveLength(2);
    expect(prompts.filter((p) => p.includes(WRONG_WISH) && p.includes('You are vague.'))).toHaveLength(2);
  });
});

const cli = runCli;

describe('servicegym run / validate --personas', () => {
  let mock: TwoRoleMock;
  let saved: string | undefined;
  beforeEach(async () => {
    saved = process.env.SERVICEGYM_API_KEY;
    process.env.SERVICEGYM_API_KEY = 'test-key-personas';
    // The airline T01 agent of test/cli/run-validate.test.ts; the user asks once, then stops.
    mock = await startTwoRoleMock({
      agent: (messages) => {
        const calls = messages.filter((m: any) => m.role === 'assistant' && m.tool_calls).length;
        if (last(messages).role === 'user' && calls === 0) return { tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'mia_lee_301' } }] };
        if (calls === 1) return { tool_calls: [{ name: 'get_reservation_details', arguments: { reservation_id: '8KQ2ZD' } }] };
        return { content: 'Reservation 8KQ2ZD is basic economy, which cannot be changed, so it stays on 2026-10-20.' };
      },
      user: (messages) => (messages.length <= 2 ? { content: "Hi, I'm Mia Lee (mia_lee_301). Please move 8KQ2ZD to 2026-10-21." } : { content: 'I see, thanks. ###STOP###' }),
    });
  });
  afterEach(async () => {
    await mock.close();
    if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
    else process.env.SERVICEGYM_API_KEY = saved;
  });

  const runArgs = (db: string, ...more: string[]) => ['run', '--tasks', 'T01', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', ...more];

  it('records one episode per persona, labelled, with pass^4 across personas', async () => {
    const db = path.join(tmpDir('sg-run-pers-'), 'store.db');
    const r = await cli(runArgs(db, '--personas', SEED_PERSONAS.join(','), '--json'));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.episodes.map((e: any) => [e.trial, e.persona])).toEqual(SEED_PERSONAS.map((p, i) => [i, p]));
    expect(out.summary.pass_hat_k.map((p: any) => p.k)).toEqual([1, 2, 3, 4]);
    const store = RunStore.open(db);
    try {
      expect(store.episodes(out.run_id).sort((a, b) => a.trial - b.trial).map((e) => e.label)).toEqual([...SEED_PERSONAS]);
      expect((store.getRun(out.run_id)!.summary as any).personas).toEqual([...SEED_PERSONAS]);
    } finally {
      store.close();
    }
    const prompts = mock.bodies('user').map((b) => b.messages[0].content as string);
    expect(prompts.filter((p) => p.includes('You are impatient'))).not.toHaveLength(0);
    expect(prompts.filter((p) => p.includes('add a $100 credit'))).not.toHaveLength(0);
  });

  it('prints a per-persona table in text mode; --trials runs each persona that many times', async () => {
    const db = path.join(tmpDir('sg-run-pers2-'), 'store.db');
    const r = await cli(runArgs(db, '--personas', 'impatient,vague', '--trials', '2'));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/persona\s+episodes\s+reward 1\s+reward mean\s+partial mean\nimpatient\s+2\s+2\/2\s+1\.000\s+100\.0%\nvague\s+2\s+2\/2/);
    expect(r.out).toMatch(/pass\^4 1\.000/);
  });

  it('an unknown persona is bad input (exit 2) and calls no model', async () => {
    const r = await cli(runArgs(path.join(tmpDir('sg-run-pers3-'), 'store.db'), '--personas', 'impatient,grumpy'));
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown persona(s): 'grumpy'");
    expect(mock.server.requests).toHaveLength(0);
  });

  it('a resume must give the same personas', async () => {
    const db = path.join(tmpDir('sg-run-pers4-'), 'store.db');
    const first = await cli(runArgs(db, '--personas', 'impatient', '--json'));
    const again = await cli(runArgs(db, '--personas', 'vague', '--resume', JSON.parse(first.out).run_id));
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/started with personas impatient; resume it with the same --personas/);
  });

  it('validate --personas: the oracle with the scripted personas scores 1 on every episode', async () => {
    const r = await cli(['validate', '--no-store', '-q', '--tasks', 'T01,T15', '--personas', SEED_PERSONAS.join(',')]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^validate: 8\/8 episodes \(2 tasks × 4 personas\) score reward 1 and partial 100%/m);
    expect((await cli(['validate', '--no-store', '-q', '--personas', 'nope'])).code).toBe(2);
  });
});
