/**
 * The task an episode ran, as the episode page shows it (issue 18, item 8): the user scenario,
 * the gold actions and the assertion texts, so a reader sees what the customer wanted and what a
 * policy-perfect agent would do next to what this one did. Pure; the task itself is found by a
 * {@link TaskInfoResolver} the caller injects (the CLI builds one over the domain registry), so
 * the viewer never loads domains itself.
 */
import type { Task } from '../spec/task.js';
import type { TaskInfoView } from './types.js';

const LABELS: Record<string, string> = {
  domain: 'domain',
  reason_for_call: 'reason for call',
  known_info: 'known info',
  unknown_info: 'unknown info',
  task_instructions: 'task instructions',
};

/** The view of `task` (tau2 or servicegym shape). */
export function taskInfoView(task: Task): TaskInfoView {
  const ins = task.user_scenario.instructions;
  const scenario =
    typeof ins === 'string'
      ? [{ name: 'instructions', text: ins }]
      : Object.entries(ins).flatMap(([k, v]) => (typeof v === 'string' && v ? [{ name: LABELS[k] ?? k, text: v }] : []));
  const ec = task.evaluation_criteria ?? null;
  return {
    id: task.id,
    purpose: task.description?.purpose ?? null,
    persona: task.user_scenario.persona ?? null,
    scenario,
    gold_actions: (ec?.actions ?? []).map((a) => ({ action_id: a.action_id, requestor: a.requestor, name: a.name, arguments: a.arguments })),
    nl_assertions: [...(ec?.nl_assertions ?? [])],
    communicate_info: [...(ec?.communicate_info ?? [])],
    env_assertions: (ec?.env_assertions ?? []).map((e) => `${e.env_type}: ${e.func_name}(${JSON.stringify(e.arguments)}) == ${e.assert_value}${e.message ? ` — ${e.message}` : ''}`),
    reward_basis: ec ? [...ec.reward_basis] : [],
    rubric: (task.servicegym?.partial_credit ?? []).map((r) => ({ id: r.id, weight: r.weight, description: r.description })),
    zero_if_failed: [...(task.servicegym?.zero_if_failed ?? [])],
  };
}

/**
 * A resolver over the task list of each domain (loaded once per domain); `hash`, when given,
 * stamps each view with the task's hash so the page can tell a task file changed since the run.
 */
export function resolverOver(tasksByDomain: (domain: string) => readonly Task[] | null, hash?: (task: Task) => string): (domain: string, taskId: string) => TaskInfoView | null {
  const cache = new Map<string, Map<string, TaskInfoView> | null>();
  return (domain, taskId) => {
    if (!cache.has(domain)) {
      const tasks = tasksByDomain(domain);
      cache.set(domain, tasks ? new Map(tasks.map((t) => [t.id, hash ? { ...taskInfoView(t), sha256: hash(t) } : taskInfoView(t)])) : null);
    }
    return cache.get(domain)?.get(taskId) ?? null;
  };
}
