/**
 * Why a task episode's reward and partial score are what they are, spelled out from its stored
 * evaluation (the rules of src/evaluation/compose.ts `evaluateTask`, tau2 §1.4):
 *
 * - reward: 0 when the episode did not end by `agent_stop` or `user_stop`; 0 when strict mode
 *   flagged it; 1 for a task without evaluation criteria (empty basis); otherwise the product of
 *   the `reward_basis` components — 0 as soon as one of them is 0, unknown (not judged) when one
 *   is not judged and none is 0;
 * - partial: 0 on a premature end; with a partial-credit rubric, the weights of the items whose
 *   checks all pass over 100 (0 when a zero-if-failed check failed); otherwise the mean of the
 *   basis components, a not-judged one counting 0.
 * Components outside the basis (e.g. ACTION in a tau2-compatible evaluation) are listed as
 * diagnostics that do not count.
 */
import type { TaskEvaluationRecord } from '../spec/run-log.js';
import type { ScoreComponentView, ScoreExplanationView } from './types.js';

/** Terminations that can earn reward (tau2). */
const EARNING = ['agent_stop', 'user_stop'];
const NAMES: Record<string, string> = { DB: 'the final database', ENV_ASSERTION: 'the environment assertions', COMMUNICATE: 'the information to communicate', NL_ASSERTION: 'the NL assertions', ACTION: 'the gold actions' };

/** 1 → "1", 0.5 → "0.5", 2/3 → "0.667". */
export const short = (x: number): string => String(Number(x.toFixed(3)));
const val = (x: number | null) => (x === null ? 'not judged' : short(x));

function rewardOf(ev: TaskEvaluationRecord, termination: string, counted: ScoreComponentView[]): ScoreExplanationView['reward'] {
  const product = counted.map((c) => `${c.name} ${val(c.value)}`).join(' × ');
  if (!EARNING.includes(termination)) {
    return { value: ev.reward, formula: `0 (ended by ${termination})`, why: `The episode ended by ${termination}, not by agent_stop or user_stop, so it earns no reward whatever its components score.` };
  }
  if (ev.strict === true && ev.flags?.length) {
    return { value: ev.reward, formula: `0 (flagged: ${ev.flags.join(', ')})`, why: `Strict mode flagged the episode (${ev.flags.join(', ')}), which scores reward 0.` };
  }
  if (counted.length === 0) return { value: ev.reward, formula: '1 (no reward basis)', why: 'The task has no evaluation criteria in its reward basis, so any episode that ends normally scores 1 (as in tau2).' };
  const zeros = counted.filter((c) => c.value === 0);
  const unjudged = counted.filter((c) => c.value === null);
  const partly = counted.filter((c) => c.value !== null && c.value > 0 && c.value < 1);
  if (zeros.length) {
    return { value: ev.reward, formula: `${product} = 0`, why: `The reward is the product of the components in the reward basis, and ${zeros.map((c) => `${c.name} (${NAMES[c.name] ?? c.name})`).join(' and ')} scored 0, so the reward is 0.` };
  }
  if (unjudged.length) {
    return {
      value: ev.reward,
      formula: `${product} = not judged`,
      why: `${unjudged.map((c) => c.name).join(' and ')} needed a judge and was not judged (run with --judge-model to judge it), so the reward is unknown; every judged component scored above 0, so it could still be 1.`,
    };
  }
  const why = partly.length
    ? `The reward is the product of the components in the reward basis; ${partly.map((c) => `${c.name} scored ${short(c.value!)}`).join(', ')}.`
    : 'Every component in the reward basis scored 1, so the reward is their product, 1.';
  return { value: ev.reward, formula: `${product} = ${ev.reward === null ? 'not judged' : short(ev.reward)}`, why };
}

function partialOf(ev: TaskEvaluationRecord, termination: string, counted: ScoreComponentView[]): ScoreExplanationView['partial'] {
  if (!EARNING.includes(termination)) return { value: ev.partial, formula: '0', why: `A premature end (${termination}) scores no partial credit.` };
  if (ev.rubric.length) {
    const earned = ev.rubric.filter((r) => r.verdict === 'pass');
    const sum = earned.reduce((s, r) => s + r.weight, 0);
    const formula = `(${earned.length ? earned.map((r) => `${r.id} ${r.weight}`).join(' + ') : '0'}) / 100 = ${short(ev.partial)}`;
    if (ev.partial === 0 && sum > 0) return { value: ev.partial, formula: `0 (a zero-if-failed check failed; the passed items would give ${short(sum / 100)})`, why: 'A check the task marks zero-if-failed failed, which voids the whole partial credit.' };
    const missed = ev.rubric.filter((r) => r.verdict !== 'pass');
    return {
      value: ev.partial,
      formula,
      why: `The partial score is the weight of the rubric items whose checks all pass, out of 100.${missed.length ? ` Not earned: ${missed.map((r) => `${r.id} (${r.weight}, ${r.verdict.replace(/_/g, ' ')})`).join(', ')}.` : ''}`,
    };
  }
  if (counted.length === 0) return { value: ev.partial, formula: '1 (no reward basis)', why: 'Without evaluation criteria the partial score is 1.' };
  const formula = `(${counted.map((c) => `${c.name} ${c.value === null ? '0 (not judged)' : short(c.value)}`).join(' + ')}) / ${counted.length} = ${short(ev.partial)}`;
  return { value: ev.partial, formula, why: `The partial score is the mean of the ${counted.length} component(s) in the reward basis${counted.some((c) => c.value === null) ? ', a not-judged one counting 0' : ''}: it says how close the episode came where the reward is all or nothing.` };
}

/** The explanation of a task evaluation's scores (see the module doc). */
export function explainScore(ev: TaskEvaluationRecord, termination: string): ScoreExplanationView {
  const components: ScoreComponentView[] = Object.entries(ev.reward_breakdown).map(([name, value]) => {
    const check = ev.checks.find((c) => c.kind === name);
    return { name, check_id: check?.id ?? null, counts: ev.reward_basis.includes(name as never), value: value ?? null, evidence: check?.evidence ?? null };
  });
  const counted = ev.reward_basis.map((b) => components.find((c) => c.name === b) ?? { name: b, check_id: null, counts: true, value: null, evidence: null });
  return { termination, components, reward: rewardOf(ev, termination, counted), partial: partialOf(ev, termination, counted), lower_bound: ev.not_judged };
}
