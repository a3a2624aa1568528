/**
 * The steps of a web-surface episode, read from its transcript: for every browser tool call of
 * the agent, the action in words, the excerpt of the snapshot the agent acted on (the lines
 * around the element ref it used, in the page it had last been shown), the page it led to (title,
 * URL, the screenshot when the run took screenshots), whether the tool answered with an error,
 * and the back-end writes the call caused (a click that submitted a form).
 */
import type { ToolCallView, TranscriptEntry } from '../../src/viewer/types.js';

/** Lines shown on either side of the line of the element acted on. */
export const EXCERPT_CONTEXT = 3;

/** One browser step. */
export interface WebStep {
  /** Index of the tool entry (the call's answer) in the transcript. */
  turn: number;
  call: ToolCallView;
  /** The action in words, e.g. `click button "Save" (e41)`. */
  action: string;
  /** Snapshot lines around the element ref (in the page acted on); `focus` is the index of the ref's line. Null for actions without a ref. */
  excerpt: { lines: string[]; focus: number } | null;
  /** The page after the action (title, URL), as the answer states it. */
  page: string | null;
  url: string | null;
  /** The screenshot of the page after the action (`data:image/…`), when the run took screenshots. */
  screenshot: string | null;
  error: boolean;
  /** The tool's answer (the error text on an error). */
  output: string;
  /** The back-end writes the call caused (`operation {json args}`). */
  writes: string[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The action of a browser tool call in words. */
export function actionText(call: ToolCallView): string {
  const a = (call.arguments && typeof call.arguments === 'object' ? call.arguments : {}) as Record<string, unknown>;
  const ref = str(a.ref);
  const target = ref ? `${str(a.element) ?? 'element'} (${ref})` : '';
  switch (call.name) {
    case 'browser_click':
      return `click ${target}`;
    case 'browser_type':
      return `type ${JSON.stringify(str(a.text) ?? '')} into ${target}${a.submit === true ? ', then Enter' : ''}`;
    case 'browser_select_option':
      return `select ${JSON.stringify(str(a.value) ?? '')} in ${target}`;
    case 'browser_press_key':
      return `press ${str(a.key) ?? '?'}`;
    case 'browser_navigate':
      return `navigate to ${str(a.url) ?? '?'}`;
    case 'browser_snapshot':
      return 'read the page (snapshot)';
    case 'browser_screenshot':
      return 'look at the page (screenshot)';
    default:
      return `${call.name} ${typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)}`;
  }
}

/** The outline part of a tool answer (after its `Snapshot:` line), one node per line. */
function outlineOf(output: string): string[] {
  const lines = output.split('\n');
  const at = lines.indexOf('Snapshot:');
  return at >= 0 ? lines.slice(at + 1) : lines;
}

/** The lines around `ref` in a snapshot answer; null when the snapshot does not show it. */
export function excerptAround(snapshot: string, ref: string, context = EXCERPT_CONTEXT): { lines: string[]; focus: number } | null {
  const lines = outlineOf(snapshot);
  const i = lines.findIndex((l) => l.includes(`[ref=${ref}]`));
  if (i < 0) return null;
  const from = Math.max(0, i - context);
  return { lines: lines.slice(from, i + context + 1), focus: i - from };
}

/** A header line (`Page: …`, `URL: …`) of a tool answer. */
const header = (output: string, key: string): string | null => output.split('\n', 8).find((l) => l.startsWith(`${key}: `))?.slice(key.length + 2) ?? null;

/** The browser steps of a transcript (see the module doc); `writes` maps tool call ids to the writes they caused. */
export function webSteps(entries: readonly TranscriptEntry[], writes: Readonly<Record<string, string[]>> = {}): WebStep[] {
  const calls = new Map<string, ToolCallView>();
  const steps: WebStep[] = [];
  let seen = '';
  entries.forEach((e, turn) => {
    if (e.kind === 'agent') for (const c of e.tool_calls) calls.set(c.id, c);
    if (e.kind !== 'tool' || e.requestor === 'user') return;
    const call = calls.get(e.call_id) ?? { id: e.call_id, name: e.name, arguments: {}, malformed: false };
    const ref = str((call.arguments as Record<string, unknown> | null)?.ref);
    steps.push({
      turn,
      call,
      action: actionText(call),
      excerpt: ref ? excerptAround(seen, ref) : null,
      page: e.error ? null : header(e.output, 'Page'),
      url: e.error ? null : header(e.output, 'URL'),
      screenshot: e.images?.[e.images.length - 1] ?? null,
      error: e.error,
      output: e.output,
      writes: writes[e.call_id] ?? [],
    });
    if (!e.error) seen = e.output;
  });
  return steps;
}
