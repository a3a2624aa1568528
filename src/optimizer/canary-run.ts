/**
 * The simulated canary (config `canary.simulate`): the released candidate serves episodes of
 * every suite case in turn, on seeds of their own (stream `canary`), outside the optimisation
 * budget; the canary rules ({@link canaryDecision}) compare its resolution with the stable
 * prompt's rate in this run (the mean of its per-case success rates) and promote or roll back.
 * Episodes are run in blocks of one per case until a decision or `max_episodes`.
 */
import { canaryDecision, type CanaryDecision } from '../release/canary.js';
import type { ReleaseRecord } from '../release/record.js';
import type { OptimizeConfig } from './config.js';
import type { CandidateDecision, Decider } from './decide.js';
import type { RolloutBook } from './rollout-book.js';
import type { Suite } from './suite.js';

/** The canary's end. */
export interface CanaryOutcome {
  decision: CanaryDecision;
  record: ReleaseRecord | null;
}

/** Runs the simulated canary; see the module doc. */
export async function runCanary(o: {
  config: OptimizeConfig;
  suite: Suite;
  book: RolloutBook;
  stable: { sha256: string };
  candidate: CandidateDecision;
  decider: Decider;
  log: (line: string) => void;
}): Promise<CanaryOutcome> {
  const c = o.config.canary;
  const stableRollouts = [...(o.book.byPrompt.get(o.stable.sha256)?.values() ?? [])].filter((r) => r.valid);
  const rates = o.suite.cases
    .map((k) => stableRollouts.filter((r) => r.case_id === k.id))
    .filter((rs) => rs.length > 0)
    .map((rs) => rs.filter((r) => r.success).length / rs.length);
  const p0 = rates.reduce((s, x) => s + x, 0) / Math.max(1, rates.length);
  const params = { p0, drop: c.resolution_drop, alpha: c.alpha, beta: c.beta, minEpisodes: c.min_episodes, maxEpisodes: c.max_episodes };
  const ids = o.suite.cases.map((k) => k.id);
  const episodes: { id: string; valid: boolean; success: boolean; critical: boolean }[] = [];
  let decision = canaryDecision(episodes, params);
  o.log(`canary ${o.candidate.version}: stable resolution ${p0.toFixed(3)}; testing for a drop of ${c.resolution_drop}`);
  for (let block = 0; episodes.length < c.max_episodes; block++) {
    const specs = ids.slice(0, c.max_episodes - episodes.length).map((caseId) => ({ caseId, trial: block, stream: 'canary' as const }));
    const rs = await o.book.get(o.candidate.text, specs, { budgeted: false });
    episodes.push(...rs.map((r) => ({ id: `${r.case_id}#${r.trial}`, valid: r.valid, success: r.success, critical: r.critical.length > 0 })));
    decision = canaryDecision(episodes, params);
    if (decision.decision !== 'continue') break;
  }
  if (decision.decision === 'continue') {
    o.log(`canary ${o.candidate.version}: ${decision.reason}; it stays in canary`);
    return { decision, record: null };
  }
  const record = o.decider.decideCanary(o.candidate, {
    decision: decision.decision,
    reasons: [decision.reason],
    statistics: { sprt: decision.sprt, p0: decision.p0, p1: decision.p1, episodes: decision.episodes, rules: params },
    episodes: episodes.slice(0, decision.episodes),
  });
  return { decision, record };
}
