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

/** Whether `x` is an object with its own or inherited `toJSON` (JSON.stringify passes it the key, so it is serialized in place). */
const hasToJson = (x: unknown): boolean => typeof x === 'object' && x !== null && typeof (x as { toJSON?: unknown }).toJSON === 'function';

/**
 * `JSON.stringify(value)` byte for byte (`'null'` where that gives undefined), for a record that
 * holds, under its top-level `key`, an array of objects already serialized by {@link elementJson}
 * (an episode's messages, serialized when they were sent to the model): their texts are reused,
 * elements without one are serialized as usual (and not kept). Anything else — not a plain
 * object, no own `key` array, a `toJSON` at the top level or among the elements — is plain
 * `JSON.stringify`. Throws what JSON.stringify throws (a cycle, a BigInt).
 */
export function jsonReusingElements(value: unknown, key: string): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || hasToJson(value)) return JSON.stringify(value) ?? 'null';
  const proto = Object.getPrototypeOf(value);
  const obj = value as Record<string, unknown>;
  const list = obj[key];
  if ((proto !== Object.prototype && proto !== null) || !Object.hasOwn(obj, key) || !Array.isArray(list) || hasToJson(list) || list.some(hasToJson)) return JSON.stringify(value) ?? 'null';
  const parts: string[] = [];
  for (const k of Object.keys(obj)) {
    if (k === key) {
      const items = new Array<string>(list.length);
      for (let i = 0; i < list.length; i++) {
        const x = list[i];
        items[i] = (typeof x === 'object' && x !== null ? texts.get(x) : undefined) ?? JSON.stringify(x) ?? 'null';
      }
      parts.push(`${JSON.stringify(k)}:[${items.join(',')}]`);
      continue;
    }
    const v = obj[k];
    if (hasToJson(v)) return JSON.stringify(value) ?? 'null';
    const text = JSON.stringify(v);
    if (text !== undefined) parts.push(`${JSON.stringify(k)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}
