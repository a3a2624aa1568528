/** The viewer's transcript of a run-log record: text of content parts, images as data URLs, tool errors from the tool calls. */
import { describe, expect, it } from 'vitest';
import { buildTranscript } from '../../src/viewer/transcript.js';
import { imagePart } from '../../src/spec/content.js';
import type { RunLogMessage, ToolCallRecord } from '../../src/spec/run-log.js';

describe('buildTranscript', () => {
  it('shows text parts as text and image parts as data URLs, and marks tool errors', () => {
    const shot = imagePart(new Uint8Array([137, 80, 78, 71]), 'image/png');
    const messages: RunLogMessage[] = [
      { role: 'system', content: 'policy' },
      { role: 'user', content: 'my screen:' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'screenshot', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'the console' }, shot] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'click', arguments: '{"x": 1' } }] },
      { role: 'tool', tool_call_id: 'c2', content: 'no such element' },
    ];
    const calls: ToolCallRecord[] = [
      { step: 0, requestor: 'assistant', name: 'screenshot', arguments: {}, output: [{ type: 'text', text: 'the console' }, shot], error: false, mutating: false },
      { step: 1, requestor: 'assistant', name: 'click', arguments: '{"x": 1', output: 'no such element', error: true, mutating: false },
    ];
    const t = buildTranscript(messages, calls, 'ProviderError: 503');
    expect(t).toEqual([
      { kind: 'system', text: 'policy' },
      { kind: 'customer', text: 'my screen:' },
      { kind: 'agent', text: '', tool_calls: [{ id: 'c1', name: 'screenshot', arguments: {}, malformed: false }] },
      { kind: 'tool', name: 'screenshot', call_id: 'c1', output: 'the console', error: false, images: ['data:image/png;base64,iVBORw=='] },
      { kind: 'agent', text: '', tool_calls: [{ id: 'c2', name: 'click', arguments: '{"x": 1', malformed: true }] },
      { kind: 'tool', name: 'click', call_id: 'c2', output: 'no such element', error: true },
      { kind: 'error', text: 'ProviderError: 503' },
    ]);
  });
});
