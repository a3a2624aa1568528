/** Number, date and value formatting shared by the pages. */
import type { RunHalted, RunListItem } from '../../src/viewer/types.js';
import { shellArg } from '../../src/util/shell-arg.js';

/** The command that continues an interrupted run (the id quoted for the shell, as the CLI prints it). */
export const resumeCommand = (run: Pick<RunListItem, 'id' | 'domain'>) => `servicegym run --domain ${run.domain ?? 'DOMAIN'} --resume ${shellArg(run.id)}`;

/** Why a stopped run stopped and how much did not run: "stopped: interrupted (Ctrl-C) — 4 episodes not started". */
export const haltedText = (halted: RunHalted) => `stopped: ${halted.reason} — ${halted.not_started} episode${halted.not_started === 1 ? '' : 's'} not started`;

/** "—" for a missing value. */
export const DASH = '—';

/** A fraction in [0, 1] as a percentage: 0.735 → "73.5%". */
export function pct(x: number | null | undefined): string {
  if (x === null || x === undefined) return DASH;
  const v = x * 100;
  return `${Number.isInteger(v) ? v : v.toFixed(1)}%`;
}

/** An episode's reward as shown: "not scored" for an episode left out of the scores, "not judged" for a null reward. */
export function rewardText(e: { reward: number | null; error: string | null }): string | number {
  return e.error ? 'not scored' : (e.reward ?? 'not judged');
}

/** A score with up to three decimals: 0.6 → "0.600". */
export function score(x: number | null | undefined): string {
  return x === null || x === undefined ? DASH : x.toFixed(3);
}

/** An ISO-8601 time as "YYYY-MM-DD HH:MM" (as written, no time-zone conversion). */
export function when(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]}` : iso;
}

/** A provider-reported cost; "n/a" when none was reported (never estimated). */
export function cost(usd: number | null): string {
  if (usd === null) return 'n/a';
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** A token count with thousands separators. */
export const tokens = (n: number | null): string => (n === null ? DASH : `${n.toLocaleString('en-US')} tok`);

/** A JSON value on one line (strings quoted), or "(absent)". */
export function jsonInline(v: unknown): string {
  return v === undefined ? '(absent)' : JSON.stringify(v);
}

/** A JSON value for a code block: strings as they are, anything else indented. */
export function jsonBlock(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
}

/** What a run's several labels are: a campaign's prompt versions, or a run's personas / modes. */
/**
 * A run's size as its runs-list cell and stat read it: `tasks × trials`, or `tasks × trials ×
 * N personas` when every task played several personas (as `run --personas` and `validate
 * --personas` run them: trials per task and persona).
 */
export function runSize(run: { tasks: number; trials: number; personas?: { count: number; trials: number } }): string {
  return run.personas ? `${run.tasks} × ${run.personas.trials} × ${run.personas.count} personas` : `${run.tasks} × ${run.trials}`;
}

export function labelSummary(run: { kind: string; labels: readonly string[] }): string {
  if (run.kind === 'campaign') return `${run.labels.length} prompt versions`;
  const shown = run.labels.slice(0, 4).join(', ');
  return `${run.labels.length} labels: ${shown}${run.labels.length > 4 ? ', …' : ''}`;
}

/** A p-value rounded for reading: three decimals, "< 0.001" below that (0.0078125 → "0.008"). */
export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined) return DASH;
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

/** `p = 0.007813` in a recorded sentence, rounded as {@link pValue} rounds it ("p = 0.008", "p < 0.001"). */
export function roundPInText(s: string): string {
  return s.replace(/\bp = (\d+(?:\.\d+)?(?:e[-+]?\d+)?)/g, (_m, x: string) => {
    const shown = pValue(Number(x));
    return shown.startsWith('<') ? `p ${shown}` : `p = ${shown}`;
  });
}

/** A significance level or rate without float noise: 0.01 → "0.01", 0.0125 → "0.0125". */
export const level = (x: number | null | undefined): string => (x === null || x === undefined ? DASH : String(Number(x.toPrecision(3))));
