/**
 * Runs without a broker: `--shard i/N` runs a deterministic 1/N of a run's episodes on each
 * machine (same tasks, trials and personas give the same split anywhere), each into its own store;
 * `mergeShardStores` (src/queue/shard-merge.ts) joins the shard stores into one run.
 *
 * The split: the run's episodes in run order (trial-major: every task's trial 0, then trial 1, …,
 * as `runTasks` schedules them) are dealt round-robin, episode n to shard (n mod N) + 1.
 */
import type { Task } from '../spec/task.js';
import { BadInputError } from '../spec/errors.js';
import { parsePersonas } from '../users/personas.js';
import { episodesPerTrial, personaOfTrial } from '../run/task-run.js';
import type { EpisodeKey } from '../run/run-tasks.js';

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Parses `i/N` (1 ≤ i ≤ N); throws BadInputError otherwise. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(String(text).trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!(count >= 1 && index >= 1 && index <= count)) throw new BadInputError(`--shard must be i/N with 1 <= i <= N, e.g. 2/4, got '${text}'`);
  return { index, count };
}

/** One episode of a run in run order, with the persona it plays (null without personas). */
export interface RunEpisode extends EpisodeKey {
  task: Task;
  persona: string | null;
}

/** Every episode of a run in run order (trial-major), as `runDomainTasks` schedules them. */
export function runEpisodes(tasks: readonly Task[], trials: number, personas?: readonly string[]): RunEpisode[] {
  const sets = tasks.map((t) => personas ?? (t.servicegym?.personas ? parsePersonas(t.servicegym.personas) : undefined));
  const trialsOf = tasks.map((t) => episodesPerTrial(t, personas) * trials);
  const out: RunEpisode[] = [];
  for (let trial = 0; trial < Math.max(0, ...trialsOf); trial++) {
    tasks.forEach((task, i) => {
      if (trial >= trialsOf[i]) return;
      const set = sets[i];
      out.push({ task, taskId: task.id, trial, persona: set ? personaOfTrial(set, trial) : null });
    });
  }
  return out;
}

/** The episodes of shard `shard` (round-robin over the run order). */
export function shardEpisodes(tasks: readonly Task[], trials: number, personas: readonly string[] | undefined, shard: Shard): RunEpisode[] {
  return runEpisodes(tasks, trials, personas).filter((_, n) => n % shard.count === shard.index - 1);
}
