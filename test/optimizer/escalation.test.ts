/**
 * Escalation of cases that are not prompt-fixable (`src/optimizer/escalation.ts`): hand-built
 * rollouts and candidates for the rule (stable fails, ≥ threshold screened attempts, never a
 * success; invalid rollouts ignored), the recommendation sentences, determinism, the config
 * field, and one end-to-end run on the seed campaign whose proposer never fixes anything.
 */
import { describe, expect, it } from 'vitest';
import { criticalStatePaths, criticalTool, findEscalations, recommend, type EscalationInput } from '../../src/optimizer/escalation.js';
import type { CandidateDecision } from '../../src/optimizer/decide.js';
import type { Dimension, DimensionResult, Rollout } from '../../src/optimizer/suite.js';
import { parseOptimizeConfig, runIdentity } from '../../src/optimizer/config.js';
import { buildRunRecord } from '../../src/optimizer/run-record.js';
import { optimizeReport } from '../../src/cli/optimize-report.js';
import { recordBytes } from '../../src/release/record.js';
import { optimizeInProcess, seedConfig } from '../support/optimizer-run.js';

const STABLE = 's'.repeat(64);
const sha = (c: string) => c.repeat(64);

const CAMPAIGN_WRITE = 'forbidden write on a mandatory-escalation case: change_flight({"confirmation_code":"ABC123","new_flight":"YS1236"})';
const TASK_WRITE = `write where the task's gold makes none: cancel_reservation({"reservation_id":"8KQ2ZD"})`;
const UNCHANGED = 'reservation_untouched (unchanged) failed: 1 field(s) changed under /reservations/8KQ2ZD: /reservations/8KQ2ZD/status before "confirmed", after "cancelled"';

interface Spec {
  valid?: boolean;
  success?: boolean;
  critical?: string[];
  /** Failed dimensions (default: task_resolution when not a success). */
  fail?: Dimension[];
  stream?: 'trial' | 'sealed' | 'canary';
}

function rollout(promptSha: string, caseId: string, trial: number, s: Spec = {}): [string, Rollout] {
  const valid = s.valid ?? true;
  const success = valid && (s.success ?? false);
  const fail = new Set<Dimension>(s.fail ?? (success ? [] : ['task_resolution']));
  const dim = (d: Dimension): DimensionResult => (valid ? { verdict: fail.has(d) ? 'fail' : 'pass', evidence: `${d} evidence` } : { verdict: 'not_applicable', evidence: 'not scored: infrastructure fault' });
  return [
    `${caseId}#${trial}#${s.stream ?? 'trial'}`,
    {
      case_id: caseId, trial, seed: trial, prompt_sha256: promptSha, valid, ...(valid ? {} : { infra_error: 'ProviderError: 500' }),
      success, critical: valid ? (s.critical ?? []) : [],
      dimensions: { rule_compliance: dim('rule_compliance'), task_resolution: dim('task_resolution'), compliant_flexibility: dim('compliant_flexibility') },
      termination: valid ? 'agent_stop' : 'infra_error', messages: [], usage: {},
    },
  ];
}

/** `n` rollouts (trials 0..n−1) of one prompt on one case. */
const trials = (promptSha: string, caseId: string, n: number, s: Spec = {}) => Array.from({ length: n }, (_, t) => rollout(promptSha, caseId, t, s));

function book(...entries: [string, Rollout][]): Map<string, Map<string, Rollout>> {
  const m = new Map<string, Map<string, Rollout>>();
  for (const [k, r] of entries) {
    const inner = m.get(r.prompt_sha256) ?? new Map<string, Rollout>();
    inner.set(k, r);
    m.set(r.prompt_sha256, inner);
  }
  return m;
}

function candidate(s: string, stage: CandidateDecision['stage'], proposal = 0): CandidateDecision {
  return {
    sha256: s, candidate_sha256: s, version: s.slice(0, 12), round: 1, proposal, lineage_parent: STABLE, decision: 'reject', stage, reasons: ['r'],
    added_tokens: 1, release_sha256: 'r'.repeat(64), text: `prompt ${s}`,
  };
}

const input = (o: Partial<EscalationInput> & Pick<EscalationInput, 'candidates' | 'byPrompt'>): EscalationInput => ({ stableSha: STABLE, feedbackCases: ['H5', 'B2'], ...o });

