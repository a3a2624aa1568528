/**
 * From a loaded config to what a run needs: the suite (campaign folder or domain tasks) and the
 * live models per role (OpenAI-compatible; base URL from the config or the environment, key from
 * the environment only).
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadCampaign } from '../campaign/load.js';
import { DOMAIN_PACKAGE_NAMES, isDomainPackageName, loadDomainAsync } from '../domains/catalog.js';
import { resolveLiveModelConfig, type LiveModelFlags } from '../models/config.js';
import { createModel } from '../models/providers.js';
import type { ChatModel } from '../models/chat-model.js';
import { BadInputError } from '../spec/errors.js';
import type { Surface } from '../spec/surface.js';
import { checkSurfaceSupports, loadSurface } from '../surfaces/catalog.js';
import { readTextFile } from '../util/json-file.js';
import { resolveConfigPath, type LoadedOptimizeConfig, type ModelRef } from './config.js';
import type { OptimizeModels } from './run.js';
import type { Suite } from './suite.js';
import { TaskSuite, variantPersonas } from './task-suite.js';

/**
 * Builds the suite a config names; throws BadInputError for unknown task ids or missing files.
 * `strict` (task suites only; `optimize --strict`): strict evaluation, known-bad tasks left out.
 */
export async function buildSuite(loaded: LoadedOptimizeConfig, opts: { strict?: boolean } = {}): Promise<{ suite: Suite; domain: string | null }> {
  const built = await buildSuiteOnly(loaded, opts.strict === true);
  const ids = new Set(built.suite.cases.map((c) => c.id));
  for (const id of Object.keys(loaded.config.roles.assign ?? {})) {
    if (!ids.has(id)) throw new BadInputError(`unknown case '${id}' (the suite has ${[...ids].slice(0, 10).join(', ')}${ids.size > 10 ? ', …' : ''})`, { file: loaded.file, path: `$.roles.assign[${JSON.stringify(id)}]` });
  }
  return built;
}

async function buildSuiteOnly(loaded: LoadedOptimizeConfig, strict: boolean): Promise<{ suite: Suite; domain: string | null }> {
  const s = loaded.config.suite;
  if (s.kind === 'campaign') {
    const dir = resolveConfigPath(loaded, s.dir);
    if (!fs.existsSync(dir)) throw new BadInputError(`campaign folder ${dir} not found (relative paths are resolved from the config file's folder)`, { file: loaded.file, path: '$.suite.dir' });
    const campaign = loadCampaign(dir);
    const { CampaignSuite } = await import('./campaign-suite.js'); // campaign suites load the campaign domains; task suites need none of them
    return { suite: new CampaignSuite(campaign), domain: campaign.spec.domain };
  }
  if (!isDomainPackageName(s.domain)) throw new BadInputError(`unknown domain '${s.domain}' (known: ${DOMAIN_PACKAGE_NAMES.join(', ')})`, { file: loaded.file, path: '$.suite.domain' });
  const data = await loadDomainAsync(s.domain, { dataDir: s.data_dir ? resolveConfigPath(loaded, s.data_dir) : undefined });
  const known = new Set(data.tasks.map((t) => t.id));
  const unknown = [...(s.tasks ?? []), ...(s.boundary ?? [])].filter((id) => !known.has(id));
  if (unknown.length) throw new BadInputError(`unknown task id(s) ${unknown.join(', ')} in domain ${s.domain}`, { file: loaded.file, path: '$.suite' });
  const promptFile = s.prompt_file ? resolveConfigPath(loaded, s.prompt_file) : null;
  if (promptFile && !fs.existsSync(promptFile)) throw new BadInputError(`prompt file ${promptFile} not found (relative paths are resolved from the config file's folder)`, { file: loaded.file, path: '$.suite.prompt_file' });
  const prompt = promptFile ? { text: readTextFile(promptFile), source: promptFile } : undefined;
  let variants: string[] | undefined;
  try {
    variants = s.variants ? variantPersonas(s.variants) : undefined;
  } catch (e) {
    if (e instanceof BadInputError) throw new BadInputError(e.message, { file: loaded.file, path: '$.suite.variants' });
    throw e;
  }
  let surface: Surface | undefined;
  try {
    surface = s.surface !== undefined ? await loadSurface(s.surface) : undefined;
    if (surface) await checkSurfaceSupports(surface, data.domain);
    if (data.surface) await loadSurface(data.surface); // the dataset's own, which the suite looks up synchronously
  } catch (e) {
    if (e instanceof BadInputError) throw new BadInputError(e.message, { file: loaded.file, path: '$.suite.surface' });
    throw e;
  }
  return { suite: new TaskSuite(data, { tasks: s.tasks, boundary: s.boundary, prompt, variants, strict, surface }), domain: s.domain };
}

/** The live-model flags of each role (model, base URL, provider, timeouts); `judge` defaults to the agent's, `proposer` to the judge's. */
export interface RoleModelFlags {
  agent: LiveModelFlags;
  user?: LiveModelFlags;
  judge: LiveModelFlags;
  proposer: LiveModelFlags;
}

/**
 * Each role's model flags: the config's model and provider, its base URL (the role's `base_url`,
 * else the variable its `base_url_env` names, else `flags.baseUrl`; unset: the environment's
 * default at build time) and the command's timeouts. Throws BadInputError naming the config path
 * for a named base-URL variable that is not set, or a task suite without `models.user`.
 */
