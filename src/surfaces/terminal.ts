/**
 * The terminal surface: an agent reaches a back-end only by sending one command line at a time to
 * a command interpreter and reading the screen back — as GDS, mainframe and CLI-driven systems are
 * used. Generic over the interpreter; the surface adds what every terminal has: a fixed width
 * (long lines wrapped), a page of lines at a time with a continuation marker, and scroll entries
 * (`MD` down, `MU` up, `MT` top, `MB` bottom) that move through the last long display.
 */

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

/** Wraps every line of `text` to `width` columns (hard wrap; terminals do not hyphenate). */
export function wrapScreen(text: string, width: number): string[] {
  const out: string[] = [];
  for (const raw of text.replace(/\r/g, '').split('\n')) {
    const line = raw.replace(/\t/g, ' ');
    if (line.length === 0) out.push('');
    for (let i = 0; i < line.length; i += width) out.push(line.slice(i, i + width));
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
 * is not one. At either end of the display the screen says so, as terminals do.
 */
export function scroll(line: string, pager: PagerState, g: TerminalGeometry): string | null {
  const cmd = line.trim().toUpperCase();
  if (!['MD', 'MU', 'MT', 'MB'].includes(cmd)) return null;
  if (pager.lines.length === 0) return 'NOTHING TO SCROLL';
  const room = g.pageLines - 1;
  const last = Math.max(0, pager.lines.length - room);
  const next = cmd === 'MD' ? pager.top + room : cmd === 'MU' ? pager.top - room : cmd === 'MT' ? 0 : last;
  if (cmd === 'MD' && pager.top >= last) return 'NO MORE - END OF DISPLAY';
  if (cmd === 'MU' && pager.top === 0) return 'NO MORE - TOP OF DISPLAY';
  pager.top = Math.min(Math.max(0, next), last);
  return pageAt(pager.lines, pager.top, g);
}
