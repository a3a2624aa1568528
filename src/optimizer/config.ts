/**
 * The `servicegym optimize <config.json>` file (JSON; relative paths are resolved against the
 * config file's folder). Every field but `name`, `suite` and `models.agent` has a default.
 *
 * ```json
 * {
 *   "name": "transfer-policy",                       // run name (output folder, store)
 *   "seed": 1,                                       // derives the split, trial, sampler seeds
 *   "suite": { "kind": "campaign", "dir": "examples/seed-transfer-policy" },
 *   //  or   { "kind": "tasks", "domain": "airline", "data_dir": "../tau2/airline",
 *   //         "tasks": ["T15", "T17"], "boundary": ["T15"], "prompt_file": "agent.txt",
 *   //         "surface": "api" }                  // default: the dataset's own surface, else api
 *   "roles": { "feedback": 0.4, "sealed": 0.2, "assign": { "B1-…": "feedback" } },
 *   "trials": { "feedback": 4, "screen": 2, "look1": 4, "look2": 8, "sealed": 8 },
 *   "gate": { "alpha": 0.05, "alpha_look1": 0.01, "holdout_margin": 0.05,
 *             "min_cases_improved": 2, "min_trials_per_case": 4, "min_coverage": 0.9,
 *             "confirm_fraction": 0.5, "screen_min_net": 1 },
 *   "search": { "rounds": 3, "parents_per_round": 2, "proposals_per_parent": 3,
 *               "max_edits": 3, "max_added_chars": 600, "escalate_after": 3 },
 *   "budget": { "max_rollouts": 450, "max_judge_calls": 450, "max_proposer_calls": 30,
 *               "max_tokens": null, "max_cost_usd": null },
 *   "models": { "agent": { "model": "gpt-4.1-mini", "temperature": 0 },
 *               "user": { "model": "gpt-4.1-mini" }, "judge": { "model": "gpt-4.1" },
 *               "proposer": { "model": "gpt-4.1", "temperature": 0.7 },
 *               "base_url_env": "SERVICEGYM_BASE_URL" },
 *   "canary": { "simulate": false, "min_episodes": 200, "max_episodes": 400,
 *               "resolution_drop": 0.1, "alpha": 0.05, "beta": 0.05 },
 *   "concurrency": 4,
 *   "output_dir": ".servicegym/optimize/transfer-policy",
 *   "store": ".servicegym/servicegym.db",
 *   "cache_file": ".servicegym/rollout-cache.jsonl"
 * }
 * ```
 *
 * Roles: cases are split per group (boundary / holdout): `feedback` and `sealed` shares of each
 * group (rounded), the gate gets the rest; `assign` pins cases to roles. Models: the base URL is
 * a role's `base_url`, else the environment variable named by `base_url_env` (per role or for
 * all), else `SERVICEGYM_BASE_URL` / `OPENAI_BASE_URL`; the key is only ever read from
 * `SERVICEGYM_API_KEY` / `OPENAI_API_KEY`. `user` is needed for task suites; `judge` defaults to
 * the agent's model, `proposer` to the judge's. Temperatures: the agent's (default 0) applies to
 * agent, user simulator and judge rollouts; the proposer's defaults to 0.7 (its proposals should
 * differ from each other).
 *
 * `search.escalate_after`: a feedback case the stable prompt fails and that this many screened
 * candidates tried without ever passing is reported as not prompt-fixable, with a recommendation
 * (see `src/optimizer/escalation.ts`). Advice only: it never changes a decision, so it is not part
 * of the run identity (a run can be resumed with another value).
 *
 * `cache_file` is a rollout cache shared across runs, keyed by suite, harness version, prompt
 * hash, case, trial seed, model names and temperature — not by the base URL, whose port may
 * change between runs of the same local server. Give each provider its own cache file when two
 * of them serve the same model name.
 */
import path from 'node:path';
import { z } from 'zod';
import { readJsonFile } from '../util/json-file.js';
import { canonicalHash } from '../util/canonical.js';

const ModelSchema = z.strictObject({
  model: z.string().min(1),
  temperature: z.number().min(0).max(2).optional(),
  base_url: z.string().optional(),
  base_url_env: z.string().optional(),
  provider: z.string().optional(),
});
export type ModelRef = z.infer<typeof ModelSchema>;

const SuiteSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('campaign'), dir: z.string() }),
  z.strictObject({
    kind: z.literal('tasks'),
    domain: z.string(),
    data_dir: z.string().optional(),
    tasks: z.array(z.string()).min(1).refine((xs) => new Set(xs).size === xs.length, { message: 'task ids must be unique' }).optional(),
    boundary: z.array(z.string()).refine((xs) => new Set(xs).size === xs.length, { message: 'task ids must be unique' }).optional(),
    prompt_file: z.string().optional(),
    /** Case variants: user persona ids; each task also runs as `<task>~<persona>` (see splits.ts). */
    variants: z.array(z.string()).min(1).optional(),
    /** The surface the agent works on (`src/surfaces/index.ts`); default the dataset's own, else api. */
    surface: z.string().optional(),
  }),
]);

const share = z.number().min(0).max(1);
const count = z.number().int().positive();
const cap = z.number().positive().nullable();

