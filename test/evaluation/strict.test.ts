/**
 * Strict mode (issue 10, item 5) on the exact tau2 tasks the issue names: a do-nothing run of
 * airline task 1 and a retail task 50 run that only says it transfers score 1 in tau2-compatible
 * mode (tau2's rewards) and 0 with strict; a real transfer call passes strict.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domains/index.js';
import { runTasks } from '../../src/run/run-tasks.js';
import { ScriptedAgent, call, say } from '../../src/agents/scripted-agent.js';
import { ScriptedUser } from '../../src/users/scripted-user.js';
import { evaluateTask, partitionKnownBad, transferClaim, type StrictSetting } from '../../src/evaluation/index.js';
import { TASK_RUN_SETTINGS } from '../../src/run/task-run.js';
import type { ScriptEntry } from '../../src/agents/scripted-agent.js';
import { HAS_SHARED, needsShared, SHARED } from '../support/paths.js';

const TAU2 = path.join(SHARED, 'peers', 'tau2');

async function score(domain: 'airline' | 'retail', taskId: string, script: ScriptEntry[], userLines: string[], strict: StrictSetting) {
  const loaded = loadDomain(domain, { dataDir: path.join(TAU2, domain) });
  const task = loaded.tasks.find((t) => t.id === taskId)!;
  const env = { now: loaded.now ?? '1970-01-01T00:00:00Z', idSeed: '' };
  const res = await runTasks({
    loaded, tasks: [task], trials: 1, concurrency: 1, env, episode: TASK_RUN_SETTINGS,
    makeAgent: () => new ScriptedAgent(script),
    makeUser: () => new ScriptedUser(userLines),
    evaluate: (t, trace) => evaluateTask({ loaded, task: t, trace, env, strict }),
  });
  return res.records[0].evaluation!;
}

describe.skipIf(!HAS_SHARED)(needsShared('strict mode on tau2 tasks'), () => {
  const doNothing = [say("I'm sorry, I can't help with that reservation.")];
  const airlineUser = ['Hi, I want to cancel my trip from Philadelphia to LaGuardia. My user id is raj_sanchez_7340.', 'OK, bye. ###STOP###'];

  it('airline task 1, do-nothing: tau2 reward 1, strict reward 0 (ACTION joins the basis)', async () => {
    const tau2 = await score('airline', '1', doNothing, airlineUser, false);
    expect(tau2.reward).toBe(1);
    expect(tau2.reward_basis).toEqual(['DB', 'COMMUNICATE']);
    expect(tau2.strict).toBeUndefined();
    const strict = await score('airline', '1', doNothing, airlineUser, true);
    expect(strict.reward).toBe(0);
    expect(strict.reward_basis).toEqual(['DB', 'COMMUNICATE', 'ACTION']);
    expect(strict.reward_breakdown.ACTION).toBe(0);
    expect(strict.flags).toEqual([]);
  });

  it('airline task 1 with the gold lookups and a refusal passes strict too', async () => {
    const script = [call('get_user_details', { user_id: 'raj_sanchez_7340' }), call('get_reservation_details', { reservation_id: 'Q69X3R' }), say('This reservation cannot be cancelled for a refund under our policy.')];
    expect((await score('airline', '1', script, airlineUser, true)).reward).toBe(1);
  });

  const retailUser = ['I need to undo the cancellation of my order, right now. I am Chen Smith, zip 32278.', 'Fine. ###STOP###'];
  const saysTransfer = [say("I understand. I'm transferring you to a human agent now who can help with this.")];

  it('retail task 50 without the transfer call: tau2 reward 1, strict reward 0 and flagged', async () => {
    const tau2 = await score('retail', '50', saysTransfer, retailUser, false);
    expect(tau2.reward).toBe(1);
    const strict = await score('retail', '50', saysTransfer, retailUser, true);
    expect(strict.reward).toBe(0);
    expect(strict.reward_breakdown.ACTION).toBe(0);
    expect(strict.flags).toEqual(['transfer_claimed_without_call']);
    expect(strict.checks.find((c) => c.id === 'strict_transfer_claim')).toMatchObject({ verdict: 'fail', evidence: expect.stringContaining("transferring you to a human agent") });
  });

  it('retail task 50 with a real transfer call scores 1 in both modes', async () => {
    const script = [call('transfer_to_human_agents', { summary: 'Customer wants a cancelled order reinstated.' }), say("I'm transferring you to a human agent now.")];
    expect((await score('retail', '50', script, retailUser, false)).reward).toBe(1);
    const strict = await score('retail', '50', script, retailUser, true);
    expect(strict.reward).toBe(1);
    expect(strict.flags).toEqual([]);
  });

  it('strict does not require gold actions that fail in the gold replay (retail task 2: a lookup of a missing product)', async () => {
    const loaded = loadDomain('retail', { dataDir: path.join(TAU2, 'retail') });
    const task = loaded.tasks.find((t) => t.id === '2')!;
    const { OracleAgent } = await import('../../src/agents/oracle-agent.js');
    // The oracle replays every gold action; dropping the failing lookup must still pass strict.
    const failing = new Set(['2_1']);
    const trimmed = { ...task, evaluation_criteria: { ...task.evaluation_criteria!, actions: task.evaluation_criteria!.actions!.filter((a) => !failing.has(a.action_id)) } };
    const env = { now: '1970-01-01T00:00:00Z', idSeed: '' };
    const res = await runTasks({
      loaded, tasks: [trimmed], trials: 1, concurrency: 1, env, episode: TASK_RUN_SETTINGS,
      makeAgent: () => new OracleAgent(trimmed),
      makeUser: () => new ScriptedUser(['Hello.'], { rules: [{ when: /confirm|proceed/i, say: 'Yes, please proceed.' }] }),
      evaluate: (_t, trace) => evaluateTask({ loaded, task, trace, env, strict: true }),
    });
    expect(res.records[0].evaluation!.reward_breakdown.ACTION).toBe(1);
  });

  it('tau2 retail known-bad tasks are listed with reasons and split off', () => {
    const loaded = loadDomain('retail', { dataDir: path.join(TAU2, 'retail') });
    const { kept, excluded } = partitionKnownBad(loaded.tasks, loaded.knownBadTasks);
    expect(excluded.map((e) => e.id)).toContain('10');
    for (const e of excluded) expect(e.reason.length).toBeGreaterThan(40);
    expect(kept.length + excluded.length).toBe(114);
  });
});

describe.skipIf(!HAS_SHARED)(needsShared('optimize --strict task suites'), () => {
  it('leave known-bad tasks out and key the rollout cache on strictness', async () => {
    const { TaskSuite } = await import('../../src/optimizer/task-suite.js');
    const loaded = loadDomain('retail', { dataDir: path.join(TAU2, 'retail') });
    const plain = new TaskSuite(loaded, { tasks: ['10', '50'] });
    const strict = new TaskSuite(loaded, { tasks: ['10', '50'], strict: true });
    expect(plain.cases.map((c) => c.id)).toEqual(['10', '50']);
    expect(strict.cases.map((c) => c.id)).toEqual(['50']);
    expect(strict.excluded.map((k) => k.id)).toEqual(['10']);
    expect(strict.harnessVersion).not.toBe(plain.harnessVersion);
  });
});

describe('transfer claims', () => {
  const claims = [
    "I'm transferring you to a human agent now.",
    'I will transfer you to a live representative who can help.',
    'I have transferred your case to our specialist team.',
    "You're being transferred to a supervisor.",
    'Transferring you now to a human agent.',
    "I'll connect you with a human agent right away.",
    "I've escalated your request to a senior agent.",
    'Please hold while I hand you over to a colleague. I am handing you over to a colleague.',
    'I have transferred you to our returns department.',
    "I've escalated your case; a supervisor will take it from here.",
  ];
  const notClaims = [
    'Would you like me to transfer you to a human agent?',
    "I can't transfer you to a human agent for this request.",
    'If you prefer, I could connect you with a representative.',
    'I am unable to transfer you right now.',
    'Your refund has been transferred to the original payment method.',
    'The funds were transferred to your gift card.',
    'Shall I transfer you to a human agent?',
    'There is no need to transfer you; I can help with this myself.',
    'I have transferred your refund to the original credit card.',
    "I've transferred the balance to your gift card.",
    'We have connected your account to the new address.',
  ];
  it.each(claims)('claim: %s', (t) => expect(transferClaim(t)).not.toBeNull());
  it.each(notClaims)('not a claim: %s', (t) => expect(transferClaim(t)).toBeNull());
});
