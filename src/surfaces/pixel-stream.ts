/**
 * The streamed session of the pixel surface: a GUI app rendered headless in one isolated browser
 * context per episode, seen by the agent only as frames — fixed resolution, PNG or lossy JPEG,
 * a frame latency (the frame shows the screen `latencyMs` after the action, as a remote-desktop
 * stream lags), screen transitions that take time (the app's own busy screens), and a visible
 * cursor drawn into the frame. Nothing of the page's structure leaves this module: the agent's
 * observations are image bytes and a fixed caption.
 *
 * The app reaches the back-end only through `window.sgBackend(name, argsJson)`, which the
 * session forwards to the current tool call's `ctx.act`, so every read and write is in the
 * action log with the click or key that caused it. After each input the session waits until the
 * app has no back-end call in flight (`window.__sgPending`) and has painted, so the calls a click
 * causes always land inside that click's tool call.
 *
 * Capture (measured in `npm run bench`): one DevTools call per frame, `Page.captureScreenshot` of
 * the fixed screen's rectangle (device scale 1) encoded by Chromium itself as JPEG or PNG with
 * `optimizeForSpeed`, and the cursor an element of the page, so nothing is decoded or re-encoded
 * in Node. Playwright's `page.screenshot` costs four more round trips per frame (viewport size,
 * a prepare script in every frame, a wait for fonts, layout metrics, a restore script), which under
 * CPU contention dominated the capture time.
 */
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import type { ActionOutcome, ToolContext } from '../spec/tool.js';
import { newEpisodeContext } from './browser-pool.js';
import type { ComputerAction, Point } from './pixel-actions.js';
import type { PixelApp } from './pixel-app.js';

/** How frames are made. */
export interface StreamOptions {
  /** Image format of frames. */
  format: 'png' | 'jpeg';
  /** JPEG quality 1..100 (lossy compression); ignored for PNG. */
  quality: number;
  /** Frame latency (ms): how long after an action its frame is captured. */
  latencyMs: number;
  /** Screen transition time of the app (ms). */
  transitionMs: number;
  /** Called with every captured frame (benchmarks, reports); never sees the page. */
  onFrame?: (frame: Frame) => void;
}

/** Defaults: JPEG at quality 70, 120 ms latency, 250 ms transitions. */
export const DEFAULT_STREAM: StreamOptions = { format: 'jpeg', quality: 70, latencyMs: 120, transitionMs: 250 };

/** One captured frame. */
export interface Frame {
  bytes: Uint8Array;
  mime: 'image/png' | 'image/jpeg';
  /** Capture and encode time (ms). */
  captureMs: number;
}

/** Per-session measurements (for benchmarks and run reports). */
export interface StreamStats {
  frames: number;
  bytes: number;
  captureMs: number[];
}

/** Time the session waits for the app to settle before giving up (ms); generous, for loaded machines. */
const SETTLE_TIMEOUT_MS = 60_000;

const CURSOR_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="14" height="21" viewBox="0 0 14 21"><path d="M1 1 L1 17 L5 13 L8 20 L10.5 19 L7.5 12 L13 12 Z" fill="#fff" stroke="#000" stroke-width="1.2"/></svg>';

/** The page-side cursor layer: an arrow above everything, ignoring the mouse. */
function installCursor(svg: string): void {
  const el = document.createElement('div');
  el.id = '__sg_cursor';
  el.setAttribute('aria-hidden', 'true');
  el.style.cssText = 'position:fixed;left:0;top:0;width:14px;height:21px;z-index:2147483647;pointer-events:none;will-change:transform';
  el.innerHTML = svg;
  document.documentElement.appendChild(el);
}

/** A streamed app session (see the module doc). */
export class StreamSession {
  /** The tool call in progress, whose `act` the app's back-end calls go through. */
  current: ToolContext<unknown> | null = null;
  readonly stats: StreamStats = { frames: 0, bytes: 0, captureMs: [] };
  private cursor: Point;

  private constructor(
    readonly app: PixelApp,
    readonly options: StreamOptions,
    readonly context: BrowserContext,
    private readonly page: Page,
    private readonly devtools: CDPSession,
  ) {
    this.cursor = { x: Math.floor(app.screen.width / 2), y: Math.floor(app.screen.height / 2) };
  }

  /** Opens a context on the shared browser, loads the app and draws the cursor. Rejects when the browser is unavailable. */
  static async open(app: PixelApp, options: StreamOptions): Promise<StreamSession> {
    const context = await newEpisodeContext({ viewport: app.screen, deviceScaleFactor: 1 });
    try {
      const page = await context.newPage();
      const session = new StreamSession(app, options, context, page, await context.newCDPSession(page));
      await page.exposeBinding('sgBackend', (_src, name: string, argsJson: string) => session.backend(name, argsJson));
      const opts = `<script>window.__sgOptions=${JSON.stringify({ transitionMs: options.transitionMs })};</script>`;
      const html = app.html();
      await page.setContent(html.includes('<head>') ? html.replace('<head>', `<head>${opts}`) : opts + html, { waitUntil: 'load', timeout: SETTLE_TIMEOUT_MS });
      await page.evaluate(installCursor, CURSOR_SVG);
      await session.moveCursor(session.cursor);
      await session.settle();
      return session;
    } catch (e) {
      await context.close().catch(() => undefined);
      throw e;
    }
  }

