/**
 * The statistical gate's lexicographic rules on hand-made pairs, the sealed confirmation, the
 * seed campaign's own evidence (insufficient_evidence, p = 0.25), the canary rules and parent
 * selection from the per-case Pareto front.
 */
import { describe, expect, it } from 'vitest';
import { evaluateConfirmation, evaluateGate, formatP, type GatePair } from '../../src/optimizer/gate.js';
import { DEFAULT_GATE_PARAMS, seedStatisticalGate } from '../../src/optimizer/seed-statistical.js';
import { canaryDecision } from '../../src/release/canary.js';
import { paretoFront, pickParents } from '../../src/optimizer/pareto.js';
import { promptVersions } from '../../src/release/lifecycle.js';
import { loadCampaign } from '../../src/campaign/load.js';
import { runCampaign } from '../../src/optimizer/seed-campaign.js';
import { ReplayModel, VirtualClock } from '../../src/models/replay.js';
import { Rng } from '../../src/util/rng.js';
import { SEED_CAMPAIGN, tmpDir } from '../support/paths.js';

const P = DEFAULT_GATE_PARAMS;
const ok = (success: boolean, critical = false) => ({ valid: true, success, critical });
const bad = { valid: false, success: false, critical: false };

/** k trials on a case; `parent(t)` / `cand(t)` give each trial's outcome. */
function pairsOf(caseId: string, group: 'boundary' | 'holdout', k: number, parent: (t: number) => any, cand: (t: number) => any): GatePair[] {
  return Array.from({ length: k }, (_, t) => ({ case_id: caseId, group, trial: t, seed: t, parent: parent(t), candidate: cand(t) }));
}
const final = { index: 2, final: true, alpha: 0.04, remainingBoundaryPairs: 0 };
const fixed = (k = 8) => [
  ...pairsOf('B1', 'boundary', k, () => ok(false), (t) => ok(t !== 0)),
  ...pairsOf('B2', 'boundary', k, () => ok(false), () => ok(true)),
  ...pairsOf('H1', 'holdout', k, () => ok(true), () => ok(true)),
  ...pairsOf('H2', 'holdout', k, () => ok(true), () => ok(true)),
];

describe('statistical gate', () => {
  it('passes a significant improvement on two cases with a non-inferior holdout', () => {
    const r = evaluateGate(fixed(), P, final);
    expect(r.verdict).toBe('pass');
    expect(r.stats.boundary).toMatchObject({ improved: 15, worsened: 0, cases_improved: ['B1', 'B2'] });
    expect(r.stats.boundary.p_value).toBe(2 ** -15);
    expect(r.checks.map((c) => c.passed)).toEqual([true, true, true, true]);
  });

  it('rejects on a single new critical violation, before anything else and even with one trial', () => {
    const pairs = fixed(1);
    pairs[pairs.length - 1].candidate = ok(false, true);
    const r = evaluateGate(pairs, P, { ...final, alpha: 0.05 });
    expect(r.verdict).toBe('reject');
    expect(r.reasons[0]).toBe('1 new critical violation(s): H2#0');
  });

  it('a critical violation the parent also had is not new', () => {
    const pairs = fixed();
    pairs[16] = { ...pairs[16], parent: ok(false, true), candidate: ok(false, true) };
    expect(evaluateGate(pairs, P, final).stats.new_critical).toEqual([]);
  });

  it('answers insufficient_evidence, never reject, when provider failures cut coverage below 90%', () => {
    const pairs = fixed();
    for (const i of [0, 1, 2, 3]) pairs[i].candidate = bad;
    const r = evaluateGate(pairs, P, final);
    expect(r.verdict).toBe('insufficient_evidence');
    expect(r.reasons[0]).toContain('28 of 32 paired rollouts valid (88% < 90%)');
  });

  it('rejects a holdout regression beyond the bound (2 net new failures over 16 pairs, bound 1)', () => {
    const pairs = fixed();
    pairs[16].candidate = ok(false);
    pairs[24].candidate = ok(false);
    const r = evaluateGate(pairs, P, final);
    expect(r.verdict).toBe('reject');
    expect(r.reasons[0]).toBe('holdout regressed: net new failures 2 (2 new failures, 0 new successes) over 16 pairs; bound 1');
  });

  it('rejects an improvement on only one distinct case, however significant', () => {
    const pairs = [...pairsOf('B1', 'boundary', 8, () => ok(false), () => ok(true)), ...pairsOf('B2', 'boundary', 8, () => ok(false), () => ok(false))];
    const r = evaluateGate(pairs, P, final);
    expect(r.verdict).toBe('reject');
    expect(r.stats.boundary.p_value).toBe(2 ** -8);
    expect(r.reasons[0]).toBe('improvement on only 1 distinct case(s) (need 2)');
  });

  it('look 1: stops early on a clear win, continues otherwise, and gives up when even a perfect look 2 cannot reach alpha', () => {
    const clear = evaluateGate(fixed(4).map((p) => ({ ...p, candidate: p.group === 'boundary' ? ok(true) : p.candidate })), P, { index: 1, final: false, alpha: 0.01, remainingBoundaryPairs: 8 });
    expect(clear.verdict).toBe('pass');
    expect(clear.stats.boundary.p_value).toBe(2 ** -8);
    const open = evaluateGate([...pairsOf('B1', 'boundary', 4, () => ok(false), (t) => ok(t < 2)), ...pairsOf('B2', 'boundary', 4, () => ok(false), (t) => ok(t < 2))], P, { index: 1, final: false, alpha: 0.01, remainingBoundaryPairs: 8 });
    expect(open.verdict).toBe('continue');
    const futile = evaluateGate([...pairsOf('B1', 'boundary', 4, () => ok(true), () => ok(false)), ...pairsOf('B2', 'boundary', 4, () => ok(true), () => ok(false))], P, { index: 1, final: false, alpha: 0.01, remainingBoundaryPairs: 8 });
    expect(futile.verdict).toBe('reject');
    expect(futile.reasons[0]).toMatch(/^futile/);
  });

  it('formats p-values for people', () => {
    expect(formatP(0.25)).toBe('0.25');
    expect(formatP(0.03125)).toBe('0.03125');
    expect(formatP(2 ** -15)).toBe('3.052e-5');
  });
});

