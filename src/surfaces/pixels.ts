/**
 * The pixel surface: the agent reaches a back-end only through a GUI app streamed as screenshots
 * (architecture notes, "pixels: screenshot -> click(x, y) / type / key / scroll"). Two tools:
 *
 * - `computer`: one action per call (screenshot, click / double-click / right-click at (x, y),
 *   move, drag, type, key combinations with F-keys, Tab, Enter, Escape, scroll, wait), in either
 *   the OpenAI computer-use or the Anthropic computer tool vocabulary (see pixel-actions.ts); it
 *   answers with the frame after the action: a caption and one PNG or JPEG `image_url` part.
 * - `read_document`: the task's document (the call script) as PDF page images or as the text
 *   extracted from the PDF, chosen per run.
 *
 * The app comes from the domain (`pixelApp`, see pixel-app.ts); the stream's format, lossy
 * quality, frame latency and transition time are the surface's options, so a run picks them.
 */
import { z } from 'zod';
import { imagePart, type ContentPart } from '../spec/content.js';
import type { Domain } from '../spec/domain.js';
import { BadInputError, SurfaceUnsupportedError } from '../spec/errors.js';
import type { Surface, SurfaceCall, SurfaceOpenContext } from '../spec/surface.js';
import type { Task } from '../spec/task.js';
import { ToolError, toolResult, type ToolContext, type ToolDef } from '../spec/tool.js';
import { ComputerArgsSchema, describeAction, normalizeAction, type ComputerArgs } from './pixel-actions.js';
import { pixelAppOf, type PixelApp } from './pixel-app.js';
import { DEFAULT_STREAM, StreamSession, type StreamOptions } from './pixel-stream.js';
import { extractPdfText, layOutDocument, renderPages, type LaidOutDocument } from './task-document.js';

/** Options of a pixel surface (all chosen per run). */
export interface PixelSurfaceOptions extends StreamOptions {
  /** How `read_document` hands over the PDF: page images or extracted text. */
  documentAs: 'images' | 'text';
}

/** Defaults: {@link DEFAULT_STREAM}, the document as page images. */
export const DEFAULT_PIXEL_OPTIONS: PixelSurfaceOptions = { ...DEFAULT_STREAM, documentAs: 'images' };

/** The per-episode resource: the stream and the task's document. */
export interface PixelSession {
  stream: StreamSession;
  task?: Task;
  document: LaidOutDocument | null;
}

function appOrThrow(domain: Domain<any>): PixelApp {
  const app = pixelAppOf(domain);
  if (!app) throw new SurfaceUnsupportedError(domain.name, 'pixels', 'it has no GUI app');
  return app;
}

/** The caption of a frame: the screen size and what was done (nothing of the screen's content). */
function frameContent(session: PixelSession, done: string, frame: { bytes: Uint8Array; mime: 'image/png' | 'image/jpeg' }): ContentPart[] {
  const { width, height } = session.stream.app.screen;
  return [{ type: 'text', text: `${done}. Screen ${width}x${height}:` }, imagePart(frame.bytes, frame.mime)];
}

function computerTool(app: PixelApp): ToolDef<unknown, ComputerArgs> {
  const { width, height } = app.screen;
  return {
    name: 'computer',
    description: `Operate the ${app.name} desktop through a remote session: the screen is ${width}x${height} pixels, (0, 0) top-left. One action per call: screenshot; click, double_click or right_click at x, y; move; drag along a path; type text; key combinations such as "Tab", "Enter", "Escape", "F5", "ctrl+a"; scroll; wait (ms). Every call answers with the screen after the action. Screens take a moment to change: if a frame shows a busy screen, wait and take a screenshot.`,
    parameters: ComputerArgsSchema,
    kind: 'write',
    requestor: 'assistant',
    records: 'self',
    invoke: async (args, ctx: ToolContext<unknown>) => {
      const session = ctx.surface as PixelSession;
      const action = normalizeAction(args, app.screen);
      await session.stream.perform(action, ctx);
      const frame = await session.stream.frame();
      return toolResult(frameContent(session, action.action === 'screenshot' ? 'Screenshot' : `Done: ${describeAction(action)}`, frame));
    },
  };
}

