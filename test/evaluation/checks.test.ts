import { describe, expect, it } from 'vitest';
import { runCheck, type CheckContext } from '../../src/evaluation/checks/index.js';
import { replayGold } from '../../src/evaluation/gold.js';
import { indexToolCalls } from '../../src/evaluation/trace-index.js';
import type { EpisodeTrace } from '../../src/evaluation/types.js';
import { BadInputError } from '../../src/spec/errors.js';
import { CheckSchema, type Task } from '../../src/spec/task.js';
import { buildTrace, miniDomain, miniStateOps, miniTask, type MiniState } from '../support/mini-domain.js';

const task = miniTask({
  id: 'checks_1',
  evaluation_criteria: { actions: [{ action_id: 'a1', name: 'cancel_order', arguments: { order_id: 'O1', reason: 'no longer needed' } }] },
});

/** The agent verifies, summarises, gets a yes, then cancels. */
const good = (await buildTrace([
  { user: "Hi, I'm ada@example.com. Please cancel order O1." },
  { calls: [['find_account', { email: 'ada@example.com' }]] },
  { calls: [['get_order', { order_id: 'O1' }]] },
  { agent: 'Order O1 (lamp, desk) totals $1,234.50. Shall I cancel it and refund $1,234.50 to your balance?' },
  { user: 'Yes, go ahead.' },
  { calls: [['cancel_order', { order_id: 'O1', reason: 'no longer needed' }]] },
  { agent: 'Done: order O1 is cancelled and $1,234.50 was refunded.' },
  { user: 'Thanks!' },
]));

/** The agent writes before verifying or confirming, and promises too much. */
const bad = (await buildTrace([
  { user: "Cancel O1, I'd like my money back" },
  { calls: [['cancel_order', { order_id: 'O1', reason: 'customer request' }]] },
  { agent: 'Cancelled. I guarantee a refund of $1,200 within a day.' },
  { user: 'ok, also move me to Dallas 75201' },
  { agent: 'Confirm the new address Dallas 75201?' },
  { user: 'hmm, wait' },
  { calls: [['update_address', { account_id: 'A1', city: 'Dallas', zip: '75201' }]] },
  { calls: [['find_account', { email: 'ada@example.com' }]] },
]));

async function ctxFor(trace: EpisodeTrace<MiniState>, t: Task = task): Promise<CheckContext<MiniState>> {
  const gold = (await replayGold(miniDomain, t));
  return { task: t, trace, calls: indexToolCalls(trace), gold, initialState: gold.initialState, domain: miniDomain, ops: miniStateOps };
}
const run = async (check: Record<string, unknown>, trace: EpisodeTrace<MiniState>) =>
  runCheck(CheckSchema.parse({ id: 'c', ...check }), await ctxFor(trace), new Map());

describe('db_gold', () => {
  it('passes on the gold state and names differing fields otherwise', async () => {
    expect((await run({ kind: 'db_gold' }, good))).toEqual({ id: 'c', kind: 'db_gold', verdict: 'pass', evidence: "final state equals the gold replay's", diff: [] });
    const r = (await run({ kind: 'db_gold' }, bad));
    expect(r.verdict).toBe('fail');
    expect(r.evidence).toBe(
      '2 field(s) differ from the gold replay: /accounts/A1/address/city: gold "Austin", episode "Dallas"; /accounts/A1/address/zip: gold "78701", episode "75201"',
    );
  });
  it('compares only the given subtrees', async () => {
    expect((await run({ kind: 'db_gold', paths: ['/orders/O1'] }, bad))).toMatchObject({ verdict: 'pass', evidence: "final state equals the gold replay's under /orders/O1" });
    expect((await run({ kind: 'db_gold', paths: ['/orders', '/accounts/A1/address/zip'] }, bad))).toMatchObject({
      verdict: 'fail',
      evidence: '1 field(s) differ from the gold replay under /orders, /accounts/A1/address/zip: /accounts/A1/address/zip: gold "78701", episode "75201"',
    });
  });
});

