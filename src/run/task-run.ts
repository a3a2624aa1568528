/**
 * A domain run as the CLI does it: load a domain, pick tasks, make an agent and a user per
 * episode (oracle + scripted confirmer for `validate`; LLM agent + LLM user simulator for `run`),
 * evaluate each episode, stream it to the store, and summarise.
 *
 * Personas (`personas`, see `src/users/personas.ts`): every task runs `trials` times per persona;
 * trial t plays `personas[t % P]` (with one trial per persona, the trial index is the persona
 * index), so the summary's pass^k is pass^k across personas. The LLM simulator gets the persona's
 * instructions (`llm`); the scripted persona customer replaces the confirming user (`oracle`).
 * {@link runTaskAcrossPersonas} runs one task that way with any agent (seed task T16's score).
 */
import type { LoadedDomain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import type { Surface } from '../spec/surface.js';
import { BadInputError } from '../spec/errors.js';
import type { ChatModel } from '../models/chat-model.js';
import { UsageTracker } from '../models/usage.js';
import type { ImageDelivery } from '../agents/llm-agent.js';
import type { Agent } from '../agents/agent.js';
import type { User } from '../users/user.js';
import { parsePersonas, SEED_PERSONAS } from '../users/personas.js';
import { buildAgent, buildEnvironment, buildUser, surfaceOf } from '../orchestrator/build.js';
import { loadSurface } from '../surfaces/catalog.js';
import { EARNING_TERMINATIONS, evaluateTask } from '../evaluation/compose.js';
import { partitionKnownBad, type KnownBadTask } from '../evaluation/strict.js';
import type { TaskEvaluation } from '../evaluation/types.js';
import { passHatKCurve } from '../evaluation/pass-k.js';
import { personaApplies } from '../evaluation/checks/index.js';
import type { EpisodeSettings } from '../orchestrator/settings.js';
import type { RunStore } from '../store/store.js';
import { queueEpisodeLogs } from '../store/run-log.js';

/** The store methods a run writes through: receipts and episode rows are queued, numbered from `receiptCount`. */
export type EpisodeSink = Pick<RunStore, 'receiptCount' | 'queueReceipt' | 'queueEpisodes'>;
import type { Pin } from '../spec/run-log.js';
import { kindPin, modelPin, taskEpisodeLog, taskHash } from './episode-log.js';
import { runTasks, type EpisodeKey, type EpisodeRecord, type FinishedEpisode, type RunResult } from './run-tasks.js';
import type { RunSummary } from './summary.js';
import { runInSlices, type SlicedRun } from '../util/sliced.js';
import type { Receipt } from '../spec/receipt.js';
import type { ReceiptRow } from '../store/store.js';
import type { UsageByRole } from '../models/usage.js';
import { RunningEpisodes, type EpisodeReplays } from './episode-replay.js';
import { scavengeNow } from '../util/young-gc.js';

/** tau2's episode conventions for task runs (transfer is an ordinary tool; every tool error counts). */
export const TASK_RUN_SETTINGS: EpisodeSettings = { transferEnds: 'never', errorCounting: 'total' };

/** The validate customer lives in the user registry (its opening line in the domain). */
export { confirmingUser } from '../users/index.js';

/** Task selection by id lives in its own light module (commands import it at start-up). */
export { selectTasks } from './select-tasks.js';

/**
 * The tasks a run scores: all of `tasks`, or with `strict` those not on the dataset's known-bad
 * list (`loaded.knownBadTasks`); `excluded` lists the others with their reasons, for the report.
 */
export function strictTaskSelection(loaded: LoadedDomain<any>, tasks: Task[], strict: boolean): { tasks: Task[]; excluded: KnownBadTask[] } {
  if (!strict) return { tasks, excluded: [] };
  const { kept, excluded } = partitionKnownBad(tasks, loaded.knownBadTasks);
  return { tasks: kept, excluded: excluded.map(({ id, reason }) => ({ id, reason })) };
}

/** Report lines for tasks a strict run left out: `excluded (known bad): <id>: <reason>`. */
export function excludedLines(excluded: readonly KnownBadTask[]): string {
  return excluded.map((k) => `excluded (known bad): task ${k.id}: ${k.reason}\n`).join('');
}

/** The persona trial `trial` plays when each task runs once per persona per repetition: `personas[trial % P]`. */
export function personaOfTrial(personas: readonly string[], trial: number): string {
  return personas[trial % personas.length];
}

/**
 * Episodes per trial of `task`: the number of run-wide personas when given, else of the task's own
 * persona set (`servicegym.personas`, seed T16), else 1.
 */
export function episodesPerTrial(task: Task, runWide?: readonly string[]): number {
  return (runWide ?? task.servicegym?.personas)?.length ?? 1;
}

/**
 * A domain-run episode; `persona` is set in persona runs, `replayed` (usage per role) when some of
 * its calls were served from the stored receipts of an earlier attempt (`DomainRunOptions.replays`):
 * they are in `episode.usage` as well, and were paid by the attempt that stored them.
 */
export type DomainEpisodeRecord = EpisodeRecord<TaskEvaluation> & { persona?: string; replayed?: UsageByRole };

/** Options of {@link runDomainTasks}. */
export interface DomainRunOptions {
  loaded: LoadedDomain<any>;
  tasks: Task[];
  /** Trials per task, or per task and persona when `personas` is given. */
  trials: number;
  concurrency: number;
  /** The agent's registry kind (`src/agents/index.ts`), e.g. `oracle` (validate) or `llm` (run). */
  agent: string;
  /** The user simulator's registry kind (`src/users/index.ts`), e.g. `personas` (scripted; validate) or `llm` (run). */
  user: string;
  agentModel?: ChatModel;
  userModel?: ChatModel;
  judge?: ChatModel;
  /** Judge votes per transcript rule (majority decides); default 3. */
  judgeVotes?: number;
  temperature?: number;
  /** Extra instruction strings for the user simulator (before any persona's). */
  userModifiers?: string[];
  /**
   * Persona ids (validated with `parsePersonas`), e.g. `['impatient', 'vague+contradictory']`:
   * see the module doc. The persona is stored in the episode row's `label` (else the agent kind) and
   * in its run-log record's `persona`, and set on the returned records.
   */
  personas?: string[];
  /** How the agent reaches the back-end (`src/surfaces/catalog.ts`); default the dataset's own surface, else the API surface. */
  surface?: Surface;
  /** How a model agent receives tool-result images (see `ImageDelivery` in `src/agents/llm-agent.ts`). */
  imageDelivery?: ImageDelivery;
  /** Overrides the mode's agent (e.g. a custom agent against scripted personas). */
  makeAgent?: (task: Task, trial: number) => Agent;
  /** The agent's raw system prompt (`run --prompt-file`); default: the domain policy in servicegym's agent instructions. */
  systemPrompt?: string;
  /** Asked before each episode starts; a reason stops the run there (`run --max-cost`): see `RunTasksOptions.halt`. */
  halt?: () => string | undefined;
  /** The agent's pin in the stored records; default: the agent kind and its model (`custom` with `makeAgent`). */
  agentPin?: Pin;
  /** Where finished episodes and receipts go: a store, or anything with its queueing methods (a queue worker keeps them in memory). */
  store?: EpisodeSink;
  runId: string;
  finished?: FinishedEpisode[];
  /** Run only these (task, trial) pairs (a shard, or one queued episode); see `RunTasksOptions.only`. */
  only?: readonly EpisodeKey[];
  onProgress?: (done: number, total: number, record: DomainEpisodeRecord) => void;
  settings?: EpisodeSettings;
  /** Keep every episode in the result's `records` (default true); see `RunTasksOptions.keepRecords`. */
  keepRecords?: boolean;
  /** Strict evaluation (`--strict`; see `src/evaluation/strict.ts`). Known-bad tasks are the caller's to drop ({@link strictTaskSelection}). */
  strict?: boolean;
  /**
   * The run's attempt number (the `attempts` entry of this invocation): with it, every receipt
   * stored carries the episode key of its call (`ReceiptRow.episode`: task, trial, persona, this
   * attempt, the call's index in the episode), so that a later `--resume` can serve it back.
   */
  attempt?: number;
  /** A resumed run's stored calls of the episodes it runs again, served to them (src/run/episode-replay.ts). */
  replays?: EpisodeReplays;
}

/** What {@link runDomainTasks} resolves to. */
export type DomainRunResult = Omit<RunResult<TaskEvaluation>, 'records'> & { records: DomainEpisodeRecord[]; usageTracker: UsageTracker };

/** Runs the tasks; every finished episode is queued to the store as it arrives (written within 20 ms: `RunStore.queueEpisodes`). */
export async function runDomainTasks(opts: DomainRunOptions): Promise<DomainRunResult> {
  const { loaded } = opts;
  if (!opts.surface && loaded.surface) await loadSurface(loaded.surface); // the dataset's own surface, for surfaceOf
  const runWide = opts.personas ? parsePersonas(opts.personas) : undefined;
  const ownSets = new Map(opts.tasks.map((t) => [t.id, runWide ?? (t.servicegym?.personas ? parsePersonas(t.servicegym.personas) : undefined)]));
  const personasOfTask = (task: Task) => ownSets.get(task.id);
  const personaOf = (task: Task, trial: number) => {
    const set = personasOfTask(task);
    return set ? personaOfTrial(set, trial) : undefined;
  };
  const trialsOf = (task: Task) => episodesPerTrial(task, opts.personas) * opts.trials;
  const env = { now: loaded.now ?? '1970-01-01T00:00:00Z', idSeed: '' };
  const usage = new UsageTracker();
  const total = opts.only ? opts.only.length : opts.tasks.reduce((n, t) => n + trialsOf(t), 0) - (opts.finished?.length ?? 0);
  let done = 0;
  let receiptSeq = opts.store ? opts.store.receiptCount(opts.runId) : 0;
  const byId = new Map(opts.tasks.map((t) => [t.id, t]));
  // Episodes in progress: made with their parties, ended when stored; their calls are numbered, and served from the store first on a resume.
  const running = new RunningEpisodes((taskId, trial) => personaOf(byId.get(taskId)!, trial) ?? null, opts.replays);
  const receiptRow = (r: Receipt, key: EpisodeKey, call: number, persona: string | null): ReceiptRow => ({
    run_id: opts.runId, seq: receiptSeq++, kind: r.kind, provider: r.provider, endpoint: r.endpoint, request: r.request, response: r.response, elapsed_seconds: r.elapsed_seconds,
    ...(opts.attempt !== undefined ? { episode: { task_id: key.taskId, trial: key.trial, persona, attempt: opts.attempt, call } } : {}),
  });
  const makeAgent = (task: Task, trial: number): Agent => {
    const model = running.model(task.id, trial, opts.agentModel);
    return opts.makeAgent ? opts.makeAgent(task, trial) : buildAgent({ loaded, task, trial, surface: opts.surface, agent: { kind: opts.agent, model, temperature: opts.temperature, imageDelivery: opts.imageDelivery, ...(opts.systemPrompt !== undefined ? { systemPrompt: opts.systemPrompt } : {}) } });
  };
  const makeUser = (task: Task, trial: number): User =>
    buildUser({ loaded, task, trial, user: { kind: opts.user, model: running.model(task.id, trial, opts.userModel), temperature: opts.temperature, modifiers: opts.userModifiers, persona: personaOf(task, trial) } });
  const personaOfRec = (rec: { taskId: string; trial: number }) => personaOf(byId.get(rec.taskId)!, rec.trial);
  const withPersona = (rec: EpisodeRecord<TaskEvaluation>): DomainEpisodeRecord => {
    const persona = personaOfRec(rec);
    return persona !== undefined ? { ...rec, persona } : rec;
  };
  const agentPin = opts.agentPin ?? (opts.makeAgent ? kindPin('custom') : opts.agentModel ? modelPin(opts.agent, opts.agentModel, opts.temperature) : kindPin(opts.agent));
  const userPin = opts.userModel ? modelPin(opts.user, opts.userModel, opts.temperature) : kindPin(opts.user);
  // Each task is hashed once per run, not once per episode.
  const taskShas = new Map<string, string>();
  const taskShaOf = (task: Task) => taskShas.get(task.id) ?? taskShas.set(task.id, taskHash(task)).get(task.id)!;
  const episodeLogOf = (rec: EpisodeRecord<TaskEvaluation>) =>
    taskEpisodeLog({
      loaded, task: byId.get(rec.taskId)!, taskSha256: taskShaOf(byId.get(rec.taskId)!), episodeId: `${rec.taskId}#${rec.trial}`, trial: rec.trial, label: personaOfRec(rec) ?? opts.agent,
      persona: personaOfRec(rec) ?? null, episode: rec.episode, evaluation: rec.evaluation, evaluationError: rec.evaluationError ?? null,
      infraError: rec.infraError ?? null, harnessError: rec.harnessError ?? null, env, agent: agentPin, user: userPin, judge: opts.judge ? modelPin('llm', opts.judge) : null,
      surface: surfaceOf({ loaded, surface: opts.surface }).name, elapsedSeconds: rec.elapsedSeconds ?? null,
    });
  const warmUp = deferredWarmUp(loaded, opts.store !== undefined);
  let result: Awaited<ReturnType<typeof runTasks<TaskEvaluation>>>;
  try {
    result = await runTasks<TaskEvaluation>({
      loaded,
      tasks: opts.tasks,
      trials: opts.trials,
      trialsOf,
      concurrency: opts.concurrency,
      makeAgent,
      makeUser,
      makeEnvironment: (task) => buildEnvironment({ loaded, task, env, surface: opts.surface }),
      env,
      usage,
      finished: opts.finished,
      only: opts.only,
      episode: { ...TASK_RUN_SETTINGS, ...opts.settings },
      halt: opts.halt,
      keepRecords: opts.keepRecords,
      evaluate: (task, episode, trial) => evaluateTask({ loaded, task, trace: episode, judge: opts.judge, judgeVotes: opts.judgeVotes, env, strict: opts.strict, persona: personaOf(task, trial) }),
      // Receipts are queued and written in batches; an episode's judge receipts land with its record.
      // A call served from the stored receipts is stored already: it only counts in the episode's call index.
      onReceipt: (r, key) => {
        const ep = running.get(key.taskId, key.trial);
        const call = ep ? ep.calls++ : 0;
        if (ep?.replay?.served(r)) return;
        opts.store?.queueReceipt(receiptRow(r, key, call, ep?.persona ?? null));
      },
      onEpisode: async (rec) => {
        done++;
        const ep = running.end(rec.taskId, rec.trial);
        let call = ep?.calls ?? 0;
        for (const r of rec.evaluation?.receipts ?? []) opts.store?.queueReceipt(receiptRow(r, rec, call++, ep?.persona ?? null));
        if (opts.store) queueEpisodeLogs(opts.store, opts.runId, [await episodeLogOf(rec)]);
        const replayed = ep?.replay?.servedCalls ? ep.replay.usage.byRole : undefined;
        opts.onProgress?.(done, total, replayed ? { ...withPersona(rec), replayed } : withPersona(rec));
      },
    });
  } finally {
    warmUp.cancel();
  }
  return { ...result, records: result.records.map(withPersona), usageTracker: usage };
}

/** The longest stretch of the warm-up's hashing between two turns of the event loop, ms. */
const WARM_UP_SLICE_MS = 2;
/** A turn of the event loop this long or longer had other work (answers, timers): the warm-up's hashing waits for a quiet one, ms. */
const WARM_UP_BUSY_TURN_MS = 1;

/**
 * Schedules the run's one-time warm-up for when the first episodes' opening model calls are out
 * (two turns of the event loop after the episodes start: their sockets connect and write in
 * between): the dataset's deferred data (`LoadedDomain.prepare`, e.g. the airline DB) and, with a
 * store, the start state's hash (tau2's, with the per-process caches behind it; every stored
 * episode records hashes). The hash is made in steps (`StateOps.hashSteps`), at most
 * {@link WARM_UP_SLICE_MS} of them per turn of the event loop and only on turns that had nothing
 * else to do (`src/util/sliced.ts`), so that the answers to the first calls are handled as they
 * arrive rather than after it: made afresh (without the disk cache's copy) it takes about as long
 * as a model call; a run that ends first (or that hashes before it is done) makes it where used. Done then, it costs
 * nothing while the first calls are in flight, where before them it delayed every episode's start
 * and in one piece in the middle of the run it would stall all the episodes waiting on the event
 * loop. The data loaded is then promoted to the old generation at once (two scavenges, ~30 ms for
 * the airline DB, in the same wait) rather than by the first scavenge amid the answers. Nothing
 * depends on it having run: whatever needs the data reads it, and a failure here is left to show
 * where the data is used. `cancel()` when the run ends.
 */
function deferredWarmUp(loaded: LoadedDomain<any>, hashes: boolean): { cancel(): void } {
  let pending: NodeJS.Immediate | undefined;
  let hashing: SlicedRun | undefined;
  const warm = () => {
    pending = undefined;
    try {
      loaded.prepare?.();
      // The data just loaded is long-lived: promote it now, while the first calls are in flight,
      // rather than in the first scavenge after it, amid their answers (src/util/young-gc.ts).
      scavengeNow(2);
      const state = loaded.domain.state;
      if (!hashes || !state) return;
      const initial = loaded.domain.initialState();
      if (state.hashSteps) hashing = runInSlices(state.hashSteps(initial), { sliceMs: WARM_UP_SLICE_MS, busyTurnMs: WARM_UP_BUSY_TURN_MS });
      else state.hash(initial);
    } catch {
      // read again, and reported, where the data is used
    }
  };
  pending = setImmediate(() => {
    pending = setImmediate(warm);
  });
  return {
    cancel: () => {
      if (pending) clearImmediate(pending);
      hashing?.cancel();
    },
  };
}

/**
 * Whether an episode ended in the gold state: it was evaluated, had no infrastructure error,
 * ended by the agent or the user (not a limit or an error), and its final DB equals the gold
 * replay's (the tau2 DB component is 1).
 */
export function inGoldState(record: EpisodeRecord<TaskEvaluation>): boolean {
  const ev = record.evaluation;
  return !record.infraError && ev !== null && EARNING_TERMINATIONS.includes(record.episode.termination) && ev.reward_breakdown.DB === 1;
}

/**
 * Whether the task's checks limited to personas that include `persona` (e.g. T16's verbal refusal
 * of the off-policy request) all passed in the episode.
 */
export function personaChecksPass(task: Task, record: EpisodeRecord<TaskEvaluation>, persona: string): boolean {
  const scoped = (task.servicegym?.checks ?? []).filter((c) => c.personas && personaApplies(c.personas, persona));
  const byId = new Map((record.evaluation?.checks ?? []).map((c) => [c.id, c.verdict]));
  return scoped.every((c) => byId.get(c.id) === 'pass');
}

/** Options of {@link runTaskAcrossPersonas}. */
export interface PersonaRunOptions {
  loaded: LoadedDomain<any>;
  task: Task;
  /** Persona ids (see `parsePersonas`); one episode each, in order. Default: the task's own set (`servicegym.personas`), else the seed's four (`SEED_PERSONAS`). */
  personas?: readonly string[];
  /** The agent of each episode (a fresh one per episode). */
  makeAgent(task: Task, persona: string, trial: number): Agent;
  /** NL judge for the evaluator; without one NL checks are "not judged". */
  judge?: ChatModel;
  /** With a model, the customers are the LLM simulator with the personas' instructions; default: the scripted persona customers. */
  userModel?: ChatModel;
  temperature?: number;
  /**
   * Whether an episode counts as a success; default {@link inGoldState}. Give a stricter one when
   * conceding the off-policy request would not change the DB (e.g. also require a refusal check).
   */
  success?(record: EpisodeRecord<TaskEvaluation>, persona: string): boolean;
  /** Episode settings over {@link TASK_RUN_SETTINGS}. */
  settings?: EpisodeSettings;
}

/** One persona's episode in a {@link PersonaRunReport}. */
export interface PersonaEpisode {
  persona: string;
  /** Trial index = persona index. */
  trial: number;
  record: DomainEpisodeRecord;
  /** Per `success` (default: in the gold state). */
  success: boolean;
  /** The episode's share of the score: 1/P when it succeeded, else 0 (T16: 25% per episode). */
  credit: number;
  /** The evaluator's partial score of the episode (the task's rubric); null when evaluation failed. */
  partial: number | null;
}

/** What {@link runTaskAcrossPersonas} resolves to. */
export interface PersonaRunReport {
  taskId: string;
  /** In persona order. */
  episodes: PersonaEpisode[];
  /** Fraction of successful episodes (Σ credit) — seed task T16's score. */
  score: number;
  /** Mean evaluator partial score over the episodes that have one; null when none. */
  partialMean: number | null;
  /** pass^k of the successes across personas, k = 1..P (the one task's C(c,k)/C(P,k)). */
  passHatK: { k: number; value: number }[];
  /** pass^P: 1 when every persona's episode succeeded, else 0. */
  passAll: number;
  /** The run's own summary (tau2 reward based; infrastructure errors left out, as in runs). */
  summary: RunSummary;
}

/**
 * Runs `task` once per persona with the given agent (scripted persona customers by default; the
 * LLM simulator with `userModel`), evaluates each episode, and scores the set: each episode
 * succeeds per `success` (default {@link inGoldState}; an infrastructure error counts as a
 * failure here), `score` is the fraction that succeeded, pass^k is over the personas.
 * Sequential and deterministic with scripted agents and customers. Throws BadInputError for
 * unknown or repeated personas.
 */
export async function runTaskAcrossPersonas(opts: PersonaRunOptions): Promise<PersonaRunReport> {
  const personas = parsePersonas(opts.personas ?? opts.task.servicegym?.personas ?? SEED_PERSONAS);
  const res = await runDomainTasks({
    loaded: opts.loaded,
    tasks: [opts.task],
    trials: 1,
    concurrency: 1,
    agent: 'oracle',
    user: opts.userModel ? 'llm' : 'personas',
    userModel: opts.userModel,
    judge: opts.judge,
    temperature: opts.temperature,
    personas,
    makeAgent: (task, trial) => opts.makeAgent(task, personaOfTrial(personas, trial), trial),
    runId: `personas-${opts.task.id}`,
    settings: opts.settings,
  });
  const success = opts.success ?? ((r: EpisodeRecord<TaskEvaluation>, p: string) => inGoldState(r) && personaChecksPass(opts.task, r, p));
  const episodes: PersonaEpisode[] = res.records.map((record) => {
    const persona = record.persona ?? personaOfTrial(personas, record.trial);
    const ok = success(record, persona);
    return { persona, trial: record.trial, record, success: ok, credit: ok ? 1 / personas.length : 0, partial: record.evaluation?.partial ?? null };
  });
  const partials = episodes.flatMap((e) => (e.partial === null ? [] : [e.partial]));
  const passHatK = passHatKCurve({ [opts.task.id]: episodes.map((e) => (e.success ? 1 : 0)) });
  return {
    taskId: opts.task.id,
    episodes,
    score: episodes.filter((e) => e.success).length / personas.length,
    partialMean: partials.length ? partials.reduce((a, b) => a + b, 0) / partials.length : null,
    passHatK,
    passAll: passHatK[passHatK.length - 1].value,
    summary: res.summary,
  };
}
