/**
 * Per-turn timings in the run log: each agent and simulated-customer message gets the latency of
 * the model call that produced it; calls that produced no message and messages no call produced
 * are left out.
 */
import { describe, expect, it } from 'vitest';
import { turnTimings } from '../../src/run/turn-timings.js';
import type { Receipt } from '../../src/spec/receipt.js';
import type { RunLogMessage } from '../../src/spec/run-log.js';

const receipt = (kind: Receipt['kind'], message: Record<string, unknown>, seconds: number): Receipt =>
  ({ kind, provider: 'mock', endpoint: 'memory://', request: { model: 'm', messages: [] }, response: { id: 'x', model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', ...message } }] }, elapsed_seconds: seconds }) as Receipt;

const call = (id: string, name: string) => ({ id, type: 'function' as const, function: { name, arguments: '{}' } });

describe('turnTimings', () => {
  it('pairs each call with its message by tool-call ids or text; a control token does not matter; unmatched calls and scripted lines are left out', () => {
    const messages: RunLogMessage[] = [
      { role: 'system', content: 'policy' },
      { role: 'user', content: 'I want to cancel.' }, // the task's scripted opening line: no call
      { role: 'assistant', content: null, tool_calls: [call('c1', 'get_user_details')] },
      { role: 'tool', tool_call_id: 'c1', content: '{}' },
      { role: 'assistant', content: 'Which reservation?' },
      { role: 'user', content: '8KQ2ZD' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'Thanks ###STOP###' },
    ];
    const receipts = [
      receipt('task_agent', { content: null, tool_calls: [call('c1', 'get_user_details')] }, 1.25),
      receipt('task_agent', { content: 'Which reservation?' }, 0.5),
      receipt('user_simulator', { content: '8KQ2ZD' }, 0.75),
      receipt('task_agent', { content: '{"broken": ' }, 2), // malformed, retried: never shown to anyone
      receipt('task_agent', { content: 'Done.' }, 0.3333333333),
      receipt('user_simulator', { content: 'Thanks\n###STOP###' }, 0.2),
      receipt('llm_judge', { content: '{"met": true}' }, 4),
    ];
    expect(turnTimings(messages, receipts)).toEqual([
      { message_index: 2, role: 'assistant', latency_seconds: 1.25 },
      { message_index: 4, role: 'assistant', latency_seconds: 0.5 },
      { message_index: 5, role: 'user', latency_seconds: 0.75 },
      { message_index: 6, role: 'assistant', latency_seconds: 0.333333 },
      { message_index: 7, role: 'user', latency_seconds: 0.2 },
    ]);
  });

  it('matches identical replies in order, one message each', () => {
    const messages: RunLogMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'One moment.' },
      { role: 'user', content: 'ok' },
      { role: 'assistant', content: 'One moment.' },
    ];
    const receipts = [receipt('task_agent', { content: 'One moment.' }, 1), receipt('task_agent', { content: 'One moment.' }, 2)];
    expect(turnTimings(messages, receipts).map((t) => [t.message_index, t.latency_seconds])).toEqual([[1, 1], [3, 2]]);
  });
});
