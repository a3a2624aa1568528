/**
 * Turning a stage verdict into a decision: the hashed release record (edits with evidence,
 * per-case × trial outcomes, statistics, seeds, model pins, costs per role, unified diff), the
 * lifecycle entry, the prompt and record files, the journal line, and the proposer's memory (the
 * per-case ledger and the journal of rejected intents).
 */
import fs from 'node:fs';
import path from 'node:path';
import { mergeUsage } from '../run/run-tasks.js';
import { isoSeconds, type Clock } from '../util/clock.js';
import { unifiedDiff } from '../util/unified-diff.js';
import { canonicalHash, sha256Hex } from '../util/canonical.js';
import { recordBytes, sealRecord, type PairRow, type ReleaseDecision, type ReleaseRecord, type ReleaseRecordBody, type ReleaseStage } from '../release/record.js';
import { stateAfter, versionOf, type ReleaseEntry } from '../release/lifecycle.js';
import { proposerTemperature, type OptimizeConfig } from './config.js';
import type { Journal } from './journal.js';
import type { ProposedCandidate } from './propose.js';
import type { LedgerEntry, RejectedIntent } from './proposer.js';
import type { RolloutBook } from './rollout-book.js';
import type { Splits } from './splits.js';
import type { GateRun, ScreenResult } from './stages.js';
import type { GateResult } from './gate.js';
import type { AblationReport } from './ablation.js';
import { usageWithoutLatency, type Suite } from './suite.js';
import { passKCurve } from './stats.js';

/** A stage's verdict, as {@link Decider.decide} takes it. */
export interface DecisionInput {
  decision: ReleaseDecision;
  stage: ReleaseStage;
  reasons: string[];
  screen?: ScreenResult;
  gate?: GateRun;
  confirm?: { result: GateResult | null; rows: PairRow[] };
  /** Leave-one-edit-out ablation of a releasable candidate. */
  ablation?: AblationReport | null;
  /** Paired outcomes on the gate cases from a protocol's own gate (when no statistical gate ran). */
  gateRows?: PairRow[];
  /** That gate's checks and metrics, recorded under `statistics` (e.g. `seed_gate`). */
  statistics?: Record<string, unknown>;
}

/** A decided candidate (the run's summary row). */
export interface CandidateDecision {
  /** SHA-256 of the text that was evaluated (the parent's for a patch rejected by the static checks). */
  sha256: string;
  /** The candidate's own hash: see {@link candidateOwnSha256}. */
  candidate_sha256: string;
  /** First 12 hex digits of `candidate_sha256` (what reports show in their candidate column). */
  version: string;
  round: number;
  proposal: number;
  lineage_parent: string;
  decision: ReleaseDecision;
  stage: ReleaseStage;
  reasons: string[];
  added_tokens: number;
  release_sha256: string;
  text: string;
}

/**
 * A candidate's own hash, which tells proposals apart even when the static checks rejected one
 * (its evaluated text is then its parent's): the SHA-256 of its prompt text when its edits apply
 * (also when a check rejected them), else the canonical hash of the proposal itself (its edits and
 * rationale), since a patch that does not apply has no text.
 */
export function candidateOwnSha256(c: Pick<ProposedCandidate, 'check' | 'sha256' | 'edits' | 'rationale'>): string {
  if (c.check.ok) return c.sha256;
  if (c.check.appliedText !== undefined) return sha256Hex(c.check.appliedText);
  return canonicalHash({ edits: c.edits, rationale: c.rationale });
}

/** What the decider needs from the run. */
export interface DeciderOptions {
  config: OptimizeConfig;
  identity: string;
  suite: Suite;
  splits: Splits;
  stable: { sha256: string; text: string };
  pins: Record<string, string | null>;
  book: RolloutBook;
  journal: Journal;
  clock: Clock;
  outDir: string | null;
  log: (line: string) => void;
}

const successes = (rows: readonly PairRow[], side: 'parent' | 'candidate') => {
  const m = new Map<string, boolean[]>();
  for (const r of rows) if (r.parent.valid && r.candidate.valid) m.set(r.case_id, [...(m.get(r.case_id) ?? []), r[side].success]);
  return m;
};

/** A/A noise floor: |success rate of the first half of the parent's trials − the second half| over gate rows. */
function aaFloor(rows: readonly PairRow[]): number | null {
  const valid = rows.filter((r) => r.parent.valid);
  if (valid.length === 0) return null;
  const k = Math.max(...valid.map((r) => r.trial)) + 1;
  const half = (lo: boolean) => valid.filter((r) => (r.trial < k / 2) === lo);
  const rate = (xs: PairRow[]) => (xs.length ? xs.filter((r) => r.parent.success).length / xs.length : 0);
  return k < 2 ? null : Math.abs(rate(half(true)) - rate(half(false)));
}

