/**
 * Resuming a live run: calls already recorded in the run's receipt journal are served from it
 * (so finished work is neither lost nor repeated, nor paid for twice); every other call goes to
 * the live model.
 */
import type { ModelRole } from '../spec/messages.js';
import type { Receipt } from '../spec/receipt.js';
import { ReplayMissError } from '../spec/errors.js';
import type { ChatModel, ChatRequestInput, ModelCallResult } from './chat-model.js';
import { ReplayModel } from './replay.js';

/** Serves journalled calls first (each at most once, in order), then calls the live model. */
export class ResumeModel implements ChatModel {
  readonly provider: string;
  readonly endpoint: string;
  readonly model: string;
  private readonly journal: ReplayModel;
  /** Calls served from the journal / sent live. */
  readonly counts = { fromJournal: 0, live: 0 };
  /** Receipts this model served from the journal (they are journalled already). */
  private readonly served = new WeakSet<Receipt>();

  constructor(private readonly live: ChatModel, recorded: Receipt[]) {
    this.provider = live.provider;
    this.endpoint = live.endpoint;
    this.model = live.model;
    this.journal = new ReplayModel(recorded, live.model);
  }

  /** True when `receipt` was served from the journal rather than by a live call. */
  fromJournal(receipt: Receipt): boolean {
    return this.served.has(receipt);
  }

  async complete(request: ChatRequestInput, role: ModelRole): Promise<ModelCallResult> {
    try {
      const r = await this.journal.complete(request, role);
      this.counts.fromJournal++;
      this.served.add(r.receipt);
      return r;
    } catch (e) {
      if (!(e instanceof ReplayMissError)) throw e;
    }
    this.counts.live++;
    return this.live.complete(request, role);
  }
}
