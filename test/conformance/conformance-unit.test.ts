/**
 * The conformance machinery on the hand-made airline fixture (runs without ../shared): identical
 * replays pass; a differing output, error flag, diff entry or hash is reported with its place;
 * tasks with an initial state need a hook; diffs compare as multisets.
 */
import { describe, expect, it } from 'vitest';
import { compareDiffs, firstDifferingChar } from '../../src/conformance/compare.js';
import { taskLine } from '../../src/conformance/format.js';
import type { ReferenceLine } from '../../src/conformance/reference.js';
import { runConformance, type InitialStateHook } from '../../src/conformance/run.js';
import type { AirlineState } from '../../src/domains/airline/index.js';
import type { LoadedDomain } from '../../src/spec/domain.js';
import type { Task } from '../../src/spec/task.js';
import { fixtureDomain, fixtureEnv } from '../domains/airline/fixture.js';

const task = (id: string, extra: Partial<Task> = {}): Task => ({ id, user_scenario: { instructions: 'x' }, ...extra }) as Task;

function loaded(): LoadedDomain<AirlineState> {
  return {
    domain: fixtureDomain(),
    mode: 'tau2',
    policy: '',
    source: 'fixture',
    tasks: [
      task('a'),
      task('b', { initial_state: { initialization_actions: [{ env_type: 'assistant', func_name: 'x', arguments: {} }] } } as Partial<Task>),
      task('c', { initial_state: { initialization_data: { agent_data: { reservations: { RES001: { insurance: 'yes' } } } } } } as Partial<Task>),
    ],
  };
}

/** A reference line recorded from our own replay (so it matches by construction). */
async function recorded(taskId: string, calls: [string, Record<string, unknown>][]): Promise<ReferenceLine> {
  const { env, call } = fixtureEnv(loaded().domain);
  const initial = env.stateHash();
  const actions = [];
  for (const [name, args] of calls) {
    const r = await call(name, args);
    actions.push({ requestor: 'assistant' as const, name, arguments: args, output: r.output, error: r.error });
  }
  return { task_id: taskId, actions, diff: env.diff(), initial_db_hash: initial, final_db_hash: env.stateHash() };
}

const CALLS: [string, Record<string, unknown>][] = [
  ['get_flight_status', { flight_number: 'HAT904', date: '2024-05-21' }],
  ['cancel_reservation', { reservation_id: 'RES001' }],
  ['get_user_details', { user_id: 'nobody' }],
];

describe('conformance run', () => {
  it('an identical replay is ok', async () => {
    const report = (await runConformance({ loaded: loaded(), reference: [(await recorded('a', CALLS))] }));
    expect([report.identical, report.total]).toEqual([1, 1]);
    expect(taskLine(report.tasks[0])).toBe('task a: ok (3 actions)');
  });

  it('reports the first differing action and character, error flags, diff and hash mismatches', async () => {
    const ref = (await recorded('a', CALLS));
    ref.actions[1].output = ref.actions[1].output.replace('"cancelled"', '"canceled"');
    ref.actions[2].error = false;
    ref.diff = ref.diff.filter((d) => !d.path.endsWith('/status'));
    ref.final_db_hash = 'f'.repeat(64);
    const [t] = (await runConformance({ loaded: loaded(), reference: [ref] })).tasks;
    expect(t.ok).toBe(false);
    expect(t.actions.map((a) => a.ok)).toEqual([true, false, false]);
    const at = ref.actions[1].output.indexOf('"canceled"') + 7; // "cancel|ed vs "cancel|led
    expect(t.actions[1].firstDiff).toBe(at);
    expect(t.diff).toMatchObject({ ok: false, missing: [], extra: [{ path: '/reservations/RES001/status', op: 'replace', before: null, after: 'cancelled' }] });
    const line = taskLine(t);
    expect(line).toContain(`action 1 cancel_reservation: output differs at char ${at}`);
    expect(line).toContain('(+1 more actions differ)');
    expect(line).toContain('diff mismatch: 0 missing, 1 extra (first: extra replace /reservations/RES001/status)');
    expect(line).toContain('!= reference ffffffffffff');
  });

  it('accepts the evaluator-replay output where the live one differs', async () => {
    const ref = (await recorded('a', CALLS.slice(0, 1)));
    ref.actions[0] = { ...ref.actions[0], evaluator_replay_output: ref.actions[0].output, output: 'something else' };
    const [t] = (await runConformance({ loaded: loaded(), reference: [ref] })).tasks;
    expect(t.ok).toBe(true);
    expect(t.actions[0].matched).toBe('evaluator_replay_output');
  });

  it('an initial hash mismatch, an unknown task and a failing initialization action fail the task', async () => {
    const wrongInit = { ...(await recorded('a', [])), initial_db_hash: '0'.repeat(64) };
    const report = (await runConformance({ loaded: loaded(), reference: [wrongInit, (await recorded('zzz', [])), (await recorded('b', []))] }));
    expect(report.identical).toBe(0);
    expect(taskLine(report.tasks[0])).toContain('initial hash');
    expect(report.tasks[1].setupError).toBe('task zzz is not in the domain\'s tasks');
    expect(report.tasks[2].setupError).toBe("task b: initialization action 0 (x) failed: Error: Tool 'x' not found.");
  });

  it('initialization_data goes through the domain hook before the initial hash', async () => {
    const { env } = fixtureEnv(loaded().domain);
    env.state.mut('reservations', 'RES001').insurance = 'yes';
    const ref = { ...(await recorded('c', [])), initial_db_hash: env.stateHash(), final_db_hash: env.stateHash() };
    const [t] = (await runConformance({ loaded: loaded(), reference: [ref] })).tasks;
    expect(t.ok).toBe(true);
    expect(t.initialHash?.ok).toBe(true);
  });

  it('a custom initial-state hook prepares the start state', async () => {
    const hook: InitialStateHook<AirlineState> = (_task, pristine) => {
      const s = pristine.branch();
      s.mut('reservations', 'RES001').insurance = 'yes';
      return s;
    };
    const ref = (await recorded('b', []));
    ref.initial_db_hash = null;
    ref.final_db_hash = null;
    const [t] = (await runConformance({ loaded: loaded(), reference: [ref], initialState: hook })).tasks;
    expect(t.ok).toBe(true);
  });
});

describe('comparison helpers', () => {
  it('diffs compare as multisets, numbers by value (198.0 == 198)', async () => {
    const a = { path: '/x', op: 'replace' as const, before: 198.0, after: 0 };
    const b = { path: '/y', op: 'add' as const, before: null, after: { k: [1, 2] } };
    expect(compareDiffs([a, b], [b, a]).ok).toBe(true);
    expect(compareDiffs([a, a], [a]).missing).toEqual([a]);
    expect(compareDiffs([a], [a, b]).extra).toEqual([b]);
  });

  it('first differing character', async () => {
    expect(firstDifferingChar('abc', 'abc')).toBe(-1);
    expect(firstDifferingChar('abc', 'abd')).toBe(2);
    expect(firstDifferingChar('ab', 'abc')).toBe(2);
  });
});
