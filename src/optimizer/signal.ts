/**
 * The generalised learning signal: the seed's three dimensions per case *and trial*, aggregated
 * over a parent prompt's feedback rollouts, each failure with evidence that quotes the
 * trajectory (so the proposer can cite it and the edit checks can verify the citation), plus the
 * suite's diagnosis and a must-keep list of passing rollouts.
 *
 * Key order matters: the signal is serialised into the proposer's request.
 */
import { DIMENSION_NAMES, type Dimension, type Rollout, type Suite } from './suite.js';

/** One failing (case, trial) on one dimension. */
export interface SignalItem {
  case_id: string;
  trial: number;
  evidence: string;
  /** Verbatim from that trajectory. */
  quote?: string;
}

/** Per case: trials, successes and critical violations. */
export interface CaseSummary {
  case_id: string;
  group: 'boundary' | 'holdout';
  trials: number;
  successes: number;
  critical: number;
}

export interface OptimizerSignal {
  /** Feedback cases with at least one failing dimension in some trial. */
  source_case_ids: string[];
  dimensions: Record<Dimension, SignalItem[]>;
  diagnosis: string[];
  cases: CaseSummary[];
  /** Passing rollouts of feedback cases (what a patch must not break), one per case. */
  must_keep: SignalItem[];
  /** Rollouts that failed for infrastructure reasons (not evidence). */
  invalid: number;
}

/**
 * Builds the signal from a parent's feedback rollouts (any order; sorted by case order then
 * trial). Returns null when no valid rollout fails a dimension: nothing to learn from.
 */
export function buildSignal(suite: Suite, rollouts: readonly Rollout[]): OptimizerSignal | null {
  const order = new Map(suite.cases.map((c, i) => [c.id, i]));
  const sorted = [...rollouts].sort((a, b) => order.get(a.case_id)! - order.get(b.case_id)! || a.trial - b.trial);
  const valid = sorted.filter((r) => r.valid);
  const dimensions = Object.fromEntries(DIMENSION_NAMES.map((d) => [d, [] as SignalItem[]])) as Record<Dimension, SignalItem[]>;
  const source: string[] = [];
  for (const r of valid) {
    for (const d of DIMENSION_NAMES) {
      const v = r.dimensions[d];
      if (v.verdict !== 'fail') continue;
      dimensions[d].push({ case_id: r.case_id, trial: r.trial, evidence: v.evidence, ...(v.quote ? { quote: v.quote } : {}) });
      if (!source.includes(r.case_id)) source.push(r.case_id);
    }
  }
  if (source.length === 0) return null;
  const cases: CaseSummary[] = suite.cases
    .filter((c) => valid.some((r) => r.case_id === c.id))
    .map((c) => {
      const rs = valid.filter((r) => r.case_id === c.id);
      return { case_id: c.id, group: c.group, trials: rs.length, successes: rs.filter((r) => r.success).length, critical: rs.filter((r) => r.critical.length > 0).length };
    });
  const mustKeep: SignalItem[] = [];
  for (const c of cases) {
    const r = valid.find((x) => x.case_id === c.case_id && x.success);
    const q = r?.dimensions.task_resolution.quote;
    if (r) mustKeep.push({ case_id: r.case_id, trial: r.trial, evidence: r.dimensions.task_resolution.evidence, ...(q ? { quote: q } : {}) });
  }
  return { source_case_ids: source, dimensions, diagnosis: suite.diagnose(valid), cases, must_keep: mustKeep, invalid: sorted.length - valid.length };
}
