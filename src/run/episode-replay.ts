/**
 * Resuming episodes that were in flight when a one-process `run` died (`run --resume`).
 *
 * Every receipt of such a run is stored as its call returns, with the episode key of the call that
 * made it (task, trial, persona, attempt, call index: `ReceiptEpisodeKey` in
 * src/store/receipt-tables.ts). An episode that runs again (it has no stored row, or its row holds
 * an infrastructure error) is served its own stored receipts, in call order, while each request it
 * sends is the stored request (canonical JSON, as the cassette replay compares them:
 * src/models/replay.ts); from the first call that differs, or that has no stored receipt, it calls
 * the live model. Served calls are not sent, not stored again, and not paid again. Receipts are
 * looked up by episode key only, never by request: trials of one task send byte-identical first
 * requests, and each gets the answers it got itself.
 *
 * One episode's stored calls may span attempts: a call index stored by a later attempt replaces
 * what earlier attempts stored from that index on (the later attempt went live from there).
 */
import type { ModelRole } from '../spec/messages.js';
import type { Receipt } from '../spec/receipt.js';
import { withModel, type ChatModel, type ChatRequestInput, type ModelCallResult } from '../models/chat-model.js';
import { UsageTracker, type UsageByRole } from '../models/usage.js';
import type { ReceiptRow } from '../store/store.js';
import type { Usage } from '../spec/messages.js';
import { canonicalJson } from '../util/canonical.js';

/** Map key of an episode: task, trial and persona (null without personas). */
export function episodeKeyText(taskId: string, trial: number, persona: string | null): string {
  return `${taskId}\u0000${trial}\u0000${persona ?? ''}`;
}

/**
 * The calls each episode stored, in call order: for every episode key among `receipts` (those
 * without a key are left out) whose episode `runsAgain(taskId, trial)`, the receipts ordered by
 * `seq`, a later receipt at call index i dropping what the chain held from i on. A chain that would
 * have a gap (a call index past its end) stops before it.
 */
export function storedCalls(receipts: readonly ReceiptRow[], runsAgain: (taskId: string, trial: number) => boolean): Map<string, ReceiptRow[]> {
  const chains = new Map<string, ReceiptRow[]>();
  const broken = new Set<string>();
  for (const r of [...receipts].sort((a, b) => a.seq - b.seq)) {
    const e = r.episode;
    if (!e || !runsAgain(e.task_id, e.trial)) continue;
    const key = episodeKeyText(e.task_id, e.trial, e.persona);
    let chain = chains.get(key);
    if (!chain) chains.set(key, (chain = []));
    if (e.call < chain.length) {
      chain.length = e.call;
      broken.delete(key);
    }
    if (broken.has(key)) continue;
    if (e.call === chain.length) chain.push(r);
    else broken.add(key);
  }
  for (const [key, chain] of chains) if (chain.length === 0) chains.delete(key);
  return chains;
}

/** One episode's stored calls, served in order to the models it is given ({@link EpisodeReplay.wrap}). */
export class EpisodeReplay {
  private next = 0;
  private live = false;
  private readonly given = new WeakSet<Receipt>();
  /** Usage of the calls served (not sent again). */
  readonly usage = new UsageTracker();

  constructor(
    private readonly chain: readonly ReceiptRow[],
    private readonly onServe: (row: ReceiptRow, role: ModelRole) => void,
  ) {}

  /** Whether `receipt` was served from the stored calls (it is stored already). */
  served(receipt: Receipt): boolean {
    return this.given.has(receipt);
  }

  /** Calls served so far. */
  get servedCalls(): number {
    return this.next;
  }

  /** `model` answering this episode's calls: stored answers while they match, then `model` itself. */
  wrap(model: ChatModel): ChatModel {
    return {
      provider: model.provider,
      endpoint: model.endpoint,
      model: model.model,
      complete: (request, role) => this.complete(model, request, role),
    };
  }

