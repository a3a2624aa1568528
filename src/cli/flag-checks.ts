/**
 * Checks of single flag values that `run` and `validate` share, each throwing the BadInputError
 * the command gives for a bad value (naming the flag and the value), and {@link FLAG_CHECKS}: the
 * same checks by config-file key, so that a `--config` file's bad values are reported together,
 * one line each with its JSON path, before the command starts (src/cli/config-file.ts
 * `applyConfigFileChecked`). A check reads one value; checks across flags (`--shard` needs
 * `--run-id`, `--threads` with `--queue`) stay with the command.
 */
import os from 'node:os';
import { BadInputError } from '../spec/errors.js';
import { parseRateLimit } from '../models/rate-limit.js';
import { parsePersonas } from '../users/personas.js';
import { surfaceOptionsOf } from './surface-flags.js';
import { parseRunExtras } from './run-options.js';

/** Most trials per task `run` accepts (the episode list is built before the first episode starts). */
export const MAX_TRIALS = 10_000;

/**
 * Most `--threads`: twice the cores this process may use (`os.availableParallelism()`). Threads
 * spread the episodes' CPU work over cores; past the cores they add only start-up and memory (each
 * loads its modules and the domain).
 */
export function maxThreads(cores = os.availableParallelism()): number {
  return 2 * cores;
}

/**
 * A flag's number written in decimal (`3`, `0.7`, `.5`; a config file's JSON number as is), else
 * NaN: `Number()` alone read '' and '  ' as 0, `0x10` as 16 and `1e1` as 10.
 */
function decimalNumber(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  return /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(String(raw)) ? Number(raw) : NaN;
}

/** `--trials`: a whole number from 1 to {@link MAX_TRIALS}. @throws BadInputError */
export function checkTrials(raw: unknown): number {
  const n = decimalNumber(raw);
  if (!(Number.isInteger(n) && n >= 1 && n <= MAX_TRIALS)) throw new BadInputError(`--trials must be a whole number from 1 to ${MAX_TRIALS}, got '${raw}'`);
  return n;
}

/** `-j/--concurrency`: a whole number >= 1. @throws BadInputError */
export function checkConcurrency(raw: unknown): number {
  if (!/^\d+$/.test(String(raw)) || Number(raw) < 1) throw new BadInputError(`-j/--concurrency must be a whole number >= 1, got '${raw}'`);
  return Number(raw);
}

/** `--temperature`: a number from 0 to 2. @throws BadInputError */
export function checkTemperature(raw: unknown): number {
  const t = decimalNumber(raw);
  if (!(Number.isFinite(t) && t >= 0 && t <= 2)) throw new BadInputError(`--temperature must be a number from 0 to 2, got '${raw}'`);
  return t;
}

/** `--screenshots`: `tool_result` or `user_message`. @throws BadInputError */
export function checkScreenshots(raw: unknown): 'tool_result' | 'user_message' {
  if (raw !== 'tool_result' && raw !== 'user_message') throw new BadInputError(`--screenshots must be tool_result or user_message, got '${raw}'`);
  return raw;
}

/** `--judge-votes`: a whole number >= 1. @throws BadInputError */
export function checkJudgeVotes(raw: unknown): number {
  const n = decimalNumber(raw);
  if (!Number.isInteger(n) || n < 1) throw new BadInputError(`--judge-votes must be a whole number >= 1, got '${raw}'`);
  return n;
}

/** `--threads`: a whole number from 1 to {@link maxThreads}. @throws BadInputError */
export function checkThreads(raw: unknown): number {
  const text = String(raw ?? '1');
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new BadInputError(`--threads must be a whole number >= 1, got '${text}'`);
  const n = Number(text);
  const cores = os.availableParallelism();
  if (n > maxThreads(cores)) throw new BadInputError(`--threads ${n} is more than ${maxThreads(cores)}, twice the ${cores} core(s) this machine offers: threads spread the episodes' CPU work over cores, so more only add start-up and memory (-j sets how many episodes run at once)`);
  return n;
}

/** A check of the value `flags` holds for one key (commander's attribute names). */
export type FlagCheck = (flags: Record<string, any>) => unknown;

/** `parseRunExtras` on the one flag `attr` (the others absent), for the keys it checks. */
const extra = (attr: string): FlagCheck => (f) => parseRunExtras({ [attr]: f[attr] }, '');

/**
 * The value checks by config-file key (long flag name without dashes). A key a command does not
 * offer is never read from its config file, so one map serves `run` and `validate`.
 */
export const FLAG_CHECKS: Readonly<Record<string, FlagCheck>> = {
  trials: (f) => checkTrials(f.trials),
  concurrency: (f) => checkConcurrency(f.concurrency),
  temperature: (f) => checkTemperature(f.temperature),
  screenshots: (f) => checkScreenshots(f.screenshots),
  'judge-votes': (f) => checkJudgeVotes(f.judgeVotes),
  threads: (f) => checkThreads(f.threads),
  'rate-limit': (f) => parseRateLimit(f.rateLimit),
  personas: (f) => parsePersonas(f.personas),
  surface: async (f) => (await import('../surfaces/catalog.js')).importSurface(String(f.surface)),
  'surface-option': (f) => surfaceOptionsOf(f),
  queue: async (f) => (await import('../queue/redis-url.js')).checkRedisUrl(String(f.queue)),
  shard: async (f) => (await import('../queue/shard.js')).parseShard(String(f.shard)),
  limit: extra('limit'),
  sample: extra('sample'),
  seed: extra('seed'),
  'max-steps': extra('maxSteps'),
  'prompt-file': extra('promptFile'),
  'max-cost': extra('maxCost'),
  name: extra('name'),
  tag: extra('tag'),
  output: extra('output'),
  'fail-under': extra('failUnder'),
};
