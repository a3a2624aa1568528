import { describe, expect, it } from 'vitest';
import { actionComponent, goldActionMatches } from '../../src/evaluation/actions.js';
import { communicateComponent, communicatedAt } from '../../src/evaluation/communicate.js';
import { compareStates, dbComponent, restrictDiff } from '../../src/evaluation/db.js';
import { envAssertionComponent } from '../../src/evaluation/env-assertions.js';
import { replayGold } from '../../src/evaluation/gold.js';
import { actionLogFromToolCalls } from '../../src/env/action-log.js';
import { indexToolCalls } from '../../src/evaluation/trace-index.js';
import { plainStateOps } from '../../src/env/plain-state.js';
import { BadInputError } from '../../src/spec/errors.js';
import type { GoldAction } from '../../src/spec/task.js';
import type { ToolLogEntry } from '../../src/env/environment.js';
import { buildTrace, miniDomain, miniTask, miniStateOps } from '../support/mini-domain.js';

const cancelTask = miniTask({
  id: 'cancel_o1',
  evaluation_criteria: { actions: [{ action_id: 'a1', name: 'cancel_order', arguments: { order_id: 'O1', reason: 'no longer needed' } }] },
});

describe('DB component', () => {
  it('passes when the final state equals the gold replay', async () => {
    const trace = (await buildTrace([{ calls: [['cancel_order', { order_id: 'O1', reason: 'other words' }]] }]));
    const r = dbComponent(miniStateOps, (await replayGold(miniDomain, cancelTask)), trace.finalState);
    expect(r).toEqual({ score: 1, check: { id: 'tau2_db', kind: 'DB', verdict: 'pass', evidence: "final state equals the gold replay's", diff: [] } });
  });

  it('fails with the differing fields as evidence, and notes failed gold actions', async () => {
    const trace = (await buildTrace([{ calls: [['cancel_order', { order_id: 'O3', reason: 'x' }]] }]));
    const task = miniTask({
      id: 'cancel_o1_err',
      evaluation_criteria: {
        actions: [
          { action_id: 'a0', name: 'get_order', arguments: { order_id: 'O9' } },
          { action_id: 'a1', name: 'cancel_order', arguments: { order_id: 'O1', reason: 'r' } },
        ],
      },
    });
    const r = dbComponent(miniStateOps, (await replayGold(miniDomain, task)), trace.finalState);
    expect(r.score).toBe(0);
    expect(r.check.verdict).toBe('fail');
    expect(r.check.evidence).toBe(
      '4 field(s) differ from the gold replay: /orders/O1/status: gold "cancelled", episode "pending"; ' +
        '/orders/O3/status: gold "pending", episode "cancelled"; /accounts/A1/balance: gold 1234.5, episode 0; ' +
        '/accounts/A2/balance: gold 10, episode 109.99 (gold replay: a0 get_order failed: Error: Order O9 not found)',
    );
    expect(r.check.diff).toHaveLength(4);
  });

  it('restricts a comparison to JSON-pointer subtrees, narrowing diffs made higher up', async () => {
    const a = { orders: { O1: { status: 'pending', total: 1 } }, users: { U1: { name: 'x' } } };
    const b = { orders: { O1: { status: 'cancelled', total: 1 }, O2: { status: 'new', total: 2 } }, users: { U1: { name: 'y' } } };
    expect(compareStates(plainStateOps, a, b, ['/users']).diff).toEqual([{ path: '/users/U1/name', op: 'replace', before: 'x', after: 'y' }]);
    expect(compareStates(plainStateOps, a, b, ['/orders/O2/status'])).toEqual({
      equal: false,
      diff: [{ path: '/orders/O2/status', op: 'add', before: null, after: 'new' }],
    });
    expect(compareStates(plainStateOps, a, b, ['/orders/O1/total'])).toEqual({ equal: true, diff: [] });
    expect(compareStates(plainStateOps, a, a)).toEqual({ equal: true, diff: [] });
    // escaped pointer segments
    expect(restrictDiff([{ path: '/k~1v/x', op: 'replace', before: 1, after: 2 }], ['/k~1v'])).toHaveLength(1);
    expect(() => restrictDiff([], ['orders'])).toThrow(BadInputError);
  });
});

const entry = (name: string, args: unknown): ToolLogEntry => ({ step: 0, requestor: 'assistant', name, arguments: args, output: '', error: false, mutating: false });
const gold = (args: Record<string, unknown>, compare_args?: string[] | null): GoldAction => ({ action_id: 'g', requestor: 'assistant', name: 'cancel_order', arguments: args, compare_args });

