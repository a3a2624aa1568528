/**
 * The terminal surface: an agent reaches a back-end only by sending one command line at a time to
 * a command interpreter and reading the screen back — as GDS, mainframe and CLI-driven systems are
 * used. Generic over the interpreter; the surface adds what every terminal has: a fixed width
 * (long lines wrapped), a page of lines at a time with a continuation marker, and scroll entries
 * (`MD` down, `MU` up, `MT` top, `MB` bottom) that move through the last long display.
 *
 * How an interpreter plugs in: the domain offers it as `terminal` on the domain object
 * ({@link TerminalHost}, a {@link CommandInterpreter}: the tool's name and wording, the screen
 * geometry, and `run(line, ctx)` giving the display of one entry and recording the back-end actions
 * it performed). The surface gives the agent exactly one tool, {@link terminalTool}: one command
 * line in, one screen out. The domain lists the same tool among its own `tools` too, so `rescore`
 * runs a stored episode's entries again; its gold actions are either entries or, better, the
 * back-end operations the entries cause, with the oracle's entries from `oracle(task)`.
 */
import { z } from 'zod';
import type { Domain } from '../spec/domain.js';
import { SurfaceUnsupportedError } from '../spec/errors.js';
import type { Surface, SurfaceCall } from '../spec/surface.js';
import type { Task } from '../spec/task.js';
import type { ToolContext, ToolDef } from '../spec/tool.js';

/** Screen geometry. */
export interface TerminalGeometry {
  /** Columns per line (default 64). */
  width: number;
  /** Lines per page including the continuation marker (default 20). */
  pageLines: number;
}

/** The pager's state, kept per session. */
export interface PagerState {
  lines: string[];
  top: number;
}

/** The marker ending a page that has more below. */
export const MORE_MARKER = '‡ MORE - MD TO MOVE DOWN';

/** ANSI escape sequences (CSI, OSC and two-character escapes) a command's text may carry. */
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;
/** Control characters other than newline and tab (stripped: they take no column on a screen). */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Wraps every line of `text` to `width` columns (hard wrap; terminals do not hyphenate). ANSI
 * escapes and control characters are dropped and a tab is one space, so every column is a
 * character; lines are cut between code points, never inside a surrogate pair.
 */
export function wrapScreen(text: string, width: number): string[] {
  const out: string[] = [];
  for (const raw of text.replace(/\r/g, '').split('\n')) {
    const line = Array.from(raw.replace(/\t/g, ' ').replace(ANSI, '').replace(CONTROL, ''));
    if (line.length === 0) out.push('');
    for (let i = 0; i < line.length; i += width) out.push(line.slice(i, i + width).join(''));
  }
  return out;
}

/** The page at `top` of `lines`, with the continuation marker when more follows. */
function pageAt(lines: string[], top: number, g: TerminalGeometry): string {
  const room = g.pageLines - 1;
  const shown = lines.slice(top, top + room);
  return top + room < lines.length ? [...shown, MORE_MARKER].join('\n') : shown.join('\n');
}

/**
 * Renders interpreter output as a screen: wrapped to `width`, first page shown, the rest kept in
 * `pager` for the scroll entries. Returns the screen text.
 */
export function showScreen(output: string, pager: PagerState, g: TerminalGeometry): string {
  pager.lines = wrapScreen(output, g.width);
  pager.top = 0;
  return pageAt(pager.lines, 0, g);
}

/**
 * Handles a scroll entry (`MD`, `MU`, `MT`, `MB`) against the pager, or returns null when `line`
 * is not one. Pages are whole screens of `pageLines - 1` lines from the top, as a GDS pages a long
 * display: `MD` moves down by a full page and shows no line twice, so the last page may be
 * shorter; `MB` shows that last page and `MU` the page above. At either end of the display the
 * screen says so, as terminals do.
 */
export function scroll(line: string, pager: PagerState, g: TerminalGeometry): string | null {
  const cmd = line.trim().toUpperCase();
  if (!['MD', 'MU', 'MT', 'MB'].includes(cmd)) return null;
  if (pager.lines.length === 0) return 'NOTHING TO SCROLL';
  const room = g.pageLines - 1;
  const last = Math.floor((pager.lines.length - 1) / room) * room;
  const next = cmd === 'MD' ? pager.top + room : cmd === 'MU' ? pager.top - room : cmd === 'MT' ? 0 : last;
  if (cmd === 'MD' && pager.top >= last) return 'NO MORE - END OF DISPLAY';
  if (cmd === 'MU' && pager.top === 0) return 'NO MORE - TOP OF DISPLAY';
  pager.top = Math.min(Math.max(0, next), last);
  return pageAt(pager.lines, pager.top, g);
}

/** A command interpreter a domain offers the terminal surface (e.g. a GDS host). */
export interface CommandInterpreter<S = any> {
  /**
   * The agent's one tool: its name (e.g. `gds_command`), what it reaches (one or two sentences
   * naming the system and where its entries are documented; the surface adds the screen size and
   * paging), and example entries for the argument's description.
   */
  tool: { name: string; description: string; examples: readonly string[] };
  /** The screen: columns per line and lines per page. */
  geometry: TerminalGeometry;
  /** Longest entry the tool accepts, in characters (default 200). */
  maxLine?: number;
  /**
   * Runs one entry on the episode's state (`ctx.state`) and returns the display as plain text (the
   * surface wraps and pages it). Input the interpreter refuses is display text (`INVALID FORMAT`),
   * never a throw; the back-end actions an entry performs are recorded through `ctx.record` or
   * `ctx.act`. A throw is a harness error.
   */
  run(line: string, ctx: ToolContext<S>): string | Promise<string>;
  /**
   * The oracle's entries for `task` (one command line each, played in order), when the task's
   * gold actions are the back-end operations the entries cause rather than the entries themselves;
   * null or absent: the gold actions are entries of the tool and the oracle types them.
   */
  oracle?(task: Task): readonly string[] | null;
  /**
   * What a session would leave uncommitted if it ended now (changes a host throws away when the
   * terminal is left without committing them, e.g. a GDS sale never ended with `E`), as one line
   * for the person at the prompt; null when nothing is open. `servicegym terminal` warns with it
   * before scoring.
   */
  uncommitted?(state: S): string | null;
}

