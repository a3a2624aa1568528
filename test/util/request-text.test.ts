import { describe, expect, it } from 'vitest';
import { joinChunks, releaseJoined, requestBytes, requestChunks, requestParts } from '../../src/util/request-text.js';

const tool = (name: string) => ({ type: 'function', function: { name, description: `Does ${name} — "quoted", é`, parameters: { type: 'object', properties: { user_id: { type: 'string' } } } } });

describe('request text from parts serialized once', () => {
  it('is JSON.stringify of the request, as UTF-8, byte for byte, as the conversation grows', () => {
    const tools = [tool('get_user_details'), tool('cancel_reservation')];
    const messages: unknown[] = [{ role: 'system', content: 'Policy: "quotes", é, \u2028, \ud83d\ude00 and \\ back-slashes' }];
    for (let turn = 0; turn < 6; turn++) {
      const request = { model: 'm', messages: messages.slice(), tools: tools.slice(), temperature: 0, seed: undefined, tool_choice: null, fn: () => 1 };
      expect(requestBytes(request).equals(Buffer.from(JSON.stringify(request)))).toBe(true);
      const { chunks, size } = requestChunks(request);
      expect(Buffer.concat(chunks).equals(Buffer.from(JSON.stringify(request)))).toBe(true);
      expect(size).toBe(Buffer.byteLength(JSON.stringify(request)));
      messages.push(turn % 2 ? { role: 'assistant', content: null, tool_calls: [{ id: `c${turn}`, type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] } : { role: 'user', content: `turn ${turn} \ud800 lone` });
    }
    for (const odd of [{ model: 'm', messages: [1, 'two', null, undefined, [3], new Array(2)] }, { messages: [] }, { model: 'm', messages: 'not a list' }, [1, { a: 2 }], 'text', null, { messages: [], toJSON: () => 'x' }]) {
      expect(requestBytes(odd).toString('utf8')).toBe(JSON.stringify(odd) ?? 'null');
      expect(Buffer.concat(requestChunks(odd).chunks).toString('utf8')).toBe(JSON.stringify(odd) ?? 'null');
    }
  });

  it('gives one interned template for the same fields and tool objects, a fresh one when any differs', () => {
    const tools = [tool('a'), tool('b')];
    const first = requestParts({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: tools.slice(), temperature: 0 })!;
    const again = requestParts({ model: 'm', messages: [], tools: tools.slice(), temperature: 0 })!;
    expect(again.template).toBe(first.template);
    expect(first.template.text.slice(0, first.template.slot)).toBe('{"model":"m","messages":');
    expect(first.template.text.slice(first.template.slot)).toBe(`,"tools":${JSON.stringify(tools)},"temperature":0}`);
    // equal content in other objects: equal text, another entry
    const copies = requestParts({ model: 'm', messages: [], tools: structuredClone(tools), temperature: 0 })!;
    expect(copies.template.text).toBe(first.template.text);
    // a different tool list, model, temperature or key order: a different template
    const others = [
      { model: 'm', messages: [], tools: [tools[0]], temperature: 0 },
      { model: 'm', messages: [], tools: [tools[1], tools[0]], temperature: 0 },
      { model: 'n', messages: [], tools, temperature: 0 },
      { model: 'm', messages: [], tools, temperature: 0.5 },
      { messages: [], model: 'm', tools, temperature: 0 },
      { model: 'm', messages: [], tools },
    ];
    for (const r of others) {
      const parts = requestParts(r)!;
      expect(parts.template).not.toBe(first.template);
      expect(`${parts.template.text.slice(0, parts.template.slot)}[]${parts.template.text.slice(parts.template.slot)}`).toBe(JSON.stringify(r));
    }
  });

  it('joins pieces as Buffer.concat does, each body in a stretch no later body overwrites', () => {
    const piece = (n: number, fill: number) => Buffer.alloc(n, fill);
    const bodies: { got: Buffer; want: Buffer }[] = [];
    // 400 bodies of ~12 KB fill several slabs; one over 128 KiB is a buffer of its own
    for (let i = 0; i < 400; i++) {
      const chunks = [piece(5000 + (i % 13), i % 251), piece(7, 255 - (i % 200)), piece(7000 + i, (i * 7) % 256)];
      const size = chunks.reduce((n, c) => n + c.byteLength, 0);
      bodies.push({ got: joinChunks(chunks, size), want: Buffer.concat(chunks, size) });
    }
    const big = [piece(100_000, 1), piece(40_000, 2)];
    bodies.push({ got: joinChunks(big, 140_000), want: Buffer.concat(big) });
    const one = piece(10, 9);
    expect(joinChunks([one], 10)).toBe(one);
    for (const { got, want } of bodies) expect(got.equals(want)).toBe(true);
    // no two bodies share a byte
    const spans = bodies.map(({ got }) => ({ buf: got.buffer, from: got.byteOffset, to: got.byteOffset + got.byteLength })).sort((a, b) => a.from - b.from);
    for (let i = 1; i < spans.length; i++) for (let j = 0; j < i; j++) if (spans[j].buf === spans[i].buf) expect(spans[i].from >= spans[j].to || spans[j].from >= spans[i].to).toBe(true);
    expect(new Set(bodies.map(({ got }) => got.buffer)).size).toBeLessThan(20);
    // a size that is not the pieces' total is refused, not sent with stale bytes
    expect(() => joinChunks([piece(10, 1), piece(10, 2)], 30)).toThrow(RangeError);
    expect(() => joinChunks([piece(10, 1), piece(10, 2)], 15)).toThrow(RangeError);
  });

  it('writes a slab again only once every body cut from it is released, and never a body in use', () => {
    const body = (i: number) => {
      const chunks = [Buffer.alloc(6000, i % 256), Buffer.alloc(6500 + (i % 7), (i * 3) % 256)];
      const size = chunks.reduce((n, c) => n + c.byteLength, 0);
      return { got: joinChunks(chunks, size), want: Buffer.concat(chunks, size) };
    };
    const overlaps = (a: Buffer, b: Buffer) => a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
    // 250 bodies of ~12.5 KB span three 1 MiB slabs; all in use: 200 more (released at once) never overlap them
    const held = Array.from({ length: 250 }, (_, i) => body(i));
    for (let i = 0; i < 200; i++) {
      const b = body(1000 + i);
      expect(held.some((h) => overlaps(h.got, b.got))).toBe(false);
      releaseJoined(b.got);
    }
    for (const { got, want } of held) expect(got.equals(want)).toBe(true);
    // released twice counts once: the other bodies of a slab cut only for held bodies stay in use and intact
    // (~83 bodies fill a slab: body 125's slab holds no body of an earlier test, nor of the ones above)
    const first = held[125].got.buffer;
    const firstSlab = held.filter((b) => b.got.buffer === first);
    releaseJoined(firstSlab[0].got);
    releaseJoined(firstSlab[0].got);
    for (let i = 0; i < 300; i++) {
      const b = body(2000 + i);
      expect(b.got.buffer).not.toBe(first);
      releaseJoined(b.got);
    }
    for (const { got, want } of firstSlab.slice(1)) expect(got.equals(want)).toBe(true);
    // once every body of a slab is released, later bodies are cut from it again (no fresh megabyte)
    for (const b of held) releaseJoined(b.got);
    const later = Array.from({ length: 200 }, (_, i) => body(3000 + i));
    expect(later.some((b) => b.got.buffer === first)).toBe(true);
    for (const { got, want } of later) expect(got.equals(want)).toBe(true);
    // a body not cut from a slab (one piece, over 128 KiB) is ignored
    const one = Buffer.alloc(10, 1);
    releaseJoined(one);
    releaseJoined(joinChunks([Buffer.alloc(100_000, 1), Buffer.alloc(40_000, 2)], 140_000));
    expect(one.equals(Buffer.alloc(10, 1))).toBe(true);
  });
});
