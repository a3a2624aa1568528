/**
 * The settings `servicegym run --resume RUN_ID` takes from the stored run: each run setting the
 * user did not give (on the command line, in the `--config` file, or through an environment
 * variable that configures it) is the one the run was started with, read from the run row's
 * `summary` ({@link STORED_SETTINGS}, an explicit table of flag and summary key). A setting the
 * user gives is kept, and compared with the stored one as before (src/cli/run-resume.ts
 * `checkSameSettings`). A stored run written before a key existed (`base_url`, `data_dir`, `prompt_path`,
 * `concurrency` …) leaves that setting to the flags, as before.
 *
 * What a run stores for this, at its start ({@link resumeSettingsMeta}): the base URL the models
 * were called at (never one with a query or credentials in it; never the API key), the data
 * folder's and the prompt file's absolute paths, `-j`, `--threads`, `--judge-votes` and
 * `--rate-limit`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { RunStore, type RunRow } from '../store/store.js';
import { BadInputError } from '../spec/errors.js';
import { canonicalEqual } from '../util/canonical.js';

type Summary = Record<string, unknown>;

/** One setting a resumed run takes from its stored run when the user did not give it. */
interface StoredSetting {
  /** Commander's attribute of the flag (camelCase). */
  flag: string;
  /** How the log line names it. */
  label: string;
  /** The flag's value from the stored run; undefined when the run stores none (older run, or the flag's default). */
  value: (was: Summary, row: RunRow) => unknown;
  /** Not taken either when one of these flags is given (they decide the same thing). */
  unlessGiven?: readonly string[];
  /** Not taken either when one of these environment variables is set (they configure it too). */
  unlessEnv?: readonly string[];
  /** Named in the log line even when the stored value is the flag's default (the run's identity). */
  always?: true;
  /** The value as the log line shows it (default: the value; a switch shows its label alone). */
  shown?: (value: unknown) => string;
}

const text = (x: unknown): string | undefined => (typeof x === 'string' && x !== '' ? x : undefined);
const count = (x: unknown): string | undefined => (typeof x === 'number' && Number.isFinite(x) ? String(x) : undefined);
const on = (x: unknown): true | undefined => (x === true ? true : undefined);
const texts = (x: unknown): string[] | undefined => (Array.isArray(x) && x.length > 0 && x.every((s) => typeof s === 'string') ? (x as string[]) : undefined);
const variant = (was: Summary): Summary => (was.dataset_variant && typeof was.dataset_variant === 'object' ? (was.dataset_variant as Summary) : {});
const BASE_URL_ENV = ['SERVICEGYM_BASE_URL', 'OPENAI_BASE_URL'];

/** Task ids as the log line shows them: up to 4, else the first 3 and the count. */
function shownTasks(v: unknown): string {
  const ids = String(v).split(',');
  return ids.length <= 4 ? ids.join(',') : `${ids.slice(0, 3).join(',')},… (${ids.length})`;
}

/**
 * The settings a resume takes from the stored run, in the order the log line names them. Not
 * taken: `--max-cost` (a run it stopped would stop again at once), `--sample`/`--seed`/`--limit`
 * (the stored task ids are their result; {@link TakenSettings.selection} keeps them in the run's
 * summary), `--queue` (where the episodes run; its URL may hold a password), the transport flags
 * (`--timeout` …) and the output flags (`-o`, `--json` …).
 */