export function roleModelFlags(loaded: LoadedOptimizeConfig, flags: LiveModelFlags, env: NodeJS.ProcessEnv = process.env): RoleModelFlags {
  const m = loaded.config.models;
  const of = (ref: ModelRef): LiveModelFlags => {
    const envName = ref.base_url_env ?? m.base_url_env;
    if (envName && !ref.base_url && !env[envName] && !flags.baseUrl) throw new BadInputError(`the environment variable ${envName} (base URL of model ${ref.model}) is not set`, { file: loaded.file, path: '$.models' });
    const baseUrl = ref.base_url ?? (envName ? env[envName] : undefined) ?? flags.baseUrl;
    return { ...flags, baseUrl, model: ref.model, provider: ref.provider ?? flags.provider };
  };
  if (loaded.config.suite.kind === 'tasks' && !m.user) throw new BadInputError('a task suite needs models.user (the user simulator)', { file: loaded.file, path: '$.models.user' });
  const agent = of(m.agent);
  const judge = m.judge ? of(m.judge) : agent;
  return { agent, ...(m.user ? { user: of(m.user) } : {}), judge, proposer: m.proposer ? of(m.proposer) : judge };
}

/** Live models for every role; roles sharing a model name and endpoint share one client. */
export function buildModels(loaded: LoadedOptimizeConfig, flags: LiveModelFlags, env: NodeJS.ProcessEnv = process.env): OptimizeModels {
  const roles = roleModelFlags(loaded, flags, env);
  const cache = new Map<string, ChatModel>();
  const make = (f: LiveModelFlags): ChatModel => {
    const cfg = resolveLiveModelConfig(f, env);
    const key = `${cfg.model}\u0000${cfg.baseURL}`;
    if (!cache.has(key)) cache.set(key, createModel('openai-compatible', { config: cfg }));
    return cache.get(key)!;
  };
  return { agent: make(roles.agent), user: roles.user ? make(roles.user) : undefined, judge: make(roles.judge), proposer: make(roles.proposer) };
}

/** The output folder: flag, else config, else `.servicegym/optimize/<name>`. */
export function outputDir(loaded: LoadedOptimizeConfig, flag?: string): string {
  if (flag) return flag;
  return loaded.config.output_dir ? resolveConfigPath(loaded, loaded.config.output_dir) : `.servicegym/optimize/${loaded.config.name}`;
}

/** The file an optimise run writes first into its output folder; `--fresh` clears only folders that hold it. */
export const OUTPUT_MARKER = '.servicegym-optimize';
const MARKER_TEXT = 'servicegym optimize output folder: --fresh may clear events.jsonl, record.json, stable.txt, prompts/ and releases/ here\n';

/**
 * Writes the output-folder marker (creating the folder) unless it is there. The folder must be
 * new, empty or an optimise run's output ({@link isOptimizerOutput}): a run writes record.json,
 * events.jsonl, prompts/ and releases/ into it, a canary promotion replaces stable.txt and
 * `--fresh` later removes them, so a folder holding the user's own files (say output_dir "."
 * beside the config and its prompt file) is not taken.
 *
 * @throws BadInputError naming the folder and a few of its files when it is not one of those.
 */
export function markOutput(dir: string): void {
  if (fs.existsSync(dir) && fs.statSync(dir).isDirectory() && !isOptimizerOutput(dir)) {
    const entries = fs.readdirSync(dir);
    if (entries.length > 0) {
      const some = entries.slice(0, 3).join(', ') + (entries.length > 3 ? `, … (${entries.length} entries)` : '');
      throw new BadInputError(`the output folder is not empty (${some}) and holds no optimise run (no ${OUTPUT_MARKER} marker and no run journal); a run writes record.json, events.jsonl, stable.txt, prompts/ and releases/ there: choose a new or empty output_dir / --out-dir`, { file: dir });
    }
  }
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, OUTPUT_MARKER);
  if (!fs.existsSync(file)) fs.writeFileSync(file, MARKER_TEXT);
}

/**
 * True when `dir` holds an optimise run's output: the marker file, or (folders written before the
 * marker existed) an `events.jsonl` whose first line is this journal's `run` event.
 */
export function isOptimizerOutput(dir: string): boolean {
  try {
    if (fs.readFileSync(path.join(dir, OUTPUT_MARKER), 'utf8').startsWith(MARKER_TEXT.slice(0, 40))) return true;
  } catch {
    /* no marker: look at the journal */
  }
  try {
    const first = JSON.parse(fs.readFileSync(path.join(dir, 'events.jsonl'), 'utf8').split('\n', 1)[0]);
    return first?.type === 'run' && first?.key === 'run' && typeof first?.identity === 'string';
  } catch {
    return false;
  }
}

/**
 * Removes what a run writes in its output folder (only those files), for `--fresh`. A missing or
 * empty folder is left as it is.
 * @throws BadInputError naming the folder when it is not an optimiser output folder (issue 11:
 *   `"output_dir": "."` must never wipe a user's own prompts/ or stable.txt).
 */
export function clearOutput(dir: string): void {
  if (!fs.existsSync(dir) || (fs.statSync(dir).isDirectory() && fs.readdirSync(dir).length === 0)) return;
  if (!isOptimizerOutput(dir)) {
    throw new BadInputError(`--fresh refused: this folder is not an optimise output folder (no ${OUTPUT_MARKER} marker and no run journal), so its files are not servicegym's to remove; choose another output_dir / --out-dir`, { file: dir });
  }
  for (const f of ['events.jsonl', 'record.json', 'stable.txt']) fs.rmSync(path.join(dir, f), { force: true });
  for (const d of ['releases', 'prompts']) fs.rmSync(path.join(dir, d), { recursive: true, force: true });
}
