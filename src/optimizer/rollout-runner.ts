/**
 * Where the rollout book's fresh rollouts run. By default in this process
 * ({@link inProcessRunner}: the suite's own `runRollout`); a distributed runner (jobs on queue
 * workers, `src/queue/rollout-runner.ts`) implements the same interface. Either way the optimiser
 * stays the one writer of its journal, cache, records and store, and its decisions depend only on
 * the rollouts it gets back, not on where they ran.
 */
import type { Rollout, RolloutRequest, Suite, SuiteModels } from './suite.js';

/** Runs rollouts for the rollout book. */
export interface RolloutRunner {
  /**
   * Runs one rollout of `req.prompt` on case `req.caseId` with trial `req.trial` and sampling seed
   * `req.seed`. Same contract as `Suite.runRollout`: provider failures come back as
   * `valid: false`; only bugs (and kills) reject, which ends the optimise run.
   */
  run(req: RolloutRequest): Promise<Rollout>;
  /**
   * Most rollouts in flight at once (a whole number, or `Infinity` when the runner's own workers
   * set the pace); absent: the config's `concurrency`.
   */
  readonly concurrency?: number;
}

/** The default runner: the suite's `runRollout` with the run's models, in this process. */
export function inProcessRunner(suite: Suite, models: SuiteModels): RolloutRunner {
  return { run: (req) => suite.runRollout(req, models) };
}