describe('unchanged', () => {
  it('names the changed fields with their values before and after', async () => {
    expect((await run({ kind: 'unchanged', paths: ['/accounts/A1/address'] }, good))).toMatchObject({ verdict: 'pass', evidence: 'unchanged: /accounts/A1/address', diff: [] });
    const r = (await run({ kind: 'unchanged', paths: ['/accounts/A1/address', '/orders/O2'] }, bad));
    expect(r.verdict).toBe('fail');
    expect(r.evidence).toBe(
      '2 field(s) changed under /accounts/A1/address, /orders/O2: /accounts/A1/address/city: before "Austin", after "Dallas"; /accounts/A1/address/zip: before "78701", after "75201"',
    );
    expect(r.diff).toEqual([
      { path: '/accounts/A1/address/city', op: 'replace', before: 'Austin', after: 'Dallas' },
      { path: '/accounts/A1/address/zip', op: 'replace', before: '78701', after: '75201' },
    ]);
  });
});

describe('state_count', () => {
  it('counts entries by equal fields, differing fields and where_match regular expressions (seed T18: a reply contains the code)', async () => {
    expect(await run({ kind: 'state_count', path: '/accounts', where_match: { email: '^ada@' }, min: 1, max: 1 }, good)).toMatchObject({ verdict: 'pass', evidence: '1 entry under /accounts match (allowed 1..1): A1' });
    expect(await run({ kind: 'state_count', path: '/accounts', where: { balance: 10 }, where_match: { email: 'example\\.com$' }, min: 1 }, good)).toMatchObject({ verdict: 'pass', evidence: '1 entry under /accounts match (allowed at least 1): A2' });
    // a non-string field never matches a where_match rule
    expect(await run({ kind: 'state_count', path: '/accounts', where_match: { balance: '10' }, min: 1 }, good)).toMatchObject({ verdict: 'fail', evidence: '0 entries under /accounts match (allowed at least 1)' });
    expect(await run({ kind: 'state_count', path: '/accounts', where_match: { name: 'Zed' }, max: 0 }, good)).toMatchObject({ verdict: 'pass' });
  });
  it('rejects an invalid regular expression as bad input naming the check', async () => {
    await expect(run({ kind: 'state_count', path: '/accounts', where_match: { email: '(' } }, good)).rejects.toThrow(BadInputError);
    await expect(run({ kind: 'state_count', path: '/accounts', where_match: { email: '(' } }, good)).rejects.toThrow(/check c: where_match.email is not a valid regular expression/);
  });
});

describe('tool_calls', () => {
  it('counts calls matching name and argument subset within [min, max]', async () => {
    const once = { kind: 'tool_calls', match: { name: 'cancel_order', arguments: { order_id: 'O1' } }, min: 1, max: 1 };
    expect((await run(once, good))).toEqual({
      id: 'c', kind: 'tool_calls', verdict: 'pass',
      evidence: '1 call(s) match cancel_order {"order_id":"O1"} (allowed 1..1): #2 cancel_order {"order_id":"O1","reason":"no longer needed"}',
    });
    const decoy = { kind: 'tool_calls', match: { name: 'update_address' }, max: 0 };
    expect((await run(decoy, good))).toMatchObject({ verdict: 'pass', evidence: '0 call(s) match update_address (allowed 0..0)' });
    expect((await run(decoy, bad))).toMatchObject({
      verdict: 'fail',
      evidence: '1 call(s) match update_address (allowed 0..0): #1 update_address {"account_id":"A1","city":"Dallas","zip":"75201"}',
    });
    expect((await run({ kind: 'tool_calls', match: { name: 'get_order' }, min: 1 }, bad))).toMatchObject({ verdict: 'fail', evidence: '0 call(s) match get_order (allowed at least 1)' });
  });
});