function documentTool(opts: PixelSurfaceOptions): ToolDef<unknown, Record<string, never>> {
  return {
    name: 'read_document',
    description: `Read the document that came with this call (the call script, a PDF), as ${opts.documentAs === 'images' ? 'page images' : 'its text'}.`,
    parameters: z.strictObject({}),
    kind: 'read',
    requestor: 'assistant',
    records: 'self',
    invoke: async (_args, ctx: ToolContext<unknown>) => {
      const session = ctx.surface as PixelSession;
      const doc = session.document;
      if (!doc) throw new ToolError('no document came with this call');
      if (opts.documentAs === 'text') return `${doc.fileName} (${doc.pages.length} page${doc.pages.length === 1 ? '' : 's'}):\n${extractPdfText(doc.pdf)}`;
      const pages = await renderPages(doc);
      return toolResult(pages.flatMap((png, i): ContentPart[] => [{ type: 'text', text: `${doc.fileName}, page ${i + 1} of ${pages.length}:` }, imagePart(png, 'image/png')]));
    },
  };
}

/** A pixel surface with the given options (see the module doc). */
export function createPixelSurface(options: Partial<PixelSurfaceOptions> = {}): Surface {
  const opts: PixelSurfaceOptions = { ...DEFAULT_PIXEL_OPTIONS, ...options };
  if (!(opts.quality >= 1 && opts.quality <= 100)) throw new BadInputError(`JPEG quality must be 1..100, not ${opts.quality}`);
  if (!(opts.latencyMs >= 0) || !(opts.transitionMs >= 0)) throw new BadInputError('frame latency and transition time must be >= 0 ms');
  return {
    name: 'pixels',
    description: `screenshots only (${opts.format.toUpperCase()}, fixed resolution) of a GUI app streamed from a headless browser; the agent clicks, types and presses keys`,
    browser: true,
    images: true,
    tools: <S>(domain: Domain<S>): ToolDef<S>[] => {
      const app = appOrThrow(domain);
      return [computerTool(app), documentTool(opts)] as unknown as ToolDef<S>[];
    },
    open: async <S>(ctx: SurfaceOpenContext<S>): Promise<PixelSession> => {
      const app = appOrThrow(ctx.domain);
      if (ctx.task && !app.fronts(ctx.task)) throw new BadInputError(`${app.name} does not front task ${ctx.task.id}: run it on the API surface`);
      const docSpec = ctx.task ? app.document(ctx.task) : null;
      const document = docSpec ? await layOutDocument(docSpec) : null;
      const stream = await StreamSession.open(app, opts);
      return { stream, task: ctx.task, document };
    },
    close: async (resource) => {
      await (resource as PixelSession).stream.close();
    },
    fronts: <S>(domain: Domain<S>, task: Task): boolean => pixelAppOf(domain)?.fronts(task) ?? false,
    oracle: <S>(domain: Domain<S>, task: Task): SurfaceCall[] => {
      const app = appOrThrow(domain);
      const steps: SurfaceCall[] = app.document(task) ? [{ name: 'read_document', arguments: {} }] : [];
      return [...steps, ...app.oracle(task, { transitionMs: opts.transitionMs, state: domain.initialState() }).map((a) => ({ name: 'computer', arguments: a as Record<string, unknown> }))];
    },
  };
}

const OptionsSchema = z.strictObject({
  format: z.enum(['png', 'jpeg']).optional(),
  quality: z.coerce.number().int().min(1).max(100).optional(),
  latency_ms: z.coerce.number().min(0).optional(),
  transition_ms: z.coerce.number().min(0).optional(),
  document: z.enum(['images', 'text']).optional(),
});

/**
 * A pixel surface from run options given as strings (`--surface-option key=value`): `format`
 * (png | jpeg), `quality` (1..100), `latency_ms`, `transition_ms`, `document` (images | text).
 * Throws BadInputError naming the option that is unknown or invalid.
 */
export function pixelSurfaceFromOptions(options: Record<string, string>): Surface {
  const r = OptionsSchema.safeParse(options);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new BadInputError(`--surface-option ${issue.path.join('.') || String((issue as { keys?: string[] }).keys ?? '')}: ${issue.message} (pixel options: format, quality, latency_ms, transition_ms, document)`);
  }
  const o = r.data;
  return createPixelSurface({
    ...(o.format ? { format: o.format } : {}),
    ...(o.quality !== undefined ? { quality: o.quality } : {}),
    ...(o.latency_ms !== undefined ? { latencyMs: o.latency_ms } : {}),
    ...(o.transition_ms !== undefined ? { transitionMs: o.transition_ms } : {}),
    ...(o.document ? { documentAs: o.document } : {}),
  });
}

/** The registered pixel surface (default options). */
export const pixelsSurface: Surface = createPixelSurface();
