/**
 * The pixel stream's frames after the call script was read: rendering the document's page images
 * must not disturb the streamed screen (a page of another size closed in the session's own
 * context once reset the session page to the window's size, 816x969, cutting off the right of
 * every later frame). Frames stay the fixed 1024x768 screen, captured by one DevTools call each.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadServicegymBank } from '../../src/domains/banking/index.js';
import { createPixelSurface, type PixelSession } from '../../src/surfaces/pixels.js';
import { closeSharedBrowser } from '../../src/surfaces/browser-pool.js';
import type { ToolContext } from '../../src/spec/tool.js';
import { ToolResult } from '../../src/spec/tool.js';
import { imageSize } from '../support/pixel-frames.js';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';

const loaded = loadServicegymBank();
const task = loaded.tasks.find((t) => t.id === 'T20')!;

afterAll(async () => {
  await closeSharedBrowser();
});

describe.skipIf(lacks(CHROMIUM_NEED))(needing('pixel frames after the call script is read', CHROMIUM_NEED), () => {
  it('keep the session page at the fixed screen and every frame 1024x768', async () => {
    const surface = createPixelSurface({ format: 'png', latencyMs: 0 });
    const session = (await surface.open!({ domain: loaded.domain, state: loaded.domain.initialState(), now: loaded.now!, task })) as PixelSession;
    try {
      const page = session.stream.context.pages()[0];
      const screen = () => page.evaluate(() => [window.innerWidth, window.innerHeight]);
      expect(await screen()).toEqual([1024, 768]);
      const [computer, readDocument] = surface.tools(loaded.domain);
      const ctx = { state: null, now: loaded.now!, nextId: () => 'x', act: async () => ({ result: '', error: false }), record: () => undefined, surface: session } as unknown as ToolContext<any>;
      const doc = (await readDocument.invoke({}, ctx)) as ToolResult;
      const parts = doc.content as { type: string; image_url?: { url: string } }[];
      expect(imageSize(parts.find((p) => p.type === 'image_url')!.image_url!.url)).toEqual({ mime: 'image/png', width: 816, height: 1056 });
      // The document was rendered elsewhere: the session has its one page, still the fixed screen.
      expect(session.stream.context.pages()).toHaveLength(1);
      expect(await screen()).toEqual([1024, 768]);
      const shot = (await computer.invoke({ action: 'screenshot' }, ctx)) as ToolResult;
      const frame = (shot.content as { type: string; image_url?: { url: string } }[]).find((p) => p.type === 'image_url')!;
      expect(imageSize(frame.image_url!.url)).toEqual({ mime: 'image/png', width: 1024, height: 768 });
      expect(session.stream.stats.frames).toBe(1);
      expect(session.stream.stats.captureMs[0]).toBeGreaterThan(0);
    } finally {
      await surface.close!(session);
    }
  }, 300_000);
});