const STORED_SETTINGS: readonly StoredSetting[] = [
  { flag: 'domain', label: 'domain', value: (_, row) => text(row.domain), always: true },
  // The absolute path a run now stores, else the folder as an older run named it (relative to where it ran).
  { flag: 'dataDir', label: 'data dir', value: (was) => text(was.data_dir) ?? (was.data === 'builtin' ? undefined : text(was.data)) },
  { flag: 'policyVariant', label: 'policy variant', value: (was) => text(variant(was).policy) },
  { flag: 'solo', label: 'solo', value: (was) => on(variant(was).solo) },
  { flag: 'agentModel', label: 'agent model', value: (was) => text(was.agent_model) },
  { flag: 'userModel', label: 'user model', value: (was) => text(was.user_model) },
  { flag: 'judgeModel', label: 'judge model', value: (was) => text(was.judge_model) },
  { flag: 'judgeVotes', label: 'judge votes', value: (was) => count(was.judge_votes) },
  { flag: 'tasks', label: 'tasks', value: (was) => text(was.task_ids), unlessGiven: ['sample', 'limit', 'seed'], shown: shownTasks },
  { flag: 'trials', label: 'trials', value: (was) => count(was.trials) },
  { flag: 'personas', label: 'personas', value: (was) => texts(was.personas)?.join(',') },
  // A shard run goes on with its own shard's episodes only (without it, it would run every shard's).
  { flag: 'shard', label: 'shard', value: (was) => shardText(was.shard) },
  { flag: 'temperature', label: 'temperature', value: (was) => count(was.temperature) },
  { flag: 'strict', label: 'strict', value: (was) => on(was.strict) },
  { flag: 'maxSteps', label: 'max steps', value: (was) => count(was.max_steps) },
  { flag: 'promptFile', label: 'prompt file', value: (was) => text(was.prompt_path) },
  { flag: 'surface', label: 'surface', value: (was) => text(was.surface) },
  { flag: 'surfaceOption', label: 'surface options', value: (was) => surfaceOptions(was.surface_options), shown: (v) => (v as string[]).join(' ') },
  { flag: 'screenshots', label: 'screenshots', value: (was) => text(was.screenshots) },
  { flag: 'name', label: 'name', value: (was) => text(was.name), shown: (v) => JSON.stringify(v) },
  { flag: 'tag', label: 'tags', value: (was) => texts(was.tags), shown: (v) => (v as string[]).join(',') },
  { flag: 'baseUrl', label: 'base URL', value: (was) => text(was.base_url), unlessEnv: BASE_URL_ENV },
  // The provider label goes with the stored base URL (an older run's label may name another host).
  { flag: 'provider', label: 'provider', value: givenProvider, unlessGiven: ['baseUrl'], unlessEnv: [...BASE_URL_ENV, 'SERVICEGYM_PROVIDER'] },
  { flag: 'concurrency', label: '-j', value: (was) => count(was.concurrency) },
  { flag: 'threads', label: 'threads', value: (was) => count(was.threads), unlessGiven: ['queue'] },
  { flag: 'rateLimit', label: 'rate limit', value: (was) => count(was.rate_limit) },
];

/**
 * The stored provider label when the run had one of its own (`--provider`): one that is not the
 * stored base URL's host (the label's default). Only with a stored base URL: an older run's label
 * may name another host than the one the resume calls.
 */
function givenProvider(was: Summary): string | undefined {
  const url = text(was.base_url);
  const label = text(was.provider);
  if (!url || !label) return undefined;
  try {
    return new URL(url).host === label ? undefined : label;
  } catch {
    return undefined;
  }
}

/** A stored `shard` ({index, count}) as `--shard` takes it (`2/4`); undefined for none or a malformed one. */
function shardText(x: unknown): string | undefined {
  const s = x as { index?: unknown; count?: unknown } | null | undefined;
  return s && Number.isInteger(s.index) && Number.isInteger(s.count) ? `${String(s.index)}/${String(s.count)}` : undefined;
}

/** The stored `surface_options` object as `--surface-option key=value` values, or undefined for none. */
function surfaceOptions(x: unknown): string[] | undefined {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return undefined;
  const kv = Object.entries(x as Record<string, unknown>).filter(([, v]) => typeof v === 'string').map(([k, v]) => `${k}=${v}`);
  return kv.length ? kv : undefined;
}

