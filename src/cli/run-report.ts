/**
 * Text reports of a domain run: per task reward, partial score and failing checks, then the
 * summary with pass^1..k.
 */
import type { EpisodeReportRow } from '../run/report-rows.js';
import type { RunSummary } from '../run/summary.js';
import { table } from './output.js';

const pct = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : x.toFixed(3));

/**
 * One row per episode: task, trial, termination, reward, partial, failing checks; episodes kept
 * from an earlier attempt of a resumed run have their trial marked `(kept)`.
 */
export function episodeTable(records: readonly EpisodeReportRow[]): string {
  const rows: string[][] = [['task', 'trial', 'end', 'reward', 'partial', 'failing checks']];
  for (const r of records) {
    const ev = r.evaluation;
    const failing = ev ? ev.checks.filter((c) => c.verdict !== 'pass').map((c) => (c.verdict === 'not_judged' ? `${c.id} (not judged)` : c.id)) : [];
    rows.push([
      r.taskId,
      r.kept ? `${r.trial} (kept)` : String(r.trial),
      r.termination,
      ev ? (ev.reward === null ? 'not judged' : num(ev.reward)) : 'error',
      ev ? pct(ev.partial) : 'error',
      r.harnessError ? `harness error: ${r.harnessError.slice(0, 80)}` : r.infraError ? `infrastructure: ${r.infraError.slice(0, 80)}` : r.evaluationError ? `evaluation: ${r.evaluationError.slice(0, 80)}` : failing.join(', ') || '-',
    ]);
  }
  return table(rows);
}

/** The run summary: counts, means, pass^k with its bootstrap interval over tasks, terminations. */
export function summaryText(s: RunSummary): string {
  const lines = [
    `episodes: ${s.episodes} (${s.scored} scored, ${s.infraErrors} infrastructure errors, ${s.harnessErrors ? `${s.harnessErrors} harness errors, ` : ''}${s.evaluationErrors} evaluation errors, ${s.unjudged} not judged)`,
    `reward mean: ${num(s.rewardMean)}   partial mean: ${pct(s.partialMean)}`,
    `pass^k: ${s.passHatK.map((p) => `pass^${p.k} ${p.value.toFixed(3)}`).join('  ') || 'n/a'}` +
      (s.unjudged > 0 ? `  (lower bounds: ${s.unjudged} not-judged episode(s) count as failures)` : ''),
    ...(s.passHatKInterval?.length
      ? [`pass^k 95% CI (bootstrap over tasks): ${s.passHatKInterval.map((p) => `pass^${p.k} [${p.low.toFixed(3)}, ${p.high.toFixed(3)}]`).join('  ')}`]
      : []),
    `terminations: ${Object.entries(s.terminations).map(([k, v]) => `${k} ${v}`).join(', ')}`,
  ];
  return lines.join('\n');
}