describe('order', () => {
  const verifyFirst = { kind: 'order', first: { name: 'find_account' }, then: { name: 'cancel_order' }, require: true };
  it('passes when every then-call follows a first-call', async () => {
    expect((await run(verifyFirst, good))).toEqual({ id: 'c', kind: 'order', verdict: 'pass', evidence: '1 cancel_order call(s) after find_account at #0' });
  });
  it('names the out-of-order calls', async () => {
    expect((await run(verifyFirst, bad))).toMatchObject({
      verdict: 'fail',
      evidence: 'not preceded by find_account: #0 cancel_order {"order_id":"O1","reason":"customer request"} (first find_account at #2)',
    });
    const noFirst = { kind: 'order', first: { name: 'get_order' }, then: { name: 'update_address' } };
    expect((await run(noFirst, bad))).toMatchObject({
      verdict: 'fail',
      evidence: 'not preceded by get_order: #1 update_address {"account_id":"A1","city":"Dallas","zip":"75201"} (no call matches get_order)',
    });
  });
  it('requires the then-call only with require', async () => {
    const then = { first: { name: 'find_account' }, then: { name: 'get_order', arguments: { order_id: 'O3' } } };
    expect((await run({ kind: 'order', ...then }, good))).toMatchObject({ verdict: 'pass', evidence: 'no call matches get_order {"order_id":"O3"}' });
    expect((await run({ kind: 'order', ...then, require: true }, good))).toMatchObject({ verdict: 'fail', evidence: 'no call matches get_order {"order_id":"O3"} (required)' });
  });
});

describe('confirmation_before_write', () => {
  it('passes when the user said yes after the agent’s last text before the write', async () => {
    expect((await run({ kind: 'confirmation_before_write' }, good))).toEqual({
      id: 'c', kind: 'confirmation_before_write', verdict: 'pass',
      evidence: '#2 cancel_order {"order_id":"O1","reason":"no longer needed"} confirmed by message 7 "Yes, go ahead."',
    });
  });
  it('names each unconfirmed write and the agent message it should have followed', async () => {
    // the "ok" in message 5 precedes the agent's question in message 6, so it does not count
    expect((await run({ kind: 'confirmation_before_write' }, bad))).toMatchObject({
      verdict: 'fail',
      evidence:
        'unconfirmed write(s): #0 cancel_order {"order_id":"O1","reason":"customer request"} (no agent request before it); ' +
        '#1 update_address {"account_id":"A1","city":"Dallas","zip":"75201"} (reply 7 "hmm, wait" is unclear: hedge:wait)',
    });
  });
  it('uses `tools` instead of the log’s write flag, and a custom confirm regex', async () => {
    expect((await run({ kind: 'confirmation_before_write', tools: ['find_account'] }, good))).toMatchObject({
      verdict: 'fail',
      evidence: 'unconfirmed write(s): #0 find_account {"email":"ada@example.com"} (no agent request before it)',
    });
    expect((await run({ kind: 'confirmation_before_write', confirm: 'GO AHEAD' }, good))).toMatchObject({ verdict: 'pass' });
    expect((await run({ kind: 'confirmation_before_write', confirm: '^yes$' }, good))).toMatchObject({ verdict: 'fail' });
    expect((await run({ kind: 'confirmation_before_write' }, (await buildTrace([{ calls: [['get_order', { order_id: 'O1' }]] }]))))).toMatchObject({ verdict: 'pass', evidence: 'no write calls' });
  });
  const withReply = (summary: string, reply: string) =>
    buildTrace([
      { user: 'Please cancel order O1.' },
      { agent: summary },
      { user: reply },
      { calls: [['cancel_order', { order_id: 'O1', reason: 'no longer needed' }]] },
    ]);
  const SUMMARY = 'I will cancel order O1 and refund $1,234.50 to your balance. Shall I proceed?';
  it('a refusal that contains "okay" is not a yes, nor is a conditional or partial yes', async () => {
    expect(await run({ kind: 'confirmation_before_write' }, await withReply(SUMMARY, "No, that's not okay."))).toMatchObject({
      verdict: 'fail',
      evidence: expect.stringContaining('(reply 3 "No, that\'s not okay." is no: negation:not okay'),
    });
    expect(await run({ kind: 'confirmation_before_write' }, await withReply(SUMMARY, 'Yes but not the card'))).toMatchObject({ verdict: 'fail', evidence: expect.stringContaining('is unclear') });
    expect(await run({ kind: 'confirmation_before_write' }, await withReply(SUMMARY, 'Only if the refund is today.'))).toMatchObject({ verdict: 'fail' });
    expect(await run({ kind: 'confirmation_before_write' }, await withReply(SUMMARY, 'yep, do it'))).toMatchObject({ verdict: 'pass' });
  });
  it('the request must name the action and its key arguments', async () => {
    // A bare "Shall I proceed?" names neither the action nor anything it acts on.
    expect(await run({ kind: 'confirmation_before_write' }, await withReply('Shall I proceed?', 'Yes.'))).toMatchObject({
      verdict: 'fail',
      evidence: 'unconfirmed write(s): #0 cancel_order {"order_id":"O1","reason":"no longer needed"} (the request up to agent message 2 does not name: the action (cancel_order))',
    });
    expect(await run({ kind: 'confirmation_before_write', details: false }, await withReply('Shall I proceed?', 'Yes.'))).toMatchObject({ verdict: 'pass' });
  });
});

