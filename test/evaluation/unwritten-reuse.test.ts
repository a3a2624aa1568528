/**
 * Episodes that changed nothing (the agent only read, or wrote nothing) end in an unwritten fork
 * of the task's start state: their comparisons with the gold replay are made once per task and
 * reused (issue 17: per-episode work done once per task), with evaluations identical to those
 * made afresh, and episodes that wrote are compared on their own.
 */
import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domains/index.js';
import { evaluateTask } from '../../src/evaluation/compose.js';
import { buildEnvironment } from '../../src/orchestrator/build.js';
import type { LoadedDomain } from '../../src/spec/domain.js';
import type { EpisodeTrace } from '../../src/evaluation/types.js';

const env = { now: '2026-10-20T12:00:00Z', idSeed: 'test' };

/** An episode of `task` that runs `calls` (agent tool calls) and ends with the customer stopping. */
async function episode(loaded: LoadedDomain<any>, taskId: string, calls: [string, Record<string, unknown>][]): Promise<EpisodeTrace> {
  const task = loaded.tasks.find((t) => t.id === taskId)!;
  const e = await buildEnvironment({ loaded, task, env });
  await e.open();
  const messages: EpisodeTrace['messages'] = [{ role: 'system', content: 'policy' }, { role: 'user', content: 'hi' }];
  for (const [i, [name, args]] of calls.entries()) {
    const tc = { id: `c${i}`, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } };
    messages.push({ role: 'assistant', content: null, tool_calls: [tc] });
    const entry = await e.execute(tc, 'assistant', { message_index: messages.length - 1 });
    messages.push({ role: 'tool', tool_call_id: tc.id, content: entry.output });
  }
  messages.push({ role: 'assistant', content: 'Anything else?' });
  await e.close();
  return { messages, actionLog: e.actionLog, termination: 'user_stop', finalState: e.state };
}

describe('comparisons of unwritten episodes with the gold replay', () => {
  it('are reused across a task\'s episodes, with the evaluation made afresh without reuse', async () => {
    const loaded = loadDomain('airline');
    const { unwrittenFork, ...withoutReuse } = loaded.domain.state!;
    expect(unwrittenFork).toBeTypeOf('function');
    const fresh = { ...loaded, domain: { ...loaded.domain, state: withoutReuse } } as LoadedDomain<any>;
    // Counts the comparisons the evaluator makes (its own domain object: its own gold replay).
    let compared = 0;
    const ops = loaded.domain.state!;
    const counting = { ...loaded, domain: { ...loaded.domain, state: { ...ops, equal: (a: unknown, b: unknown) => (compared++, ops.equal(a, b)), diff: (a: unknown, b: unknown) => (compared++, ops.diff(a, b)) } } } as LoadedDomain<any>;
    for (const taskId of ['T01', 'T02', 'T17']) {
      const task = loaded.tasks.find((t) => t.id === taskId)!;
      const reads = await episode(loaded, taskId, [['get_user_details', { user_id: 'raj_patel_118' }]]);
      const again = await episode(loaded, taskId, []);
      expect(unwrittenFork!(again.finalState, reads.finalState)).toBe(true);
      const first = await evaluateTask({ loaded: counting, task, trace: reads, env });
      const made = compared;
      expect(made).toBeGreaterThan(0);
      const second = await evaluateTask({ loaded: counting, task, trace: again, env });
      expect(compared).toBe(made);
      compared = 0;
      expect(first).toEqual(await evaluateTask({ loaded: fresh, task, trace: reads, env }));
      expect(second).toEqual(await evaluateTask({ loaded: fresh, task, trace: again, env }));
      // The same text as stored: same evidence, same diffs, same order.
      expect(JSON.stringify(second)).toBe(JSON.stringify(await evaluateTask({ loaded: fresh, task, trace: again, env })));
    }
  });

  it('are not reused for an episode that wrote, even a write of the same value', async () => {
    const loaded = loadDomain('airline');
    const task = loaded.tasks.find((t) => t.id === 'T02')!;
    const { unwrittenFork: _u, ...withoutReuse } = loaded.domain.state!;
    const fresh = { ...loaded, domain: { ...loaded.domain, state: withoutReuse } } as LoadedDomain<any>;
    await evaluateTask({ loaded, task, trace: await episode(loaded, 'T02', []), env });
    const wrote = await episode(loaded, 'T02', [['update_reservation_baggages', { reservation_id: 'Q7M4LT', total_baggages: 6, nonfree_baggages: 2, payment_id: 'gift_card_1180002' }]]);
    expect(wrote.actionLog.some((a) => a.mutating)).toBe(true);
    const start = (await episode(loaded, 'T02', [])).finalState;
    expect(loaded.domain.state!.unwrittenFork!(start, wrote.finalState)).toBe(false);
    const e = await evaluateTask({ loaded, task, trace: wrote, env });
    expect(e).toEqual(await evaluateTask({ loaded: fresh, task, trace: wrote, env }));
    expect(e.db_diff.length).toBeGreaterThan(0);
  });
});
