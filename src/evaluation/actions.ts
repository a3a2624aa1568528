/**
 * tau2 ACTION component: every gold action is matched by some executed tool call (agent's or
 * user's, any position, extra calls ignored).
 */
import type { GoldAction } from '../spec/task.js';
import type { ActionLogEntry } from '../spec/action-log.js';
import { json, type ComponentResult } from './evidence.js';
import { isRecord, jsonEqual, type LoggedCall } from './trace-index.js';

/**
 * tau2 `Action.compare_with_tool_call`: same tool name, and the arguments restricted to the
 * compared keys are equal (JSON deep equality; a key absent on both sides counts as equal).
 * Compared keys: `compare_args`; when it is null/absent, the *call's* argument names (tau2's rule,
 * so a gold argument the call omits is not compared, while an extra call argument fails);
 * `[]` compares the name only. A call whose arguments are not a JSON object matches only `[]`.
 */
export function goldActionMatches(action: GoldAction, entry: Pick<ActionLogEntry, 'name' | 'arguments'>): boolean {
  if (action.name !== entry.name) return false;
  if (action.compare_args && action.compare_args.length === 0) return true;
  if (!isRecord(entry.arguments)) return false;
  const args = entry.arguments;
  const keys = action.compare_args ?? Object.keys(args);
  const has = (o: Record<string, unknown>, k: string) => Object.prototype.hasOwnProperty.call(o, k);
  return keys.every((k) => has(args, k) === has(action.arguments, k) && jsonEqual(args[k], action.arguments[k]));
}

/**
 * tau2 ACTION component over the action log: 1 iff every gold action has a matching call; no gold
 * actions ⇒ 1. Evidence: each action's first matching call (`a1 → #0`) or the unmatched ones.
 */
export function actionComponent(actions: readonly GoldAction[] | null | undefined, calls: readonly LoggedCall[]): ComponentResult {
  const list = actions ?? [];
  if (list.length === 0) return { score: 1, check: { id: 'tau2_action', kind: 'ACTION', verdict: 'pass', evidence: 'no gold actions' } };
  const found = list.map((a) => ({ a, c: calls.find((c) => goldActionMatches(a, c.entry)) }));
  const missing = found.filter((f) => !f.c);
  const matched = found.filter((f) => f.c).map((f) => `${f.a.action_id} → #${f.c!.step}`);
  const head = `${list.length - missing.length}/${list.length} gold actions matched`;
  const evidence = missing.length
    ? `${head}; unmatched: ${missing.map((f) => `${f.a.action_id} ${f.a.name} ${json(f.a.arguments)}`).join(', ')}`
    : `${head}: ${matched.join(', ')}`;
  const ok = missing.length === 0;
  return { score: ok ? 1 : 0, check: { id: 'tau2_action', kind: 'ACTION', verdict: ok ? 'pass' : 'fail', evidence } };
}