describe('sealed confirmation', () => {
  const gateStats = evaluateGate(fixed(), P, final).stats;
  it('passes when the sealed effect keeps its sign and at least half the gate effect', () => {
    const sealed = [...pairsOf('B3', 'boundary', 8, () => ok(false), (t) => ok(t < 6)), ...pairsOf('H3', 'holdout', 8, () => ok(true), () => ok(true))];
    expect(evaluateConfirmation(sealed, gateStats, P).verdict).toBe('pass');
  });
  it('rejects a shrunken effect and a critical violation on a sealed case', () => {
    const weak = pairsOf('B3', 'boundary', 8, () => ok(false), (t) => ok(t < 3));
    const r = evaluateConfirmation(weak, gateStats, P);
    expect(r.verdict).toBe('reject');
    expect(r.reasons[0]).toBe('sealed boundary effect 0.375 vs gate effect 0.938 (need > 0 and ≥ 0.469)');
    const crit = pairsOf('H3', 'holdout', 8, () => ok(true), (t) => ok(t > 0, t === 0));
    expect(evaluateConfirmation(crit, gateStats, P).verdict).toBe('reject');
  });
});

describe('the seed campaign under the statistical gate', () => {
  it('is insufficient_evidence: p = 0.25 with one trial per case (the seed gate still releases)', async () => {
    const campaign = loadCampaign(SEED_CAMPAIGN);
    const clock = new VirtualClock(campaign.spec.experiment?.created_at);
    const outcome = await runCampaign({ campaign, model: new ReplayModel(campaign.receipts!, campaign.spec.model.model, clock), clock, workDir: tmpDir('sg-opt-seed-') });
    expect(outcome.gate.decision).toBe('release_to_canary');
    const v = seedStatisticalGate(outcome);
    expect(v.decision).toBe('insufficient_evidence');
    expect(v.result!.stats.boundary).toMatchObject({ improved: 2, worsened: 0, p_value: 0.25, cases_improved: ['B1-不可退票要退款', 'B5-超额免费行李'] });
    expect(v.result!.stats.holdout).toMatchObject({ pairs: 5, net: 0, bound: 1 });
    expect(v.reasons).toEqual([
      '1 valid trial(s) per gate case; the gate needs at least 4',
      'boundary: 2 improved, 0 worsened over 5 paired rollout(s) on 2 improved case(s); exact one-sided sign test p = 0.25 (α = 0.05) with 1 trial(s) per case — not significant',
    ]);
  });
});

