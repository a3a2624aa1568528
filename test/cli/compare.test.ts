/**
 * `servicegym compare A B` (issue 18, item 4): per-task success rates and their differences, the
 * overall difference with its interval and noise verdict, pass^k side by side, the configuration
 * diff, and the refusal to compare different task sets or datasets without --force.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli as cli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';
import { fillViewerStore, type ViewerStore } from '../support/viewer-store.js';
import { compareRunResults, type ComparedRun } from '../../src/evaluation/run-comparison.js';
import { compareText } from '../../src/cli/compare.js';
import { startMockServer } from '../../src/models/mock-server.js';

let s: ViewerStore;
beforeAll(async () => {
  s = await fillViewerStore(tmpDir('sg-compare-'));
}, 120_000);

/** A run whose tasks have the given passes out of trials. */
function run(id: string, tasks: Record<string, [number, number]>, config: Record<string, unknown> = {}, domain = 'airline'): ComparedRun {
  const episodes = Object.entries(tasks).flatMap(([task_id, [passed, trials]]) =>
    Array.from({ length: trials }, (_, i) => ({ task_id, label: 'llm', reward: i < passed ? 1 : 0, error: null })),
  );
  return { id, kind: 'run', domain, config: { data: 'servicegym', mode: 'servicegym', ...config }, prompt: null, episodes };
}

describe('run comparison (success rates, not flips)', () => {
  it('3/4 → 4/4 is +25 points and 1/4 → 3/4 is +50 points, each with its Fisher p; overall Δ with a paired interval', () => {
    const a = run('A', { t1: [3, 4], t2: [1, 4], t3: [4, 4], t4: [0, 4] }, { agent_model: 'm1', temperature: 0, usage: { x: 1 }, rewardMean: 0.5 });
    const b = run('B', { t1: [4, 4], t2: [3, 4], t3: [4, 4], t4: [0, 4] }, { agent_model: 'm2', temperature: 0, usage: { x: 2 }, rewardMean: 0.7 });
    const v = compareRunResults(a, b);
    expect(v.tasks.map((t) => [t.task, t.a!.rate, t.b!.rate, t.delta, t.direction])).toEqual([
      ['t1', 0.75, 1, 0.25, 'improved'],
      ['t2', 0.25, 0.75, 0.5, 'improved'],
      ['t3', 1, 1, 0, 'same'],
      ['t4', 0, 0, 0, 'same'],
    ]);
    expect(v.tasks[1].p).toBeCloseTo(0.485714285714, 9); // Fisher exact, 1/4 vs 3/4
    expect(v.tasks.every((t) => !t.beyond_noise)).toBe(true);
    expect(v.overall).toMatchObject({ tasks: 4, a: 0.5, b: 0.6875, delta: 0.1875, level: 0.95 });
    expect(v.overall!.low).toBeLessThanOrEqual(0.1875);
    // pass^1..4 side by side; the difference at each k with a paired interval.
    expect(v.pass_hat_k.map((p) => p.k)).toEqual([1, 2, 3, 4]);
    expect(v.pass_hat_k[0].a.value).toBe(0.5);
    expect(v.pass_hat_k[3]).toMatchObject({ a: { value: 0.25 }, b: { value: 0.5 }, delta: { value: 0.25 } });
    // Settings differ; results (usage, means) are not settings.
    expect(v.config_diff).toEqual([{ key: 'agent_model', a: 'm1', b: 'm2' }]);
    expect(v.prompt_note).toBeNull();
    expect(v.task_sets).toEqual({ same: true, reason: null, common: 4, only_a: [], only_b: [] });
  });

  it("a validate run's agent and user are the oracle and a scripted customer; two LLM runs' prompts are diffed, an oracle's are not", () => {
    const llm = { ...run('A', { t1: [1, 1] }, { agent_model: 'm1', user_model: 'u1' }), prompt: 'You are an agent.\nPolicy v1' };
    const llm2 = { ...run('B', { t1: [1, 1] }, { agent_model: 'm1', user_model: 'u1' }), prompt: 'You are an agent.\nPolicy v2' };
    const oracle = { ...run('V', { t1: [1, 1] }, { agent: 'oracle', user: 'personas', agent_model: 'oracle', user_model: 'scripted', agent_role: 'gold-action oracle (plays the gold actions)', user_role: 'scripted customer (plain or scripted personas)', agent_prompt: 'per_task' }), prompt: 'Oracle agent: performs the gold actions of task t1.' };
    const v = compareRunResults(llm, oracle);
    expect(v.config_diff.filter((d) => d.key === 'agent' || d.key === 'user')).toEqual([
      { key: 'agent', a: 'LLM agent', b: 'gold-action oracle (plays the gold actions)' },
      { key: 'user', a: 'LLM user simulator', b: 'scripted customer (plain or scripted personas)' },
    ]);
    expect(v.config_diff.map((d) => d.key)).not.toContain('agent_role');
    expect(v.prompt_diff).toBe('');
    expect(v.prompt_note).toBe("not diffed: B's agent (gold-action oracle (plays the gold actions)) has a prompt per task, not one prompt under test");
    expect(compareRunResults(oracle, oracle).prompt_note).toMatch(/^not diffed: A's agent \(.*\) and B's agent/);
    // A validate run stored before its roles were recorded still shows its kinds, not "-".
    const older = { ...oracle, config: { data: 'servicegym', mode: 'servicegym', agent: 'oracle', user: 'personas', agent_model: 'oracle' } };
    expect(compareRunResults(llm, older).config_diff.filter((d) => d.key === 'agent' || d.key === 'user').map((d) => d.b)).toEqual(['oracle', 'personas']);
    const same = compareRunResults(llm, llm2);
    expect(same.config_diff).toEqual([]);
    expect(same.prompt_note).toBeNull();
    expect(same.prompt_diff).toContain('-Policy v1\n+Policy v2');
  });

  it('different task sets or datasets are not the same comparison', () => {
    const v = compareRunResults(run('A', { t1: [1, 1], t2: [1, 1] }), run('B', { t1: [1, 1], t3: [0, 1] }));
    expect(v.task_sets).toMatchObject({ same: false, common: 1, only_a: ['t2'], only_b: ['t3'] });
    expect(v.tasks.map((t) => t.direction)).toEqual(['same', 'removed', 'added']);
    const d = compareRunResults(run('A', { '0': [1, 1] }, {}, 'airline'), run('B', { '0': [1, 1] }, {}, 'retail'));
    expect(d.task_sets.same).toBe(false);
    expect(d.task_sets.reason).toMatch(/^different datasets/);
  });
});