/** What a resume took from the stored run: the flags (commander attributes) and the log line's words. */
export interface TakenSettings {
  flags: ReadonlySet<string>;
  /**
   * With the task ids taken: the stored `--sample`, `--seed` and `--limit` that chose them (null
   * when not given), for the run's summary to keep; undefined when the run stored neither.
   */
  selection?: { sample: number | null; seed: number; limit: number | null };
  /** `domain airline, agent model m, …`; empty when nothing was taken. */
  text: string;
}

/** Whether the user gave `flag`: its value came from the command line, the config file or the environment (not commander's default, nor the stored run). */
function given(cmd: Command, flag: string): boolean {
  const source = cmd.getOptionValueSource(flag);
  return source !== undefined && source !== 'default' && source !== 'stored';
}

/**
 * With `--resume RUN_ID` (in `flags`, after the `--config` file is applied): sets every flag of
 * {@link STORED_SETTINGS} the user did not give to the stored run's value (in `flags` and on
 * `cmd`, source `stored`), unless the flag's default already is that value. Another `--domain`
 * given is refused at once. Reads the store at `flags.db` read-only; writes nothing.
 * @returns what was taken (nothing without `--resume`).
 * @throws BadInputError (naming the store) when it has no such run or no store is there, the run
 *   was not started by `run` or in another domain than the one given, or its base URL was not
 *   stored (a query, credentials or a key in it) and none is given; (naming the file) when its
 *   stored prompt file is gone; for an empty `--resume`.
 */
export function takeStoredSettings(cmd: Command, flags: Record<string, any>, env: NodeJS.ProcessEnv = process.env): TakenSettings {
  if (flags.resume === undefined) return { flags: new Set(), text: '' };
  const runId = String(flags.resume);
  if (runId.trim() === '') throw new BadInputError(`--resume names no run (got '${runId}'); give the id of the run to continue (servicegym view lists the stored runs)`);
  const row = storedRunRow(String(flags.db), runId);
  // Another domain given: nothing of the stored run applies to it (its task ids would not be found first).
  if (given(cmd, 'domain') && flags.domain !== row.domain) throw otherSettingsError(runId, [['domain', row.domain, flags.domain]], flags.db);
  const was = (row.summary ?? {}) as Summary;
  const taken = new Set<string>();
  const words: string[] = [];
  for (const s of STORED_SETTINGS) {
    const value = s.value(was, row);
    if (value === undefined || given(cmd, s.flag) || s.unlessGiven?.some((f) => given(cmd, f)) || s.unlessEnv?.some((v) => env[v])) continue;
    // The flag's default already has the stored value: nothing to take (the log names what changed).
    if (!s.always && canonicalEqual(value, cmd.getOptionValue(s.flag))) continue;
    cmd.setOptionValueWithSource(s.flag, value, 'stored');
    flags[s.flag] = value;
    taken.add(s.flag);
    words.push(value === true ? s.label : `${s.label} ${s.shown ? s.shown(value) : String(value)}`);
  }
  // The run's base URL was not stored (it held a query, credentials or a key): the default endpoint would get the run's calls and key.
  if ('base_url' in was && was.base_url === null && !given(cmd, 'baseUrl') && !BASE_URL_ENV.some((v) => env[v])) {
    throw new BadInputError(`run '${runId}' was started at a base URL that is not stored (it held a query, credentials or a key); give it again with --base-url (or SERVICEGYM_BASE_URL)`, { file: flags.db });
  }
  if (taken.has('promptFile') && !fs.existsSync(flags.promptFile)) {
    throw new BadInputError(`run '${runId}' was started with this prompt file, which is gone; restore it, or give --prompt-file with the same text (sha256 ${String(was.prompt_sha256)})`, { file: flags.promptFile });
  }
  const selection = taken.has('tasks') && (was.sample !== undefined || was.limit !== undefined) ? { sample: wholeOrNull(was.sample), seed: wholeOrNull(was.seed) ?? 0, limit: wholeOrNull(was.limit) } : undefined;
  return { flags: taken, text: words.join(', '), ...(selection ? { selection } : {}) };
}