describe('transcript', () => {
  it('quotes the match for must_match and must_not_match', async () => {
    expect((await run({ kind: 'transcript', must_match: 'refund(ed)?', must_not_match: 'guarantee' }, good))).toEqual({
      id: 'c', kind: 'transcript', verdict: 'pass',
      evidence: 'must_match: message 6 matches "refund"; must_not_match: no assistant message matches /guarantee/i',
    });
    expect((await run({ kind: 'transcript', must_not_match: 'guarantee|promise' }, bad))).toMatchObject({
      verdict: 'fail', evidence: 'must_not_match: message 4 matches "guarantee"',
    });
    expect((await run({ kind: 'transcript', role: 'user', must_match: '\\byes\\b', flags: '' }, good))).toMatchObject({
      verdict: 'fail', evidence: 'must_match: no user message matches /\\byes\\b/',
    });
  });
  it('rejects an invalid regex as bad input', async () => {
    await expect(run({ kind: 'transcript', must_match: '(' }, good)).rejects.toThrow(BadInputError);
    await expect(run({ kind: 'transcript', must_match: '(' }, good)).rejects.toThrow("check 'c': invalid regular expression /(/i:");
  });
});

describe('stated_amount', () => {
  it('finds a stated total within tolerance, commas stripped', async () => {
    expect((await run({ kind: 'stated_amount', equals: 1234.5 }, good))).toEqual({
      id: 'c', kind: 'stated_amount', verdict: 'pass', evidence: 'message 6 states "1,234.50" (= 1234.5; expected 1234.5 ± 0.005)',
    });
    expect((await run({ kind: 'stated_amount', equals: 1234.5 }, bad))).toMatchObject({
      verdict: 'fail', evidence: 'no assistant message states 1234.5 ± 0.005; amounts stated: "1,200" in message 4',
    });
    expect((await run({ kind: 'stated_amount', equals: 1200.004 }, bad))).toMatchObject({ verdict: 'pass' });
    expect((await run({ kind: 'stated_amount', equals: 5, pattern: '(\\d+) euros' }, bad))).toMatchObject({ verdict: 'fail', evidence: 'no assistant message states 5 ± 0.005; no amounts stated' });
  });
});

describe('communicate and nl', () => {
  it('applies the tau2 communicate rule to the listed strings', async () => {
    expect((await run({ kind: 'communicate', info: ['O1', 'refunded'] }, good))).toMatchObject({ verdict: 'pass', evidence: 'communicated: "O1" in message 6; "refunded" in message 10' });
    expect((await run({ kind: 'communicate', info: ['refunded'] }, bad))).toMatchObject({ verdict: 'fail', evidence: 'not communicated: "refunded"' });
  });
  it('takes nl verdicts from the judged batch; missing ones are not judged', async () => {
    const check = CheckSchema.parse({ id: 'polite', kind: 'nl', assertion: 'The agent thanks the customer.' });
    expect(runCheck(check, (await ctxFor(good)), new Map())).toEqual({
      id: 'polite', kind: 'nl', verdict: 'not_judged', evidence: '"The agent thanks the customer.": not sent to the judge',
    });
    const v = new Map([['polite', { assertion: 'The agent thanks the customer.', verdict: 'fail' as const, reason: 'No thanks given.' }]]);
    expect(runCheck(check, (await ctxFor(good)), v)).toMatchObject({ verdict: 'fail', evidence: '"The agent thanks the customer.": No thanks given.' });
  });
});