describe('findEscalations', () => {
  it('escalates a case that fails under 3 screened candidates with a critical violation naming a tool, recommending a guard on that tool', () => {
    const crit = { critical: [CAMPAIGN_WRITE], fail: ['rule_compliance', 'task_resolution'] as Dimension[] };
    const byPrompt = book(
      ...trials(STABLE, 'H5', 4, crit),
      ...trials(STABLE, 'B2', 4, { success: true }),
      ...trials(sha('a'), 'H5', 2, crit),
      ...trials(sha('b'), 'H5', 2, crit),
      ...trials(sha('c'), 'H5', 2, { fail: ['task_resolution'] }),
    );
    const out = findEscalations(input({ candidates: [candidate(sha('a'), 'screen', 0), candidate(sha('b'), 'screen', 1), candidate(sha('c'), 'gate', 2)], byPrompt }));
    expect(out).toEqual([
      {
        case_id: 'H5',
        attempts: 3,
        candidates: ['aaaaaaaaaaaa', 'bbbbbbbbbbbb', 'cccccccccccc'],
        rollouts: 6,
        stable: { rollouts: 4, failures: 4 },
        failing: {
          rollouts: 10,
          critical: [CAMPAIGN_WRITE],
          tools: ['change_flight'],
          state_paths: [],
          dimensions: [{ dimension: 'rule_compliance', failures: 8 }, { dimension: 'task_resolution', failures: 10 }],
        },
        recommendation:
          'Add a tool precondition or guard on change_flight in the back-end/harness that refuses the call on this kind of case (or requires a hand-off first): the agent keeps making a forbidden write with it, and 3 candidate prompt(s) over 6 valid rollout(s) did not fix it.',
      },
    ]);
  });

  it('no entry when one candidate succeeded on the case in any valid rollout (even a canary one)', () => {
    const base = [...trials(STABLE, 'B2', 4), ...trials(sha('a'), 'B2', 2), ...trials(sha('b'), 'B2', 2), ...trials(sha('c'), 'B2', 2)];
    const candidates = [candidate(sha('a'), 'screen'), candidate(sha('b'), 'screen'), candidate(sha('c'), 'screen'), candidate(sha('d'), 'confirm')];
    expect(findEscalations(input({ candidates, byPrompt: book(...base) }))).toHaveLength(1);
    expect(findEscalations(input({ candidates, byPrompt: book(...base, ...trials(sha('d'), 'B2', 2), rollout(sha('d'), 'B2', 2, { success: true })) }))).toEqual([]);
    expect(findEscalations(input({ candidates, byPrompt: book(...base, rollout(sha('b'), 'B2', 0, { success: true, stream: 'canary' })) }))).toEqual([]);
  });

  it('no entry with only 2 attempts: static rejections and candidates without rollouts on the case do not count', () => {
    const byPrompt = book(
      ...trials(STABLE, 'B2', 4),
      ...trials(sha('a'), 'B2', 2),
      ...trials(sha('b'), 'B2', 2),
      // Screened, but its rollouts are on another case.
      ...trials(sha('c'), 'H5', 2, { success: true }),
      // A static rejection never has rollouts; even if it had, it is not an attempt.
      ...trials(sha('d'), 'B2', 2),
    );
    const candidates = [candidate(sha('a'), 'screen'), candidate(sha('b'), 'gate'), candidate(sha('c'), 'screen'), candidate(sha('d'), 'static')];
    expect(findEscalations(input({ candidates, byPrompt }))).toEqual([]);
    const two = findEscalations(input({ candidates, byPrompt, threshold: 2 }));
    expect(two.map((e) => [e.case_id, e.attempts, e.candidates])).toEqual([['B2', 2, ['aaaaaaaaaaaa', 'bbbbbbbbbbbb']]]);
    // A candidate decided twice (same sha) is one attempt.
    expect(findEscalations(input({ candidates: [...candidates, candidate(sha('a'), 'screen', 9)], byPrompt }))).toEqual([]);
  });

  it('ignores invalid rollouts: they are neither attempts, nor fixes, nor stable failures', () => {
    const byPrompt = book(
      ...trials(STABLE, 'B2', 4),
      ...trials(STABLE, 'H5', 4, { valid: false }),
      rollout(STABLE, 'B2', 4, { valid: false }),
      ...trials(sha('a'), 'B2', 2),
      ...trials(sha('b'), 'B2', 2),
      ...trials(sha('c'), 'B2', 2),
      rollout(sha('c'), 'B2', 2, { valid: false }),
      // Only infrastructure faults on the case: not an attempt.
      ...trials(sha('d'), 'B2', 2, { valid: false }),
      ...[sha('a'), sha('b'), sha('c')].flatMap((s) => trials(s, 'H5', 2)),
    );
    const candidates = ['a', 'b', 'c', 'd'].map((c) => candidate(sha(c), 'screen'));
    const out = findEscalations(input({ candidates, byPrompt }));
    // H5: the stable prompt has no valid feedback rollout, so it is not known to fail.
    expect(out.map((e) => [e.case_id, e.attempts, e.rollouts, e.stable])).toEqual([['B2', 3, 6, { rollouts: 4, failures: 4 }]]);
  });

  it('no entry when the stable prompt passes the case (its sealed or canary rollouts do not count as feedback)', () => {
    const candidates = ['a', 'b', 'c'].map((c) => candidate(sha(c), 'screen'));
    const fails = ['a', 'b', 'c'].flatMap((c) => trials(sha(c), 'B2', 2));
    expect(findEscalations(input({ candidates, byPrompt: book(...trials(STABLE, 'B2', 4, { success: true }), ...fails) }))).toEqual([]);
    expect(findEscalations(input({ candidates, byPrompt: book(...trials(STABLE, 'B2', 4, { success: true }), rollout(STABLE, 'B2', 0, { stream: 'canary' }), ...fails) }))).toEqual([]);
    // A case outside the feedback split is never escalated.
    expect(findEscalations(input({ candidates, feedbackCases: ['H5'], byPrompt: book(...trials(STABLE, 'B2', 4), ...fails) }))).toEqual([]);
  });

  it('is a pure function of its inputs: insertion order does not matter, entries are ordered by case id', () => {
    const candidates = ['a', 'b', 'c'].map((c, i) => candidate(sha(c), 'screen', i));
    const rows = [
      ...trials(STABLE, 'H5', 4, { critical: [TASK_WRITE, CAMPAIGN_WRITE], fail: ['rule_compliance'] }),
      ...trials(STABLE, 'B2', 4),
      ...['a', 'b', 'c'].flatMap((c) => [...trials(sha(c), 'H5', 2, { critical: [CAMPAIGN_WRITE], fail: ['rule_compliance'] }), ...trials(sha(c), 'B2', 2)]),
    ];
    const a = findEscalations(input({ candidates, byPrompt: book(...rows) }));
    const b = findEscalations(input({ candidates, feedbackCases: ['B2', 'H5'], byPrompt: book(...[...rows].reverse()) }));
    expect(b).toEqual(a);
    expect(a.map((e) => e.case_id)).toEqual(['B2', 'H5']);
    // Most frequent first: change_flight is named in 10 rollouts, cancel_reservation in 4.
    expect(a[1].failing.tools).toEqual(['change_flight', 'cancel_reservation']);
    expect(a[1].failing.critical).toEqual([CAMPAIGN_WRITE, TASK_WRITE]);
    expect(a[1].recommendation).toMatch(/^Add a tool precondition or guard on change_flight and cancel_reservation in the back-end\/harness/);
    expect(() => findEscalations(input({ candidates, byPrompt: book(...rows), threshold: 0 }))).toThrow(RangeError);
  });
});

