/**
 * The optimiser loop in process (seed campaign suite, scripted model): byte-identical release
 * records for the same seed, resume after a kill without repeating finished rollouts, static
 * rejections with their reasons in the record and in the proposer's rejected-intent journal,
 * budget stops at a candidate boundary and the pre-flight warning, provider faults as
 * insufficient evidence, and the canary lifecycle (stable untouched until a promotion).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/optimizer/journal.js';
import { runIdentity } from '../../src/optimizer/config.js';
import { preflightEstimate } from '../../src/optimizer/budget.js';
import { recordBytes, verifyRecord } from '../../src/release/record.js';
import { InProcessModel, optimizerHandler, type ProposerMode } from '../support/optimizer-model.js';
import { optimizeInProcess, seedConfig } from '../support/optimizer-run.js';
import { CANDIDATE_PROMPT, STABLE_PROMPT } from '../support/prompt-sensitive-model.js';
import { tmpDir } from '../support/paths.js';
import { applyEdits } from '../../src/optimizer/apply-edits.js';
import { sha256Hex } from '../../src/util/canonical.js';
import { optimizeReport } from '../../src/cli/optimize-report.js';

const journalLines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);

describe('reproducibility', () => {
  it('the same seed and the same model answers give byte-identical release records (and files)', async () => {
    const [a, b] = [tmpDir('sg-opt-a-'), tmpDir('sg-opt-b-')];
    const r1 = await optimizeInProcess({ outDir: a });
    const r2 = await optimizeInProcess({ outDir: b });
    expect(r1.decision).toBe('release_to_canary');
    expect(r1.releases.length).toBeGreaterThan(0);
    expect(r1.releases.map(recordBytes)).toEqual(r2.releases.map(recordBytes));
    expect(r1.releases.every(verifyRecord)).toBe(true);
    const files = fs.readdirSync(path.join(a, 'releases')).sort();
    expect(files).toEqual(fs.readdirSync(path.join(b, 'releases')).sort());
    for (const f of files) expect(fs.readFileSync(path.join(a, 'releases', f))).toEqual(fs.readFileSync(path.join(b, 'releases', f)));
    // A different seed gives a different split and different records.
    const r3 = await optimizeInProcess({ config: seedConfig({ seed: 2 }) });
    expect(r3.splits).not.toEqual(r1.splits);
  });

  it('the release record carries edits with evidence, outcomes per case and trial, statistics, seeds, pins, costs and the diff', async () => {
    const r = await optimizeInProcess();
    const rec = r.releases.find((x) => x.decision === 'release_to_canary')!;
    expect(rec.parent.sha256).toBe(r.stable.sha256);
    expect(rec.edits).toHaveLength(1);
    expect(rec.edits[0]).toMatchObject({ intent: 'clarify-rule', clause: 'S2.4' });
    expect((rec.edits[0] as any).evidence[0].quote).toContain('乘客对政策不满');
    expect(rec.outcomes.gate.length).toBe(r.splits.gate.length * 4);
    expect(rec.outcomes.sealed.length).toBe(r.splits.sealed.length * 8);
    expect(rec.outcomes.gate[0]).toMatchObject({ trial: 0, parent: { valid: true }, candidate: { valid: true } });
    expect((rec.statistics as any).gate[0].stats.boundary.p_value).toBeLessThan(0.01);
    expect((rec.statistics as any).pass_k.candidate['pass^4']).not.toBeNull();
    expect((rec.statistics as any).pass_k.candidate['pass^8']).toBeNull();
    expect(rec.models).toMatchObject({ pins: { agent: 'mock-model', proposer: 'mock-model' } });
    expect(Object.keys((rec.costs as any).by_role).sort()).toEqual(['coding_agent', 'llm_judge', 'task_agent']);
    expect(rec.diff).toContain('+4. 客户满意度是第一位的。为避免激化矛盾，绝不因政策争议');
    expect(rec.seeds).toMatchObject({ run: 1 });
  });
});

describe('minimality pass (leave-one-edit-out ablation)', () => {
  it("a released two-edit candidate carries each edit's marginal delta; the no-op edit is flagged, the fix is not", async () => {
    const r = await optimizeInProcess({ model: new InProcessModel('mock-model', optimizerHandler({ proposer: 'fix_and_noop' })) });
    expect(r.decision).toBe('release_to_canary');
    const rec = r.releases.find((x) => x.decision === 'release_to_canary')!;
    expect(rec.edits).toHaveLength(2);
    const ab = (rec.statistics as any).ablation;
    expect(ab).toMatchObject({ trials: 4, cases: r.splits.gate.length });
    const [fix, noop] = ab.edits;
    expect(fix).toMatchObject({ index: 0, separable: true, contributes: true, pairs: r.splits.gate.length * 4 });
    expect(fix.delta).toBeGreaterThan(0);
    expect(fix.delta).toBe(fix.candidate_successes - fix.without_successes);
    expect(noop).toMatchObject({ index: 1, separable: true, contributes: false, critical_without: 0 });
    expect(noop.delta).toBeLessThanOrEqual(0);
    expect(ab.no_measured_contribution).toEqual([1]);
    expect(rec.reasons).toContain(`ablation: edit 2 (${(rec.edits[1] as any).clause}) showed no measured contribution on the gate cases; review it before promotion`);
    // The released text is still the gated one: both edits are in its diff.
    expect(rec.diff).toContain('+4. 客户满意度是第一位的。为避免激化矛盾，绝不因政策争议');
  });

  it('trials.ablation is at most look2, counted in the pre-flight worst case, and not part of the run identity', () => {
    expect(() => seedConfig({ trials: { ablation: 9 } })).toThrow(/need ablation ≤ look2/);
    const a = seedConfig({ trials: { ablation: 2 } });
    const b = seedConfig({ trials: { ablation: 8 } });
    expect(runIdentity(a)).toBe(runIdentity(b));
    expect(runIdentity(a)).toBe(runIdentity(seedConfig()));
    const splits = { feedback: ['f1'], gate: ['g1', 'g2', 'g3'], sealed: [] };
    expect(preflightEstimate(b, splits).ablation_rollouts).toBe(b.search.max_edits * 3 * 8);
    expect(preflightEstimate(seedConfig({ trials: { ablation: 0 } }), splits).ablation_rollouts).toBe(0);
  });

  it('a one-edit candidate is compared with its parent, whose gate rollouts are reused; trials.ablation 0 switches it off', async () => {
    const r = await optimizeInProcess();
    const rec = r.releases.find((x) => x.decision === 'release_to_canary')!;
    const ab = (rec.statistics as any).ablation;
    expect(ab.edits).toHaveLength(1);
    expect(ab.edits[0]).toMatchObject({ index: 0, contributes: true });
    const off = await optimizeInProcess({ config: seedConfig({ trials: { ablation: 0 } }) });
    const offRec = off.releases.find((x) => x.decision === 'release_to_canary')!;
    expect((offRec.statistics as any).ablation).toBeUndefined();
    expect(off.budget.use.rollouts).toBe(r.budget.use.rollouts);
  });
});

describe('resume', () => {
  it('a run killed mid-round resumes to the same decision and records without re-running finished rollouts or proposals', async () => {
    const refDir = tmpDir('sg-opt-ref-');
    const refJournal = Journal.open(path.join(refDir, 'events.jsonl'), { resume: false });
    const ref = await optimizeInProcess({ journal: refJournal });
    const refModel = new InProcessModel('mock-model', optimizerHandler());
    await optimizeInProcess({ model: refModel });
    const total = refModel.calls;

    const dir = tmpDir('sg-opt-kill-');
    const file = path.join(dir, 'events.jsonl');
    const killAt = Math.floor(total * 0.6);
    const killer = new InProcessModel('mock-model', optimizerHandler(), { kill: (i) => i === killAt });
    await expect(optimizeInProcess({ model: killer, journal: Journal.open(file, { resume: false }) })).rejects.toThrow(/^killed at call \d+$/);
    const before = journalLines(file);
    const doneRollouts = before.filter((l) => JSON.parse(l).type === 'rollout').length;
    const doneProposals = before.filter((l) => JSON.parse(l).type === 'proposal').length;
    expect(doneRollouts).toBeGreaterThan(0);
    expect(doneRollouts).toBeLessThan(ref.freshRollouts);

    // Without --resume the journal is refused.
    expect(() => Journal.open(file, { resume: false })).toThrow(/pass --resume/);
    const resumed = await optimizeInProcess({ journal: Journal.open(file, { resume: true }) });
    expect(resumed.decision).toBe(ref.decision);
    expect(resumed.releases.map(recordBytes)).toEqual(ref.releases.map(recordBytes));
    expect(resumed.freshRollouts).toBe(ref.freshRollouts - doneRollouts);
    expect(resumed.freshProposals).toBe(ref.freshProposals - doneProposals);
    // Append-only: the killed run's lines are the resumed journal's prefix.
    const after = journalLines(file);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.length).toBe(journalLines(path.join(refDir, 'events.jsonl')).length);
  });

  it('a cross-run rollout cache serves a second run for free (no episode run, no budget spent on cached rollouts)', async () => {
    const cacheFile = path.join(tmpDir('sg-opt-cache-'), 'cache.jsonl');
    const first = await optimizeInProcess({ cache: Journal.open(cacheFile, { resume: true }) });
    const second = await optimizeInProcess({ cache: Journal.open(cacheFile, { resume: true }) });
    expect(second.freshRollouts).toBe(0);
    expect(second.budget.use.rollouts).toBe(0);
    expect(second.releases.map(recordBytes)).toEqual(first.releases.map(recordBytes));
  });

  it('a journal line that is no event, or a proposal receipt with an unknown key, is refused naming the line', async () => {
    const dir = tmpDir('sg-opt-journal-');
    const file = path.join(dir, 'events.jsonl');
    await optimizeInProcess({ journal: Journal.open(file, { resume: false }) });
    const lines = journalLines(file);
    const at = lines.findIndex((l) => JSON.parse(l).type === 'proposal');
    const tampered = JSON.parse(lines[at]);
    tampered.receipt.headers = { authorization: 'Bearer sk-not-real' };
    fs.writeFileSync(file, [...lines.slice(0, at), JSON.stringify(tampered), ...lines.slice(at + 1)].join('\n') + '\n');
    expect(() => Journal.open(file, { resume: true })).toThrow(`${file}: line ${at + 1}: $.receipt: Unrecognized key: "headers"`);
    fs.writeFileSync(file, '{"type":"mystery","key":"x"}\n');
    expect(() => Journal.open(file, { resume: true })).toThrow(/line 1 is not a journal event/);
  });

  it('a torn last line (kill mid-write) is dropped on resume', () => {
    const file = path.join(tmpDir('sg-opt-torn-'), 'events.jsonl');
    fs.writeFileSync(file, '{"type":"note","key":"a","text":"x"}\n{"type":"rollout","key":"b","rol');
    const j = Journal.open(file, { resume: true });
    expect(j.events()).toHaveLength(1);
    j.append({ type: 'note', key: 'c', text: 'y' });
    expect(journalLines(file)).toEqual(['{"type":"note","key":"a","text":"x"}', '{"type":"note","key":"c","text":"y"}']);
  });
});

describe('static rejections and the proposer memory', () => {
  it('rejects a quote not in the cited trajectory, a non-unique old_str and a copied order number, with reasons in the records and the rejected-intent journal', async () => {
    const modes: ProposerMode[] = ['bad_quote', 'non_unique', 'copy_token'];
    const requests: any[] = [];
    const inner = optimizerHandler({ proposer: ({ round, index }) => (round === 1 ? modes[index] : 'fix') });
    const model = new InProcessModel('mock-model', (body, ctx) => {
      if (body.tool_choice) requests.push(body);
      return inner(body, ctx);
    });
    const r = await optimizeInProcess({ model });
    const statics = r.releases.filter((x) => x.stage === 'static');
    expect(statics.map((x) => x.decision)).toEqual(['reject', 'reject', 'reject']);
    expect(statics[0].reasons[0]).toMatch(/^edit 0: evidence quote "乘客说要投诉到民航局" does not occur in the trajectory of B\d-\S+ trial \d$/);
    expect(statics[1].reasons[0]).toBe('edit 0: old_str occurs 3 times; it must be unique');
    expect(statics[2].reasons[0]).toBe("edit 0: new_str copies the case-specific token 'ABC123' from feedback case H1-改签");
    expect((statics[1].edit_checks as any)[0]).toEqual({ index: 0, ok: false, reasons: ['old_str occurs 3 times; it must be unique'] });
    expect(statics.every((x) => x.outcomes.gate.length === 0)).toBe(true);
    // Each rejected candidate is listed under its own hash, never the stable prompt's: the text its
    // edits produce (the bad quote and the copied token apply), else its proposal (old_str not unique).
    const rejected = r.candidates.filter((c) => c.stage === 'static');
    expect(rejected).toHaveLength(3);
    expect(rejected.every((c) => c.sha256 === r.stable.sha256)).toBe(true);
    expect(new Set(rejected.map((c) => c.version)).size).toBe(3);
    for (const c of rejected) {
      expect(c.version).not.toBe(r.stable.sha256.slice(0, 12));
      expect(c.version).toBe(c.candidate_sha256.slice(0, 12));
    }
    const applied = (i: number) => applyEdits(r.stable.text, (statics[i].edits as any[]).map((e) => ({ old_str: e.old_str, new_str: e.new_str })));
    expect(rejected[0].candidate_sha256).toBe(sha256Hex(applied(0).text));
    expect(applied(1).ok).toBe(false);
    expect(rejected[2].candidate_sha256).toBe(sha256Hex(applied(2).text));
    const report = optimizeReport('seed', 'suite', r, null);
    for (const c of rejected) expect(report).toMatch(new RegExp(`^${c.version} +1 +static +reject `, 'm'));
    expect(report).not.toMatch(new RegExp(`^${r.stable.sha256.slice(0, 12)} `, 'm'));
    // Round 2 is told what was rejected, and releases the fix.
    const round2 = requests.find((b) => b.messages[1].content.includes('(round 2, proposal 1 of 3'));
    expect(round2.messages[1].content).toContain('- clause S2.4, intent clarify-rule: static: evidence quote "乘客说要投诉到民航局" does not occur');
    expect(r.decision).toBe('release_to_canary');
    expect(r.candidates.find((c) => c.decision === 'release_to_canary')!.round).toBe(2);
  });
});

describe('budget', () => {
  it('stops at a candidate boundary with a clear message, and the pre-flight warns', async () => {
    const r = await optimizeInProcess({ config: seedConfig({ budget: { max_rollouts: 70 } }) });
    expect(r.preflight).toMatchObject({ fixed_rollouts: 64, per_proposal_rollouts: 56, gated_proposals_fit: 0 });
    expect(r.preflight.warning).toContain('only 0 gated proposal(s) fit the budget');
    expect(r.budgetStopped).toBe(true);
    expect(r.stopReason).toBe('budget: max_rollouts cap 70 would be exceeded (16 used, the next step needs up to 104); stopped at a candidate boundary');
    expect(r.candidates).toEqual([]);
    expect(r.budget.use.rollouts).toBe(16);
    expect(r.decision).toBe('insufficient_evidence');
  });

  it('warns when fewer than three gated proposals fit, and caps proposer calls', async () => {
    const r = await optimizeInProcess({ config: seedConfig({ budget: { max_rollouts: 200, max_proposer_calls: 2 } }), handler: { proposer: 'noop' } });
    expect(r.preflight.gated_proposals_fit).toBe(2);
    expect(r.preflight.warning).toBe('pre-flight: only 2 gated proposal(s) fit the budget (stable prompt 64 rollouts, up to 56 per proposal, max_rollouts 200, max_proposer_calls 2); three need 232 rollouts and 3 proposer calls');
    expect(r.budget.use.proposer_calls).toBe(2);
    expect(r.stopReason).toBe('budget: max_proposer_calls cap 2 would be exceeded (2 used, the next step needs up to 1); stopped at a candidate boundary');
    // The two proposals made were still evaluated to a decision.
    expect(r.candidates).toHaveLength(2);
    expect(r.budget.use.rollouts).toBeLessThanOrEqual(200);
  });

  it('stops on the token cap, projected from the tokens spent per rollout so far', async () => {
    const r = await optimizeInProcess({ config: seedConfig({ budget: { max_tokens: 60000 } }) });
    expect(r.budgetStopped).toBe(true);
    expect(r.stopReason).toMatch(/^budget: max_tokens cap 60000 would be exceeded \(\d+ used, the next step needs up to \d+(\.\d+)?\); stopped at a candidate boundary$/);
    expect(r.budget.use.tokens).toBeLessThanOrEqual(60000);
  });
});

describe('provider faults', () => {
  it('are insufficient evidence, never a rejection; resuming after the outage reaches a decision', async () => {
    const file = path.join(tmpDir('sg-opt-outage-'), 'events.jsonl');
    const flaky = new InProcessModel('mock-model', optimizerHandler(), { fail: (i, role) => role === 'task_agent' && i > 40 && i % 3 === 0 });
    const r = await optimizeInProcess({ model: flaky, journal: Journal.open(file, { resume: false }), config: seedConfig({ search: { rounds: 1 } }) });
    expect(r.decision).toBe('insufficient_evidence');
    expect(r.candidates.length).toBeGreaterThan(0);
    expect(r.candidates.every((c) => c.decision === 'insufficient_evidence')).toBe(true);
    expect(r.candidates[0].reasons[0]).toMatch(/paired rollouts valid \(provider failures are not scored\)/);
    const again = await optimizeInProcess({ journal: Journal.open(file, { resume: true }), config: seedConfig({ search: { rounds: 1 } }) });
    expect(again.decision).toBe('release_to_canary');
  });

  it('a provider that is down from the start gives insufficient_evidence, not a rejection', async () => {
    const down = new InProcessModel('mock-model', optimizerHandler(), { fail: () => true });
    const r = await optimizeInProcess({ model: down });
    expect(r.decision).toBe('insufficient_evidence');
    expect(r.stopReason).toMatch(/^insufficient evidence: 16 of 16 feedback rollouts of [0-9a-f]{12} failed for infrastructure reasons \(first: ProviderError: task_agent call to memory:\/\/mock\/v1\/chat\/completions failed: 500 mock outage\)$/);
    expect(r.candidates).toEqual([]);
  });
});

describe('release lifecycle', () => {
  it('release_to_canary leaves the stable prompt untouched; a simulated canary promotes and only then rewrites stable', async () => {
    const dir = tmpDir('sg-opt-life-');
    const r = await optimizeInProcess({ outDir: dir });
    expect(r.decision).toBe('release_to_canary');
    expect(fs.readFileSync(path.join(dir, 'stable.txt'), 'utf8')).toBe(STABLE_PROMPT);
    expect(r.entries.map((e) => [e.state, e.decision])).toEqual([['stable', null], ['canary', 'release_to_canary']]);

    const dir2 = tmpDir('sg-opt-canary-');
    const c = await optimizeInProcess({ outDir: dir2, config: seedConfig({ canary: { simulate: true, min_episodes: 60, max_episodes: 200 } }) });
    expect(c.canary!.decision.decision).toBe('promote');
    expect(c.canary!.record!.decision).toBe('promote');
    expect(c.entries.map((e) => [e.state, e.decision])).toEqual([['stable', null], ['canary', 'release_to_canary'], ['stable', 'promote'], ['retired', 'promote']]);
    const promoted = c.candidates.find((x) => x.decision === 'release_to_canary')!;
    expect(fs.readFileSync(path.join(dir2, 'stable.txt'), 'utf8')).toBe(promoted.text);
    expect(promoted.text).not.toBe(STABLE_PROMPT);
    // Canary episodes are outside the optimisation budget.
    expect(c.budget.use.rollouts).toBe(r.budget.use.rollouts);
    expect(CANDIDATE_PROMPT).toContain('绝不因政策争议');
  });
});
