/**
 * JSON text of objects that are never changed once serialized (a conversation's messages, a
 * request's tool schemas), kept per object for the life of the object: the model call sends a
 * conversation's earlier messages, and the store keeps its receipts, without serializing them
 * again. The contract is that of `ChatModel.complete` (src/models/chat-model.ts): a message or tool
 * object, once sent, is not changed.
 */

const texts = new WeakMap<object, string>();

/**
 * `JSON.stringify(x)` (`'null'` where that gives undefined, as inside an array), computed once
 * per object and then reused; primitives are serialized each time.
 */
export function elementJson(x: unknown): string {
  if (typeof x !== 'object' || x === null) return JSON.stringify(x) ?? 'null';
  let text = texts.get(x);
  if (text === undefined) texts.set(x, (text = JSON.stringify(x) ?? 'null'));
  return text;
}