describe('servicegym compare', () => {
  it('prints rates per task, the overall difference against noise, pass^k and the configuration diff', async () => {
    const r = await cli(['compare', s.faultyId, s.validateId, '--db', s.db]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^T15\s+0\/2\s+0\.0%\s+1\/1\s+100\.0%\s+\+100\.0\s+0\.333\s+within$/m);
    expect(r.out).toMatch(/^T01\s+1\/2\s+50\.0%\s+1\/1\s+100\.0%\s+\+50\.0\s+1\.000\s+within$/m);
    expect(r.out).toContain('tasks: 3 improved, 0 regressed, 2 same; 0 beyond run-to-run noise (Fisher exact p < 0.05)');
    expect(r.out).toMatch(/^overall success rate \(pass\^1\) over 5 common tasks: A 0\.600 → B 1\.000, Δ \+0\.400 \(95% CI \[[-+]\d\.\d{3}, [-+]\d\.\d{3}\], paired bootstrap over tasks\): too few tasks to tell noise from a difference \(5 common tasks; a bootstrap over tasks needs at least 6\)$/m);
    expect(r.out).toMatch(/^pass\^1\s+0\.600 \[/m);
    expect(r.out).toMatch(/^agent_model\s+scripted-faulty\s+oracle$/m);
    expect(r.out).toMatch(/^trials\s+2\s+1$/m);
    // validate's agent is the gold-action oracle and its customer is scripted: said so, not "-".
    expect(r.out).toMatch(/^agent\s+LLM agent\s+gold-action oracle \(plays the gold actions\)$/m);
    expect(r.out).toMatch(/^user\s+LLM user simulator\s+scripted customer \(plain or scripted personas\)$/m);
    // The oracle's one-line prompt names its task: not diffed, and the reason given.
    expect(r.out).toContain("agent system prompt: not diffed: B's agent (gold-action oracle (plays the gold actions)) has a prompt per task, not one prompt under test");
    expect(r.out).not.toContain('Oracle agent: performs the gold actions');
    const j = JSON.parse((await cli(['compare', s.faultyId, s.validateId, '--db', s.db, '--json'])).out);
    expect(j.overall).toMatchObject({ tasks: 5, beyond_noise: false, verdict: 'too_few_tasks', min_tasks: 6 });
    expect(j.tasks.find((x: any) => x.task === 'T15')).toMatchObject({ p: 0.333333333333, beyond_noise: false, delta: 1, direction: 'improved' });
    expect(j.config_diff.map((d: any) => d.key)).toContain('agent_model');
  });

  it('a run against itself: every difference 0, pass^1 and pass^2 side by side, the same settings', async () => {
    const r = await cli(['compare', s.faultyId, s.faultyId, '--db', s.db]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^pass\^2\s+\S+ \[\S+, \S+\]\s+\S+ \[\S+, \S+\]\s+0\.000 \[0\.000, 0\.000\]\s+too few tasks$/m);
    expect(r.out).toContain('configuration: the same settings');
    expect(r.out).toContain('agent system prompt: the same');
  });

  it('refuses runs of different datasets or task sets without --force (exit 2)', async () => {
    const r = await cli(['compare', s.faultyId, s.campaignId, '--db', s.db]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('the runs are not comparable: different datasets (A: airline');
    expect(r.err).toContain('They share no task');
    // Each side's own tasks are listed by id; an empty side is not mentioned.
    expect(r.err).toMatch(/; only in A: T\d+/);
    expect(r.err).not.toMatch(/only in [AB] \d/);
    expect((await cli(['compare', s.faultyId, s.campaignId, '--db', s.db, '--force'])).code).toBe(2);
  });

  it('one common task is "1 common task" (--force on different task sets), one task of the same set "the same 1 task"', () => {
    const forced = compareText(compareRunResults(run('A', { t1: [1, 1], t2: [0, 1] }), run('B', { t1: [1, 1], t3: [1, 1] })));
    expect(forced).toContain('task sets: different task sets (1 in common, 1 only in A, 1 only in B); compared on the 1 common task (--force)');
    expect(forced).toContain('overall success rate (pass^1) over 1 common task: A 1.000 → B 1.000');
    expect(compareText(compareRunResults(run('A', { t1: [1, 1] }), run('B', { t1: [0, 1] })))).toContain('task sets: the same 1 task\n');
    const two = compareText(compareRunResults(run('A', { t1: [1, 1], t2: [1, 1] }), run('B', { t1: [0, 1], t2: [1, 1] })));
    expect(two).toContain('task sets: the same 2 tasks\n');
    expect(two).toContain('over 2 common tasks:');
  });

  it('one common task, 2 trials each, 2/2 → 0/2: too few tasks to tell, not "beyond" (zero-width interval), in text and JSON', () => {
    const v = compareRunResults(run('A', { t1: [2, 2] }), run('B', { t1: [0, 2] }));
    expect(v.tasks[0]).toMatchObject({ task: 't1', delta: -1, p: 0.333333333333, beyond_noise: false, direction: 'regressed' });
    expect(v.overall).toEqual({ tasks: 1, a: 1, b: 0, delta: -1, low: -1, high: -1, level: 0.95, beyond_noise: false, verdict: 'too_few_tasks', min_tasks: 6 });
    expect(v.pass_hat_k.map((p) => [p.k, p.delta.value, p.delta.low, p.delta.high, p.delta.beyond_noise, p.delta.verdict])).toEqual([
      [1, -1, -1, -1, false, 'too_few_tasks'],
      [2, -1, -1, -1, false, 'too_few_tasks'],
    ]);
    const text = compareText(v);
    expect(text).toMatch(/^t1\s+2\/2\s+100\.0%\s+0\/2\s+0\.0%\s+-100\.0\s+0\.333\s+within$/m);
    expect(text).toContain(
      'overall success rate (pass^1) over 1 common task: A 1.000 → B 0.000, Δ -1.000 (95% CI [-1.000, -1.000], paired bootstrap over tasks): too few tasks to tell noise from a difference (1 common task; a bootstrap over tasks needs at least 6)\n',
    );
    expect(text).toMatch(/^pass\^1\s+1\.000 \[1\.000, 1\.000\]\s+0\.000 \[0\.000, 0\.000\]\s+-1\.000 \[-1\.000, -1\.000\]\s+too few tasks$/m);
    expect(text).toMatch(/^pass\^2\s+1\.000 \[1\.000, 1\.000\]\s+0\.000 \[0\.000, 0\.000\]\s+-1\.000 \[-1\.000, -1\.000\]\s+too few tasks$/m);
    expect(text).not.toMatch(/beyond run-to-run noise$|\sbeyond$/m);
  });

  it('the verdict needs 6 common tasks: 5 tasks all 2/2 → 0/2 are too few, 6 are beyond noise, 6 mixed are within', () => {
    const tasks = (n: number, passed: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i + 1}`, [passed, 2] as [number, number]]));
    const five = compareRunResults(run('A', tasks(5, 2)), run('B', tasks(5, 0)));
    expect(five.overall).toMatchObject({ tasks: 5, delta: -1, low: -1, high: -1, beyond_noise: false, verdict: 'too_few_tasks' });
    expect(compareText(five)).toContain('(95% CI [-1.000, -1.000], paired bootstrap over tasks): too few tasks to tell noise from a difference (5 common tasks; a bootstrap over tasks needs at least 6)\n');
    const six = compareRunResults(run('A', tasks(6, 2)), run('B', tasks(6, 0)));
    expect(six.overall).toMatchObject({ tasks: 6, delta: -1, low: -1, high: -1, beyond_noise: true, verdict: 'beyond', min_tasks: 6 });
    expect(six.pass_hat_k.map((p) => p.delta.verdict)).toEqual(['beyond', 'beyond']);
    expect(compareText(six)).toContain('(95% CI [-1.000, -1.000], paired bootstrap over tasks): beyond run-to-run noise\n');
    expect(compareText(six)).toMatch(/^pass\^2\s+.*-1\.000 \[-1\.000, -1\.000\]\s+beyond$/m);
    const mixed = compareRunResults(run('A', { ...tasks(3, 2), t4: [0, 2], t5: [0, 2], t6: [0, 2] }), run('B', { ...tasks(3, 0), t4: [2, 2], t5: [2, 2], t6: [2, 2] }));
    expect(mixed.overall).toMatchObject({ tasks: 6, delta: 0, beyond_noise: false, verdict: 'within' });
    expect(compareText(mixed)).toContain('paired bootstrap over tasks): within run-to-run noise\n');
  });

  it('a task with no scored trial in one run (every episode an infrastructure error) is "unscored", not "same"', () => {
    const dead = run('A', { t2: [1, 1] });
    dead.episodes = [{ task_id: 't1', label: 'llm', reward: null, error: 'HTTP 500' }, ...dead.episodes];
    const v = compareRunResults(dead, run('B', { t1: [1, 1], t2: [1, 1] }));
    expect(v.tasks.map((t) => [t.task, t.direction, t.delta])).toEqual([['t1', 'unscored', null], ['t2', 'same', 0]]);
    expect(v.counts).toEqual({ improved: 0, regressed: 0, same: 1, added: 0, removed: 0, unscored: 1, beyond_noise: 0 });
    const text = compareText(v);
    expect(text).toContain('tasks: 0 improved, 0 regressed, 1 same, 1 not scored in both runs; 0 beyond');
    expect(text).toMatch(/^t1 +0\/0 +- +1\/1 +100\.0% +unscored +- +-$/m);
    expect(text).toContain('overall success rate (pass^1) over 1 common task:');
  });

  it('names a run that is not in the store, or a missing store (exit 2)', async () => {
    const r = await cli(['compare', s.faultyId, 'nope', '--db', s.db]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("no run 'nope' in the store");
    expect((await cli(['compare', 'a', 'b', '--db', path.join(tmpDir(), 'none.db')])).code).toBe(2);
  });
});

describe('compare a validate run with a run of the same tasks', () => {
  it('lists the agent, user and model settings that differ, not tags or image delivery neither run has (api surface)', async () => {
    const dir = tmpDir('sg-compare-validate-run-');
    const db = path.join(dir, 's.db');
    // A model agent that answers in words and a customer who stops at once: the episodes end quickly.
    const mock = await startMockServer({ port: 0, handler: (body) => (body.tools?.length ? { content: 'Done.' } : { content: body.messages.length <= 2 ? 'Please help.' : 'Thanks. ###STOP###' }) });
    let validateId: string;
    try {
      const v = await cli(['validate', '--tasks', 'T01,T02', '--db', db, '-q', '--json']);
      expect(v.code).toBe(0);
      validateId = JSON.parse(v.out).run_id;
      const r = await cli(['run', '--tasks', 'T01,T02', '--db', db, '-q', '--base-url', mock.url, '--agent-model', 'm', '--user-model', 'm', '--run-id', 'llm-run']);
      expect(r.code, r.err).toBe(0);
    } finally {
      await mock.close();
    }
    const j = JSON.parse((await cli(['compare', validateId, 'llm-run', '--db', db, '--json'])).out);
    const keys = j.config_diff.map((d: { key: string }) => d.key);
    expect(keys).toEqual(expect.arrayContaining(['agent', 'agent_model', 'user', 'user_model']));
    expect(keys).not.toContain('tags');
    expect(keys).not.toContain('screenshots');
    // Neither run has a judge: the run's stored --judge-votes (3) is no difference.
    expect(keys).not.toContain('judge_votes');
    // Unit: an empty list is no value; a setting both record with other values still differs.
    const diff = compareRunResults(run('A', { t1: [1, 1] }, { tags: [] }), run('B', { t1: [1, 1] }, { personas: null }));
    expect(diff.config_diff).toEqual([]);
    expect(compareRunResults(run('A', { t1: [1, 1] }, { screenshots: 'tool_result', tags: [] }), run('B', { t1: [1, 1] }, { screenshots: 'user_message', tags: ['x'] })).config_diff).toEqual([
      { key: 'screenshots', a: 'tool_result', b: 'user_message' },
      { key: 'tags', a: null, b: ['x'] },
    ]);
    // A run stopped early (Ctrl-C, --max-cost) records `halted`: an outcome, not a setting that differs.
    const stopped = run('A', { t1: [1, 1] }, { halted: { reason: 'interrupted (Ctrl-C)', not_started: 3 } });
    expect(compareRunResults(stopped, run('B', { t1: [1, 1] })).config_diff).toEqual([]);
    // Where and how fast a run ran (stored for its --resume) is no setting of what it ran.
    const place = (url: string, j: number) => ({ base_url: url, data_dir: `/data/${j}`, prompt_path: `/p/${j}.txt`, concurrency: j, threads: j, rate_limit: j * 60, judge_votes: 3 });
    expect(compareRunResults(run('A', { t1: [1, 1] }, place('http://127.0.0.1:8000/v1', 1)), run('B', { t1: [1, 1] }, place('http://10.0.0.2:8000/v1', 2))).config_diff).toEqual([]);
    const judged = (votes?: number) => ({ judge_model: 'j', ...(votes === undefined ? {} : { judge_votes: votes }) });
    expect(compareRunResults(run('A', { t1: [1, 1] }, judged(3)), run('B', { t1: [1, 1] }, judged(5))).config_diff).toEqual([{ key: 'judge_votes', a: 3, b: 5 }]);
    // Votes are the judge's: runs without a judge model do not differ in them, nor does a run stored before judge_votes was (no judge) from one after.
    expect(compareRunResults(run('A', { t1: [1, 1] }, { judge_votes: 3 }), run('B', { t1: [1, 1] }, { judge_votes: 5 })).config_diff).toEqual([]);
    expect(compareRunResults(run('A', { t1: [1, 1] }, { judge_model: null }), run('B', { t1: [1, 1] }, { judge_model: null, judge_votes: 3 })).config_diff).toEqual([]);
    // With a judge, a run that does not record its votes still differs from one that does (unknown is not the default).
    expect(compareRunResults(run('A', { t1: [1, 1] }, judged()), run('B', { t1: [1, 1] }, judged(3))).config_diff).toEqual([{ key: 'judge_votes', a: null, b: 3 }]);
  }, 120_000);
});
