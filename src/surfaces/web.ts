/**
 * The web surface: the agent reaches a back-end only through a real browser (headless Chromium via
 * playwright-core), as support agents who work in a CRM console or a helpdesk do. There is no API
 * tool: the app's own XHR endpoints serve its pages only.
 *
 * What the agent gets (the field's browser-agent tools, Playwright MCP / BrowserGym style):
 * `browser_snapshot` (the page's accessibility outline with element refs, `web-snapshot.ts`),
 * `browser_click(ref)`, `browser_type(ref, text, submit?)`, `browser_select_option(ref, value)`,
 * `browser_press_key(key)` and `browser_navigate(url)` (the app's origin only). Every action
 * answers with the line of the element it acted on (`Acted on: - button "Save" [ref=e9]`) and the
 * page's snapshot after the page has settled. An action readies its element in one call into the
 * page (`web-target.ts`: visible, enabled, in view, not covered) and sends real mouse and keyboard
 * input (a drop-down's choice is set in the page, as playwright's `selectOption` does). The
 * observation mode is chosen per run:
 * `snapshot` (text only; surface `web`) or `snapshot+screenshot` (every answer also carries a JPEG
 * of the viewport as an `image_url` part, and a `browser_screenshot` tool; surface
 * `web-screenshot`).
 *
 * Per episode (`open`): the domain's app is started over the episode's state on 127.0.0.1 at an
 * ephemeral port, one isolated browser context is opened on the process's shared Chromium
 * (`browser-pool.ts`), requests to any other origin are refused, and the page opens at the app's
 * start path and is waited on until it has settled (see Settling), its reads recorded as the
 * harness's (requestor `system`, no cause); a start page that does not settle is loaded again,
 * then the episode fails to open (a harness error, not the agent's failure). `close` closes the
 * context and stops the server, always.
 *
 * Settling (`web-settle.ts`): after an action the surface waits, in the page and in the same call
 * that takes the snapshot, until the document has loaded and is not being left, no `fetch` or
 * XHR the page started is in flight and no element is `aria-busy="true"` (the app's loading
 * states); at most {@link SETTLE_TIMEOUT_MS} stretched by {@link loadFactor}, after which the
 * snapshot says the page was still loading.
 *
 * How an app plugs in: make the domain a `WebDomain` (`web-app.ts`) — its `tools` stay the
 * back-end operations; add `webApp: { name, create(backend) { return honoApp.fetch }, startPath }`.
 * Pages read `backend.state`; every read or write that is a back-end operation goes through
 * `await backend.act('operation', args)`, which records it with the browser action that caused
 * it. Give elements accessible names (labels, `aria-label`), mark pending requests with
 * `aria-busy="true"`, and show refusals in the page (`role="alert"`). Then run the domain with
 * `surface: getSurface('web')`; the oracle addresses elements by role and name (`findRef`).
 */
import os from 'node:os';
import { z } from 'zod';
import type { BrowserContext, Page } from 'playwright-core';
import type { ContentPart } from '../spec/content.js';
import type { Domain } from '../spec/domain.js';
import { BadInputError, SurfaceUnsupportedError } from '../spec/errors.js';
import type { Surface, SurfaceOpenContext } from '../spec/surface.js';
import { toolResult, ToolError, type ToolContext, type ToolDef } from '../spec/tool.js';
import { newEpisodeContext } from './browser-pool.js';
import { serveApp, webAppOf, type AppServer, type WebBackend, type WebFetch } from './web-app.js';
import { refLine } from '../util/snapshot-refs.js';
import { SNAPSHOT_SCRIPT, type PageSnapshot } from './web-snapshot.js';
import { OBSERVE_SCRIPT, PAGE_PROBE_SCRIPT } from './web-settle.js';
import { TARGET_SCRIPT, type TargetAnswer, type TargetKind } from './web-target.js';

/** What the agent observes after each action. */
export type WebObservation = 'snapshot' | 'snapshot+screenshot';

/** Longest wait for a page to settle after an action on an idle machine, in ms (see {@link loadFactor}). */
export const SETTLE_TIMEOUT_MS = 15_000;
/** Longest wait for an element to become actionable on an idle machine, in ms (see {@link loadFactor}). */
export const ACTION_TIMEOUT_MS = 15_000;
/** The most the waits are stretched under load. */
export const MAX_LOAD_FACTOR = 8;

