/**
 * The seed tasks' transcript rules (`transcript` patterns and `stated_amount` totals) against their labelled paraphrases
 * (test/evaluation/labelled/transcript-rules.jsonl: one agent message each, with the verdict the
 * rule must give when that message is the agent's whole side of the conversation). Every rule has
 * at least 20 paraphrases of each verdict and must decide at least 95% of them right (issue 10).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domains/index.js';
import { checkStatedAmount, checkTranscript } from '../../src/evaluation/checks/transcript.js';
import type { CheckContext, CheckOf } from '../../src/evaluation/checks/context.js';
import type { Task } from '../../src/spec/task.js';

interface Row { task: string; check: string; text: string; verdict: 'pass' | 'fail' }

const rows: Row[] = readFileSync(fileURLToPath(new URL('./labelled/transcript-rules.jsonl', import.meta.url)), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as Row);
const tasks = new Map<string, Task>([...loadDomain('airline').tasks, ...loadDomain('retail').tasks].map((t) => [t.id, t]));

type Rule = CheckOf<'transcript'> | CheckOf<'stated_amount'>;
const RULE_KINDS = new Set(['transcript', 'stated_amount']);

function verdictOn(task: Task, check: Rule, text: string): string {
  const ctx = { task, trace: { messages: [{ role: 'user', content: 'Hi.' }, { role: 'assistant', content: text }], toolLog: [], termination: 'agent_stop', finalState: {} } } as unknown as CheckContext;
  return (check.kind === 'transcript' ? checkTranscript(check, ctx) : checkStatedAmount(check, ctx)).verdict;
}

const rules = [...new Set(rows.map((r) => `${r.task}/${r.check}`))];

describe('transcript rules on labelled paraphrases', () => {
  it('covers every transcript rule of the seed tasks', () => {
    const all = [...tasks.values()].flatMap((t) => (t.servicegym?.checks ?? []).filter((c) => RULE_KINDS.has(c.kind)).map((c) => `${t.id}/${c.id}`));
    expect(rules.sort()).toEqual(all.sort());
  });

  it.each(rules)('%s: >= 20 paraphrases per verdict, accuracy >= 95%', (rule) => {
    const [taskId, checkId] = rule.split('/');
    const task = tasks.get(taskId)!;
    const check = task.servicegym!.checks.find((c) => c.id === checkId) as Rule;
    const mine = rows.filter((r) => r.task === taskId && r.check === checkId);
    expect(mine.filter((r) => r.verdict === 'pass').length).toBeGreaterThanOrEqual(20);
    expect(mine.filter((r) => r.verdict === 'fail').length).toBeGreaterThanOrEqual(20);
    const wrong = mine.filter((r) => verdictOn(task, check, r.text) !== r.verdict);
    const acc = 1 - wrong.length / mine.length;
    console.log(`${rule}: ${mine.length - wrong.length}/${mine.length} = ${(100 * acc).toFixed(1)}%${wrong.length ? `; wrong: ${wrong.map((w) => `[${w.verdict}] ${JSON.stringify(w.text)}`).join('; ')}` : ''}`);
    expect(acc).toBeGreaterThanOrEqual(0.95);
  });
});