describe('recommendations', () => {
  const evidence = (o: Partial<Parameters<typeof recommend>[0]['failing']>) => ({ attempts: 3, rollouts: 6, failing: { rollouts: 10, critical: [], tools: [], state_paths: [], dimensions: [], ...o } });

  it('parses the tool of both suites\' forbidden-write texts, and the state paths of a failing unchanged check', () => {
    expect(criticalTool(CAMPAIGN_WRITE)).toBe('change_flight');
    expect(criticalTool(TASK_WRITE)).toBe('cancel_reservation');
    expect(criticalTool(UNCHANGED)).toBeNull();
    expect(criticalTool('something odd happened')).toBeNull();
    expect(criticalStatePaths(UNCHANGED)).toEqual(['/reservations/8KQ2ZD']);
    expect(criticalStatePaths('no_refund (unchanged) failed: 2 field(s) changed under /users/a, /orders/b: …')).toEqual(['/users/a', '/orders/b']);
    expect(criticalStatePaths(CAMPAIGN_WRITE)).toEqual([]);
  });

  it('guards the state a forbidden state change touches when no tool is named; generic guard otherwise', () => {
    expect(recommend(evidence({ critical: [UNCHANGED], state_paths: ['/reservations/8KQ2ZD'] }))).toBe(
      'Guard the state under /reservations/8KQ2ZD in the back-end/harness (a precondition on the write tools that change it): a forbidden state change keeps happening, and 3 candidate prompt(s) over 6 valid rollout(s) did not fix it.',
    );
    expect(recommend(evidence({ critical: ['x_check (field_in) failed: /a is 1'] }))).toBe(
      'Add a guard in the back-end/harness against the critical violation that keeps recurring ("x_check (field_in) failed: /a is 1"): 3 candidate prompt(s) over 6 valid rollout(s) did not fix it.',
    );
  });

  it('without critical violations: a scripted procedure for rule failures, the task/tooling for resolution failures', () => {
    expect(recommend(evidence({ dimensions: [{ dimension: 'rule_compliance', failures: 7 }, { dimension: 'task_resolution', failures: 10 }] }))).toBe(
      'Enforce the rule outside the prompt — a scripted procedure or a harness check (required hand-off, ordering, confirmation before writes): rule_compliance failed in 7 of 10 failed rollout(s) without a critical violation, and 3 candidate prompt(s) over 6 valid rollout(s) did not fix it.',
    );
    expect(recommend(evidence({ dimensions: [{ dimension: 'task_resolution', failures: 10 }, { dimension: 'compliant_flexibility', failures: 10 }] }))).toBe(
      'Check the task and its tooling for a missing capability (a tool, a datum or an action the agent would need) or a wrong expectation, or handle the case with a scripted procedure: task_resolution failed in 10 of 10 failed rollout(s) without a critical violation, and 3 candidate prompt(s) over 6 valid rollout(s) did not fix it.',
    );
    expect(recommend(evidence({}))).toBe('Review this case outside the prompt (a guard, a tool precondition or a scripted procedure): 3 candidate prompt(s) over 6 valid rollout(s) did not fix it.');
  });
});

