/**
 * The pixel surface without a browser: both computer-use action vocabularies mapped onto the
 * canonical actions, malformed actions as tool errors, the image delivery of the LLM agent
 * (tool result or user message), the call-script PDF and its text extraction, the surface's
 * options, and the CRM's oracle script built from its layout.
 */
import { describe, expect, it } from 'vitest';
import { deliverImages } from '../../src/agents/llm-agent.js';
import { loadServicegymBank } from '../../src/domains/banking/index.js';
import { CALL_SHEETS, LAYOUT, callScriptDocument, centre } from '../../src/domains/banking/crm/index.js';
import { imagePart } from '../../src/spec/content.js';
import { BadInputError } from '../../src/spec/errors.js';
import type { ChatMessage } from '../../src/spec/messages.js';
import { ToolError } from '../../src/spec/tool.js';
import { surfaceWithOptions } from '../../src/surfaces/index.js';
import { keyCombination, normalizeAction } from '../../src/surfaces/pixel-actions.js';
import { pixelSurfaceFromOptions } from '../../src/surfaces/pixels.js';
import { extractPdfText, layOutDocument } from '../../src/surfaces/task-document.js';
import { tinyPng } from '../support/test-surface.js';

const SCREEN = { width: 1024, height: 768 };
const norm = (a: Record<string, unknown>) => normalizeAction(a as never, SCREEN);

describe('computer actions', () => {
  it('maps the OpenAI computer-use vocabulary', () => {
    expect(norm({ action: 'click', x: 10, y: 20, button: 'right' })).toEqual({ action: 'click', x: 10, y: 20, button: 'right', count: 1 });
    expect(norm({ action: 'double_click', x: 5, y: 6 })).toEqual({ action: 'click', x: 5, y: 6, button: 'left', count: 2 });
    expect(norm({ action: 'keypress', keys: ['CTRL', 'A'] })).toEqual({ action: 'key', keys: ['Control', 'a'] });
    expect(norm({ action: 'drag', path: [{ x: 1, y: 2 }, { x: 30, y: 40 }] })).toEqual({ action: 'drag', path: [{ x: 1, y: 2 }, { x: 30, y: 40 }] });
    expect(norm({ action: 'scroll', x: 100, y: 200, scroll_x: 0, scroll_y: 300 })).toEqual({ action: 'scroll', x: 100, y: 200, dx: 0, dy: 300 });
    expect(norm({ action: 'move', x: 1023, y: 767 })).toEqual({ action: 'move', x: 1023, y: 767 });
    expect(norm({ action: 'type', text: 'Berg' })).toEqual({ action: 'type', text: 'Berg' });
    expect(norm({ action: 'wait' })).toEqual({ action: 'wait', ms: 1000 });
    expect(norm({ action: 'screenshot' })).toEqual({ action: 'screenshot' });
  });

  it('maps the Anthropic computer tool vocabulary', () => {
    expect(norm({ action: 'left_click', coordinate: [300, 400] })).toEqual({ action: 'click', x: 300, y: 400, button: 'left', count: 1 });
    expect(norm({ action: 'right_click', coordinate: [3, 4] })).toMatchObject({ button: 'right', count: 1 });
    expect(norm({ action: 'triple_click', coordinate: [3, 4] })).toMatchObject({ button: 'left', count: 3 });
    expect(norm({ action: 'mouse_move', coordinate: [7, 8] })).toEqual({ action: 'move', x: 7, y: 8 });
    expect(norm({ action: 'left_click_drag', start_coordinate: [1, 1], coordinate: [9, 9] })).toEqual({ action: 'drag', path: [{ x: 1, y: 1 }, { x: 9, y: 9 }] });
    expect(norm({ action: 'key', text: 'ctrl+s' })).toEqual({ action: 'key', keys: ['Control', 's'] });
    expect(norm({ action: 'key', text: 'Return' })).toEqual({ action: 'key', keys: ['Enter'] });
    expect(norm({ action: 'key', text: 'F5' })).toEqual({ action: 'key', keys: ['F5'] });
    expect(norm({ action: 'scroll', coordinate: [50, 60], scroll_direction: 'down', scroll_amount: 2 })).toEqual({ action: 'scroll', x: 50, y: 60, dx: 0, dy: 200 });
    expect(norm({ action: 'wait', duration: 1.5 })).toEqual({ action: 'wait', ms: 1500 });
    expect(norm({ action: 'cursor_position' })).toEqual({ action: 'screenshot' });
  });

  it('names F-keys, Tab, Enter and Escape in both spellings', () => {
    expect(keyCombination(undefined, ['TAB'])).toEqual(['Tab']);
    expect(keyCombination('shift+Tab', undefined)).toEqual(['Shift', 'Tab']);
    expect(keyCombination(undefined, ['ESC'])).toEqual(['Escape']);
    expect(keyCombination('escape', undefined)).toEqual(['Escape']);
    expect(keyCombination(undefined, ['ENTER'])).toEqual(['Enter']);
    expect(keyCombination('f12', undefined)).toEqual(['F12']);
    expect(keyCombination('alt+F4', undefined)).toEqual(['Alt', 'F4']);
  });

  it('refuses malformed actions with a tool error the agent sees', () => {
    expect(() => norm({ action: 'click' })).toThrow(ToolError);
    expect(() => norm({ action: 'click', x: 1024, y: 10 })).toThrow(/off the 1024x768 screen/);
    expect(() => norm({ action: 'fly' })).toThrow(/unknown action 'fly'/);
    expect(() => norm({ action: 'key', keys: ['HYPER'] })).toThrow(/unknown key 'HYPER'/);
    expect(() => norm({ action: 'wait', ms: 60_000 })).toThrow(/wait must be/);
    expect(() => norm({ action: 'type' })).toThrow(/type needs text/);
    expect(() => norm({ action: 'scroll', scroll_direction: 'sideways' })).toThrow(/scroll_direction/);
  });
});

