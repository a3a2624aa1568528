/**
 * tau2 ENV_ASSERTION component: domain-provided assertion functions (`Domain.assertions`) called
 * by name on the episode's final state, each result compared with `assert_value`.
 */
import type { Domain } from '../spec/domain.js';
import type { EvaluationCriteria } from '../spec/task.js';
import { combineVerdicts, json, verdictScore, type ComponentResult } from './evidence.js';
import type { Verdict } from './types.js';

type EnvAssertion = NonNullable<EvaluationCriteria['env_assertions']>[number];

/**
 * Runs each assertion: pass when the function returns `assert_value`, fail otherwise or when it
 * throws; `not_judged` (not supported) when the domain has no function of that name — airline
 * and retail have none. Score: product of the results (null if any is not judged and none
 * failed); no assertions ⇒ 1.
 */
export function envAssertionComponent<S>(domain: Domain<S>, assertions: readonly EnvAssertion[] | null | undefined, finalState: S): ComponentResult {
  const list = assertions ?? [];
  const row = (verdict: Verdict, evidence: string): ComponentResult => ({
    score: verdictScore(verdict),
    check: { id: 'tau2_env_assertion', kind: 'ENV_ASSERTION', verdict, evidence },
  });
  if (list.length === 0) return row('pass', 'no env assertions');
  const results = list.map((a): { v: Verdict; text: string } => {
    const label = `${a.func_name} ${json(a.arguments)}`;
    const fn = domain.assertions?.[a.func_name];
    if (!fn) return { v: 'not_judged', text: `${label}: not supported (domain '${domain.name}' has no assertion function '${a.func_name}')` };
    try {
      const got = fn(finalState, a.arguments, a.env_type);
      const msg = a.message ? ` (${a.message})` : '';
      return { v: got === a.assert_value ? 'pass' : 'fail', text: `${label} = ${got}, expected ${a.assert_value}${msg}` };
    } catch (e) {
      return { v: 'fail', text: `${label} threw: ${(e as Error)?.message ?? String(e)}` };
    }
  });
  return row(combineVerdicts(results.map((r) => r.v)), results.map((r) => r.text).join('; '));
}
