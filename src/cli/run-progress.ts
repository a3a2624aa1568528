/**
 * The progress bar of `servicegym run` on stderr: episodes done of total, ETA, the running pass
 * rate (reward 1 over the episodes scored so far; not-judged ones count as not passed, errors are
 * left out) and the provider-reported cost so far ("n/a" while no call reported one — never a
 * guessed price). Also the running cost `--max-cost` compares with.
 */
import { createRequire } from 'node:module';
import type CliProgress from 'cli-progress';
import type { UsageByRole } from '../models/usage.js';
import type { DomainEpisodeRecord } from '../run/task-run.js';

/** Provider-reported cost of a usage map in USD; null when no call reported one. */
export function reportedCost(usage: UsageByRole | undefined): number | null {
  let cost: number | null = null;
  for (const u of Object.values(usage ?? {})) if (u?.provider_reported_cost_usd != null) cost = (cost ?? 0) + u.provider_reported_cost_usd;
  return cost;
}

/** Running totals over finished episodes. */
export class RunTally {
  passed = 0;
  scored = 0;
  costUsd: number | null = null;

  /** `costUsd`: cost already spent before this attempt (a resumed run), if known. */
  constructor(costUsd: number | null = null) {
    this.costUsd = costUsd;
  }

  add(rec: DomainEpisodeRecord): void {
    // Calls served from stored receipts were paid (and counted) by the attempt that stored them.
    const cost = reportedCost(rec.episode.usage);
    const replayed = reportedCost(rec.replayed);
    this.addCost(cost === null || replayed === null ? cost : cost - replayed);
    if (rec.infraError || rec.harnessError || rec.evaluationError || !rec.evaluation) return;
    this.scored++;
    if (rec.evaluation.reward === 1) this.passed++;
  }

  /** Counts the score of an episode run elsewhere (a queue worker, a thread) from its report row, as {@link add} does. */
  addScore(row: { evaluation: { reward: number | null } | null; infraError?: unknown; harnessError?: unknown; evaluationError?: unknown }): void {
    if (row.infraError || row.harnessError || row.evaluationError || !row.evaluation) return;
    this.scored++;
    if (row.evaluation.reward === 1) this.passed++;
  }

  /** Adds a provider-reported cost in USD (null: none reported), e.g. of an episode a queue worker ran. */
  addCost(usd: number | null): void {
    if (usd !== null) this.costUsd = (this.costUsd ?? 0) + usd;
  }

  /** `pass 7/9 (77.8%)`, or `pass -` before the first scored episode. */
  passText(): string {
    return this.scored ? `pass ${this.passed}/${this.scored} (${((this.passed / this.scored) * 100).toFixed(1)}%)` : 'pass -';
  }

  costText(): string {
    return this.costUsd === null ? 'cost n/a' : `cost $${this.costUsd.toFixed(4)}`;
  }
}

/** The bar; a no-op when `quiet` (cli-progress is then not even loaded: a quiet run starts its episodes sooner). */
export class RunProgress {
  private readonly bar?: CliProgress.SingleBar;

  constructor(readonly tally: RunTally, quiet: boolean) {
    if (quiet) return;
    const cliProgress = createRequire(import.meta.url)('cli-progress') as typeof CliProgress;
    this.bar = new cliProgress.SingleBar(
      { format: 'servicegym: {bar} {value}/{total} episodes | ETA {eta_formatted} | {pass} | {cost} | {task}', stream: process.stderr, noTTYOutput: true, notTTYSchedule: 5000, etaBuffer: 20 },
      cliProgress.Presets.shades_classic,
    );
  }

  /** Episodes of the run already stored before this attempt (a resumed run's kept ones). */
  private kept = 0;

  /**
   * Shows the bar at `kept` of `total`: `total` is every episode of the run (of the shard), the
   * ones a resumed run keeps included, so a run resumed with 2 of 15 stored starts at 2/15 and
   * ends at 15/15, the count its summary reports (as other runners' resumed progress does).
   */
  start(total: number, kept = 0): void {
    this.kept = kept;
    this.bar?.start(total, kept, { task: '', pass: this.tally.passText(), cost: this.tally.costText() });
  }

  /** Counts `rec` and redraws; `done`: episodes finished by this attempt (the kept ones are added). */
  episode(done: number, rec: DomainEpisodeRecord): void {
    this.tally.add(rec);
    this.bar?.update(this.kept + done, { task: `${rec.taskId}#${rec.trial}${rec.persona ? ` (${rec.persona})` : ''} ${rec.episode.termination}`, pass: this.tally.passText(), cost: this.tally.costText() });
  }

  /** Moves the bar to `done` episodes of this attempt, plus the kept ones (episodes run elsewhere, e.g. on queue workers, that the tally does not see). */
  count(done: number, task = ''): void {
    this.bar?.update(this.kept + done, { task, pass: this.tally.passText(), cost: this.tally.costText() });
  }

  stop(): void {
    this.bar?.stop();
  }
}