describe('ACTION component (tau2 compare_with_tool_call)', () => {
  it('compares the call’s argument names when compare_args is null', async () => {
    expect(goldActionMatches(gold({ order_id: 'O1', reason: 'r' }), entry('cancel_order', { reason: 'r', order_id: 'O1' }))).toBe(true);
    // tau2 quirk: a gold argument the call omits is not compared …
    expect(goldActionMatches(gold({ order_id: 'O1', reason: 'r' }), entry('cancel_order', { order_id: 'O1' }))).toBe(true);
    // … while an extra call argument fails the match
    expect(goldActionMatches(gold({ order_id: 'O1' }), entry('cancel_order', { order_id: 'O1', reason: 'r' }))).toBe(false);
    expect(goldActionMatches(gold({ order_id: 'O1' }), entry('cancel_order', { order_id: 'O2' }))).toBe(false);
    expect(goldActionMatches(gold({ order_id: 'O1' }), entry('get_order', { order_id: 'O1' }))).toBe(false);
  });

  it('compares only compare_args when given ([] = name only), with JSON deep equality', async () => {
    expect(goldActionMatches(gold({ order_id: 'O1', reason: 'r' }, ['order_id']), entry('cancel_order', { order_id: 'O1', reason: 'other' }))).toBe(true);
    expect(goldActionMatches(gold({ order_id: 'O1' }, []), entry('cancel_order', 'not json'))).toBe(true);
    expect(goldActionMatches(gold({ order_id: 'O1' }, null), entry('cancel_order', 'not json'))).toBe(false);
    expect(goldActionMatches(gold({ order_id: 'O1', reason: 'r' }, ['order_id', 'reason']), entry('cancel_order', { order_id: 'O1' }))).toBe(false);
    expect(goldActionMatches(gold({ items: [{ a: 1, b: [2] }] }, ['items']), entry('cancel_order', { items: [{ b: [2], a: 1 }] }))).toBe(true);
    expect(goldActionMatches(gold({ items: [1, 2] }, ['items']), entry('cancel_order', { items: [2, 1] }))).toBe(false);
  });

  it('needs every gold action matched by some call, in any order', async () => {
    const trace = (await buildTrace([
      { calls: [['get_order', { order_id: 'O1' }]] },
      { calls: [['cancel_order', { order_id: 'O1', reason: 'no longer needed' }]] },
    ]));
    const calls = indexToolCalls(trace);
    const actions: GoldAction[] = [
      { action_id: 'a1', requestor: 'assistant', name: 'cancel_order', arguments: { order_id: 'O1', reason: 'no longer needed' } },
      { action_id: 'a2', requestor: 'assistant', name: 'get_order', arguments: { order_id: 'O1' } },
    ];
    expect(actionComponent(actions, calls)).toEqual({
      score: 1,
      check: { id: 'tau2_action', kind: 'ACTION', verdict: 'pass', evidence: '2/2 gold actions matched: a1 → #1, a2 → #0' },
    });
    const more = [...actions, { action_id: 'a3', requestor: 'assistant' as const, name: 'get_order', arguments: { order_id: 'O2' } }];
    expect(actionComponent(more, calls)).toEqual({
      score: 0,
      check: { id: 'tau2_action', kind: 'ACTION', verdict: 'fail', evidence: '2/3 gold actions matched; unmatched: a3 get_order {"order_id":"O2"}' },
    });
    expect(actionComponent(null, calls).check.evidence).toBe('no gold actions');
  });
});

describe('COMMUNICATE component', async () => {
  const trace = (await buildTrace([{ user: 'How much?' }, { agent: 'Your refund is $1,234.50, issued to Account A1.' }, { agent: 'Anything else?' }]));
  it('matches case-insensitively after stripping commas from the message', async () => {
    expect(communicatedAt('1234.50', trace.messages)).toBe(2);
    expect(communicatedAt('account a1', trace.messages)).toBe(2);
    expect(communicatedAt('1,234.50', trace.messages)).toBe(-1); // tau2 quirk: a comma in the string never matches
    expect(communicatedAt('How much', trace.messages)).toBe(-1); // user messages do not count
    expect(communicateComponent(['1234.50', 'else'], trace.messages)).toEqual({
      score: 1,
      check: { id: 'tau2_communicate', kind: 'COMMUNICATE', verdict: 'pass', evidence: 'communicated: "1234.50" in message 2; "else" in message 3' },
    });
  });
  it('fails naming what was not said; empty list passes', async () => {
    expect(communicateComponent(['1234.50', 'O1'], trace.messages).check).toEqual({
      id: 'tau2_communicate', kind: 'COMMUNICATE', verdict: 'fail', evidence: 'not communicated: "O1"; communicated: "1234.50" in message 2',
    });
    expect(communicateComponent([], trace.messages)).toEqual({ score: 1, check: { id: 'tau2_communicate', kind: 'COMMUNICATE', verdict: 'pass', evidence: 'nothing to communicate' } });
  });
});

