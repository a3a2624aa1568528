/**
 * The confirmation classifier against its labelled sets (test/evaluation/labelled/):
 * `confirmation-replies.jsonl` — customer replies to an agent's request, each labelled yes / no /
 * unclear by a person (explicit yes only; hedged, conditional, partial and question-back replies
 * are unclear); `agent-requests.jsonl` — agent messages labelled confirmation / closing_offer /
 * other. Accuracy must stay >= 98% on the replies (issue 10); the confusion matrix is printed.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classifyAgentRequest, classifyReply, type ReplyLabel, type RequestKind } from '../../src/evaluation/confirmation/classify.js';

const dir = fileURLToPath(new URL('./labelled/', import.meta.url));
const readJsonl = <T>(name: string): T[] =>
  readFileSync(`${dir}${name}`, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as T);

interface ReplyRow { id: string; agent: string; reply: string; label: ReplyLabel }
interface RequestRow { id: string; agent: string; kind: RequestKind }

/** Rows of the confusion matrix are the labels, columns the predictions. */
function confusion<L extends string>(labels: readonly L[], pairs: readonly [L, L][]): string {
  const w = 15;
  const head = ['label \\ got', ...labels].map((s) => s.padEnd(w)).join('');
  const rows = labels.map((l) => [l, ...labels.map((p) => String(pairs.filter(([a, b]) => a === l && b === p).length))].map((s) => s.padEnd(w)).join(''));
  return [head, ...rows].join('\n');
}

describe('confirmation classifier on the labelled replies', () => {
  const rows = readJsonl<ReplyRow>('confirmation-replies.jsonl');

  it('the set has at least 200 distinct replies of all three labels', () => {
    expect(rows.length).toBeGreaterThanOrEqual(200);
    expect(new Set(rows.map((r) => r.reply)).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    for (const l of ['yes', 'no', 'unclear'] as const) expect(rows.filter((r) => r.label === l).length).toBeGreaterThanOrEqual(50);
  });

  it('accuracy >= 98%', () => {
    const pairs = rows.map((r) => [r.label, classifyReply(r.reply).label] as [ReplyLabel, ReplyLabel]);
    const correct = pairs.filter(([a, b]) => a === b).length;
    const wrong = rows.filter((_, i) => pairs[i][0] !== pairs[i][1]).map((r, i) => `${r.id} ${JSON.stringify(r.reply)}: ${r.label}`);
    console.log(`confirmation replies: ${correct}/${rows.length} = ${((100 * correct) / rows.length).toFixed(1)}%\n${confusion(['yes', 'no', 'unclear'], pairs)}${wrong.length ? `\nmisclassified: ${wrong.join('; ')}` : ''}`);
    expect(correct / rows.length).toBeGreaterThanOrEqual(0.98);
    // A refusal is never read as a yes: that error would let an agent write against the customer's will.
    expect(pairs.filter(([a, b]) => a === 'no' && b === 'yes')).toEqual([]);
  });

  it('is deterministic and ignores the stop token', () => {
    for (const r of rows.slice(0, 40)) {
      expect(classifyReply(r.reply)).toEqual(classifyReply(r.reply));
      expect(classifyReply(`${r.reply} ###STOP###`).label).toBe(classifyReply(r.reply).label);
    }
  });

  it('a reply asked about again gets the same answer, in an object of its own', () => {
    const first = classifyReply('Yes, but not the card.');
    expect(first).toEqual({ label: 'unclear', cues: ['affirm:yes', 'partial:but not', 'partial:but'] });
    first.cues.push('changed by a caller');
    first.label = 'yes';
    expect(classifyReply('Yes, but not the card.')).toEqual({ label: 'unclear', cues: ['affirm:yes', 'partial:but not', 'partial:but'] });
  });
});

describe('agent request kinds on the labelled agent messages', () => {
  const rows = readJsonl<RequestRow>('agent-requests.jsonl');
  it('accuracy >= 98%, closing offers never taken for confirmation requests', () => {
    expect(rows.length).toBeGreaterThanOrEqual(60);
    const pairs = rows.map((r) => [r.kind, classifyAgentRequest(r.agent)] as [RequestKind, RequestKind]);
    const correct = pairs.filter(([a, b]) => a === b).length;
    console.log(`agent requests: ${correct}/${rows.length}\n${confusion(['confirmation', 'closing_offer', 'other'], pairs)}`);
    expect(correct / rows.length).toBeGreaterThanOrEqual(0.98);
    expect(pairs.filter(([a, b]) => a === 'closing_offer' && b === 'confirmation')).toEqual([]);
  });
});