/** Web episodes open in this process. */
let openEpisodes = 0;

/**
 * How much slower than idle the machine is likely to run a page's work now, between 1 and
 * {@link MAX_LOAD_FACTOR}: the 1-minute load average per core, or this process's own open
 * episodes per two cores when it is higher (the load average trails a burst of episodes by up to
 * a minute). The surface's waits are their idle value times this factor, so a busy machine makes
 * an episode slower rather than failing it at a fixed 15 s.
 */
export function loadFactor(): number {
  const cores = Math.max(1, os.availableParallelism());
  return Math.min(MAX_LOAD_FACTOR, Math.max(1, os.loadavg()[0] / cores, openEpisodes / (2 * cores)));
}

/** `ms` stretched by the current {@link loadFactor}. */
const scaled = (ms: number): number => Math.round(ms * loadFactor());

/**
 * The phases the web surface times: per episode `server` (the app server started), `context`
 * (browser context and page opened), `load` (the start page loaded); per browser action `action`
 * (the click, fill, key press or navigation itself), `settle` (the wait for the page to settle),
 * `snapshot` and `screenshot`.
 */
export type WebPhase = 'server' | 'context' | 'load' | 'action' | 'settle' | 'snapshot' | 'screenshot';

/** Runs `fn`, adding its wall time (ms) to `into`. */
async function timed<T>(into: number[], fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await fn();
  } finally {
    into.push(performance.now() - t0);
  }
}

/** One episode's browser: the app server, the context and page, and the browser action in progress. */
export class WebEpisode {
  /** The tool call whose doing app requests are (the latest one). */
  ctx: ToolContext<unknown> | null = null;
  /** The episode's ref counter (refs are never reused within an episode). */
  nextRef = 0;
  /** The latest snapshot's outline. */
  lastSnapshot = '';
  /** Set when the page's renderer crashed. */
  crashed = false;
  /** The first failure of the app itself (a handler that threw or answered 500), if any. */
  appFault: string | null = null;
  /** Where the episode's time went, in ms per occurrence (see {@link WebPhase}); read by `npm run bench`. */
  readonly timings: Record<WebPhase, number[]> = { server: [], context: [], load: [], action: [], settle: [], snapshot: [], screenshot: [] };

  constructor(
    readonly server: AppServer,
    readonly context: BrowserContext,
    readonly page: Page,
  ) {}

  get origin(): string {
    return this.server.origin;
  }

  /** Whether the browser side is gone (page closed or crashed, browser disconnected): the episode cannot go on. */
  get lost(): boolean {
    return this.crashed || this.page.isClosed() || !(this.context.browser()?.isConnected() ?? false);
  }
}

/** What an episode's app handlers share with the episode being opened. */
interface EpisodeHolder {
  episode?: WebEpisode;
  /** True while the surface opens the episode (its start page loads): no browser action is in progress yet. */
  opening: boolean;
}

/**
 * The back-end an episode's app sees: state and now from the episode; acts caused by the current
 * browser action, or while the episode opens by the harness (`SurfaceOpenContext.act`: the start
 * page's reads, requestor `system`). A request with neither is the harness's fault (noted as the
 * app's failure, so the next tool call ends the episode as a harness error), never a refusal the
 * page would show the agent as its own.
 */
function backendFor<S>(ctx: SurfaceOpenContext<S>, holder: EpisodeHolder): WebBackend<S> {
  return {
    state: ctx.state,
    now: ctx.now,
    act: async (name, args) => {
      const tc = holder.episode?.ctx;
      if (tc) return tc.act(name, args);
      if (holder.opening && ctx.act) return ctx.act(name, args);
      if (holder.episode) holder.episode.appFault ??= `the page called ${name} with no browser action in progress`;
      return { result: 'Error: no browser action in progress', error: true };
    },
  };
}

/**
 * The app's handler, noting on the episode a failure of the app itself: a handler that throws, or
 * a 500 answer (hono's answer to an uncaught error). The next tool call then ends the episode as
 * a harness error: a broken app is not the agent's failure.
 */
