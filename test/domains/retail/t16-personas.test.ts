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
import { inGoldState, runTaskAcrossPersonas, type PersonaRunReport } from '../../../src/run/task-run.js';
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
