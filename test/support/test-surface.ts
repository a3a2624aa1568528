/**
 * A test surface over the mini domain: a "screen" the agent sees only as images and operates with
 * buttons, the shape of the web and pixel surfaces. Every tool is async; `screen` answers with a
 * caption and an image part (a generated PNG); `press` reaches the back-end through `ctx.act`, so
 * one press may cause several back-end actions; `crash` is a bug (it throws a plain Error).
 * Each episode holds a resource (a session object) that the surface opens and must close.
 */
import { deflateSync } from 'node:zlib';
import { z } from 'zod';
import { imagePart } from '../../src/spec/content.js';
import type { Domain } from '../../src/spec/domain.js';
import type { Surface } from '../../src/spec/surface.js';
import { ToolError, toolResult, type ToolDef } from '../../src/spec/tool.js';
import type { MiniState } from './mini-domain.js';

/** The per-episode resource: counts what happened to it. */
export interface ScreenSession {
  id: number;
  closed: boolean;
  presses: number;
}

/** Every session the surface opened, in order (tests read them to check closing). */
export const openedSessions: ScreenSession[] = [];

const tick = () => new Promise<void>((r) => setTimeout(r, 1));

/** A w×h grey-level PNG (8-bit greyscale) whose shade encodes `shade`: a real image, made without a library. */
export function tinyPng(shade: number, w = 4, h = 3): Uint8Array {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.concat(Array.from({ length: h }, () => Buffer.from([0, ...Array(w).fill(shade & 0xff)])));
  const png = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
  return new Uint8Array(png);
}

const screenTools: ToolDef<MiniState, any>[] = [
  {
    name: 'screen', description: 'Look at the order screen for an order id.', kind: 'read', requestor: 'assistant', records: 'self',
    parameters: z.object({ order_id: z.string() }),
    invoke: async ({ order_id }, ctx) => {
      await tick();
      const seen = await ctx.act('get_order', { order_id });
      if (seen.error) throw new ToolError(`no order ${order_id} on screen`);
      const status = JSON.parse(seen.result).status as string;
      return toolResult([{ type: 'text', text: `Order ${order_id}: ${status}` }, imagePart(tinyPng(status.length * 20), 'image/png')]);
    },
  },
  {
    name: 'press', description: 'Press a button on the order screen.', kind: 'write', requestor: 'assistant', records: 'self',
    parameters: z.object({ button: z.enum(['cancel']), order_id: z.string() }),
    invoke: async ({ order_id }, ctx) => {
      await tick();
      (ctx.surface as ScreenSession).presses++;
      // The app reads the order, then submits the cancellation: two back-end actions for one press.
      await ctx.act('get_order', { order_id });
      const done = await ctx.act('cancel_order', { order_id, reason: 'pressed cancel' });
      return done.error ? toolResult(`The screen shows: ${done.result}`, { error: true }) : 'The screen shows: cancelled';
    },
  },
  {
    name: 'crash', description: 'A button whose handler has a bug.', kind: 'read', requestor: 'assistant', records: 'self',
    parameters: z.object({}),
    invoke: async () => {
      await tick();
      throw new TypeError("Cannot read properties of undefined (reading 'rows')");
    },
  },
];

/** The test surface (see the module doc). */
export const testSurface: Surface = {
  name: 'test-screen',
  description: 'A button-and-screenshot surface over the mini domain, for contract tests.',
  tools: <S>(_domain: Domain<S>) => screenTools as unknown as ToolDef<S>[],
  open: async () => {
    await tick();
    const s: ScreenSession = { id: openedSessions.length + 1, closed: false, presses: 0 };
    openedSessions.push(s);
    return s;
  },
  close: async (resource) => {
    await tick();
    (resource as ScreenSession).closed = true;
  },
};