const wholeOrNull = (x: unknown): number | null => (Number.isInteger(x) ? (x as number) : null);

/**
 * The run row of `runId` in the store at `db`, read-only, checked as a run `--resume` continues.
 * @throws BadInputError naming `db` when no store is there, it holds no such run, or the run was not started by `run`.
 */
function storedRunRow(db: string, runId: string): RunRow {
  if (db.trim() !== '' && !fs.existsSync(db)) {
    throw new BadInputError(`no run '${runId}' in the store: there is no store at this path (give --db the store the run was stored in)`, { file: db });
  }
  const store = RunStore.open(db, { readonly: true });
  try {
    return resumableRun(store, runId, db);
  } finally {
    store.close();
  }
}

/**
 * The refusal of a resume with other settings than run `runId` was started with: each difference
 * as `key: stored vs now` (JSON values), naming the store `db`.
 */
export function otherSettingsError(runId: string, differs: readonly (readonly [key: string, was: unknown, now: unknown])[], db: string): BadInputError {
  return new BadInputError(`run '${runId}' was started with other settings (${differs.map(([k, was, now]) => `${k}: ${JSON.stringify(was)} vs ${JSON.stringify(now)}`).join('; ')}); resume it with the same flags`, { file: db });
}

/**
 * The stored run `runId` as `--resume` may continue it: a run started by `servicegym run`.
 * @throws BadInputError (naming `db`) when `store` holds no run `runId`, or it was not started by
 *   `run` (a validate, campaign … run).
 */
export function resumableRun(store: RunStore, runId: string, db: string): RunRow {
  const stored = store.getRun(runId);
  if (!stored) throw new BadInputError(`no run '${runId}' in the store (servicegym view --db lists its runs; give --db the store the run was stored in)`, { file: db });
  const agent = (stored.summary as { agent_model?: unknown } | null)?.agent_model;
  if (stored.kind !== 'run' || agent === 'oracle') {
    throw new BadInputError(`run '${runId}' was not started by 'servicegym run' (${stored.kind === 'run' ? 'it is a validate run' : `it is a ${stored.kind} run`}); only such runs can be resumed`, { file: db });
  }
  return stored;
}

/**
 * What a run's stored summary holds for a later `--resume` to take (besides the settings it holds
 * anyway): `base_url` (the agent model's, when it has no query, fragment or credentials; else
 * null), `data_dir` and `prompt_path` (absolute, or null), `concurrency` (`-j`), `threads`, `judge_votes` and
 * `rate_limit` (calls per minute, or null).
 */
export function resumeSettingsMeta(flags: Record<string, any>, plan: { baseUrl: string; threads: number; judgeVotes: number; extras: { promptFile: string | null } }, secrets: readonly string[]): Record<string, unknown> {
  const rate = flags.rateLimit === undefined ? null : Number(flags.rateLimit);
  return {
    base_url: storableBaseUrl(plan.baseUrl, secrets),
    data_dir: flags.dataDir === undefined ? null : path.resolve(String(flags.dataDir)),
    prompt_path: plan.extras.promptFile === null ? null : path.resolve(plan.extras.promptFile),
    concurrency: Number(flags.concurrency),
    threads: plan.threads,
    judge_votes: plan.judgeVotes,
    rate_limit: rate,
  };
}

/**
 * `url` when it is safe to store: an http(s) URL without user, password, query or fragment, and
 * holding none of `secrets` (the API keys, e.g. a gateway's key in the path); else null.
 */
export function storableBaseUrl(url: string, secrets: readonly string[]): string | null {
  try {
    const u = new URL(url);
    if (u.username || u.password || u.search || u.hash || !/^https?:$/.test(u.protocol)) return null;
    if (secrets.some((k) => url.includes(k) || decodeURIComponent(url).includes(k))) return null;
    return url;
  } catch {
    return null;
  }
}