export const OptimizeConfigSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, dot, dash, underscore'),
  seed: z.number().int().default(1),
  suite: SuiteSchema,
  roles: z
    .strictObject({ feedback: share.default(0.4), sealed: share.default(0.2), assign: z.record(z.string(), z.enum(['feedback', 'gate', 'sealed'])).optional() })
    .refine((r) => r.feedback + r.sealed < 1, { message: 'roles.feedback + roles.sealed must be below 1: the gate gets the rest', path: ['sealed'] })
    .prefault({}),
  trials: z
    .strictObject({ feedback: count.default(4), screen: count.default(2), look1: count.default(4), look2: count.default(8), sealed: count.default(8), ablation: z.number().int().min(0).default(4) })
    .prefault({})
    .refine((t) => t.look1 <= t.look2 && t.screen <= t.feedback, { message: 'need look1 ≤ look2 and screen ≤ feedback' })
    .refine((t) => t.ablation <= t.look2, { message: 'need ablation ≤ look2 (the ablation reuses the gate\'s trial seeds)', path: ['ablation'] }),
  gate: z
    .strictObject({
      alpha: z.number().gt(0).lt(1).default(0.05),
      alpha_look1: z.number().min(0).lt(1).default(0.01),
      holdout_margin: share.default(0.05),
      min_cases_improved: z.number().int().min(1).default(2),
      min_trials_per_case: count.default(4),
      min_coverage: share.default(0.9),
      confirm_fraction: share.default(0.5),
      screen_min_net: z.number().int().min(0).default(1),
    })
    .prefault({})
    .refine((g) => g.alpha_look1 < g.alpha, { message: 'alpha_look1 must be below alpha' }),
  search: z
    .strictObject({
      rounds: count.default(3),
      parents_per_round: count.default(2),
      proposals_per_parent: count.default(3),
      max_edits: count.default(3),
      max_added_chars: count.default(600),
      escalate_after: count.default(3),
    })
    .prefault({}),
  budget: z
    .strictObject({
      max_rollouts: count.default(450),
      max_judge_calls: count.default(450),
      max_proposer_calls: count.default(30),
      max_tokens: cap.default(null),
      max_cost_usd: cap.default(null),
    })
    .prefault({}),
  models: z.strictObject({
    agent: ModelSchema,
    user: ModelSchema.optional(),
    judge: ModelSchema.optional(),
    proposer: ModelSchema.optional(),
    base_url_env: z.string().optional(),
  }),
  canary: z
    .strictObject({
      simulate: z.boolean().default(false),
      min_episodes: count.default(200),
      max_episodes: count.default(400),
      resolution_drop: z.number().gt(0).lt(1).default(0.1),
      alpha: z.number().gt(0).lt(1).default(0.05),
      beta: z.number().gt(0).lt(1).default(0.05),
    })
    .prefault({}),
  concurrency: count.default(4),
  output_dir: z.string().optional(),
  store: z.string().optional(),
  cache_file: z.string().optional(),
});
export type OptimizeConfig = z.infer<typeof OptimizeConfigSchema>;

/** A config file, parsed, with its folder (for relative paths) and its hash (journal identity). */
export interface LoadedOptimizeConfig {
  config: OptimizeConfig;
  file: string;
  dir: string;
  /** sha256 of the canonical JSON of the parsed config (defaults filled in). */
  sha256: string;
  /** The journal identity: {@link runIdentity}. */
  identity: string;
}

/**
 * What a journal must have been written with to be resumed: the config without the fields that
 * may change between a run and its resumption (budget caps, concurrency, paths, and the advice
 * settings `search.escalate_after` and `trials.ablation`, which never change a decision — so
 * configs written before they existed keep their identity, and a run can be resumed with
 * another value).
 */
export function runIdentity(config: OptimizeConfig): string {
  const { budget: _b, concurrency: _c, output_dir: _o, store: _s, cache_file: _f, search, trials, ...rest } = config;
  const { escalate_after: _e, ...searchRest } = search;
  const { ablation: _a, ...trialsRest } = trials;
  return canonicalHash({ ...rest, search: searchRest, trials: trialsRest });
}

/** Parses a config value (defaults filled in); throws ZodError-derived BadInputError via the loader. */
export function parseOptimizeConfig(value: unknown): OptimizeConfig {
  return OptimizeConfigSchema.parse(value);
}

/** Reads and validates a config file; throws BadInputError naming the file and JSON path. */
export function loadOptimizeConfig(file: string): LoadedOptimizeConfig {
  const config = readJsonFile(file, OptimizeConfigSchema);
  return { config, file: path.resolve(file), dir: path.dirname(path.resolve(file)), sha256: canonicalHash(config), identity: runIdentity(config) };
}

/** A path from the config, resolved against its folder. */
export function resolveConfigPath(loaded: { dir: string }, p: string): string {
  return path.resolve(loaded.dir, p);
}

/** Proposer sampling temperature when the config gives none. */
export const DEFAULT_PROPOSER_TEMPERATURE = 0.7;

/** The proposer's sampling temperature. */
export const proposerTemperature = (c: OptimizeConfig): number => c.models.proposer?.temperature ?? DEFAULT_PROPOSER_TEMPERATURE;

/** The gate parameters the statistical gate reads. */
export function gateParams(c: OptimizeConfig['gate']) {
  return {
    alpha: c.alpha,
    alphaLook1: c.alpha_look1,
    holdoutMargin: c.holdout_margin,
    minCasesImproved: c.min_cases_improved,
    minTrialsPerCase: c.min_trials_per_case,
    minCoverage: c.min_coverage,
    confirmFraction: c.confirm_fraction,
  };
}