describe('canary rules', () => {
  const base = { p0: 0.8, drop: 0.1, alpha: 0.05, beta: 0.05, minEpisodes: 200, maxEpisodes: 400 };
  const eps = (xs: boolean[], critAt = -1) => xs.map((s, i) => ({ id: `e${i}`, valid: true, success: s, critical: i === critAt }));
  it('rolls back at once on a critical violation', () => {
    const d = canaryDecision(eps(Array(300).fill(true), 5), base);
    expect(d).toMatchObject({ decision: 'rollback', episodes: 6 });
    expect(d.reason).toBe('critical violation in canary episode e5 (episode 6)');
  });
  it('rolls back when the SPRT finds a resolution drop', () => {
    const d = canaryDecision(eps(Array(300).fill(false)), base);
    expect(d).toMatchObject({ decision: 'rollback', episodes: 8 });
    expect(d.reason).toMatch(/^resolution drop: the sequential test \(SPRT steps, restarted at 0\) reached 2\.944 after 8 episodes, 0 resolved/);
  });
  it('a canary that starts well and then collapses is rolled back, not promoted on an early H0', () => {
    // 30 resolved, then 210 failures: an SPRT that stopped at its first crossing would promote.
    const d = canaryDecision(eps([...Array(30).fill(true), ...Array(210).fill(false)]), base);
    expect(d.decision).toBe('rollback');
    expect(d.episodes).toBeLessThan(45);
  });
  it('a critical violation counts on an invalid episode and past maxEpisodes', () => {
    const xs = eps(Array(500).fill(true), 450);
    expect(canaryDecision(xs, base)).toMatchObject({ decision: 'rollback', reason: 'critical violation in canary episode e450 (episode 451)' });
    const invalid = eps(Array(250).fill(true)).map((e, i) => (i === 7 ? { ...e, valid: false, critical: true } : e));
    expect(canaryDecision(invalid, base)).toMatchObject({ decision: 'rollback', reason: 'critical violation in canary episode e7 (episode 8)' });
  });
  it('promotes after min episodes with H0 accepted, continues before', () => {
    expect(canaryDecision(eps(Array(100).fill(true)), base)).toMatchObject({ decision: 'continue' });
    expect(canaryDecision(eps(Array(200).fill(true)), base)).toMatchObject({ decision: 'promote', episodes: 200 });
  });
  it('skips invalid episodes, and says so when every episode is invalid', () => {
    const xs = eps(Array(200).fill(true)).map((e, i) => (i < 10 ? { ...e, valid: false, success: false } : e));
    expect(canaryDecision(xs, base)).toMatchObject({ decision: 'continue', episodes: 190 });
    const all = eps(Array(20).fill(true)).map((e) => ({ ...e, valid: false }));
    expect(canaryDecision(all, base).reason).toBe('canary continues: only 0 of 200 episodes (every episode given is marked invalid)');
  });
});

describe('Pareto parents and prompt versions', () => {
  it('keeps every prompt that is best on some case and draws parents by wins', () => {
    const pool = [
      { sha256: 'stable', rates: new Map([['B1', 0], ['B2', 0], ['H1', 1]]) },
      { sha256: 'a', rates: new Map([['B1', 1], ['B2', 0.5], ['H1', 1]]) },
      { sha256: 'b', rates: new Map([['B1', 0.5], ['B2', 1], ['H1', 0.75]]) },
      { sha256: 'dominated', rates: new Map([['B1', 0.5], ['B2', 0.5], ['H1', 0.5]]) },
    ];
    expect(paretoFront(pool)).toEqual([{ sha256: 'stable', wins: 1 }, { sha256: 'a', wins: 2 }, { sha256: 'b', wins: 1 }]);
    const picks = pickParents(paretoFront(pool), 2, new Rng(3));
    expect(picks).toHaveLength(2);
    expect(new Set(picks).size).toBe(2);
    expect(pickParents(paretoFront(pool), 9, new Rng(3)).sort()).toEqual(['a', 'b', 'stable']);
  });
  it('folds release lists: the latest decision per prompt wins', () => {
    const e = (sha: string, state: any, at: string) => ({ version: sha.slice(0, 12), sha256: sha, state, parent_sha256: null, decision: null, release_sha256: null, decided_at: at, source: 'x' });
    const v = promptVersions([
      { id: 'r1', releases: [e('s'.repeat(64), 'stable', '2026-01-01T00:00:00+00:00'), e('c'.repeat(64), 'canary', '2026-01-01T00:00:01+00:00')] },
      { id: 'r2', releases: [e('c'.repeat(64), 'stable', '2026-01-02T00:00:00+00:00'), e('s'.repeat(64), 'retired', '2026-01-02T00:00:00+00:00')] },
    ]);
    expect(v.map((x) => [x.version, x.state, x.run_id])).toEqual([['cccccccccccc', 'stable', 'r2'], ['ssssssssssss', 'retired', 'r2']]);
  });
});