  private async complete(model: ChatModel, input: ChatRequestInput, role: ModelRole): Promise<ModelCallResult> {
    const stored = this.live ? undefined : this.chain[this.next];
    if (stored && stored.kind === role) {
      const request = withModel(model.model, input);
      if (canonicalJson(request) === canonicalJson(stored.request)) {
        this.next++;
        const response = stored.response as ModelCallResult['response'];
        const receipt: Receipt = { kind: role, provider: stored.provider, endpoint: stored.endpoint, request, response, elapsed_seconds: stored.elapsed_seconds };
        this.given.add(receipt);
        this.usage.add(role, (response as { usage?: Usage }).usage, stored.elapsed_seconds);
        this.onServe(stored, role);
        return { response, elapsedSeconds: stored.elapsed_seconds, receipt };
      }
    }
    this.live = true;
    return model.complete(input, role);
  }
}

/** The stored calls of a resumed run's episodes, handed out once per episode ({@link take}). */
export class EpisodeReplays {
  /** `seq` of every stored receipt served. */
  readonly servedSeqs = new Set<number>();
  /** Usage of every call served (included in the episodes' usage; paid by the attempt that stored it). */
  readonly usage = new UsageTracker();
  /** Episodes that were served at least one stored call. */
  episodes = 0;
  private readonly taken = new Set<string>();

  constructor(private readonly chains: ReadonlyMap<string, readonly ReceiptRow[]>) {}

  /** Episodes with stored calls. */
  get size(): number {
    return this.chains.size;
  }

  /** The replay of this episode's stored calls, or undefined when it stored none (or was taken). */
  take(taskId: string, trial: number, persona: string | null): EpisodeReplay | undefined {
    const key = episodeKeyText(taskId, trial, persona);
    const chain = this.chains.get(key);
    if (!chain || this.taken.has(key)) return undefined;
    this.taken.add(key);
    let first = true;
    return new EpisodeReplay(chain, (row, role) => {
      if (first) this.episodes++;
      first = false;
      this.servedSeqs.add(row.seq);
      this.usage.add(role, (row.response as { usage?: Usage } | null)?.usage, row.elapsed_seconds);
    });
  }

  /** Usage of the calls served, per role (empty when none). */
  servedUsage(): UsageByRole {
    return this.usage.byRole;
  }
}

/** An episode in progress: its persona, the model calls it has made (served ones included), its replay. */
export interface RunningEpisode {
  persona: string | null;
  calls: number;
  replay?: EpisodeReplay;
}

/**
 * The episodes of a run in progress, by task and trial: each is begun when its parties are made
 * (it then takes its stored calls from `replays`, if any) and ended when it is stored. They number
 * the episode's calls for the receipts' episode keys.
 */
export class RunningEpisodes {
  private readonly running = new Map<string, RunningEpisode>();

  constructor(
    private readonly personaOf: (taskId: string, trial: number) => string | null,
    private readonly replays?: EpisodeReplays,
  ) {}

  /** The episode of this task and trial, begun on first ask. */
  begin(taskId: string, trial: number): RunningEpisode {
    const k = `${taskId}\u0000${trial}`;
    let ep = this.running.get(k);
    if (!ep) {
      const persona = this.personaOf(taskId, trial);
      this.running.set(k, (ep = { persona, calls: 0, replay: this.replays?.take(taskId, trial, persona) }));
    }
    return ep;
  }

  /** The episode in progress, or undefined. */
  get(taskId: string, trial: number): RunningEpisode | undefined {
    return this.running.get(`${taskId}\u0000${trial}`);
  }

  /** Ends the episode; returns it (undefined when it was never begun). */
  end(taskId: string, trial: number): RunningEpisode | undefined {
    const ep = this.get(taskId, trial);
    this.running.delete(`${taskId}\u0000${trial}`);
    return ep;
  }

  /** `model` as the episode of this task and trial calls it: its stored calls first, when it has any. */
  model<M extends ChatModel | undefined>(taskId: string, trial: number, model: M): M | ChatModel {
    const replay = this.begin(taskId, trial).replay;
    return model && replay ? replay.wrap(model) : model;
  }
}