/** Builds, writes and remembers decisions; see the module doc. */
export class Decider {
  readonly candidates: CandidateDecision[] = [];
  readonly records: ReleaseRecord[] = [];
  readonly entries: ReleaseEntry[] = [];

  constructor(private readonly o: DeciderOptions) {
    this.entries.push({
      version: versionOf(o.stable.sha256), sha256: o.stable.sha256, state: 'stable', parent_sha256: null, decision: null,
      release_sha256: null, decided_at: this.now(), source: o.suite.stableSource,
    });
    this.writePrompt(o.stable.sha256, o.stable.text);
    if (o.outDir && !fs.existsSync(path.join(o.outDir, 'stable.txt'))) fs.writeFileSync(path.join(o.outDir, 'stable.txt'), o.stable.text);
  }

  private now(): string {
    return isoSeconds(this.o.clock.nowSeconds());
  }

  private writePrompt(sha: string, text: string): void {
    if (!this.o.outDir) return;
    const dir = path.join(this.o.outDir, 'prompts');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${versionOf(sha)}.txt`);
    if (!fs.existsSync(file)) fs.writeFileSync(file, text);
  }

  /** The record's common parts. */
  private body(c: { sha256: string; text: string; lineageParent: string | null; round: number | null; index: number | null }, d: { decision: ReleaseDecision; stage: ReleaseStage; reasons: string[] }, extra: Partial<ReleaseRecordBody>): ReleaseRecordBody {
    const cfg = this.o.config;
    return {
      schema: 'servicegym.release/1',
      run: { name: cfg.name, identity: this.o.identity, seed: cfg.seed, suite: this.o.suite.id },
      decision: d.decision,
      stage: d.stage,
      reasons: d.reasons,
      parent: { sha256: this.o.stable.sha256, role: 'stable' },
      candidate: { sha256: c.sha256, lineage_parent_sha256: c.lineageParent, round: c.round, proposal: c.index },
      edits: [],
      edit_checks: [],
      rationale: '',
      outcomes: { screen: [], gate: [], sealed: [] },
      statistics: {},
      seeds: { run: cfg.seed, split: `derived from run seed ${cfg.seed}`, trial_streams: { feedback_screen_gate: 'trial', sealed: 'sealed', canary: 'canary' } },
      splits: this.o.splits,
      models: { pins: this.o.pins, temperature: cfg.models.agent.temperature ?? 0, proposer_temperature: proposerTemperature(cfg), harness: this.o.suite.harnessVersion },
      costs: {},
      diff: unifiedDiff(this.o.stable.text, c.text, 'system_prompt.txt (stable)', 'system_prompt.txt (candidate)'),
      ...extra,
    };
  }

  private seal(body: ReleaseRecordBody, fileTag: string): ReleaseRecord {
    const record = sealRecord(body);
    this.records.push(record);
    if (this.o.outDir) {
      const dir = path.join(this.o.outDir, 'releases');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${fileTag}.json`), recordBytes(record));
    }
    return record;
  }

  /** Records a candidate's decision; updates the ledger and the rejected-intent journal. */
  decide(c: ProposedCandidate, d: DecisionInput, rejected: RejectedIntent[], ledger: LedgerEntry[]): CandidateDecision {
    const gateRows = d.gate?.rows ?? d.gateRows ?? [];
    // Sorted, so float cost sums do not depend on the order rollouts finished in.
    const rollouts = [...(this.o.book.byPrompt.get(c.sha256) ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
    const costs = mergeUsage([c.usage, ...rollouts.map((r) => r.usage)]);
    const statistics: Record<string, unknown> = {
      added_tokens: c.addedTokens,
      screen: d.screen ? { verdict: d.screen.verdict, net_new_successes: d.screen.net_new_successes, reasons: d.screen.reasons } : null,
      gate: d.gate ? d.gate.looks.map((l, i) => ({ look: i + 1, verdict: l.verdict, checks: l.checks, stats: l.stats })) : null,
      confirmation: d.confirm?.result ? { verdict: d.confirm.result.verdict, checks: d.confirm.result.checks, stats: d.confirm.result.stats } : null,
      pass_k: d.gate ? { parent: passKCurve(successes(gateRows, 'parent')), candidate: passKCurve(successes(gateRows, 'candidate')) } : null,
      aa_noise_floor: d.gate ? aaFloor(gateRows) : null,
      ...(d.ablation ? { ablation: d.ablation } : {}),
      ...d.statistics,
    };
    const record = this.seal(
      this.body({ sha256: c.sha256, text: c.text, lineageParent: c.lineageParent, round: c.round, index: c.index }, d, {
        edits: c.edits,
        edit_checks: c.check.edits,
        rationale: c.rationale,
        outcomes: { screen: d.screen?.rows ?? [], gate: gateRows, sealed: d.confirm?.rows ?? [] },
        statistics,
        costs: { by_role: usageWithoutLatency(costs) },
      }),
      `${String(c.index).padStart(3, '0')}-${versionOf(c.sha256)}`,
    );
    if (c.check.ok) this.writePrompt(c.sha256, c.text);
    const own = candidateOwnSha256(c);
    const out: CandidateDecision = {
      sha256: c.sha256, candidate_sha256: own, version: versionOf(own), round: c.round, proposal: c.index, lineage_parent: c.lineageParent,
      decision: d.decision, stage: d.stage, reasons: d.reasons, added_tokens: c.addedTokens, release_sha256: record.sha256, text: c.text,
    };
    this.candidates.push(out);
    // The lifecycle entry is the evaluated text's: one identical to its parent is no version of its own.
    this.entries.push({
      version: versionOf(c.sha256), sha256: c.sha256, state: stateAfter(d.decision), parent_sha256: this.o.stable.sha256, decision: d.decision,
      release_sha256: record.sha256, decided_at: this.now(), source: this.o.outDir ? path.join(this.o.outDir, 'prompts', `${versionOf(c.sha256)}.txt`) : 'memory',
    });
    this.o.journal.append({ type: 'decision', key: `decision:${c.index}:${c.sha256}`, candidate: c.sha256, decision: d.decision, stage: d.stage, release_sha256: record.sha256 });
    this.o.log(`round ${c.round} proposal ${c.index} (${out.version}): ${d.decision} at ${d.stage} — ${d.reasons[0] ?? ''}`);
    if (d.decision === 'reject') {
      c.edits.forEach((e, i) => {
        const own = c.check.edits[i]?.reasons[0];
        rejected.push({ clause: e.clause, intent: e.intent, reason: `${d.stage}: ${own ?? d.reasons[0] ?? 'rejected'}` });
      });
    }
    if (d.gate) {
      const p = successes(gateRows, 'parent');
      const k = successes(gateRows, 'candidate');
      const n = (xs: boolean[] | undefined) => (xs ?? []).filter(Boolean).length;
      const ids = [...p.keys()];
      ledger.push({ candidate: out.version, decision: d.decision, fixed: ids.filter((id) => n(k.get(id)) > n(p.get(id))), broke: ids.filter((id) => n(k.get(id)) < n(p.get(id))) });
    }
    return out;
  }

  /** Records a canary's promotion or rollback. */
  decideCanary(c: CandidateDecision, d: { decision: 'promote' | 'rollback'; reasons: string[]; statistics: Record<string, unknown>; episodes: unknown[] }): ReleaseRecord {
    const record = this.seal(
      this.body({ sha256: c.sha256, text: c.text, lineageParent: c.lineage_parent, round: c.round, index: c.proposal }, { decision: d.decision, stage: 'canary', reasons: d.reasons }, {
        outcomes: { screen: [], gate: [], sealed: [], canary: d.episodes },
        statistics: d.statistics,
      }),
      `${String(c.proposal).padStart(3, '0')}-${c.version}-${d.decision}`,
    );
    const at = this.now();
    this.entries.push({ ...this.entries.find((e) => e.sha256 === c.sha256)!, state: stateAfter(d.decision), decision: d.decision, release_sha256: record.sha256, decided_at: at });
    if (d.decision === 'promote') {
      this.entries.push({ ...this.entries[0], state: 'retired', decision: 'promote', release_sha256: record.sha256, decided_at: at });
      if (this.o.outDir) fs.writeFileSync(path.join(this.o.outDir, 'stable.txt'), c.text);
    }
    this.o.journal.append({ type: 'decision', key: `canary:${c.sha256}`, candidate: c.sha256, decision: d.decision, stage: 'canary', release_sha256: record.sha256 });
    this.o.log(`canary ${c.version}: ${d.decision} — ${d.reasons[0] ?? ''}`);
    return record;
  }
}
