/**
 * Terminal output helpers: aligned tables (CJK-aware widths), and the stderr progress logger.
 * Results go to stdout, progress and diagnostics to stderr.
 */
import { createRequire } from 'node:module';

let wide: ((s: string) => number) | undefined;
/**
 * Terminal columns of `s`: its length when it is printable ASCII, else string-width's count
 * (CJK, emoji, colour codes); string-width is loaded on first need, so commands start without it.
 */
function stringWidth(s: string): number {
  if (/^[\x20-\x7e]*$/.test(s)) return s.length;
  wide ??= (createRequire(import.meta.url)('string-width') as { default: (s: string) => number }).default;
  return wide(s);
}

/** Renders rows as left-aligned columns separated by two spaces; the first row is the header. */
export function table(rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map(String));
  const widths: number[] = [];
  for (const r of cells) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, stringWidth(c))));
  return cells
    .map((r) => r.map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i] - stringWidth(c)))).join('  ').trimEnd())
    .join('\n');
}

/** A progress line on stderr (silent when `quiet`). */
export function progressLogger(quiet = false): (line: string) => void {
  return (line) => {
    if (!quiet) process.stderr.write(`servicegym: ${line}\n`);
  };
}

/** `a/b` for a [correct, total] pair. */
export const frac = (x: [number, number] | readonly [number, number]): string => `${x[0]}/${x[1]}`;

/**
 * A copy of `value` whose object keys are snake_case (`passHatK` → `pass_hat_k`), for `--json`
 * output of servicegym's own structures. Keys without a lower-to-upper step (task ids such as
 * `T01`, reward components such as `DB`, `NL_ASSERTION`) are kept.
 */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [snake(k), snakeKeys(v)]));
}

const snake = (k: string) => (/[a-z0-9][A-Z]/.test(k) ? k.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z])([A-Z][a-z])/g, '$1_$2').toLowerCase() : k);

/**
 * How fast `n` items went in `seconds`, for a summary line: `12.3 tasks/s` at one a second or
 * more, else the seconds each took, `25.4 s per task` (a slow run of a few episodes would read
 * `0.0 tasks/s`); '' when nothing ran or in under a millisecond, too short to rate.
 */
export function rateText(n: number, seconds: number, one: string, many = `${one}s`): string {
  if (n <= 0 || !(seconds >= 0.001)) return '';
  return n >= seconds ? `${(n / seconds).toFixed(1)} ${many}/s` : `${(seconds / n).toFixed(1)} s per ${one}`;
}

/** `n` and the noun that agrees with it: `counted(1, 'task')` is `1 task`, `counted(3, 'task')` `3 tasks`; `many` for an irregular plural. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
