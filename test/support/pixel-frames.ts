/**
 * Helpers for pixel-surface tests: the size and type of an image data URL (PNG IHDR or JPEG SOF
 * marker), the texts of the agent's observations (tool messages), and the visible text of a page.
 */
import type { ChatMessage } from '../../src/spec/messages.js';

/** `{mime, width, height}` of a `data:image/png|jpeg;base64,…` URL. Throws for anything else. */
export function imageSize(url: string): { mime: string; width: number; height: number } {
  const m = /^data:(image\/(?:png|jpeg));base64,(.*)$/.exec(url);
  if (!m) throw new Error(`not an image data URL: ${url.slice(0, 40)}`);
  const b = Buffer.from(m[2], 'base64');
  if (m[1] === 'image/png') return { mime: m[1], width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  for (let i = 2; i < b.length; ) {
    if (b[i] !== 0xff) throw new Error('malformed JPEG');
    const marker = b[i + 1];
    const len = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc3) return { mime: m[1], width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
    i += 2 + len;
  }
  throw new Error('JPEG without a frame header');
}

/** Every text the agent observed: the text parts (or string content) of the tool messages. */
export function observationTexts(messages: readonly ChatMessage[]): string[] {
  return messages.flatMap((m) => (m.role !== 'tool' ? [] : typeof m.content === 'string' ? [m.content] : (m.content ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : []))));
}

/** The visible text runs of a static page (4+ characters, scripts and styles removed). */
export function pageTexts(html: string): string[] {
  const body = html.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<style[\s\S]*?<\/style>/g, '');
  return [...new Set(body.split(/<[^>]*>/).map((s) => s.trim()).filter((s) => s.length >= 4))];
}
