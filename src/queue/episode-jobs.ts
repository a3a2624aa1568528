/**
 * The `episode` job kind (`servicegym run --queue`): one episode of a run, run with the worker's
 * own copy of the run's dataset, surface and prompt, returned as the store rows the producer
 * writes. A worker whose harness, dataset or surface differ from the run's refuses it.
 */
import os from 'node:os';
import type { LoadedDomain } from '../spec/domain.js';
import { BadInputError } from '../spec/errors.js';
import type { Surface } from '../spec/surface.js';
import type { ChatModel } from '../models/chat-model.js';
import type { ImageDelivery } from '../agents/llm-agent.js';
import { loadSurface } from '../surfaces/catalog.js';
import type { EpisodeRow, ReceiptRow } from '../store/store.js';
import type { RecordCheckScope } from '../store/run-log.js';
import { runDomainTasks, type EpisodeSink } from '../run/task-run.js';
import { packReceipts, type EpisodeReceipt } from './packed-receipts.js';
import { datasetFingerprint, harnessPin, mismatch, surfaceFingerprint, type EpisodeJob, type EpisodeResultMessage, type RunManifest } from './jobs.js';
import { loadDataset, modelFromPin, type JobKind, type KindContext } from './job-kinds.js';

interface EpisodeContext extends KindContext {
  loaded: LoadedDomain<any>;
  /** The run's surface (undefined: the dataset's own, else api). */
  surface?: Surface;
  agentModel?: ChatModel;
  userModel?: ChatModel;
  judge?: ChatModel;
}

/**
 * What a run writes to its store, kept in memory for one episode job (no SQLite on the worker):
 * the receipts in order and the episode row, which the job's result message carries.
 */
class EpisodeCapture implements EpisodeSink, RecordCheckScope {
  readonly receipts: EpisodeReceipt[] = [];
  readonly rows: EpisodeRow[] = [];
  /** `scope`: the run's context and id, so that only the run's first record is checked against the schema, not every episode's. */
  constructor(readonly checkScope: { key: object; runId: string }) {}
  receiptCount(): number {
    return this.receipts.length;
  }
  queueReceipt({ run_id: _r, seq: _s, ...receipt }: ReceiptRow): void {
    this.receipts.push(receipt);
  }
  queueEpisodes(rows: EpisodeRow[]): void {
    this.rows.push(...rows);
  }
}

/** Runs one episode job to its result message (the rows a store would hold). */
async function runEpisodeJob(job: EpisodeJob, jobId: string, m: RunManifest, ctx: EpisodeContext): Promise<EpisodeResultMessage> {
  if ((job.prompt_sha256 ?? null) !== (m.prompt_sha256 ?? null)) throw new BadInputError(`episode ${job.task_id}#${job.trial} of run ${job.run_id} asks for prompt ${String(job.prompt_sha256 ?? null).slice(0, 12)}, the run's manifest has ${String(m.prompt_sha256 ?? null).slice(0, 12)}`);
  const task = ctx.loaded.tasks.find((t) => t.id === job.task_id);
  if (!task) throw new BadInputError(`task '${job.task_id}' of run ${job.run_id} is not in this worker's dataset`);
  const capture = new EpisodeCapture({ key: ctx, runId: job.run_id });
  const res = await runDomainTasks({
    loaded: ctx.loaded, tasks: [task], trials: m.trials, concurrency: 1, agent: m.agent.kind, user: m.user.kind,
    agentModel: ctx.agentModel, userModel: ctx.userModel, judge: ctx.judge, judgeVotes: m.judge_votes, temperature: m.temperature,
    personas: m.personas ?? undefined, strict: m.strict, store: capture, settings: m.max_steps ? { maxSteps: m.max_steps } : undefined, runId: jobId, only: [{ taskId: job.task_id, trial: job.trial }],
    surface: ctx.surface, ...(m.image_delivery ? { imageDelivery: m.image_delivery as ImageDelivery } : {}), ...(m.system_prompt ? { systemPrompt: m.system_prompt } : {}),
  });
  const [episode] = capture.rows;
  if (!episode) throw new Error(`episode ${job.task_id}#${job.trial} produced no record`);
  const { run_id: _r, ...row } = episode;
  return { run_id: job.run_id, job_id: jobId, episode: row, receipts: packReceipts(capture.receipts), ...(res.stopped ? { stopped: res.stopped } : {}), worker: `${os.hostname()}:${process.pid}` };
}

/** The `episode` kind. */
export const episodeKind: JobKind<RunManifest, EpisodeJob, EpisodeContext> = {
  async context(m, deps) {
    const loaded = await loadDataset(m.dataset);
    const surface = m.surface ? await loadSurface(m.surface.name, m.surface.options) : undefined;
    const why = mismatch(m, { harness: harnessPin(), fingerprint: datasetFingerprint(loaded), ...(m.surface ? { surface: surfaceFingerprint(loaded, surface!, m.surface.options) } : {}) });
    if (why) throw new BadInputError(`refusing run ${m.run_id}: ${why}`);
    const limiter = deps.limiter(m.rate_limit_per_minute);
    return {
      loaded, surface, results: deps.results(m.results_queue),
      agentModel: modelFromPin(m.agent.model, deps, limiter), userModel: modelFromPin(m.user.model, deps, limiter), judge: modelFromPin(m.judge, deps, limiter),
    };
  },
  async run(job, jobId, m, ctx) {
    const message = await runEpisodeJob(job, jobId, m, ctx);
    return { message, outcome: String(message.episode.termination) };
  },
  label: (job) => `${job.task_id}#${job.trial}${job.persona ? ` (${job.persona})` : ''}`,
};