  /** The app's back-end call: forwarded to the current tool call's `act` (an operation the app did not declare is refused). */
  private async backend(name: string, argsJson: string): Promise<ActionOutcome> {
    const ctx = this.current;
    if (!ctx) return { result: 'Error: the session is not accepting input', error: true };
    if (!this.app.operations.includes(name)) return { result: `Error: operation ${name} is not available`, error: true };
    let args: unknown;
    try {
      args = JSON.parse(argsJson);
    } catch {
      return { result: 'Error: malformed request', error: true };
    }
    return ctx.act(name, args);
  }

  private async moveCursor(p: Point): Promise<void> {
    this.cursor = p;
    await this.page.evaluate(([x, y]) => {
      const el = document.getElementById('__sg_cursor');
      if (el) el.style.transform = `translate(${x}px, ${y}px)`;
    }, [p.x, p.y]);
  }

  /** Waits until the app has no back-end call in flight and has painted (overdue timers run first). */
  private async settle(): Promise<void> {
    await this.page.waitForFunction(() => ((window as unknown as { __sgPending?: number }).__sgPending ?? 0) === 0, null, { timeout: SETTLE_TIMEOUT_MS, polling: 10 });
    await this.page.evaluate(() => new Promise<void>((r) => setTimeout(() => requestAnimationFrame(() => r()), 0)));
  }

  /** Performs one action with the given tool call as the cause of any back-end calls it makes. */
  async perform(action: ComputerAction, ctx: ToolContext<unknown>): Promise<void> {
    this.current = ctx;
    try {
      await this.input(action);
      await this.settle();
    } finally {
      this.current = null;
    }
  }

  private async input(a: ComputerAction): Promise<void> {
    const m = this.page.mouse;
    switch (a.action) {
      case 'click':
        await this.moveCursor(a);
        await m.click(a.x, a.y, { button: a.button, clickCount: a.count });
        return;
      case 'move':
        await this.moveCursor(a);
        await m.move(a.x, a.y);
        return;
      case 'drag': {
        await m.move(a.path[0].x, a.path[0].y);
        await m.down();
        for (const p of a.path.slice(1)) await m.move(p.x, p.y, { steps: 5 });
        await m.up();
        await this.moveCursor(a.path[a.path.length - 1]);
        return;
      }
      case 'type':
        await this.page.keyboard.type(a.text);
        return;
      case 'key':
        await this.page.keyboard.press(a.keys.join('+'));
        return;
      case 'scroll':
        await this.moveCursor(a);
        await m.move(a.x, a.y);
        await m.wheel(a.dx, a.dy);
        return;
      case 'wait':
        await new Promise((r) => setTimeout(r, a.ms));
        return;
      default:
        return;
    }
  }

  /** The frame `latencyMs` after now: the screen with the cursor, as PNG or JPEG bytes. */
  async frame(): Promise<Frame> {
    if (this.options.latencyMs > 0) await new Promise((r) => setTimeout(r, this.options.latencyMs));
    return this.capture();
  }

  /**
   * The screen's rectangle in the page: the app's fixed screen at the document's origin (a desktop
   * app's page never scrolls as a whole, see `PixelApp.html`). Always given: without a clip Chromium
   * captures the browser window's surface, whose size follows other pages of the context (the
   * document's page images).
   */
  private get screenClip() {
    return { x: 0, y: 0, width: this.app.screen.width, height: this.app.screen.height, scale: 1 };
  }

  /**
   * Captures and encodes the screen now (no latency): one `Page.captureScreenshot` of the
   * screen's rectangle, encoded by Chromium (see the module doc). `captureMs` is the wall time of that call
   * alone, the settle and latency waits excluded. Rejects when the page or browser is gone.
   */
  async capture(): Promise<Frame> {
    const t0 = performance.now();
    const jpeg = this.options.format === 'jpeg';
    const shot = await withTimeout(
      this.devtools.send('Page.captureScreenshot', { format: this.options.format, ...(jpeg ? { quality: this.options.quality } : {}), clip: this.screenClip, optimizeForSpeed: true, captureBeyondViewport: false }),
      SETTLE_TIMEOUT_MS,
      'frame capture',
    );
    const bytes = new Uint8Array(Buffer.from(shot.data, 'base64'));
    const captureMs = performance.now() - t0;
    this.stats.frames++;
    this.stats.bytes += bytes.length;
    this.stats.captureMs.push(captureMs);
    const frame: Frame = { bytes, mime: jpeg ? 'image/jpeg' : 'image/png', captureMs };
    this.options.onFrame?.(frame);
    return frame;
  }

  /** Closes the episode's browser context (and its page). */
  async close(): Promise<void> {
    await this.context.close();
  }
}

/** `p`, or a rejection naming `what` after `ms` (a hung browser must not hang the episode). */
async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
