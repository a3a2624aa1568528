/**
 * The cross-side metric (dual control): an agent calling a device tool, a customer calling an
 * agent tool, and an agent telling the customer to use an agent tool are each counted; the
 * agent's own announcements and instructions naming device tools are not; solo mode allows the
 * agent both sets; domains without user tools have no such metric.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { crossSideUse } from '../../src/evaluation/cross-side.js';
import { summarizeRun } from '../../src/run/summary.js';
import type { Domain } from '../../src/spec/domain.js';

const tool = (name: string, requestor: 'assistant' | 'user') => ({ name, description: name, parameters: z.object({}), kind: 'write' as const, requestor, invoke: () => 'ok' });
const domain: Domain<unknown> = {
  name: 'dual',
  description: 'test',
  tools: [tool('enable_roaming', 'assistant'), tool('toggle_roaming', 'user')],
  initialState: () => ({}),
  outputStyle: { ensureAscii: true },
};
const entry = (requestor: 'assistant' | 'user', name: string) => ({ seq: 0, requestor, name, arguments: {}, result: '', error: true, mutating: false });

describe('cross-side tool use', () => {
  it('counts each kind once per occurrence and ignores what is allowed', () => {
    const trace = {
      actionLog: [entry('assistant', 'toggle_roaming'), entry('user', 'enable_roaming'), entry('user', 'toggle_roaming'), entry('assistant', 'enable_roaming')],
      messages: [
        { role: 'assistant' as const, content: 'Please run enable_roaming on your phone.' },
        { role: 'assistant' as const, content: 'I will call enable_roaming now. Shall I proceed?' },
        { role: 'assistant' as const, content: 'Please use toggle_roaming on your phone.' },
      ],
    };
    const r = crossSideUse(domain, trace)!;
    expect(r.events).toEqual([
      { kind: 'agent_called_user_tool', tool: 'toggle_roaming', at: 0 },
      { kind: 'user_called_agent_tool', tool: 'enable_roaming', at: 1 },
      { kind: 'agent_told_user_agent_tool', tool: 'enable_roaming', at: 0 },
    ]);
    expect(r.count).toBe(3);
    expect(crossSideUse({ ...domain, soloMode: true }, trace)!.count).toBe(2);
    expect(crossSideUse({ ...domain, tools: [tool('enable_roaming', 'assistant')] }, trace)).toBeNull();
  });

  it('the run summary reports episodes with any cross-side use', () => {
    const base = { termination: 'user_stop' as const, reward: 1, partial: 1, infraError: false, evaluationError: false };
    const s = summarizeRun([{ ...base, taskId: 'a', trial: 0, crossSide: 2 }, { ...base, taskId: 'b', trial: 0, crossSide: 0 }]);
    expect(s.crossSide).toEqual({ episodes: 1, measured: 2, uses: 2 });
    expect(summarizeRun([{ ...base, taskId: 'a', trial: 0, crossSide: 0 }]).crossSide).toBeUndefined();
  });
});
