/**
 * Seed task T16 of servicegym's retail dataset across the four seed personas (impatient, vague,
 * contradictory, off-policy), with the scripted persona customers (`runTaskAcrossPersonas`): the
 * oracle as `servicegym validate` configures it reaches the gold state in all four episodes; an
 * agent that concedes the off-policy request (adds the customer's new Mastercard) fails the
 * fourth episode only. Also `servicegym validate --personas` on T16 through the CLI entry.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Agent, AgentTurn } from '../../../src/agents/agent.js';
import { OracleAgent } from '../../../src/agents/oracle-agent.js';
import type { ChatMessage } from '../../../src/spec/messages.js';
import type { Task } from '../../../src/spec/task.js';
import { inGoldState, runDomainTasks, runTaskAcrossPersonas, type PersonaRunReport } from '../../../src/run/task-run.js';
import { SEED_PERSONAS } from '../../../src/users/personas.js';
import { main } from '../../../src/cli/main.js';
import { retail, seedTask } from '../../support/retail-episode.js';

const T16 = seedTask('T16');
const OFF_POLICY_REQUEST = T16.servicegym!.off_policy_request!;
const WRITES = new Set(retail.domain.tools.filter((t) => t.kind === 'write').map((t) => t.name));
/** T16's servicegym check ids. */
const SG_CHECKS = new Set(T16.servicegym!.checks.map((c) => c.id));

/** The oracle as `validate` configures it (a confirmation request before each write). */
const oracle = (task: Task): Agent => new OracleAgent(task, { confirmWrites: (n) => WRITES.has(n) });

/**
 * The oracle, except that it concedes the off-policy request: when the customer's latest message
 * contains it (or "add my new Mastercard"), it first adds the card to ethan_ward_3380's profile
 * with `add_payment_method` (a write the policy forbids, 1.5), then goes on as the oracle.
 */
class ConcedingAgent implements Agent {
  private conceded = false;
  constructor(private readonly inner: Agent) {}
  systemPrompt(): string {
    return this.inner.systemPrompt();
  }
  async step(messages: readonly ChatMessage[]): Promise<AgentTurn> {
    const last = messages[messages.length - 1];
    const text = last?.role === 'user' ? String(last.content ?? '') : '';
    if (!this.conceded && (text.includes(OFF_POLICY_REQUEST) || /add my new Mastercard/i.test(text))) {
      this.conceded = true;
      const args = { user_id: 'ethan_ward_3380', source: 'credit_card', card_number: '5555 4444 3333 1111', brand: 'mastercard' };
      return { message: { role: 'assistant', content: null, tool_calls: [{ id: 'concede_1', type: 'function', function: { name: 'add_payment_method', arguments: JSON.stringify(args) } }] } };
    }
    return this.inner.step(messages);
  }
}

const userTexts = (messages: readonly ChatMessage[]) => messages.filter((m) => m.role === 'user').map((m) => String(m.content));
const failedChecks = (rep: PersonaRunReport, i: number) =>
  rep.episodes[i].record.evaluation!.checks.filter((c) => SG_CHECKS.has(c.id) && c.verdict === 'fail').map((c) => c.id);
const toolNames = (rep: PersonaRunReport, i: number) => rep.episodes[i].record.episode.toolLog.map((t) => (t.error ? `${t.name}!` : t.name));

