/** One system message object per prompt text, frozen, so its JSON text is made once per process (issue 17). */
import { describe, expect, it } from 'vitest';
import { systemMessage } from '../../src/models/chat-model.js';
import { elementJson } from '../../src/util/json-text.js';
import { requestJson } from '../../src/models/transport.js';

describe('systemMessage', () => {
  it('gives the same frozen message for the same prompt text, and serialises as a fresh one does', () => {
    const prompt = ['# Policy', 'Confirm — always.'].join('\n');
    const m = systemMessage(prompt);
    expect(systemMessage(['# Policy', 'Confirm — always.'].join('\n'))).toBe(m);
    expect(systemMessage('other')).not.toBe(m);
    expect(Object.isFrozen(m)).toBe(true);
    expect(() => {
      (m as { content: unknown }).content = 'changed';
    }).toThrow(TypeError);
    expect(elementJson(m)).toBe(JSON.stringify({ role: 'system', content: prompt }));
    const request = { model: 'm', messages: [m, { role: 'user', content: 'hi' }] };
    expect(requestJson(request)).toBe(JSON.stringify({ model: 'm', messages: [{ role: 'system', content: prompt }, { role: 'user', content: 'hi' }] }));
  });
});
