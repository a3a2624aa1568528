/**
 * Colour on the terminal, honouring the NO_COLOR convention (https://no-color.org): colour only
 * when the stream is a terminal and `NO_COLOR` is unset or empty; `FORCE_COLOR` (non-empty, not
 * `0`) turns it on for a pipe, but `NO_COLOR` still wins. Table widths ignore the escapes
 * (`string-width` strips them).
 */

/** Whether to colour text written to `stream`. */
export function colourEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}

/** Paints with ANSI SGR codes when `on`, else returns the text unchanged. */
export interface Painter {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
}

const sgr = (on: boolean, open: number, close: number) => (s: string) => (on && s ? `\u001b[${open}m${s}\u001b[${close}m` : s);

/** A painter for `stream` (stdout by default). */
export function painter(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): Painter {
  const on = colourEnabled(stream, env);
  return { red: sgr(on, 31, 39), green: sgr(on, 32, 39), yellow: sgr(on, 33, 39), dim: sgr(on, 2, 22) };
}
