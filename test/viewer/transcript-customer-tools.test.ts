/** Dual control in the viewer's transcript: the customer's own tool calls and outputs are marked as the customer's, and error flags come from each side's own log. */
import { describe, expect, it } from 'vitest';
import type { RunLogMessage, ToolCallRecord } from '../../src/spec/run-log.js';
import { buildTranscript } from '../../src/viewer/transcript.js';

describe("transcript with the customer's tool calls", () => {
  it('keeps requestor-user calls on the customer turn and marks their outputs; each side reads its own log', () => {
    const messages: RunLogMessage[] = [
      { role: 'system', content: 'p' },
      { role: 'user', content: 'No data since I landed.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a1', type: 'function', function: { name: 'set_data_roaming', arguments: '{"enabled":true}' } }] },
      { role: 'tool', tool_call_id: 'a1', content: 'Error: Tool set_data_roaming not found' },
      { role: 'assistant', content: 'Please turn Data roaming on.' },
      { role: 'user', content: '', requestor: 'user', tool_calls: [{ id: 'u1', type: 'function', function: { name: 'set_data_roaming', arguments: '{"enabled":true}' } }] },
      { role: 'tool', tool_call_id: 'u1', content: 'Data roaming is now on.', requestor: 'user' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a2', type: 'function', function: { name: 'get_line', arguments: '{"line_id":"L-77301"}' } }] },
      { role: 'tool', tool_call_id: 'a2', content: '{"line_id": "L-77301"}' },
    ];
    const entry = (step: number, requestor: 'assistant' | 'user', name: string, error: boolean): ToolCallRecord => ({ step, requestor, name, arguments: {}, output: '', error, mutating: false });
    const log = [entry(0, 'assistant', 'set_data_roaming', true), entry(1, 'user', 'set_data_roaming', false), entry(2, 'assistant', 'get_line', false)];
    const t = buildTranscript(messages, log);
    expect(t[5]).toEqual({ kind: 'customer', text: '', tool_calls: [{ id: 'u1', name: 'set_data_roaming', arguments: { enabled: true }, malformed: false }] });
    expect(t[6]).toEqual({ kind: 'tool', name: 'set_data_roaming', call_id: 'u1', output: 'Data roaming is now on.', error: false, requestor: 'user' });
    expect(t[3]).toMatchObject({ kind: 'tool', error: true });
    expect(t[3]).not.toHaveProperty('requestor');
    // the agent's later call reads the agent's log, not the customer's entry
    expect(t[8]).toEqual({ kind: 'tool', name: 'get_line', call_id: 'a2', output: '{"line_id": "L-77301"}', error: false });
  });
});
