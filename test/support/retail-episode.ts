/** The retail seed-task runner (see `seed-episode.ts`). */
import { seedTaskRunner } from './seed-episode.js';

export { YES, ASKS_TO_CONFIRM, customer, askToConfirm, callNames, type CustomerLines, type SeedOutcome } from './seed-episode.js';

const runner = seedTaskRunner('retail');
/** servicegym's own retail dataset. */
export const retail = runner.loaded;
export const RETAIL_ENV = runner.env;
export const { seedTask, runSeedTasks, runSeedTask } = runner;
