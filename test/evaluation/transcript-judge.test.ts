/**
 * Transcript rules judged by an LLM (`--judge-model`): against the repo's mock OpenAI-compatible
 * server, T01's two rules on the policy-perfect episode are decided by the majority of three votes
 * (one receipt per vote), the result names the deciding mode and the agreement with the patterns;
 * unreadable or tied votes leave the rule to its patterns; without a judge the patterns decide.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { say } from '../../src/agents/scripted-agent.js';
import { evaluateTask } from '../../src/evaluation/compose.js';
import { RULE_JUDGE_SYSTEM } from '../../src/evaluation/transcript-judge.js';
import { resolveLiveModelConfig } from '../../src/models/config.js';
import { startMockServer, type MockHandler, type MockServer } from '../../src/models/mock-server.js';
import { OpenAICompatibleModel } from '../../src/models/openai-adapter.js';
import { airline, AIRLINE_ENV, runSeedTask, seedTask } from '../support/airline-episode.js';
import { reservation, T01_OPENING, T01_REASON, userDetails } from '../support/airline-seed-scripts.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function judgeOn(handler: MockHandler): Promise<OpenAICompatibleModel> {
  const server = await startMockServer({ handler });
  servers.push(server);
  const cfg = resolveLiveModelConfig({ model: 'rule-judge-mock', provider: 'mock', timeout: 5, maxRetries: 0 }, { SERVICEGYM_BASE_URL: server.url, SERVICEGYM_API_KEY: 'test-fake-key' });
  return new OpenAICompatibleModel(cfg);
}

/** Statement 1 (the reason) met in every vote; statement 2 (no promise) not met in votes with seed 0 and 2. */
const splitJudge: MockHandler = (body) => {
  const seed = body.seed as number;
  return { content: JSON.stringify({ results: [{ id: 1, met: true, reason: 'states the basic economy rule' }, { id: 2, met: seed === 1, reason: seed === 1 ? 'no promise' : 'implies a change' }] }) };
};

const T01 = seedTask('T01');
const perfect = () => runSeedTask('T01', T01_OPENING, [userDetails('mia_lee_301'), reservation('8KQ2ZD'), say(T01_REASON)]);

describe('transcript rules judged by an LLM', () => {
  it('the majority of three votes decides; receipts, mode and agreement are reported', async () => {
    const o = await perfect();
    const bodies: Record<string, unknown>[] = [];
    const judge = await judgeOn((body, ...rest) => (bodies.push(body), splitJudge(body, ...rest)));
    const ev = await evaluateTask({ loaded: airline, task: T01, trace: o.record.episode, judge, env: AIRLINE_ENV });
    expect(bodies.map((b) => [b.seed, b.temperature])).toEqual([[0, 1], [1, 1], [2, 1]]);
    expect((bodies[0].messages as { content: string }[])[0].content).toBe(RULE_JUDGE_SYSTEM);
    expect(ev.receipts).toHaveLength(3);
    const reason = ev.checks.find((c) => c.id === 'reason_stated')!;
    const promise = ev.checks.find((c) => c.id === 'no_promised_change')!;
    expect(reason).toMatchObject({ verdict: 'pass', decided_by: 'judge', agreement: { votes: 3, majority: 3, pattern_agrees: true } });
    expect(promise).toMatchObject({ verdict: 'fail', decided_by: 'judge', agreement: { votes: 3, majority: 2, pattern_agrees: false } });
    expect(promise.evidence).toMatch(/^judge: 2\/3 votes not met \(patterns disagree: pass\) — implies a change; patterns: must_not_match: no assistant message matches/);
    expect(ev.partial).toBe(0.8);
  });

  it('unreadable or tied votes leave the rule to its patterns', async () => {
    const o = await perfect();
    const garbage = await judgeOn(() => ({ content: 'I think the agent did fine.' }));
    const ev = await evaluateTask({ loaded: airline, task: T01, trace: o.record.episode, judge: garbage, env: AIRLINE_ENV });
    expect(ev.checks.find((c) => c.id === 'no_promised_change')).toMatchObject({ verdict: 'pass', decided_by: 'pattern', evidence: expect.stringContaining('judge: no readable vote of 3, patterns decide') });
    const tie = await judgeOn((body) => ({ content: JSON.stringify({ results: [{ id: 1, met: true }, { id: 2, met: body.seed === 0 }] }) }));
    const ev2 = await evaluateTask({ loaded: airline, task: T01, trace: o.record.episode, judge: tie, env: AIRLINE_ENV, judgeVotes: 2 });
    expect(ev2.checks.find((c) => c.id === 'no_promised_change')).toMatchObject({ verdict: 'pass', decided_by: 'pattern', evidence: expect.stringContaining('judge: tied 1-1 of 2') });
    expect(ev2.partial).toBe(1);
  });

  it('without a judge every transcript rule is decided by its patterns and no call is made', async () => {
    const o = await perfect();
    const ev = await evaluateTask({ loaded: airline, task: T01, trace: o.record.episode, env: AIRLINE_ENV });
    expect(ev.checks.filter((c) => c.kind === 'transcript').map((c) => [c.id, c.verdict, c.decided_by])).toEqual([
      ['reason_stated', 'pass', 'pattern'],
      ['no_promised_change', 'pass', 'pattern'],
    ]);
    expect(ev.receipts).toEqual([]);
  });
});