describe('ENV_ASSERTION component', async () => {
  const trace = (await buildTrace([{ calls: [['cancel_order', { order_id: 'O1', reason: 'x' }]] }]));
  const assertion = (status: string, assert_value = true, func_name = 'assert_order_status') => ({ env_type: 'assistant' as const, func_name, arguments: { order_id: 'O1', status }, assert_value });
  it('calls the domain’s assertion functions and compares with assert_value', async () => {
    expect(envAssertionComponent(miniDomain, [assertion('cancelled'), assertion('pending', false)], trace.finalState)).toEqual({
      score: 1,
      check: {
        id: 'tau2_env_assertion', kind: 'ENV_ASSERTION', verdict: 'pass',
        evidence: 'assert_order_status {"order_id":"O1","status":"cancelled"} = true, expected true; assert_order_status {"order_id":"O1","status":"pending"} = false, expected false',
      },
    });
    expect(envAssertionComponent(miniDomain, [assertion('pending')], trace.finalState).check).toMatchObject({
      verdict: 'fail', evidence: 'assert_order_status {"order_id":"O1","status":"pending"} = false, expected true',
    });
  });
  it('reports an unknown assertion function as not supported (not judged)', async () => {
    expect(envAssertionComponent(miniDomain, [assertion('cancelled', true, 'assert_line_active')], trace.finalState)).toEqual({
      score: null,
      check: {
        id: 'tau2_env_assertion', kind: 'ENV_ASSERTION', verdict: 'not_judged',
        evidence: `assert_line_active {"order_id":"O1","status":"cancelled"}: not supported (domain 'mini' has no assertion function 'assert_line_active')`,
      },
    });
    expect(envAssertionComponent(miniDomain, null, trace.finalState).check.evidence).toBe('no env assertions');
  });
});

describe('tool-call index', () => {
  it('places each agent call at its message and leaves user-side calls unplaced', async () => {
    const trace = (await buildTrace([{ user: 'hi' }, { calls: [['get_order', { order_id: 'O1' }], ['get_order', { order_id: 'O2' }]] }, { userCall: ['reset_password', { account_id: 'A1' }] }, { calls: [['find_account', { email: 'x' }]] }]));
    expect(indexToolCalls(trace).map((c) => [c.step, c.entry.name, c.message, c.toolCallId])).toEqual([
      [0, 'get_order', 2, 'call_1'],
      [1, 'get_order', 2, 'call_2'],
      [2, 'reset_password', null, null],
      [3, 'find_account', 5, 'call_3'],
    ]);
  });
  it('rejects a trace whose messages and logs disagree', async () => {
    const trace = (await buildTrace([{ calls: [['get_order', { order_id: 'O1' }]] }]));
    const renamed = structuredClone(trace.messages);
    (renamed[1] as { tool_calls: { function: { name: string } }[] }).tool_calls[0].function.name = 'cancel_order';
    expect(() => actionLogFromToolCalls(renamed, trace.toolLog)).toThrow(
      'trace: tool call call_1 (cancel_order) in message 1 does not match tool log entry #0 (get_order)',
    );
    expect(() => actionLogFromToolCalls(trace.messages.slice(0, 1), trace.toolLog)).toThrow(
      'trace: tool log entry #0 (get_order) has no tool call in the messages',
    );
    // calls never executed at the end of the messages are ignored
    expect(actionLogFromToolCalls(trace.messages, [])).toEqual([]);
    // the legacy alignment gives the action log the environment records
    expect(actionLogFromToolCalls(trace.messages, trace.toolLog)).toEqual(trace.actionLog);
    // an action naming a message or a tool call the trajectory lacks is an inconsistent trace
    const cause = { message_index: 1, tool_call_id: 'call_9' };
    expect(() => indexToolCalls({ messages: trace.messages, actionLog: [{ ...trace.actionLog[0], cause }] })).toThrow(
      'trace: action #0 (get_order) names tool call call_9, which message 1 does not carry',
    );
    expect(() => indexToolCalls({ messages: trace.messages.slice(0, 1), actionLog: trace.actionLog })).toThrow(
      'trace: action #0 (get_order) names message 1, but the trajectory has 1 messages',
    );
  });
});
