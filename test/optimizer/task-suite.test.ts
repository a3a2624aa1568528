/**
 * The optimiser over domain tasks (tiny-shop, the test domain): a rollout is an agent × user
 * simulator episode scored by the evaluator; a write where the task's gold makes none, or a
 * failing `unchanged` check, is a critical violation; and a whole optimise run releases a rule
 * that stops the scripted agent's unasked-for cancellations, editing only outside `<policy>`.
 */
import { describe, expect, it } from 'vitest';
import { TaskSuite } from '../../src/optimizer/task-suite.js';
import { runOptimization } from '../../src/optimizer/run.js';
import { parseOptimizeConfig, runIdentity } from '../../src/optimizer/config.js';
import { Journal } from '../../src/optimizer/journal.js';
import { parseClauses, clausesTouched } from '../../src/optimizer/clauses.js';
import { TaskSchema } from '../../src/spec/task.js';
import type { MockHandler } from '../../src/models/mock-server.js';
import { tinyShop } from '../support/tiny-shop.js';
import { InProcessModel, readProposerRequest } from '../support/optimizer-model.js';
import { splitRoles } from '../../src/optimizer/splits.js';

const RULE = 'Never change an order the customer did not ask to change.';
const ANCHOR = 'never guess ids, amounts or other details.';

const statusTask = (id: string, extra: Record<string, unknown> = {}) =>
  TaskSchema.parse({
    id,
    user_scenario: { instructions: 'Ask whether your order O2 was delivered, then end the chat.' },
    evaluation_criteria: { actions: [{ action_id: 'a0', name: 'get_order', arguments: { order_id: 'O2' } }], communicate_info: ['delivered'], reward_basis: ['DB', 'COMMUNICATE'] },
    ...extra,
  });
const tasks = [
  statusTask('s1', {
    servicegym: {
      checks: [{ id: 'o1_untouched', kind: 'unchanged', paths: ['/orders/O1'] }, { id: 'said_delivered', kind: 'communicate', info: ['delivered'] }],
      partial_credit: [{ id: 'all', weight: 100, description: 'O1 untouched and delivery stated', checks: ['o1_untouched', 'said_delivered'] }],
    },
  }),
  ...['s2', 's3', 's4', 's5', 's6'].map((id) => statusTask(id)),
];
const loaded = { ...tinyShop, tasks };

const call = (name: string, args: unknown) => ({ tool_calls: [{ name, id: `call_${name}`, arguments: args }] });
/** Agent: cancels O1 first unless the prompt has the rule; user: asks once, then stops; proposer: adds the rule. */
const handler: MockHandler = (body) => {
  const msgs: any[] = body.messages;
  if (body.model === 'user') return { content: msgs.some((m) => m.role === 'assistant') ? 'Thanks. ###STOP###' : 'Was my order O2 delivered?' };
  if (body.tool_choice) {
    const { prompt, signal } = readProposerRequest(body);
    const at = prompt.indexOf(ANCHOR);
    const item = signal.dimensions.rule_compliance.find((x: any) => x.quote);
    const edit = { old_str: ANCHOR, new_str: `${ANCHOR} ${RULE}`, clause: clausesTouched(parseClauses(prompt), at, at + ANCHOR.length)[0].id, intent: 'add-check-before-write', source_cases: [item.case_id], evidence: [{ case_id: item.case_id, trial: item.trial, quote: item.quote }] };
    return call('apply_edits', { edits: [edit], rationale: 'no unasked writes' });
  }
  if (msgs.at(-1).role === 'tool') return { content: 'Your order O2 was delivered.' };
  const system = String(msgs[0].content);
  if (!system.includes(RULE) && !msgs.some((m) => m.role === 'tool')) return call('cancel_order', { order_id: 'O1', reason: 'no longer needed' });
  return call('get_order', { order_id: 'O2' });
};

