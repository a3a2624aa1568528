/**
 * Receipts packed for the trip from a queue worker to the storing process: each request template
 * and each message travels once, and unpacking gives requests whose JSON text is byte-identical
 * to the worker's (key order included), sharing their template and message objects.
 */
import { describe, expect, it } from 'vitest';
import { packReceipts, ReceiptUnpacker, type EpisodeReceipt } from '../../src/queue/packed-receipts.js';

const tools = [{ type: 'function', function: { name: 'get_user_details', parameters: { type: 'object', properties: { user_id: { type: 'string' } } } } }];

/** A conversation's agent receipts as a run makes them: each request repeats the messages so far (the same objects). */
function conversation(turns: number): EpisodeReceipt[] {
  const messages: Record<string, unknown>[] = [{ role: 'system', content: 'Policy 规则 "quoted" \\ 🙂' }, { role: 'user', content: 'Hi' }];
  const out: EpisodeReceipt[] = [];
  for (let t = 0; t < turns; t++) {
    // `messages` sits between other keys: its place must survive.
    out.push({ kind: 'task_agent', provider: 'mock', endpoint: 'http://127.0.0.1:1/v1/chat/completions', request: { model: 'm', messages: [...messages], tools, temperature: 0, extra: undefined }, response: { id: `c${t}`, n: 1.5 }, elapsed_seconds: 0.25 });
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `call_${t}`, type: 'function', function: { name: 'get_user_details', arguments: '{"user_id":"u1"}' } }] }, { role: 'tool', tool_call_id: `call_${t}`, content: `{"turn": ${t}}` });
  }
  return out;
}

describe('packed receipts', () => {
  it('carry each template and message once and unpack to byte-identical requests', () => {
    const receipts = [...conversation(6), { kind: 'judge', provider: 'mock', endpoint: 'e', request: 'not a chat request', response: {}, elapsed_seconds: 1 }];
    const packed = JSON.parse(JSON.stringify(packReceipts(receipts)));
    expect(packed.templates).toHaveLength(1);
    expect(packed.messages).toHaveLength(2 + 2 * 5);
    // Smaller than the receipts whole (each request repeats the conversation and the tools).
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(receipts).length / 2);
    const back = new ReceiptUnpacker().unpack(packed);
    // What the store serialises: each request's text byte for byte, and the other fields as they were.
    expect(back.map((r) => JSON.stringify(r.request))).toEqual(receipts.map((r) => JSON.stringify(r.request)));
    expect(back.map(({ request: _q, ...rest }) => rest)).toEqual(receipts.map(({ request: _q, ...rest }) => rest));
    // Shared objects: the messages of a conversation, and the template's tools across episodes of a run.
    const a = back[4].request as { messages: unknown[]; tools: unknown };
    const b = back[5].request as { messages: unknown[]; tools: unknown };
    expect(b.messages[3]).toBe(a.messages[3]);
    const unpacker = new ReceiptUnpacker();
    const one = unpacker.unpack(JSON.parse(JSON.stringify(packReceipts(conversation(2)))));
    const two = unpacker.unpack(JSON.parse(JSON.stringify(packReceipts(conversation(2)))));
    expect((two[0].request as { tools: unknown }).tools).toBe((one[0].request as { tools: unknown }).tools);
  });

  it('refuses a packed receipt pointing outside its episode', () => {
    const packed = JSON.parse(JSON.stringify(packReceipts(conversation(2))));
    packed.receipts[1].request.messages.push(99);
    expect(() => new ReceiptUnpacker().unpack(packed)).toThrow(/points outside its episode's templates or messages/);
  });
});
