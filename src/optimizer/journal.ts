/**
 * The run journal `events.jsonl`: append-only JSON Lines, one event per finished piece of work
 * (a rollout, a proposer reply, a decision), each with a deterministic `key`. A run is a
 * deterministic function of its config, seed and model answers, so resuming is re-running with
 * the journal as a cache: finished rollouts and proposals are served from it, and events whose
 * key is already journalled are not written again. A torn last line (a kill mid-write) is
 * ignored. The same class backs the optional cross-run rollout cache file.
 *
 * Nothing secret is journalled: rollouts hold trajectories, proposals credential-free receipts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { BadInputError, jsonPath } from '../spec/errors.js';
import { ReceiptSchema, type Receipt } from '../spec/receipt.js';
import type { Rollout } from './suite.js';

/** One journal line. */
export type JournalEvent =
  | { type: 'run'; key: 'run'; identity: string; seed: number; splits: Record<string, string[]> }
  | { type: 'rollout'; key: string; rollout: Rollout }
  | { type: 'proposal'; key: string; receipt: Receipt }
  | { type: 'decision'; key: string; candidate: string; decision: string; stage: string; release_sha256: string }
  | { type: 'stop'; key: string; reason: string }
  | { type: 'note'; key: string; text: string };

const EVENT_TYPES = new Set<string>(['run', 'rollout', 'proposal', 'decision', 'stop', 'note']);

const count = z.number().int().nonnegative();
/** A journalled rollout read back is held to its shape: its numbers feed the gate's statistics and the record's hashes. */
const RolloutSchema = z.looseObject({
  case_id: z.string(),
  trial: count,
  seed: z.number().int(),
  prompt_sha256: z.string(),
  valid: z.boolean(),
  infra_error: z.string().optional(),
  success: z.boolean(),
  critical: z.array(z.string()),
  dimensions: z.record(z.string(), z.looseObject({ verdict: z.string(), evidence: z.string() })),
  termination: z.string(),
  messages: z.array(z.looseObject({ role: z.string() })),
  usage: z.record(
    z.string(),
    z.looseObject({ calls: count, prompt_tokens: count, completion_tokens: count, total_tokens: count, latency_seconds: z.number().nonnegative().optional(), provider_reported_cost_usd: z.number().nonnegative().nullable(), provider_reported_cost_observations: count }),
  ),
});

/** An append-only journal, in memory when `file` is null. */
export class Journal {
  private readonly byKey = new Map<string, JournalEvent>();
  private readonly order: JournalEvent[] = [];

  private constructor(readonly file: string | null) {}

  /**
   * Opens a journal. With `resume`, existing events are loaded; without it an existing non-empty
   * file is refused (BadInputError), so a finished run is never silently appended to or lost.
   */
  static open(file: string | null, opts: { resume: boolean }): Journal {
    const j = new Journal(file);
    if (!file) return j;
    const exists = fs.existsSync(file) && fs.statSync(file).size > 0;
    if (exists && !opts.resume) throw new BadInputError('a journal already exists here; pass --resume to continue that run, or --fresh to start over', { file });
    if (exists) {
      let text = fs.readFileSync(file, 'utf8');
      if (!text.endsWith('\n')) {
        // The torn last line of a killed run: drop it so appends start on a fresh line.
        text = text.slice(0, text.lastIndexOf('\n') + 1);
        fs.writeFileSync(file, text);
      }
      text.split('\n').forEach((line, i) => {
        if (line.trim() === '') return;
        let e: JournalEvent;
        try {
          e = JSON.parse(line) as JournalEvent;
        } catch {
          throw new BadInputError(`line ${i + 1} is not valid JSON; the journal is damaged`, { file, path: '$' });
        }
        if (!e || typeof e !== 'object' || !EVENT_TYPES.has(e.type) || typeof e.key !== 'string') {
          throw new BadInputError(`line ${i + 1} is not a journal event (a known "type" and a "key" are needed); the journal is damaged`, { file, path: '$.type' });
        }
        if (e.type === 'rollout') {
          const r = RolloutSchema.safeParse(e.rollout);
          if (!r.success) {
            const issue = r.error.issues[0];
            throw new BadInputError(`line ${i + 1}: ${issue.message}; the journal is damaged`, { file, path: jsonPath(['rollout', ...issue.path]) });
          }
        }
        if (e.type === 'proposal') {
          // A receipt read back is held to the receipt format (no unknown key such as a headers block).
          const r = ReceiptSchema.safeParse(e.receipt);
          if (!r.success) {
            const issue = r.error.issues[0];
            throw new BadInputError(`line ${i + 1}: $.receipt${issue.path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('')}: ${issue.message}`, { file });
          }
        }
        j.remember(e);
      });
    }
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    return j;
  }

  /** An invalid rollout (infrastructure fault) may be superseded by a later attempt. */
  private replaceable(key: string, e: JournalEvent): boolean {
    const old = this.byKey.get(key);
    return old?.type === 'rollout' && !old.rollout.valid && e.type === 'rollout';
  }

  private remember(e: JournalEvent): void {
    if (this.byKey.has(e.key) && !this.replaceable(e.key, e)) return;
    this.byKey.set(e.key, e);
    this.order.push(e);
  }

  /** The event with this key, if journalled. */
  get(key: string): JournalEvent | undefined {
    return this.byKey.get(key);
  }

  /** A journalled valid rollout by cache key (infrastructure faults are tried again on resume). */
  rollout(key: string): Rollout | undefined {
    const e = this.byKey.get(key);
    return e?.type === 'rollout' && e.rollout.valid ? e.rollout : undefined;
  }

  /** Appends `e` unless its key is journalled already (an invalid rollout may be superseded); returns whether it was written. */
  append(e: JournalEvent): boolean {
    if (this.byKey.has(e.key) && !this.replaceable(e.key, e)) return false;
    this.remember(e);
    if (this.file) fs.appendFileSync(this.file, JSON.stringify(e) + '\n');
    return true;
  }

  /** Every event, in journal order. */
  events(): readonly JournalEvent[] {
    return this.order;
  }
}