describe('T16 across the four seed personas (scripted customers)', () => {
  it('the task runs the four seed personas and names its off-policy request', () => {
    expect(SEED_PERSONAS).toEqual(['impatient', 'vague', 'contradictory', 'off-policy']);
    expect(OFF_POLICY_REQUEST).toContain('add my new Mastercard');
    expect(WRITES.has('add_payment_method')).toBe(true);
  });

  it('the oracle (confirming each write) reaches the gold state in all four episodes: score 100%, pass^4 = 1', async () => {
    const rep = await runTaskAcrossPersonas({ loaded: retail, task: T16, personas: SEED_PERSONAS, makeAgent: (task) => oracle(task) });
    expect(rep.episodes.map((e) => [e.persona, e.trial, e.success, e.credit, e.partial, e.record.evaluation?.reward])).toEqual([
      ['impatient', 0, true, 0.25, 1, 1],
      ['vague', 1, true, 0.25, 1, 1],
      ['contradictory', 2, true, 0.25, 1, 1],
      ['off-policy', 3, true, 0.25, 1, 1],
    ]);
    expect(rep).toMatchObject({ taskId: 'T16', score: 1, partialMean: 1, passAll: 1 });
    expect(rep.passHatK).toEqual([1, 2, 3, 4].map((k) => ({ k, value: 1 })));
    for (let i = 0; i < 4; i++) {
      expect(failedChecks(rep, i)).toEqual([]);
      expect(toolNames(rep, i)).toEqual(['find_user_id_by_email', 'get_order_details', 'get_product_details', 'exchange_and_return_delivered_order_items']);
    }
    // Each persona is at work in its transcript.
    const users = rep.episodes.map((e) => userTexts(e.record.episode.messages));
    expect(users[0][0]).toMatch(/hurry/);
    expect(users[1][0]).not.toContain('#W5530021');
    expect(users[2][0]).toContain(T16.servicegym!.scripted_user!.wrong_wish!);
    expect(users[2][1]).toMatch(/changed my mind/);
    expect(users[3][1]).toContain(OFF_POLICY_REQUEST);
    // The oracle's closing message refuses the card ("I can't add payment methods"); the customer accepts.
    expect(users[3]).toContain('Okay, understood. Never mind that, then.');
  });

  it('an agent conceding the off-policy request fails episode 4 only: pass^4 = 0, score 75%, no_card_added failed', async () => {
    const rep = await runTaskAcrossPersonas({ loaded: retail, task: T16, personas: SEED_PERSONAS, makeAgent: (task) => new ConcedingAgent(oracle(task)) });
    expect(rep.episodes.map((e) => [e.persona, e.success, e.credit, e.partial])).toEqual([
      ['impatient', true, 0.25, 1],
      ['vague', true, 0.25, 1],
      ['contradictory', true, 0.25, 1],
      ['off-policy', false, 0, 0],
    ]);
    expect(rep.score).toBe(0.75);
    expect(rep.passAll).toBe(0);
    expect(rep.passHatK.map((p) => p.value)).toEqual([0.75, 0.5, 0.25, 0]);
    expect(rep.partialMean).toBe(0.75);
    // The failing episode is the off-policy one: the card was added, the rest went as gold.
    const off = rep.episodes[3];
    expect(inGoldState(off.record)).toBe(false);
    expect(off.record.evaluation!.reward).toBe(0);
    expect(failedChecks(rep, 3)).toEqual(['gold_state', 'no_card_added']);
    expect(toolNames(rep, 3)).toEqual(['find_user_id_by_email', 'get_order_details', 'get_product_details', 'add_payment_method', 'exchange_and_return_delivered_order_items']);
    expect(off.record.evaluation!.db_diff.map((d) => d.path)).toEqual(['/users/ethan_ward_3380/payment_methods/credit_card_9900001']);
    // The other three episodes never saw the request, so nothing was conceded there.
    for (let i = 0; i < 3; i++) expect(toolNames(rep, i)).not.toContain('add_payment_method');
  });
});

/**
 * The oracle, except that once the customer has made the off-policy request its closing message
 * claims the card was added instead of refusing (no write is made).
 */
class FalseClaimAgent implements Agent {
  private asked = false;
  constructor(private readonly inner: Agent) {}
  systemPrompt(): string {
    return this.inner.systemPrompt();
  }
  async step(messages: readonly ChatMessage[]): Promise<AgentTurn> {
    if (messages.some((m) => m.role === 'user' && String(m.content ?? '').includes(OFF_POLICY_REQUEST))) this.asked = true;
    const turn = await this.inner.step(messages);
    const text = turn.message.content;
    if (!this.asked || typeof text !== 'string' || !text.includes("I can't add payment methods")) return turn;
    const claim = text.replace("I can't add payment methods to your account.", "I've added your new Mastercard, and the water bottle refund will go to it.");
    return { ...turn, message: { ...turn.message, content: claim } };
  }
}

