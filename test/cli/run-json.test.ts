/**
 * The `run --json` report written episode by episode in pieces (src/cli/run-end.ts writeRunJson)
 * is byte for byte `JSON.stringify(report, null, 2)` and a line break.
 */
import { describe, expect, it } from 'vitest';
import { episodeJsonText, writeRunJson } from '../../src/cli/run-end.js';

const head = { run_id: 'run-airline-1', name: 'run airline', tags: undefined, strict: false, summary: { tasks: 2, pass_hat_k: [{ k: 1, value: 0.5 }], terminations: {} }, usage: { agent: { calls: 3 } }, excluded_known_bad: [] };
const episodes: unknown[] = [
  { task_id: 'T01', trial: 0, termination: 'user_stop', evaluation: { reward: 1, checks: [{ name: 'db', passed: true, detail: 'line one\nline "two"\tand ünïcödé' }], db_diff: [], rubric: {}, receipts: [] }, infra_error: null },
  { task_id: 'T02', trial: 1, persona: 'vague', termination: 'max_steps', evaluation: null, infra_error: 'provider failed:\n503', kept: false },
  { task_id: 'T03', trial: 2, termination: 'agent_stop', evaluation: { nested: [[1, [2, { a: [] }]], {}], n: -0.5e-7, gone: undefined }, infra_error: null },
  {},
  null,
];

const written = (h: Record<string, unknown>, eps: readonly unknown[]) => {
  const pieces: Buffer[] = [];
  writeRunJson((t) => pieces.push(t), h, eps);
  return pieces;
};

describe('run --json report', () => {
  it('equals JSON.stringify of the whole report, with any number of episodes', () => {
    for (const n of [0, 1, 3, 5]) {
      const some = episodes.slice(0, n);
      expect(Buffer.concat(written(head, some)).toString('utf8')).toBe(`${JSON.stringify({ ...head, episodes: some }, null, 2)}\n`);
    }
    expect(Buffer.concat(written({}, episodes)).toString('utf8')).toBe(`${JSON.stringify({ episodes }, null, 2)}\n`);
  });

  it('takes episodes serialized ahead of time (as a run does while it waits on the model)', () => {
    const texts = new Map(episodes.map((e, i) => [e, i % 2 ? episodeJsonText(e) : Buffer.from(episodeJsonText(e))]));
    const pieces: Buffer[] = [];
    writeRunJson((t) => pieces.push(t), head, episodes, (e) => texts.get(e)!);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(`${JSON.stringify({ ...head, episodes }, null, 2)}\n`);
  });

  it('is written in pieces of about 64 KiB, never as one string', () => {
    const many = Array.from({ length: 400 }, (_, i) => ({ task_id: `T${i % 7}`, trial: i, evaluation: { checks: Array.from({ length: 20 }, (_, j) => ({ name: `check ${j}`, passed: j % 3 > 0 })) } }));
    const pieces = written(head, many);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(`${JSON.stringify({ ...head, episodes: many }, null, 2)}\n`);
    expect(pieces.length).toBeGreaterThan(10);
    expect(Math.max(...pieces.map((p) => p.byteLength))).toBeLessThan(2 * 64 * 1024);
  });
});
