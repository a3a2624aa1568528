/** The airline seed-task runner (see `seed-episode.ts`). */
import { seedTaskRunner } from './seed-episode.js';

export { YES, ASKS_TO_CONFIRM, customer, askToConfirm, callNames, type CustomerLines, type SeedOutcome } from './seed-episode.js';

const runner = seedTaskRunner('airline');
/** servicegym's own airline dataset. */
export const airline = runner.loaded;
export const AIRLINE_ENV = runner.env;
export const { seedTask, runSeedTasks, runSeedTask } = runner;