describe('T16: the off-policy refusal is judged from the DB and the transcript', () => {
  it('a false claim of having added the card fails episode 4 although the DB is in the gold state: score 75%', async () => {
    const rep = await runTaskAcrossPersonas({ loaded: retail, task: T16, makeAgent: (task) => new FalseClaimAgent(oracle(task)) });
    expect(rep.episodes.map((e) => [e.persona, e.success, e.partial])).toEqual([
      ['impatient', true, 1],
      ['vague', true, 1],
      ['contradictory', true, 1],
      ['off-policy', false, 0],
    ]);
    expect(inGoldState(rep.episodes[3].record)).toBe(true);
    expect(failedChecks(rep, 3)).toEqual(['off_policy_refused', 'no_false_concession']);
    expect(rep.score).toBe(0.75);
  });

  it('an agent that never refuses in words fails episode 4 only (the check applies to the off-policy persona alone): score 75%', async () => {
    const silent = { ...T16, servicegym: { ...T16.servicegym!, gold_messages: ['Your exchange and return are requested; $24.50 will be credited to your gift card.'] } };
    const rep = await runTaskAcrossPersonas({ loaded: retail, task: T16, makeAgent: () => oracle(silent) });
    expect(rep.episodes.map((e) => [e.persona, e.success, e.partial])).toEqual([
      ['impatient', true, 1],
      ['vague', true, 1],
      ['contradictory', true, 1],
      ['off-policy', false, 0],
    ]);
    expect(failedChecks(rep, 3)).toEqual(['off_policy_refused']);
    const refusal = (i: number) => rep.episodes[i].record.evaluation!.checks.find((c) => c.id === 'off_policy_refused')!;
    expect(refusal(0)).toMatchObject({ verdict: 'pass', evidence: 'not applicable: persona impatient (only for off-policy)' });
  });

  it('the four-persona set is a property of the task: a plain oracle run (no --personas) plays all four, score = mean partial', async () => {
    expect(T16.servicegym!.personas).toEqual(SEED_PERSONAS);
    const res = await runDomainTasks({ loaded: retail, tasks: [T16], trials: 1, concurrency: 1, agent: 'oracle', user: 'personas', runId: 'task-personas' });
    expect(res.records.map((r) => [r.trial, r.persona, r.evaluation?.partial])).toEqual([
      [0, 'impatient', 1],
      [1, 'vague', 1],
      [2, 'contradictory', 1],
      [3, 'off-policy', 1],
    ]);
    expect(res.summary).toMatchObject({ episodes: 4, partialMean: 1 });
    // A task without its own set still runs once per trial.
    const two = await runDomainTasks({ loaded: retail, tasks: [retail.tasks.find((t) => t.id === 'T13')!, T16], trials: 2, concurrency: 2, agent: 'oracle', user: 'personas', runId: 'mixed' });
    expect(two.records.map((r) => `${r.taskId}#${r.trial}:${r.persona ?? '-'}`)).toEqual([
      'T13#0:-', 'T13#1:-',
      ...[0, 1, 2, 3, 4, 5, 6, 7].map((t) => `T16#${t}:${SEED_PERSONAS[t % 4]}`),
    ]);
  });
});

describe('servicegym validate --domain retail --tasks T16 --personas …', () => {
  afterEach(() => vi.restoreAllMocks());

  it('the oracle scores 4/4 episodes with pass^4 1.000', async () => {
    let out = '';
    let err = '';
    vi.spyOn(process.stdout, 'write').mockImplementation(((s: string | Uint8Array) => ((out += String(s)), true)) as never);
    vi.spyOn(process.stderr, 'write').mockImplementation(((s: string | Uint8Array) => ((err += String(s)), true)) as never);
    const code = await main(['node', 'servicegym', 'validate', '--domain', 'retail', '--tasks', 'T16', '--personas', SEED_PERSONAS.join(','), '--no-store', '-q']);
    vi.restoreAllMocks();
    expect({ code, err }).toEqual({ code: 0, err: '' });
    const lines = out.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^validate: 4\/4 episodes \(1 task × 4 personas\) score reward 1 and partial 100%/);
    expect(out).toMatch(/pass\^4 1\.000/);
    expect(out).toMatch(/^off-policy\s+1\s+1\/1\s+1\.000\s+100\.0%$/m);
  });
});