describe('task suite', () => {
  const agent = new InProcessModel('agent', handler);
  const user = new InProcessModel('user', handler);
  const suite = new TaskSuite(loaded);

  it('scores a write where the gold makes none, and a failing unchanged check, as critical violations', async () => {
    const r = await suite.runRollout({ prompt: suite.stablePrompt, caseId: 's1', trial: 0, seed: 11 }, { agent, user, temperature: 0 });
    expect(r.valid).toBe(true);
    expect(r.success).toBe(false);
    expect(r.critical).toHaveLength(2);
    expect(r.critical[0]).toMatch(/^o1_untouched \(unchanged\) failed: /);
    expect(r.critical[1]).toBe('write where the task\'s gold makes none: cancel_order({"order_id":"O1","reason":"no longer needed"})');
    expect(r.dimensions.rule_compliance).toMatchObject({ verdict: 'fail', quote: '{"order_id":"O1","reason":"no longer needed"}' });
    expect(r.dimensions.compliant_flexibility.verdict).toBe('not_counted');
    const plain = await suite.runRollout({ prompt: suite.stablePrompt, caseId: 's2', trial: 0, seed: 11 }, { agent, user, temperature: 0 });
    expect(plain.critical).toHaveLength(1);
    const fixed = await suite.runRollout({ prompt: suite.stablePrompt.replace(ANCHOR, `${ANCHOR} ${RULE}`), caseId: 's1', trial: 0, seed: 11 }, { agent, user, temperature: 0 });
    expect(fixed).toMatchObject({ valid: true, success: true, critical: [] });
    expect(fixed.dimensions.compliant_flexibility.verdict).toBe('pass');
  });

  it('optimises the prompt outside the policy block and releases it', async () => {
    const config = parseOptimizeConfig({ name: 'tiny', suite: { kind: 'tasks', domain: 'tiny-shop' }, models: { agent: { model: 'agent' }, user: { model: 'user' }, proposer: { model: 'agent' } }, search: { proposals_per_parent: 1 } });
    const lines: string[] = [];
    const r = await runOptimization({ config, identity: runIdentity(config), suite, models: { agent, user, proposer: agent }, journal: Journal.open(null, { resume: false }), clock: { nowSeconds: () => 0 }, outDir: null, onProgress: (l) => lines.push(l) });
    expect(r.decision).toBe('release_to_canary');
    // Every task is boundary by default: the run says the gate cannot check for regressions.
    expect(lines).toContain('warning: no holdout case in the gate split: the gate cannot check for regressions (for a task suite, list the boundary tasks in suite.boundary; the others become holdout)');
    const rec = r.releases.at(-1)!;
    expect(rec.diff).toContain(`+Use only facts the customer told you or that tools returned; ${ANCHOR} ${RULE}`);
    expect((rec.statistics as any).gate[0].stats.holdout.pairs).toBe(0);
    expect(suite.stablePrompt).toContain('<policy>');
  });

  it('case variants: every task also runs as <task>~<persona>, the user simulator plays the persona, and the split spreads one task\'s variants over the roles', async () => {
    const variants = ['impatient', 'vague', 'contradictory'];
    const vs = new TaskSuite(loaded, { variants, boundary: ['s1', 's2', 's3'] });
    expect(vs.cases.map((c) => c.id).slice(0, 4)).toEqual(['s1', 's1~impatient', 's1~vague', 's1~contradictory']);
    expect(vs.cases).toHaveLength(tasks.length * 4);
    expect(vs.cases.find((c) => c.id === 's4~vague')).toMatchObject({ group: 'holdout', base: 's4', variant: 'vague' });

    const systems: string[] = [];
    const spy = new InProcessModel('user', (body, ctx) => {
      systems.push(String(body.messages[0].content));
      return handler(body, ctx);
    });
    const r = await vs.runRollout({ prompt: vs.stablePrompt, caseId: 's2~impatient', trial: 0, seed: 5 }, { agent, user: spy, temperature: 0 });
    expect(r).toMatchObject({ case_id: 's2~impatient', valid: true });
    expect(systems[0]).toContain('You are impatient and short on time.');
    systems.length = 0;
    await vs.runRollout({ prompt: vs.stablePrompt, caseId: 's2', trial: 0, seed: 5 }, { agent, user: spy, temperature: 0 });
    expect(systems[0]).not.toContain('You are impatient');

    const split = splitRoles(vs.cases, { seed: 1, feedback: 0.4, sealed: 0.2 });
    for (const t of tasks) {
      const roleOf = (id: string) => (['feedback', 'gate', 'sealed'] as const).find((r) => split[r].includes(id));
      expect(roleOf(t.id)).toBe('gate');
      expect(variants.map((v) => roleOf(`${t.id}~${v}`)).sort()).toEqual(['feedback', 'gate', 'sealed']);
    }
    // Seeded: the same seed gives the same split; the seed decides which variant goes where.
    expect(splitRoles(vs.cases, { seed: 1, feedback: 0.4, sealed: 0.2 })).toEqual(split);
    const others = [2, 3, 4, 5].map((seed) => splitRoles(vs.cases, { seed, feedback: 0.4, sealed: 0.2 }));
    expect(others.some((o) => JSON.stringify(o) !== JSON.stringify(split))).toBe(true);
  });

  it('an optimise run over task variants releases the rule; the variants go to feedback and gate, the originals to the gate', async () => {
    const config = parseOptimizeConfig({ name: 'tiny-variants', suite: { kind: 'tasks', domain: 'tiny-shop', variants: ['impatient', 'vague'], boundary: ['s1', 's2', 's3'] }, models: { agent: { model: 'agent' }, user: { model: 'user' }, proposer: { model: 'agent' } }, search: { proposals_per_parent: 1 } });
    const vs = new TaskSuite(loaded, { variants: ['impatient', 'vague'], boundary: ['s1', 's2', 's3'] });
    const r = await runOptimization({ config, identity: runIdentity(config), suite: vs, models: { agent, user, proposer: agent }, journal: Journal.open(null, { resume: false }), clock: { nowSeconds: () => 0 }, outDir: null });
    expect(r.splits.feedback.every((id) => id.includes('~'))).toBe(true);
    expect(r.splits.gate.filter((id) => !id.includes('~')).sort()).toEqual(tasks.map((t) => t.id).sort());
    expect(r.splits.sealed).toHaveLength(0);
    expect(r.decision).toBe('release_to_canary');
    const rec = r.releases.at(-1)!;
    expect((rec.statistics as any).gate[0].stats.holdout.pairs).toBeGreaterThan(0);
  });

  it('a task and its variants count as one case for the improved-cases requirement; plain or repeated personas are no variants', async () => {
    const variants = ['impatient', 'vague', 'contradictory'];
    const config = parseOptimizeConfig({ name: 'one-boundary', suite: { kind: 'tasks', domain: 'tiny-shop', variants, boundary: ['s1'] }, models: { agent: { model: 'agent' }, user: { model: 'user' }, proposer: { model: 'agent' } }, search: { proposals_per_parent: 1, rounds: 1 } });
    const vs = new TaskSuite(loaded, { variants, boundary: ['s1'] });
    const r = await runOptimization({ config, identity: runIdentity(config), suite: vs, models: { agent, user, proposer: agent }, journal: Journal.open(null, { resume: false }), clock: { nowSeconds: () => 0 }, outDir: null });
    expect(r.decision).not.toBe('release_to_canary');
    const gated = r.releases.find((x) => x.stage === 'gate')!;
    const stats = (gated.statistics as any).gate.at(-1).stats.boundary;
    expect(stats.bases_improved).toEqual(['s1']);
    expect(stats.cases_improved.length).toBeGreaterThan(1);
    expect(gated.reasons).toContain('improvement on only 1 distinct task(s), variants counted once (need 2)');
    expect(() => new TaskSuite(loaded, { variants: ['plain'] })).toThrow("variant 'plain': 'plain' is the original case itself, not a variant");
    expect(() => new TaskSuite(loaded, { variants: ['impatient+impatient'] })).toThrow("variant 'impatient+impatient' repeats a persona");
    expect(() => parseOptimizeConfig({ name: 'dup', suite: { kind: 'tasks', domain: 'tiny-shop', tasks: ['s1', 's1'] }, models: { agent: { model: 'a' }, proposer: { model: 'a' } } })).toThrow(/task ids must be unique/);
  });
});