describe('config search.escalate_after', () => {
  const base = { name: 'x', suite: { kind: 'campaign', dir: 'd' }, models: { agent: { model: 'm' } } };

  it('defaults to 3, must be an integer ≥ 1, and is not part of the run identity', () => {
    const c = parseOptimizeConfig(base);
    expect(c.search.escalate_after).toBe(3);
    expect(parseOptimizeConfig({ ...base, search: { rounds: 2 } }).search).toMatchObject({ rounds: 2, escalate_after: 3 });
    expect(() => parseOptimizeConfig({ ...base, search: { escalate_after: 0 } })).toThrow();
    expect(() => parseOptimizeConfig({ ...base, search: { escalate_after: 1.5 } })).toThrow();
    const d = parseOptimizeConfig({ ...base, search: { escalate_after: 5 } });
    expect(runIdentity(d)).toBe(runIdentity(c));
    expect(runIdentity(parseOptimizeConfig({ ...base, search: { rounds: 2 } }))).not.toBe(runIdentity(c));
  });
});

describe('end to end (seed campaign, a proposer whose edits never fix a case)', () => {
  it('lists the boundary feedback cases as not prompt-fixable in the record and the report, without changing the decision', async () => {
    const handler = { proposer: 'noop' as const, rates: { baseHandle: 0 } };
    const r = await optimizeInProcess({ config: seedConfig({ search: { rounds: 1 } }), handler });
    expect(r.candidates.map((c) => c.stage)).toEqual(['screen', 'screen', 'screen']);
    const boundaryFeedback = r.splits.feedback.filter((id) => id.startsWith('B')).sort();
    expect(boundaryFeedback.length).toBeGreaterThan(0);
    expect(r.escalations.map((e) => e.case_id)).toEqual(boundaryFeedback);
    for (const e of r.escalations) {
      expect(e).toMatchObject({ attempts: 3, rollouts: 6, stable: { rollouts: 4, failures: 4 }, candidates: r.candidates.map((c) => c.version) });
      expect(e.failing.critical).toEqual([]);
      expect(e.failing.dimensions.map((d) => d.dimension)).toEqual(['task_resolution', 'compliant_flexibility']);
      expect(e.recommendation).toMatch(/^Check the task and its tooling for a missing capability/);
    }
    const record = buildRunRecord(seedConfig({ search: { rounds: 1 } }), 'id', { id: 'campaign:x', stableSource: 's', surface: 'api' }, r);
    expect(record.not_prompt_fixable).toEqual(r.escalations);
    const report = optimizeReport('seed-opt', 'campaign:x', r, null);
    expect(report).toContain('Not prompt-fixable (advice only; nothing applied, the decision is unchanged):');
    expect(report).toContain(`  ${boundaryFeedback[0]}: 3 attempts (6 rollouts, all failed; stable failed 4/4)`);
    expect(report).toContain('    failing: task_resolution ×');

    // Advice only: a threshold no run reaches gives no entry, and the same decision and records.
    const quiet = await optimizeInProcess({ config: seedConfig({ search: { rounds: 1, escalate_after: 4 } }), handler });
    expect(quiet.escalations).toEqual([]);
    expect(quiet.decision).toBe(r.decision);
    expect(quiet.releases.map(recordBytes)).toEqual(r.releases.map(recordBytes));
    expect(optimizeReport('seed-opt', 'campaign:x', quiet, null)).not.toContain('Not prompt-fixable');
  }, 10_000);
});
