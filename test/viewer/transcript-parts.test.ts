/** The viewer's transcript shows content parts: their text, and their images (data URLs only). */
import { describe, expect, it } from 'vitest';
import { buildTranscript } from '../../src/viewer/transcript.js';
import { imagePart } from '../../src/spec/content.js';
import { tinyPng } from '../support/test-surface.js';
import type { RunLogMessage, ToolCallRecord } from '../../src/spec/run-log.js';

describe('transcript with content parts', () => {
  it('keeps text parts as text and image parts as images; remote image URLs are dropped', () => {
    const shot = imagePart(tinyPng(40), 'image/png');
    const messages = [
      { role: 'system', content: 'p' },
      { role: 'user', content: [{ type: 'text', text: 'Here is my receipt' }, shot, { type: 'image_url', image_url: { url: 'https://example.com/x.png' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'screen', arguments: '{"order_id":"O1"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'Order O1: pending' }, shot] },
    ];
    const t = buildTranscript(messages as RunLogMessage[], [{ requestor: 'assistant', name: 'screen', error: false } as ToolCallRecord]);
    expect(t[1]).toEqual({ kind: 'customer', text: 'Here is my receipt', images: [shot.image_url.url] });
    expect(t[3]).toEqual({ kind: 'tool', name: 'screen', call_id: 'c1', output: 'Order O1: pending', error: false, images: [shot.image_url.url] });
  });
});
