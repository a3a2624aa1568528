/**
 * The one writer of a run whose episodes run elsewhere — on BullMQ workers (`run --queue`,
 * producer.ts) or on worker threads of this process (`run --threads`, thread-pool.ts): the run's
 * episode jobs in run order, and the storing of each returned episode. An episode returned twice
 * (a re-run after a crash, a worker that lost its lease and finished anyway) is stored once: the
 * first copy wins, by job id and episode id. Independent of the transport.
 */
import type { Task } from '../spec/task.js';
import type { EpisodeRow, ReceiptRow, RunStore } from '../store/store.js';
import { ReceiptUnpacker } from './packed-receipts.js';
import { episodeJobId, type EpisodeJob, type EpisodeResultMessage } from './jobs.js';

/** An episode of a run, in run order. */
export interface RunEpisodeRef {
  task: Task;
  trial: number;
  persona: string | null;
}

/** One episode job: its idempotent job id ({@link episodeJobId}) and data. */
export interface EpisodeJobEntry {
  id: string;
  data: EpisodeJob;
}

/**
 * The run's episode jobs in run order, and `pending`: the episode label (`T01#0`) of each job id
 * not stored yet (all of them here). `prompt`: the sha256 of the run's own system prompt, or null.
 */
export function episodeJobsOf(runId: string, prompt: string | null, episodes: readonly RunEpisodeRef[]): { jobs: EpisodeJobEntry[]; pending: Map<string, string> } {
  const pending = new Map<string, string>();
  const jobs = episodes.map(({ task, trial, persona }) => {
    const data: EpisodeJob = { run_id: runId, task_id: task.id, trial, persona, candidate: null, ...(prompt ? { prompt_sha256: prompt } : {}) };
    const id = episodeJobId(data);
    pending.set(id, `${task.id}#${trial}`);
    return { id, data };
  });
  return { jobs, pending };
}

/** How long a batch of results gathers before it is written, in ms. */
const BATCH_MS = 10;

/**
 * Results stored in batches: the episodes (and their receipts) added within {@link BATCH_MS} are
 * written together — the receipts in one transaction, then the episodes in one — and each
 * {@link add} resolves once its episode is committed (rejects with the write's error: nothing of
 * the batch's receipts is written then, and none of its episodes).
 */
class StoreBatch {
  private receipts: ReceiptRow[] = [];
  private episodes: EpisodeRow[] = [];
  private written: Promise<void> | undefined;

  constructor(private readonly store: RunStore) {}

  add(receipts: ReceiptRow[], episode: EpisodeRow): Promise<void> {
    this.receipts.push(...receipts);
    this.episodes.push(episode);
    this.written ??= new Promise<void>((resolve, reject) =>
      setTimeout(() => {
        const { receipts: rs, episodes: es } = this;
        this.receipts = [];
        this.episodes = [];
        this.written = undefined;
        try {
          if (rs.length) this.store.appendReceipts(rs);
          this.store.appendEpisodes(es);
          resolve();
        } catch (err) {
          reject(err as Error);
        }
      }, BATCH_MS),
    );
    return this.written;
  }
}

/** What {@link ResultsWriter.write} did with a result. */
export type WriteOutcome = 'duplicate' | 'stored' | 'refused';

/**
 * Stores the episodes of run `runId` as they return. `pending` (job id -> episode label) holds the
 * jobs not stored yet; each stored job leaves it. Receipts are numbered from the store's count.
 */
export class ResultsWriter {
  /** Episodes stored by this writer. */
  stored = 0;
  /** Results ignored: a second copy of a stored episode, or a result of another run or of no pending job. */
  duplicates = 0;
  /** The first refused credential a result reported (`EpisodeResultMessage.stopped`). */
  stopped: string | undefined;
  private readonly storedIds = new Set<string>();
  private readonly unpacker = new ReceiptUnpacker();
  private readonly batch: StoreBatch;
  private seq: number;

  /**
   * @param total Episodes expected this attempt (passed to `onStored`).
   * @param onStored Called after each episode is committed: stored count this attempt, `total`, the message.
   */
  constructor(
    private readonly store: RunStore,
    private readonly runId: string,
    readonly pending: Map<string, string>,
    private readonly total: number,
    private readonly onStored?: (done: number, total: number, msg: EpisodeResultMessage) => void,
  ) {
    this.batch = new StoreBatch(store);
    this.seq = store.receiptCount(runId);
  }

  /**
   * Stores `msg` unless it is a duplicate; resolves once it is committed: `stored`, or `refused`
   * when it is the first result reporting a refused credential (also stored). Rejects with the
   * store's error (the episode stays pending).
   * @throws Error when its packed receipts are malformed.
   */
  async write(msg: EpisodeResultMessage): Promise<WriteOutcome> {
    const episodeId = msg.episode.episode_id;
    if (msg.run_id !== this.runId || !this.pending.has(msg.job_id) || this.storedIds.has(episodeId)) {
      this.duplicates++;
      return 'duplicate';
    }
    this.storedIds.add(episodeId);
    const runId = this.runId;
    await this.batch.add(this.unpacker.unpack(msg.receipts).map((r) => ({ ...r, run_id: runId, seq: this.seq++ })), { ...msg.episode, run_id: runId });
    this.pending.delete(msg.job_id);
    this.stored++;
    const refused = msg.stopped !== undefined && this.stopped === undefined;
    if (msg.stopped) this.stopped ??= msg.stopped;
    this.onStored?.(this.stored, this.total, msg);
    return refused ? 'refused' : 'stored';
  }
}
