/**
 * `servicegym export-trajectories`: a stored run's episodes as `evaluate`'s input. Round trip: a
 * run against the mock model server, exported, scored again by `evaluate`, gives every episode
 * the same reward and partial score as the run stored, replayed as recorded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/models/mock-server.js';
import { RunStore } from '../../src/store/store.js';
import { readEpisodeLogs } from '../../src/store/run-log.js';
import { runCli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';

let mock: MockServer;
const dir = tmpDir('sg-export-');
const db = path.join(dir, 'store.db');

beforeAll(async () => {
  // The agent looks the reservation up and refuses (right for T01, wrong for T02); the customer asks once and stops.
  mock = await startMockServer({
    handler: (body) => {
      const msgs = body.messages as any[];
      if (Array.isArray(body.tools) && body.tools.length) {
        const calls = msgs.filter((m) => m.role === 'assistant' && m.tool_calls).length;
        if (calls === 0) return { tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'mia_lee_301' } }] };
        if (calls === 1) return { tool_calls: [{ name: 'get_reservation_details', arguments: { reservation_id: '8KQ2ZD' } }] };
        return { content: 'Reservation 8KQ2ZD is basic economy, which cannot be changed, so it stays on 2026-10-20.' };
      }
      return msgs.length <= 2 ? { content: "Hi, I'm Mia Lee (mia_lee_301). Please move 8KQ2ZD to 2026-10-21." } : { content: 'I see, thanks. ###STOP###' };
    },
  });
});
afterAll(async () => {
  await mock.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('export-trajectories', () => {
  it('run -> export -> evaluate gives every episode the reward and partial score the run stored', async () => {
    const run = await runCli(['run', '--domain', 'airline', '--tasks', 'T01,T02', '--personas', 'plain,impatient', '-j', '1', '--base-url', mock.url, '--agent-model', 'm', '--user-model', 'm', '--db', db, '--json', '-q']);
    expect(run.code, run.err).toBe(0);
    const runId = JSON.parse(run.out).run_id as string;
    const store = RunStore.open(db, { readonly: true });
    const stored = readEpisodeLogs(store, runId).map((e) => e.record);
    store.close();
    expect(stored).toHaveLength(4);
    const rewards = stored.map((r) => (r.evaluation as { reward: number | null }).reward);
    expect(rewards).toContain(1);
    expect(rewards.some((x) => x !== 1)).toBe(true);

    const file = path.join(dir, 'trajectories.jsonl');
    const exp = await runCli(['export-trajectories', runId, '--db', db, '-o', file]);
    expect(exp.code, exp.err).toBe(0);
    expect(exp.err).toContain(`4 trajectories exported; score them with: servicegym evaluate ${file} --domain airline`);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    // The store keeps them as they finished (trial-major, the run's order at -j 1); the export is task-major.
    expect(stored.map((r) => `${r.task.id}#${r.trial}`)).toEqual(['T01#0', 'T02#0', 'T01#1', 'T02#1']);
    expect(lines.map((l) => [l.task_id, l.trial, l.persona])).toEqual([['T01', 0, 'plain'], ['T01', 1, 'impatient'], ['T02', 0, 'plain'], ['T02', 1, 'impatient']]);
    const byId = new Map(stored.map((r) => [r.episode_id, r]));
    for (const l of lines) expect([l.task_id, l.trial, l.messages]).toEqual([byId.get(l.episode_id)!.task.id, byId.get(l.episode_id)!.trial, byId.get(l.episode_id)!.messages]);
    const ordered = lines.map((l) => byId.get(l.episode_id)!);

    const ev = await runCli(['evaluate', file, '--domain', 'airline', '--json', '-q']);
    expect(ev.code, ev.err).toBe(0);
    const scored = JSON.parse(ev.out) as { task_id: string; evaluation: { reward: number | null; partial: number }; tool_output_differences: unknown[] }[];
    expect(scored.map((s) => [s.task_id, s.evaluation.reward, s.evaluation.partial])).toEqual(ordered.map((r) => [r.task.id, (r.evaluation as { reward: number | null }).reward, (r.evaluation as { partial: number }).partial]));
    expect(scored.every((s) => s.tool_output_differences.length === 0)).toBe(true);

    // One task, one trial (with personas, trial t plays persona t mod 2), on stdout.
    const one = await runCli(['export-trajectories', runId, '--db', db, '--task', 'T02', '--trial', '1']);
    expect(one.code).toBe(0);
    expect(one.out.trim().split('\n').map((l) => [JSON.parse(l).task_id, JSON.parse(l).trial])).toEqual([['T02', 1]]);
    // --task takes ids or globs, as run's --tasks does (the same matcher).
    const picked = async (sel: string) => (await runCli(['export-trajectories', runId, '--db', db, '--task', sel])).out.trim().split('\n').map((l) => `${JSON.parse(l).task_id}#${JSON.parse(l).trial}`);
    expect(await picked('T0*')).toEqual(['T01#0', 'T01#1', 'T02#0', 'T02#1']);
    expect(await picked('T0[!1]')).toEqual(['T02#0', 'T02#1']);
    expect(await picked('T?1,T02')).toEqual(['T01#0', 'T01#1', 'T02#0', 'T02#1']);
  }, 180_000);

  it('leaves out episodes cut off by an infrastructure error, naming them (evaluate would score the stub as a finished conversation)', async () => {
    // T02's customer (the user simulator's prompt names Q7M4LT) fails on their second turn: the episode ends in user_error.
    const failing = await startMockServer({
      handler: (body) => {
        const msgs = body.messages as any[];
        if (Array.isArray(body.tools) && body.tools.length) return { content: 'Reservation 8KQ2ZD is basic economy, which cannot be changed.' };
        if (String(msgs[0]?.content).includes('Q7M4LT') && msgs.length > 2) return { status: 500, error: 'boom' };
        return msgs.length <= 2 ? { content: 'Please move 8KQ2ZD to 2026-10-21.' } : { content: 'Thanks. ###STOP###' };
      },
    });
    try {
      const store = path.join(dir, 'cut.db');
      const run = await runCli(['run', '--domain', 'airline', '--tasks', 'T01,T02', '--run-id', 'cut', '-j', '1', '--max-retries', '0', '--base-url', failing.url, '--agent-model', 'm', '--user-model', 'm', '--db', store, '-q']);
      expect(run.code).toBe(1);
      const exp = await runCli(['export-trajectories', 'cut', '--db', store]);
      expect(exp.code, exp.err).toBe(0);
      expect(exp.out.trim().split('\n').map((l) => JSON.parse(l).episode_id)).toEqual(['T01#0']);
      expect(exp.err).toContain(`1 episode(s) left out: they ended in an infrastructure or harness error, so their conversations were cut off and say nothing about the agent (servicegym run --resume cut with the run's flags plays them again): T02#0 (user_error: ProviderError: user_simulator call to ${failing.url}/chat/completions failed: 500 boom (after 1 attempt))\n`);
      expect(exp.err).toContain('1 trajectory exported');
      const only = await runCli(['export-trajectories', 'cut', '--db', store, '--task', 'T02']);
      expect(only.code).toBe(2);
      expect(only.out).toBe('');
      expect(only.err).toContain("every selected episode of run 'cut' ended in an infrastructure or harness error, so its conversation was cut off and has nothing to score: T02#0 (user_error: ProviderError:");
    } finally {
      await failing.close();
    }
  }, 120_000);

  it('refuses an unknown run, a selection that matches nothing and a bad trial (exit 2)', async () => {
    const unknown = await runCli(['export-trajectories', 'nope', '--db', db]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("no run 'nope' in the store");
    const runs = RunStore.open(db, { readonly: true });
    const id = runs.listRuns()[0].id;
    runs.close();
    const none = await runCli(['export-trajectories', id, '--db', db, '--task', 'T01,T99']);
    expect(none.code).toBe(2);
    expect(none.err).toBe(`servicegym: error: --task: unknown task id(s): T99 (run '${id}' has 2 tasks: T01, T02)\n`);
    const noMatch = await runCli(['export-trajectories', id, '--db', db, '--task', 'T01,X*']);
    expect(noMatch.code).toBe(2);
    expect(noMatch.err).toBe(`servicegym: error: --task: pattern 'X*' matches no task (run '${id}' has 2 tasks: T01, T02)\n`);
    const badGlob = await runCli(['export-trajectories', id, '--db', db, '--task', 'T[2']);
    expect([badGlob.code, badGlob.err]).toEqual([2, "servicegym: error: --task pattern 'T[2' has an unclosed '['\n"]);
    expect((await runCli(['export-trajectories', id, '--db', db, '--task', ','])).err).toContain("--task names no task (got ',')");
    expect((await runCli(['export-trajectories', id, '--db', db, '--trial', '-1'])).code).toBe(2);
    // -o naming the store (directly or by another path) would write JSON Lines over every run.
    const before = fs.readFileSync(db);
    for (const out of [db, path.join(path.dirname(db), '.', path.basename(db))]) {
      const over = await runCli(['export-trajectories', id, '--db', db, '-o', out]);
      expect(over.code).toBe(2);
      expect(over.err).toBe(`servicegym: error: ${out}: -o/--output names the run store; writing there would destroy it: give another file\n`);
    }
    expect(fs.readFileSync(db).equals(before)).toBe(true);
  });
});
