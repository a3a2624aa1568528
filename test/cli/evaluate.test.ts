/**
 * `servicegym evaluate`: a trajectory file scores to the same evaluation the live episode that
 * produced it got — every task of servicegym's own datasets with the oracle (airline, retail,
 * banking, hotel, insurance, utility, the GDS terminal), telecom trajectories where the customer
 * acts on their own phone, and the faulty scripted
 * agents' trajectories (wrong writes, a malformed call, unverified claims, missing totals) as one
 * JSON Lines file; recorded tool outputs that the fresh replay does not reproduce are reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../support/cli.js';
import { HAS_SHARED, needsShared, SHARED, tmpDir } from '../support/paths.js';
import { loadDomain } from '../../src/domains/index.js';
import { RunStore } from '../../src/store/store.js';
import { readEpisodeLogs, type StoredEpisode } from '../../src/store/run-log.js';
import { storeScriptedRun } from '../support/scripted-run.js';
import { faultyAirlinePlay } from '../support/faulty-airline.js';

interface EvaluateJson {
  source: string;
  task_id: string;
  termination: string;
  failure: { by: string; kind: string; message: string } | null;
  evaluation: Record<string, unknown> | null;
  tool_output_differences: { index: number; tool_call_id: string; recorded: string; replayed: string | null }[];
  unreplayed: { assistant: number; user: number };
}

let dir: string;
let db: string;
beforeAll(() => {
  dir = tmpDir('sg-evaluate-');
  db = path.join(dir, 'store.db');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function stored(runId: string): StoredEpisode[] {
  const store = RunStore.open(db, { readonly: true });
  try {
    return readEpisodeLogs(store, runId);
  } finally {
    store.close();
  }
}

async function evaluate(domain: string, file: string, extra: string[] = []): Promise<{ code: number; results: EvaluateJson[]; err: string }> {
  const r = await runCli(['evaluate', file, '--domain', domain, '--json', ...extra]);
  return { code: r.code, results: r.out ? (JSON.parse(r.out) as EvaluateJson[]) : [], err: r.err };
}

describe('evaluate scores a trajectory as its live episode was scored', () => {
  for (const domain of ['airline', 'retail', 'banking', 'hotel', 'insurance', 'utility', 'gds']) {
    it(`every ${domain} task with the oracle`, async () => {
      const v = await runCli(['validate', '--domain', domain, '--db', db, '-q', '--json']);
      expect(v.code, v.err).toBe(0);
      const episodes = stored((JSON.parse(v.out) as { run_id: string }).run_id);
      // One episode per task, and one per persona of a task with its own persona set (retail T16: four).
      const loaded = loadDomain(domain);
      expect(episodes.length).toBe(loaded.tasks.reduce((n, t) => n + (t.servicegym?.personas?.length ?? 1), 0));
      for (const e of episodes) {
        const file = path.join(dir, `${domain}-${e.episodeId.replace('#', '-')}.json`);
        fs.writeFileSync(file, JSON.stringify(e.record.messages));
        const { code, results, err } = await evaluate(domain, file, ['--task', e.record.task.id, ...(e.record.persona ? ['--persona', e.record.persona] : [])]);
        expect(code, err).toBe(0);
        expect(results[0].termination).toBe(e.record.termination.reason);
        expect({ kind: 'task', ...results[0].evaluation }).toEqual(e.record.evaluation);
        expect(results[0].evaluation).toMatchObject({ reward: 1, partial: 1 });
      }
    }, 600_000);
  }

  it.skipIf(!HAS_SHARED)(needsShared("telecom trajectories with the customer's own tool calls (tau2 data)"), async () => {
    const dataDir = path.join(SHARED, 'peers/tau2', 'telecom');
    const loaded = loadDomain('telecom', { dataDir });
    const dual = loaded.tasks.filter((t) => (t.evaluation_criteria?.actions ?? []).some((a) => a.requestor === 'user')).slice(0, 3);
    const v = await runCli(['validate', '--domain', 'telecom', '--data-dir', dataDir, '--tasks', dual.map((t) => t.id).join(','), '--db', db, '-q', '--json']);
    expect(v.code, v.err).toBe(0);
    const episodes = stored((JSON.parse(v.out) as { run_id: string }).run_id);
    const file = path.join(dir, 'telecom.jsonl');
    fs.writeFileSync(file, episodes.map((e) => JSON.stringify({ task_id: e.record.task.id, messages: e.record.messages })).join('\n') + '\n');
    const { code, results, err } = await evaluate('telecom', file, ['--data-dir', dataDir]);
    expect(code, err).toBe(0);
    results.forEach((r, i) => {
      expect({ kind: 'task', ...r.evaluation }).toEqual(episodes[i].record.evaluation);
      expect(r.evaluation).toMatchObject({ reward: 1 });
    });
    // The customer's calls ran again on the fresh phone: each replayed output equals the recorded one.
    expect(results.flatMap((r) => r.tool_output_differences)).toEqual([]);
    expect(episodes.every((e) => e.record.messages.some((m) => m.role === 'user' && (m as { tool_calls?: unknown[] }).tool_calls?.length))).toBe(true);
  }, 600_000);

  it('the faulty scripted trajectories, as one JSON Lines file with a task id per line', async () => {
    const store = RunStore.open(db);
    const loaded = loadDomain('airline');
    try {
      await storeScriptedRun({ store, runId: 'faulty', name: 'faulty', loaded, tasks: loaded.tasks, trials: 2, play: faultyAirlinePlay, createdAt: '2026-10-01T00:00:00Z' });
    } finally {
      store.close();
    }
    const episodes = stored('faulty');
    const file = path.join(dir, 'faulty.jsonl');
    fs.writeFileSync(file, episodes.map((e) => JSON.stringify({ task_id: e.record.task.id, messages: e.record.messages })).join('\n') + '\n');
    const { code, results, err } = await evaluate('airline', file);
    expect(code, err).toBe(0);
    expect(results.map((r) => r.source)).toEqual(episodes.map((_, i) => `${file}:${i + 1}`));
    results.forEach((r, i) => expect({ kind: 'task', ...r.evaluation }).toEqual(episodes[i].record.evaluation));
    expect(results.map((r) => r.evaluation!.reward)).toEqual([0, 1, 1, 0, 1, 1, 0, 1, 0, 1]);
  }, 120_000);
});

describe('evaluate -o and --fail-under (results for pipelines)', () => {
  // The faulty trajectories of the test above (trial-major order): rewards 0,1,1,0,1,1,0,1,0,1 — a mean of 0.6.
  it('writes one result per trajectory as JSON Lines, CSV and JUnit, trials numbered per task', async () => {
    const file = path.join(dir, 'faulty.jsonl');
    for (const ext of ['jsonl', 'csv', 'xml']) {
      const out = path.join(dir, 'results', `evaluate.${ext}`);
      const r = await runCli(['evaluate', file, '--domain', 'airline', '-o', out]);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toContain(`results of 10 episodes written to ${out}`);
      const text = fs.readFileSync(out, 'utf8');
      if (ext === 'jsonl') {
        const lines = text.trim().split('\n').map((l) => JSON.parse(l) as { task_id: string; trial: number; reward: number; status: string });
        expect(lines.map((l) => [l.task_id, l.trial, l.reward, l.status])).toEqual([
          ['T01', 0, 0, 'failed'], ['T02', 0, 1, 'passed'], ['T03', 0, 1, 'passed'], ['T15', 0, 0, 'failed'], ['T17', 0, 1, 'passed'],
          ['T01', 1, 1, 'passed'], ['T02', 1, 0, 'failed'], ['T03', 1, 1, 'passed'], ['T15', 1, 0, 'failed'], ['T17', 1, 1, 'passed'],
        ]);
      } else if (ext === 'csv') {
        const rows = text.trim().split('\r\n');
        expect(rows).toHaveLength(11);
        expect(rows[0].split(',').slice(0, 5)).toEqual(['task_id', 'trial', 'persona', 'termination', 'reward']);
      } else {
        expect(text).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
        expect(text).toContain('name="evaluate faulty.jsonl"');
        expect(text.match(/<testcase /g)).toHaveLength(10);
        expect(text.match(/<failure /g)).toHaveLength(4);
      }
    }
  }, 120_000);

  it('--fail-under: exit 0 at the mean, 1 above it with the reason, 2 for a bad value or results file (before any work)', async () => {
    const file = path.join(dir, 'faulty.jsonl');
    const atMean = await runCli(['evaluate', file, '--domain', 'airline', '--fail-under', '0.6']);
    expect(atMean.code).toBe(0);
    // The text report ends with a summary line, as validate's and rescore's do: the mean --fail-under compares.
    expect(atMean.out.trimEnd().split('\n').pop()).toBe('evaluate: reward 1 on 6/10 trajectories (reward mean 0.600, partial mean 73.5%), 0 not judged, 10/10 replayed as recorded');
    const low = await runCli(['evaluate', file, '--domain', 'airline', '--fail-under', '0.61', '--json']);
    expect(low.code).toBe(1);
    expect(low.err).toContain('--fail-under 0.61: reward mean 0.600 is below it');
    expect((JSON.parse(low.out) as unknown[]).length).toBe(10);
    const bad = await runCli(['evaluate', file, '--domain', 'airline', '--fail-under', '1.5']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--fail-under must be a reward from 0 to 1, got '1.5'");
    expect((await runCli(['evaluate', file, '--domain', 'airline', '-o', path.join(dir, 'results.txt')])).code).toBe(2);
    expect(fs.existsSync(path.join(dir, 'results.txt'))).toBe(false);
  }, 120_000);

  it('an unwritable results file is exit 2 before any trajectory is scored', async () => {
    const file = path.join(dir, 'faulty.jsonl');
    fs.writeFileSync(path.join(dir, 'a-file'), 'x');
    fs.mkdirSync(path.join(dir, 'a-folder.csv'), { recursive: true });
    for (const [out, why] of [
      [path.join(dir, 'a-file', 'sub', 'r.csv'), `${path.join(dir, 'a-file')} is a file, a folder was expected`],
      [path.join(dir, 'a-folder.csv'), 'it is a folder, a file was expected'],
    ]) {
      const r = await runCli(['evaluate', file, '--domain', 'airline', '-o', out]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`-o/--output: cannot write '${out}': ${why}`);
      expect(r.out).toBe(''); // nothing was scored
    }
  }, 120_000);
});

describe('evaluate reports what does not replay', () => {
  it('names a recorded tool output the fresh environment answers differently (exit 1)', async () => {
    const [e] = stored('faulty');
    const messages = structuredClone(e.record.messages);
    const tool = messages.findIndex((m) => m.role === 'tool');
    messages[tool].content = '{"user_id": "someone_else"}';
    const file = path.join(dir, 'tampered.json');
    fs.writeFileSync(file, JSON.stringify(messages));
    const { code, results } = await evaluate('airline', file, ['--task', e.record.task.id]);
    expect(code).toBe(1);
    const text = await runCli(['evaluate', file, '--domain', 'airline', '--task', e.record.task.id]);
    expect(text.out.trimEnd().split('\n').pop()).toMatch(/^evaluate: reward 1 on [01]\/1 trajectory \(reward mean [01]\.000, partial mean \d+\.\d%\), 0 not judged, 0\/1 replayed as recorded$/);
    expect(results[0].tool_output_differences).toEqual([
      { index: 0, tool_call_id: messages[tool].tool_call_id, recorded: '{"user_id": "someone_else"}', replayed: e.record.tool_calls[0].output },
    ]);
    expect({ kind: 'task', ...results[0].evaluation }).toEqual(e.record.evaluation);
  }, 60_000);

  it('says why a replay ended in agent_error: the recording ran out of assistant turns, two user messages in a row', async () => {
    const file = path.join(dir, 'two-user-messages.json');
    fs.writeFileSync(file, JSON.stringify([
      { role: 'assistant', content: 'Hi! How can I help you today?' },
      { role: 'user', content: 'Please move reservation 8KQ2ZD to 2026-10-21.' },
      { role: 'user', content: 'It is for Mia Lee.' },
      { role: 'assistant', content: 'Reservation 8KQ2ZD is basic economy, which cannot be changed.' },
      { role: 'user', content: 'Thanks. ###STOP###' },
    ]));
    const why = 'TrajectoryExhaustedError: the trajectory records 1 assistant message(s); the episode asked for another: messages[1] and messages[2] are two user messages in a row, and the replay gives the agent a turn after each user message (join them into one to replay the recording)';
    const { code, results } = await evaluate('airline', file, ['--task', 'T01']);
    expect(code).toBe(1);
    expect(results[0].termination).toBe('agent_error');
    expect(results[0].failure).toEqual({ by: 'agent', kind: 'internal', message: why });
    const text = await runCli(['evaluate', file, '--domain', 'airline', '--task', 'T01']);
    expect(text.out.split('\n')[0]).toBe(`${file} T01: agent_error (agent: ${why}), reward 0, partial 0% (not passed: identity_before_read=fail)`);
    // A run's own trajectory ended by its course carries no failure.
    const [e] = stored('faulty');
    const plain = path.join(dir, 'faulty-plain.json');
    fs.writeFileSync(plain, JSON.stringify(e.record.messages));
    expect((await evaluate('airline', plain, ['--task', e.record.task.id])).results[0].failure).toBeNull();
  }, 60_000);

  it('refuses -o naming the trajectory file it scores (exit 2, the file kept)', async () => {
    const [e] = stored('faulty');
    const file = path.join(dir, 'scored-in-place.jsonl');
    const text = `${JSON.stringify({ task_id: e.record.task.id, messages: e.record.messages })}\n`;
    fs.writeFileSync(file, text);
    const r = await runCli(['evaluate', file, '--domain', 'airline', '-o', file]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`servicegym: error: ${file}: -o/--output names the trajectory file being scored; writing there would destroy it: give another file\n`);
    expect(r.out).toBe('');
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });

  it('an unknown task id or persona is reported at the line that names it, or as the flag (exit 2)', async () => {
    const file = path.join(dir, 'unknown-task.jsonl');
    const messages = [{ role: 'user', content: 'hi' }];
    fs.writeFileSync(file, `${JSON.stringify({ task_id: 'T01', messages })}\n${JSON.stringify({ task_id: 'T99', messages })}\n`);
    const r = await runCli(['evaluate', file, '--domain', 'airline']);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`servicegym: error: ${file}:2 at $.task_id: unknown task id(s): T99 (the dataset has 5 tasks: T01, T02, T03, T15, T17)\n`);
    const bare = path.join(dir, 'no-task.jsonl');
    fs.writeFileSync(bare, `${JSON.stringify(messages)}\n`);
    const flag = await runCli(['evaluate', bare, '--domain', 'airline', '--task', 'T98']);
    expect(flag.code).toBe(2);
    expect(flag.err).toBe('servicegym: error: --task: unknown task id(s): T98 (the dataset has 5 tasks: T01, T02, T03, T15, T17)\n');
    // An unknown persona likewise.
    fs.writeFileSync(file, `${JSON.stringify({ task_id: 'T01', messages })}\n${JSON.stringify({ task_id: 'T01', persona: 'grumpy', messages })}\n`);
    const persona = await runCli(['evaluate', file, '--domain', 'airline']);
    expect(persona.code).toBe(2);
    expect(persona.err).toBe(`servicegym: error: ${file}:2 at $.persona: unknown persona(s): 'grumpy' (known: plain, impatient, vague, contradictory, off-policy; combine with '+')\n`);
    const personaFlag = await runCli(['evaluate', bare, '--domain', 'airline', '--task', 'T01', '--persona', 'grumpy']);
    expect(personaFlag.err).toBe("servicegym: error: --persona: unknown persona(s): 'grumpy' (known: plain, impatient, vague, contradictory, off-policy; combine with '+')\n");
  });

  it('refuses a malformed message naming the file, line and JSON path (exit 2)', async () => {
    const file = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(file, `${JSON.stringify({ task_id: 'T01', messages: [{ role: 'user', content: 'hi' }] })}\n${JSON.stringify([{ role: 'robot', content: 'x' }])}\n`);
    const r = await runCli(['evaluate', file, '--domain', 'airline']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${file}:2 at $[0].role`);
  });

  it('refuses a file with no trajectory (empty, or blank lines only) with exit 2: scoring nothing is not a pass', async () => {
    for (const [name, text] of [['empty.jsonl', ''], ['blank.jsonl', '\n  \n'], ['empty.json', '']] as const) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, text);
      for (const extra of [[], ['--json'], ['--fail-under', '0']]) {
        const r = await runCli(['evaluate', file, '--domain', 'airline', ...extra]);
        expect(r.code, `${name} ${extra.join(' ')}`).toBe(2);
        expect(r.err).toContain(`${file}: no trajectory`);
        expect(r.out).toBe('');
      }
    }
  });
});