function guarded(fetch: WebFetch, holder: EpisodeHolder): WebFetch {
  const note = (req: Request, what: string) => {
    if (holder.episode) holder.episode.appFault ??= `${req.method} ${new URL(req.url).pathname} ${what}`;
  };
  return async (req) => {
    try {
      const res = await fetch(req);
      if (res.status === 500) note(req, 'answered 500');
      return res;
    } catch (e) {
      note(req, `threw ${(e as Error)?.message ?? String(e)}`);
      throw e;
    }
  };
}

/** Opens the episode (see the module doc). Rejects when Chromium is missing or the app fails to start. */
async function openEpisode<S>(ctx: SurfaceOpenContext<S>): Promise<WebEpisode> {
  const app = webAppOf(ctx.domain);
  if (!app) throw new BadInputError(`domain ${ctx.domain.name} has no web app (the web surface needs a domain with webApp)`);
  const holder: EpisodeHolder = { opening: true };
  const t0 = performance.now();
  const server = await serveApp(guarded(app.create(backendFor(ctx, holder)), holder));
  const t1 = performance.now();
  let context: BrowserContext | undefined;
  try {
    context = await newEpisodeContext({ viewport: app.viewport ?? { width: 1280, height: 800 } });
    context.setDefaultTimeout(scaled(ACTION_TIMEOUT_MS));
    await context.addInitScript(PAGE_PROBE_SCRIPT);
    const origin = server.origin;
    await context.route((url) => url.origin !== origin, (route) => route.abort('blockedbyclient'));
    const page = await context.newPage();
    const episode = new WebEpisode(server, context, page);
    episode.timings.server.push(t1 - t0);
    episode.timings.context.push(performance.now() - t1);
    holder.episode = episode;
    page.on('dialog', (d) => void d.dismiss().catch(() => undefined));
    page.on('crash', () => void (episode.crashed = true));
    await timed(episode.timings.load, () => loadStartPage(episode, origin + (app.startPath ?? '/')));
    openEpisodes++;
    return episode;
  } catch (e) {
    await context?.close().catch(() => undefined);
    await server.close();
    throw e;
  } finally {
    holder.opening = false;
  }
}

/** How many times the start page is loaded before the episode fails to open. */
export const START_PAGE_ATTEMPTS = 2;

/**
 * Loads the app's start page and waits until it has settled (`web-settle.ts`: loaded, not being
 * left, no request of the page in flight, no loading state), so the agent's first observation is
 * the page ready whatever the machine's load, and the page's reads happen while the episode
 * opens. A page that does not settle in time, or whose app failed meanwhile, is loaded again, up
 * to {@link START_PAGE_ATTEMPTS} times. Throws after the last attempt (the environment then fails
 * to open: a harness error, not the agent's failure), or at once when the browser side is gone.
 */
async function loadStartPage(ep: WebEpisode, url: string): Promise<void> {
  let why = '';
  for (let attempt = 1; attempt <= START_PAGE_ATTEMPTS; attempt++) {
    ep.appFault = null;
    try {
      await ep.page.goto(url, { waitUntil: 'load', timeout: scaled(SETTLE_TIMEOUT_MS * 2) });
      const settled = await settlePage(ep);
      if (settled && !ep.appFault) return;
      why = ep.appFault ? `the web app failed: ${ep.appFault}` : 'it was still loading when the wait ended';
    } catch (e) {
      if (ep.lost) throw e;
      why = (e as Error)?.message?.split('\n')[0] ?? String(e);
    }
  }
  throw new Error(`the start page ${shownUrl(ep, url)} did not load (${START_PAGE_ATTEMPTS} attempts; the last: ${why})`);
}

/**
 * Waits in the page until it has settled (see `web-settle.ts`), following a document that
 * replaces itself meanwhile; resolves to whether it settled within {@link SETTLE_TIMEOUT_MS}
 * stretched by {@link loadFactor}. Takes no snapshot (the episode's refs do not move).
 */
