/**
 * The action of `servicegym run` (registered in src/cli/run.ts), in its steps: the flags checked
 * and the models made (src/cli/run-plan.ts), the store opened and the run id locked, a new run
 * begun or a stored one resumed (src/cli/run-resume.ts), the episodes run and stored
 * (src/cli/run-execute.ts), and the report and exit code (src/cli/run-finish.ts). Loaded only
 * when `run` runs: what it imports (the domain catalog, the store, the episode machinery, the
 * model clients) is loaded together, before the first step.
 */
import type { Command } from 'commander';
import { RunStore } from '../store/store.js';
import { acquireRunLock, type RunLock } from '../store/run-lock.js';
import { secretValues } from '../models/config.js';
import { planRun } from './run-plan.js';
import { runIdOf, runStart } from './run-resume.js';
import { executeRun } from './run-execute.js';
import { finishRun } from './run-finish.js';

/**
 * Runs `servicegym run` with its parsed `flags` (commander's camelCase option values) and sets
 * the exit code through `setExit` (0, or 1 when an episode failed for infrastructure reasons, the
 * run stopped early or `--fail-under` failed). One process per run: the run's lock is held until
 * the end, then released, and the store closed (its last checkpoint awaited).
 * @throws BadInputError for a bad flag, `--config` file, domain or task selection (before the
 *   store is opened), a run id already stored or a run that cannot be resumed (naming the store).
 */
export async function runCommand(flags: Record<string, any>, cmd: Command, setExit: (code: number) => void): Promise<void> {
  const plan = await planRun(flags, cmd);
  const store = RunStore.open(flags.db, { secrets: secretValues(), checkpointInBackground: true });
  let lock: RunLock | undefined;
  try {
    const sharding = flags.shard !== undefined ? await import('../queue/shard.js') : undefined;
    const shard = sharding?.parseShard(flags.shard);
    const runId = runIdOf(flags, shard);
    // One process per run: a second --resume while the first is alive would overwrite its episodes.
    lock = acquireRunLock(flags.db, runId, { onTakeover: (m) => process.stderr.write(`servicegym: ${m}\n`) });
    const start = await runStart(store, runId, flags, plan, shard);
    const outcome = await executeRun({ flags, plan, runId, store, start, shard, sharding });
    await finishRun({ flags, plan, runId, start, shard, outcome }, setExit);
  } finally {
    lock?.release();
    store.close();
    await store.whenClosed();
  }
}