describe('image delivery to the model', () => {
  const img = imagePart(tinyPng(9), 'image/png');
  const messages: ChatMessage[] = [
    { role: 'system', content: 'sys' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'computer', arguments: '{"action":"screenshot"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'Screenshot. Screen 1024x768:' }, img] },
  ] as ChatMessage[];

  it('keeps images in the tool message by default', () => {
    expect(deliverImages(messages)).toEqual(messages);
  });

  it('moves them into a user message after the tool messages on request, leaving the trajectory unchanged', () => {
    const copy = structuredClone(messages);
    const out = deliverImages(messages, 'user_message');
    expect(messages).toEqual(copy);
    expect(out).toHaveLength(4);
    expect(out[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'Screenshot. Screen 1024x768:' }] });
    expect(out[3]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Image from tool call c1:' }, img] });
  });
});

describe('the call script PDF', () => {
  it('is a real PDF with fixed bytes whose extracted text holds the call sheet', async () => {
    const doc = callScriptDocument(CALL_SHEETS.T20);
    const a = await layOutDocument(doc);
    const b = await layOutDocument(doc);
    expect(Buffer.from(a.pdf.slice(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(Buffer.from(a.pdf).equals(Buffer.from(b.pdf))).toBe(true);
    const text = extractPdfText(a.pdf);
    expect(text).toContain('Call Script CS-14: Card and Address Service');
    expect(text).toContain('date of birth 1990-07-23; SSN last four 8712; ZIP code 55408');
    expect(text).toContain('waived ONLY when the customer tier is Premier');
    expect(text.replace(/\n/g, ' ')).toContain('1457 Grand Ave, Apt 2B, Saint Paul, MN 55105');
  });
});

describe('surface options and the oracle script', () => {
  it('builds a pixel surface from run options and refuses bad ones', () => {
    expect(surfaceWithOptions('pixels', { format: 'png', document: 'text' }).name).toBe('pixels');
    expect(() => pixelSurfaceFromOptions({ quality: '0' })).toThrow(BadInputError);
    expect(() => pixelSurfaceFromOptions({ colour: 'red' })).toThrow(/surface-option/);
    expect(() => surfaceWithOptions('api', { format: 'png' })).toThrow(/takes no options/);
  });

  it('fronts exactly T20 and C01-C04 of the banking tasks, with clicks at the layout centres', () => {
    const loaded = loadServicegymBank();
    const pixels = surfaceWithOptions('pixels');
    expect(loaded.tasks.filter((t) => pixels.fronts!(loaded.domain, t)).map((t) => t.id)).toEqual(['T20', 'C01', 'C02', 'C03', 'C04']);
    const t20 = loaded.tasks.find((t) => t.id === 'T20')!;
    const calls = pixels.oracle!(loaded.domain, t20);
    expect(calls[0]).toEqual({ name: 'read_document', arguments: {} });
    expect(calls.every((c) => c.name === 'computer' || c.name === 'read_document')).toBe(true);
    expect(calls).toContainEqual({ name: 'computer', arguments: { action: 'click', ...centre(LAYOUT.verifyBtn), button: 'left' } });
    expect(calls).toContainEqual({ name: 'computer', arguments: { action: 'type', text: '1457 Grand Ave' } });
    expect(calls).not.toContainEqual({ name: 'computer', arguments: { action: 'click', ...centre(LAYOUT.waiveFee), button: 'left' } });
  });
});