/** A domain object that offers a command interpreter. */
export interface TerminalHost<S> {
  terminal?: CommandInterpreter<S>;
}

/** The command interpreter a domain offers, or null. */
export function interpreterOf<S>(domain: Domain<S>): CommandInterpreter<S> | null {
  const t = (domain as Domain<S> & TerminalHost<S>).terminal;
  return t && typeof t.run === 'function' ? t : null;
}

/** The per-episode terminal session the surface opens: the pager over the last display. */
export interface TerminalSession {
  kind: 'terminal-session';
  pager: PagerState;
}

const isSession = (v: unknown): v is TerminalSession => (v as TerminalSession | undefined)?.kind === 'terminal-session';

/**
 * Pagers of episodes that run the terminal tool without the surface's session (the gold replay,
 * `rescore`, the API surface): one per episode state object.
 */
const detachedPagers = new WeakMap<object, PagerState>();

function pagerFor(ctx: ToolContext<unknown>): PagerState {
  if (isSession(ctx.surface)) return ctx.surface.pager;
  const key = ctx.state as object;
  let pager = detachedPagers.get(key);
  if (!pager) detachedPagers.set(key, (pager = { lines: [], top: 0 }));
  return pager;
}

/**
 * The terminal's one tool for `interp`: `{command}` (one entry, at most `maxLine` characters) in,
 * the screen out (`geometry.width` columns, `geometry.pageLines` lines with {@link MORE_MARKER}
 * when more follows). Scroll entries move through the last display; every other entry goes to the
 * interpreter. A self-recording tool (`records: 'self'`): the action log holds what the entries did
 * to the back-end, not the entries.
 */
export function terminalTool<S>(interp: CommandInterpreter<S>): ToolDef<S, { command: string }> {
  const made = toolsMade.get(interp);
  if (made) return made as ToolDef<S, { command: string }>;
  const tool = buildTerminalTool(interp);
  toolsMade.set(interp, tool as ToolDef<any, { command: string }>);
  return tool;
}

/** One tool object per interpreter: the domain's `tools` and the surface hand out the same one. */
const toolsMade = new WeakMap<CommandInterpreter<any>, ToolDef<any, { command: string }>>();

function buildTerminalTool<S>(interp: CommandInterpreter<S>): ToolDef<S, { command: string }> {
  const g = interp.geometry;
  const examples = interp.tool.examples.map((e) => `'${e}'`).join(' or ');
  return {
    name: interp.tool.name,
    description: `${interp.tool.description} The screen is ${g.width} columns wide and shows ${g.pageLines} lines; a longer display ends with '${MORE_MARKER}' and the entries MD, MU, MT and MB scroll down, up, to the top and to the bottom.`,
    parameters: z.strictObject({ command: z.string().max(interp.maxLine ?? 200).describe(`One terminal entry${examples ? `, for example ${examples}` : ''}.`) }),
    kind: 'write',
    requestor: 'assistant',
    records: 'self',
    invoke: async ({ command }, ctx) => {
      const pager = pagerFor(ctx as ToolContext<unknown>);
      const scrolled = scroll(command, pager, g);
      if (scrolled !== null) return scrolled;
      return showScreen(await interp.run(command, ctx), pager, g);
    },
  };
}

function interpreterOrThrow<S>(domain: Domain<S>): CommandInterpreter<S> {
  const interp = interpreterOf(domain);
  if (!interp) throw new SurfaceUnsupportedError(domain.name, 'terminal', 'it offers no command interpreter');
  return interp;
}

/**
 * The terminal surface (registry name `terminal`): the agent's only tool is the domain's
 * interpreter behind {@link terminalTool}; each episode opens a {@link TerminalSession}. The
 * oracle types the interpreter's script for the task ({@link CommandInterpreter.oracle}); without
 * one it plays the task's gold actions, entries of the same tool. Throws SurfaceUnsupportedError (a BadInputError) for a
 * domain that offers no interpreter.
 */
export const terminalSurface: Surface = {
  name: 'terminal',
  description: 'a fixed-width text terminal over a command interpreter: the agent sends one command line and reads the screen back',
  tools: <S>(domain: Domain<S>): ToolDef<S>[] => [terminalTool(interpreterOrThrow(domain)) as ToolDef<S>],
  open: <S>(ctx: { domain: Domain<S> }): TerminalSession => {
    interpreterOrThrow(ctx.domain);
    return { kind: 'terminal-session', pager: { lines: [], top: 0 } };
  },
  close: () => {},
  oracle: <S>(domain: Domain<S>, task: Task): SurfaceCall[] => {
    const interp = interpreterOrThrow(domain);
    const lines = interp.oracle?.(task);
    if (lines) return lines.map((command) => ({ name: interp.tool.name, arguments: { command } }));
    return (task.evaluation_criteria?.actions ?? []).filter((a) => a.requestor !== 'user').map((a) => ({ name: a.name, arguments: a.arguments }));
  },
};