async function settlePage(ep: WebEpisode): Promise<boolean> {
  const deadline = Date.now() + scaled(SETTLE_TIMEOUT_MS);
  while (Date.now() < deadline) {
    try {
      const r = (await ep.page.evaluate(`(${OBSERVE_SCRIPT})(${Math.max(1, deadline - Date.now())}, 0, () => ({}))`)) as { settled: boolean };
      return r.settled;
    } catch (e) {
      if (ep.lost || !documentGone(e)) throw e;
      await ep.page.waitForLoadState('load', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
    }
  }
  return false;
}

/** Closes the episode's context (and its pages), then stops the app server. */
async function closeEpisode(resource: unknown): Promise<void> {
  const ep = resource as WebEpisode | undefined;
  if (!ep) return;
  openEpisodes = Math.max(0, openEpisodes - 1);
  try {
    await ep.context.close();
  } finally {
    await ep.server.close();
  }
}

/** Throws (a harness error) when the episode's app has failed (see {@link guarded}). */
function throwAppFault(ep: WebEpisode): void {
  if (ep.appFault) throw new Error(`the web app failed: ${ep.appFault}`);
}

/** A page's answer to {@link OBSERVE_SCRIPT}. */
type Observed = PageSnapshot & { settled: boolean; settleMs: number; snapshotMs: number };

/** Whether `e` is playwright's answer to an evaluation whose document went away (a navigation). */
const documentGone = (e: unknown): boolean => /Execution context was destroyed|navigat|Target page, context or browser has been closed/i.test(String((e as Error)?.message ?? e));

/**
 * Waits in the page until it has settled (see `web-settle.ts`) and takes the snapshot, in one
 * call; when the document is left meanwhile (a form's redirect), does it again on the next one.
 * The episode's refs move on. `settled` is false when the page did not settle in time (the wait
 * is {@link SETTLE_TIMEOUT_MS} stretched by {@link loadFactor}).
 */
async function observePage(ep: WebEpisode): Promise<Observed> {
  const t0 = performance.now();
  let deadline = Date.now() + scaled(SETTLE_TIMEOUT_MS);
  let tries = 0;
  for (;;) {
    const left = Math.max(1, deadline - Date.now());
    try {
      const snap = (await ep.page.evaluate(`(${OBSERVE_SCRIPT})(${left}, ${ep.nextRef}, ${SNAPSHOT_SCRIPT})`)) as Observed;
      ep.nextRef = snap.next;
      ep.lastSnapshot = snap.text;
      ep.timings.settle.push(performance.now() - t0 - snap.snapshotMs);
      ep.timings.snapshot.push(snap.snapshotMs);
      return snap;
    } catch (e) {
      if (ep.lost || !documentGone(e)) throw e;
      if (Date.now() >= deadline) {
        // out of time while documents kept replacing each other: once more, without waiting (not settled)
        if (tries++ > 0) throw new ToolError('the page did not settle in time (it kept navigating); take a browser_snapshot');
        deadline = Date.now() + 1;
        continue;
      }
      // the document was replaced: wait for the next one to load, then look again
      await ep.page.waitForLoadState('load', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
    }
  }
}

/** The URL as the agent sees it: a path on the app's origin. */
const shownUrl = (ep: WebEpisode, url: string): string => (url.startsWith(ep.origin) ? url.slice(ep.origin.length) || '/' : url);

/** The observation after an action: optional lead line, page title and URL, the outline; in screenshot mode a JPEG part too. */
async function observe(ep: WebEpisode, mode: WebObservation, lead: string[]): Promise<unknown> {
  const snap = await observePage(ep);
  throwAppFault(ep);
  const text = [...lead, `Page: ${snap.title}`, `URL: ${shownUrl(ep, snap.url)}`, ...(snap.settled ? [] : ['(the page is still loading)']), 'Snapshot:', snap.text].join('\n');
  if (mode === 'snapshot') return text;
  const jpeg = await timed(ep.timings.screenshot, () => ep.page.screenshot({ type: 'jpeg', quality: 60, timeout: scaled(SETTLE_TIMEOUT_MS) }));
  const parts: ContentPart[] = [{ type: 'text', text }, { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${jpeg.toString('base64')}` } }];
  return toolResult(parts);
}

/** The episode of a tool call, bound as the cause of the app requests that follow. */
function episodeOf(ctx: ToolContext<unknown>): WebEpisode {
  const ep = ctx.surface as WebEpisode | undefined;
  if (!(ep instanceof WebEpisode)) throw new Error('web surface tool called without an open browser episode');
  ep.ctx = ctx;
  return ep;
}

/** Longest wait for an element to become actionable on a settled page on an idle machine, in ms (Playwright MCP's default action timeout); see {@link loadFactor}. */
export const ACTIONABLE_WAIT_MS = 5_000;

/**
 * Readies the element of `ref` for an action in one call into the page (`web-target.ts`) and
 * answers it with the element's line in the latest snapshot. Throws ToolError for a malformed,
 * unknown or stale ref, an element that did not become actionable (naming why), a drop-down
 * without the wanted option (listing the options) or an element that is not a drop-down.
 */
async function target(ep: WebEpisode, ref: string, kind: TargetKind, arg = ''): Promise<{ answer: TargetAnswer & { ok: true }; line: string }> {
  if (!/^e\d+$/.test(ref)) throw new ToolError(`'${ref}' is not an element ref (refs look like e12; take a browser_snapshot)`);
  const stale = () => new ToolError(`element ${ref} is not on the current page (the page changed since that snapshot; use a ref from the latest snapshot)`);
  let answer: TargetAnswer;
  try {
    answer = (await ep.page.evaluate(`(${TARGET_SCRIPT})(${JSON.stringify(ref)}, ${JSON.stringify(kind)}, ${JSON.stringify(arg)}, ${scaled(ACTIONABLE_WAIT_MS)})`)) as TargetAnswer;
  } catch (e) {
    if (ep.lost || !documentGone(e)) throw e;
    throw stale();
  }
  if (answer.ok) return { answer, line: refLine(ep.lastSnapshot, ref) ?? `[ref=${ref}]` };
  if (answer.gone) throw stale();
  if (answer.notSelect) throw new ToolError('this element is not a drop-down; use browser_click for custom lists');
  if (answer.options) {
    const labels = answer.options.map((o) => JSON.stringify(o.label)).slice(0, 30).join(', ');
    throw new ToolError(`no option '${arg}'; the options are: ${labels}${answer.options.length > 30 ? ', ...' : ''}`);
  }
  throw new ToolError(`element ${ref} ${answer.reason ?? 'cannot be acted on'}`);
}

/**
 * Runs the input events of an action; their failure is a tool error the agent sees. When the
 * browser side is gone (crash, disconnect) or the app failed, it is a harness error that ends the
 * episode, not the agent's failure.
 */
async function attempt(ep: WebEpisode, what: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    if (ep.lost) throw e;
    throwAppFault(ep);
    const msg = (e as Error)?.message?.split('\n')[0] ?? String(e);
    throw new ToolError(`${what} failed: ${msg}`);
  }
}

/** Runs `fn` as the episode's action phase (timed; its tool errors and harness errors pass through). */
const acting = <T>(ep: WebEpisode, fn: () => Promise<T>): Promise<T> => timed(ep.timings.action, fn);

const refArg = z.string().max(20).describe('The element ref from the latest snapshot, e.g. e12.');
const elementArg = z.string().max(200).optional().describe('What the element is, in words (for the record; the ref decides).');

type WebTool = ToolDef<unknown>;

/** The browser tools for an observation mode (see the module doc). */
export function webTools(mode: WebObservation): WebTool[] {
  const tool = <A>(name: string, description: string, parameters: z.ZodType<A>, run: (args: A, ep: WebEpisode) => Promise<unknown>): WebTool => ({
    name,
    description,
    parameters,
    kind: 'write',
    requestor: 'assistant',
    records: 'self',
    invoke: (args: A, ctx) => run(args, episodeOf(ctx)),
  });
  const tools: WebTool[] = [
    tool('browser_snapshot', "Read the current page: its accessibility outline (role, name, value and state of every element; [ref=eN] marks elements you can act on).", z.strictObject({}), async (_a, ep) => observe(ep, mode, [])),
    tool('browser_click', 'Click an element (link, button, checkbox, option, tab ...) by its ref; answers with the page after the click.', z.strictObject({ ref: refArg, element: elementArg }), async ({ ref }, ep) => {
      const line = await acting(ep, async () => {
        const { answer, line } = await target(ep, ref, 'click');
        await attempt(ep, `click ${ref}`, () => ep.page.mouse.click(answer.x!, answer.y!));
        return line;
      });
      return observe(ep, mode, [`Acted on: ${line}`]);
    }),
    tool('browser_type', 'Type text into a text field by its ref (its current text is replaced); submit: press Enter afterwards.', z.strictObject({ ref: refArg, text: z.string().max(5000), submit: z.boolean().optional(), element: elementArg }), async ({ ref, text, submit }, ep) => {
      const line = await acting(ep, async () => {
        const { answer, line } = await target(ep, ref, 'fill', text);
        if (answer.needsInput) await attempt(ep, `type into ${ref}`, () => (text ? ep.page.keyboard.insertText(text) : ep.page.keyboard.press('Delete')));
        if (submit) await attempt(ep, `press Enter in ${ref}`, () => ep.page.keyboard.press('Enter'));
        return line;
      });
      return observe(ep, mode, [`Acted on: ${line}`]);
    }),
    tool('browser_select_option', 'Choose an option of a drop-down (combobox) by its ref; value is the option\'s label or value.', z.strictObject({ ref: refArg, value: z.string().max(500), element: elementArg }), async ({ ref, value }, ep) => {
      const { line } = await acting(ep, () => target(ep, ref, 'select', value));
      return observe(ep, mode, [`Acted on: ${line}`]);
    }),
    tool('browser_press_key', 'Press a key on the focused element, e.g. Enter, Escape, Tab, ArrowDown.', z.strictObject({ key: z.string().min(1).max(40) }), async ({ key }, ep) => {
      await acting(ep, () => attempt(ep, `press ${key}`, () => ep.page.keyboard.press(key)));
      return observe(ep, mode, [`Pressed: ${key}`]);
    }),
    tool('browser_navigate', "Open a URL of the app (a path such as /cases, or a full URL on the app's origin; other sites are blocked).", z.strictObject({ url: z.string().min(1).max(2000) }), async ({ url }, ep) => {
      let target: URL;
      try {
        target = new URL(url, ep.origin);
      } catch {
        throw new ToolError(`'${url}' is not a URL`);
      }
      if (target.origin !== ep.origin) throw new ToolError(`navigation to ${target.origin === 'null' ? `${target.protocol} URLs` : target.origin} is not allowed (only the app at ${ep.origin} is)`);
      await acting(ep, () => attempt(ep, `navigate to ${url}`, () => ep.page.goto(target.href, { waitUntil: 'load', timeout: scaled(SETTLE_TIMEOUT_MS * 2) })));
      return observe(ep, mode, [`Navigated to: ${shownUrl(ep, target.href)}`]);
    }),
  ];
  tools[0].kind = 'read';
  if (mode === 'snapshot+screenshot') {
    tools.push({ ...tool('browser_screenshot', 'See the current page as an image (with its outline).', z.strictObject({}), async (_a, ep) => observe(ep, mode, [])), kind: 'read' });
  }
  return tools;
}

/** The web surface for an observation mode; `name` is its registry name. */
export function createWebSurface(name: string, mode: WebObservation): Surface {
  const tools = webTools(mode);
  return {
    name,
    description: mode === 'snapshot' ? 'a real browser: accessibility snapshot with element refs; click, type, select, press key, navigate' : 'a real browser: accessibility snapshot with element refs plus a screenshot after every action; click, type, select, press key, navigate',
    browser: true,
    images: mode !== 'snapshot',
    tools: <S>(domain: Domain<S>): ToolDef<S>[] => {
      if (!webAppOf(domain)) throw new SurfaceUnsupportedError(domain.name, name, 'it has no web app');
      return tools as ToolDef<S>[];
    },
    open: (ctx) => openEpisode(ctx),
    close: (resource) => closeEpisode(resource),
  };
}

/** Surface `web`: snapshot observations. */
export const webSurface = createWebSurface('web', 'snapshot');
/** Surface `web-screenshot`: snapshot plus screenshot observations. */
export const webScreenshotSurface = createWebSurface('web-screenshot', 'snapshot+screenshot');
