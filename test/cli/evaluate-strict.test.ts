/**
 * `servicegym evaluate --strict` (issue 10, item 5): a recorded trajectory that skips the gold
 * actions keeps its tau2-compatible reward, and scores 0 when ACTION joins the reward basis.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';

let dir: string;
beforeAll(() => {
  dir = tmpDir('sg-evaluate-strict-');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Own airline T01 (decline a basic-economy change): the agent refuses without any lookup. */
const DO_NOTHING = [
  { role: 'user', content: "Hi, I'm Mia Lee, user id mia_lee_301. I'd like to move my flight on reservation 8KQ2ZD from 2026-10-20 to the next day, 2026-10-21." },
  { role: 'assistant', content: 'I am sorry, I cannot change that reservation.' },
  { role: 'user', content: 'Okay, thanks. ###STOP###' },
];

async function rewardOf(extra: string[]): Promise<{ code: number; reward: unknown; strict: unknown }> {
  const file = path.join(dir, 'do-nothing.json');
  fs.writeFileSync(file, JSON.stringify(DO_NOTHING));
  const r = await runCli(['evaluate', file, '--domain', 'airline', '--task', 'T01', '--json', ...extra]);
  const [res] = JSON.parse(r.out) as { evaluation: { reward: unknown; strict?: unknown } }[];
  return { code: r.code, reward: res.evaluation.reward, strict: res.evaluation.strict ?? false };
}

it('a do-nothing refusal of T01: tau2-compatible reward 1, strict reward 0', async () => {
  expect(await rewardOf([])).toEqual({ code: 0, reward: 1, strict: false });
  expect(await rewardOf(['--strict'])).toEqual({ code: 0, reward: 0, strict: true });
}, 120_000);

it('the not-passed list and the results file name tau2_action only when it counts (--strict)', async () => {
  const file = path.join(dir, 'do-nothing-list.json');
  fs.writeFileSync(file, JSON.stringify(DO_NOTHING));
  const out = path.join(dir, 'results.jsonl');
  const plain = await runCli(['evaluate', file, '--domain', 'airline', '--task', 'T01', '-q', '-o', out]);
  expect(plain.out).toBe(`${file} T01: user_stop, reward 1, partial 60% (not passed: identity_before_read=fail, reason_stated=fail)\nevaluate: reward 1 on 1/1 trajectory (reward mean 1.000, partial mean 60.0%), 0 not judged, 1/1 replayed as recorded\n`);
  const line = JSON.parse(fs.readFileSync(out, 'utf8'));
  expect([line.failing_checks, line.not_judged_checks]).toEqual([['identity_before_read', 'reason_stated'], []]);
  const strict = await runCli(['evaluate', file, '--domain', 'airline', '--task', 'T01', '-q', '--strict', '-o', out]);
  expect(strict.out).toBe(`${file} T01: user_stop, reward 0, partial 60% (not passed: tau2_action=fail, identity_before_read=fail, reason_stated=fail)\nevaluate: reward 1 on 0/1 trajectory (reward mean 0.000, partial mean 60.0%), 0 not judged, 1/1 replayed as recorded\n`);
  expect(JSON.parse(fs.readFileSync(out, 'utf8')).failing_checks).toEqual(['tau2_action', 'identity_before_read', 'reason_stated']);
}, 120_000);
