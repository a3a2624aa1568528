/**
 * Where rollouts come from: the run's journal, the optional cross-run cache file, or a fresh
 * episode run by the book's {@link RolloutRunner} (in this process, or on queue workers) — in that order. Rollouts are keyed by (suite, harness version, prompt hash, case,
 * trial, trial seed, model pins, temperature), so a parent's rollouts are reused by every child
 * and pass^k never collapses trials into one cached answer. Fresh rollouts run concurrently
 * (at most `concurrency` at once) and are journalled as each finishes. A rollout that throws
 * ends the run: rollouts still queued are not started (a killed or failed run resumes from its
 * journal).
 */
import pLimit from 'p-limit';
import { canonicalHash, sha256Hex } from '../util/canonical.js';
import type { BudgetMeter } from './budget.js';
import type { Journal } from './journal.js';
import { trialSeed } from './splits.js';
import type { Rollout, Suite, SuiteModels } from './suite.js';
import { inProcessRunner, type RolloutRunner } from './rollout-runner.js';

/** One rollout to get: a case, a trial and the seed stream it draws from. */
export interface RolloutSpec {
  caseId: string;
  trial: number;
  stream: 'trial' | 'sealed' | 'canary';
}

/** Options of {@link RolloutBook}. */
export interface RolloutBookOptions {
  suite: Suite;
  models: SuiteModels;
  /** Model names per role, the pins that enter the cache key. */
  pins: Record<string, string | null>;
  runSeed: number;
  journal: Journal;
  cache?: Journal;
  budget: BudgetMeter;
  concurrency: number;
  /** Where fresh rollouts run (default: in this process, `inProcessRunner`); its `concurrency`, when set, replaces the one above. */
  runner?: RolloutRunner;
  /** Called for each rollout when it is first used by this run (fresh or from a cache). */
  onRollout?: (r: Rollout, fresh: boolean) => void;
}

/** See the module doc. */
export class RolloutBook {
  private readonly counted = new Set<string>();
  /** Every rollout this process has used, invalid ones included (not retried within a run). */
  private readonly memo = new Map<string, Promise<Rollout>>();
  private readonly limit;
  /** Rollouts of this run by prompt sha256, then `case#trial#stream`. */
  readonly byPrompt = new Map<string, Map<string, Rollout>>();
  /** Fresh episodes run by this process (not served from journal or cache). */
  fresh = 0;
  /** The first error a rollout threw (a bug, a kill, or a model error the suite propagates): no queued rollout starts after it. */
  private failure: unknown = null;
  private readonly keys = new Map<string, string>();

  private readonly runner: RolloutRunner;

  constructor(private readonly o: RolloutBookOptions) {
    this.runner = o.runner ?? inProcessRunner(o.suite, o.models);
    this.limit = pLimit(this.runner.concurrency ?? o.concurrency);
  }

  /** The cache key of a rollout (memoised: the budget asks for the same keys again and again). */
  key(promptSha: string, spec: RolloutSpec): string {
    const id = `${promptSha}\u0000${spec.caseId}\u0000${spec.trial}\u0000${spec.stream}`;
    let k = this.keys.get(id);
    if (k === undefined) this.keys.set(id, (k = this.computeKey(promptSha, spec)));
    return k;
  }

  private computeKey(promptSha: string, spec: RolloutSpec): string {
    const seed = trialSeed(this.o.runSeed, spec.stream, spec.caseId, spec.trial);
    return canonicalHash({
      suite: this.o.suite.id,
      harness: this.o.suite.harnessVersion,
      prompt_sha256: promptSha,
      case_id: spec.caseId,
      trial: spec.trial,
      stream: spec.stream,
      seed,
      models: this.o.pins,
      temperature: this.o.models.temperature,
    });
  }

  /** How many of `specs` this run has not paid for yet (the budget's worst case). */
  unpaid(prompt: string, specs: readonly RolloutSpec[]): number {
    const sha = sha256Hex(prompt);
    return specs.filter((s) => {
      const k = this.key(sha, s);
      return !this.counted.has(k) && !(this.o.cache?.rollout(k) && !this.o.journal.rollout(k));
    }).length;
  }

  /**
   * The rollouts of `prompt` on `specs`, in `specs` order. `budgeted: false` keeps them out of the
   * optimisation budget (canary traffic).
   */
  async get(prompt: string, specs: readonly RolloutSpec[], opts: { budgeted?: boolean } = {}): Promise<Rollout[]> {
    const sha = sha256Hex(prompt);
    return Promise.all(specs.map((s) => this.one(prompt, sha, s, opts.budgeted ?? true)));
  }

  private one(prompt: string, sha: string, spec: RolloutSpec, budgeted: boolean): Promise<Rollout> {
    const key = this.key(sha, spec);
    let p = this.memo.get(key);
    if (!p) {
      p = this.fetch(prompt, sha, spec, key, budgeted);
      this.memo.set(key, p);
    }
    return p;
  }

  private async fetch(prompt: string, sha: string, spec: RolloutSpec, key: string, budgeted: boolean): Promise<Rollout> {
    const fromJournal = this.o.journal.rollout(key);
    const fromCache = fromJournal ? undefined : this.o.cache?.rollout(key);
    let r = fromJournal ?? fromCache;
    if (!r) {
      const seed = trialSeed(this.o.runSeed, spec.stream, spec.caseId, spec.trial);
      r = await this.limit(async () => {
        if (this.failure !== null) throw this.failure;
        try {
          return await this.runner.run({ prompt, caseId: spec.caseId, trial: spec.trial, seed });
        } catch (e) {
          this.failure ??= e;
          throw e;
        }
      });
      this.fresh++;
      // Infrastructure faults are not cached across runs: a later run may try again.
      if (r.valid) this.o.cache?.append({ type: 'rollout', key, rollout: r });
    }
    // Cross-run cache hits stay in the cache file: journalled, they would count as paid on resume.
    if (!fromCache) this.o.journal.append({ type: 'rollout', key, rollout: r });
    if (!this.counted.has(key)) {
      this.counted.add(key);
      if (!fromCache && budgeted) this.o.budget.addRollout(r.usage);
      const m = this.byPrompt.get(sha) ?? new Map<string, Rollout>();
      m.set(`${spec.caseId}#${spec.trial}#${spec.stream}`, r);
      this.byPrompt.set(sha, m);
      this.o.onRollout?.(r, !fromJournal && !fromCache);
    }
    return r;
  }
}
