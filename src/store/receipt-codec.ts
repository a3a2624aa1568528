/**
 * Content addressing of receipt requests (store schema v3), as pure functions over JSON text.
 *
 * A chat-completions request is `{model, messages: [...], tools, ...}`, and the `messages` of call
 * n+1 of a conversation repeat those of call n. The store keeps a request as
 *
 * - a **template**: the request's JSON text without the value of its top-level `messages` key
 *   (model, tools, temperature ...), with `slot`, the character offset where that value goes; and
 * - a **prefix chain**: one node per message, with its parent node (the message before it), keyed
 *   by the SHA-256 of the conversation prefix it ends, so a conversation prefix is stored once and
 *   later requests reference it by the id of their last node.
 *
 * {@link joinRequest} gives back exactly `JSON.stringify(request)`: byte-identical to the text that
 * schema v2 stored. A request without a `messages` array (or whose text cannot be split
 * unambiguously) is kept whole (`inline`).
 */
import { createHash } from 'node:crypto';

/** A request's JSON text, split for content-addressed storage. */
export type SplitRequest =
  | { kind: 'inline'; text: string }
  | { kind: 'split'; template: string; slot: number; messages: string[] };

/** Placeholder put in the `messages` slot while serialising the rest of the request. */
const PLACEHOLDER = '\u0000servicegym:messages\u0000';
const KEY = '"messages":';
const MARK = KEY + JSON.stringify(PLACEHOLDER);

/** `JSON.stringify(value)`, with `'null'` where JSON.stringify gives undefined (as the store has always written). */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/**
 * Splits `request` into its template and the JSON texts of its messages; `inline` (the whole text)
 * when it is not a plain object with an own `messages` array, or when the placeholder would be
 * ambiguous. No copy of the request is made beyond one shallow object spread.
 */
export function splitRequest(request: unknown): SplitRequest {
  const inline = (): SplitRequest => ({ kind: 'inline', text: toJsonText(request) });
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return inline();
  const obj = request as Record<string, unknown>;
  if (typeof obj.toJSON === 'function' || !Object.hasOwn(obj, 'messages')) return inline();
  const list = obj.messages;
  if (!Array.isArray(list)) return inline();
  const marked = JSON.stringify({ ...obj, messages: PLACEHOLDER });
  const at = marked.indexOf(MARK);
  if (at < 0 || marked.indexOf(MARK, at + 1) >= 0) return inline();
  const slot = at + KEY.length;
  const messages = new Array<string>(list.length);
  // An index loop, not map: holes serialise as null, as they do inside JSON.stringify of the array.
  for (let i = 0; i < list.length; i++) messages[i] = toJsonText(list[i]);
  return { kind: 'split', template: marked.slice(0, slot) + marked.slice(slot + MARK.length - KEY.length), slot, messages };
}

/** The request's JSON text from its template, slot and message texts (inverse of {@link splitRequest}). */
export function joinRequest(template: string, slot: number, messages: readonly string[]): string {
  return `${template.slice(0, slot)}[${messages.join(',')}]${template.slice(slot)}`;
}

/** The same, with the messages already joined by commas (`''` for none). */
export function joinRequestText(template: string, slot: number, joinedMessages: string): string {
  return `${template.slice(0, slot)}[${joinedMessages}]${template.slice(slot)}`;
}

/**
 * Keys (SHA-256 digests, 32 bytes) of the prefixes of `messages` ending at positions >= `from`
 * (undefined before it): key i is the digest of the prefix's array text `[m0,m1,...,mi`, which
 * identifies messages 0..i exactly (JSON values joined by commas parse back one way only). One
 * running hash over the texts; a digest is taken only where asked, since each costs a copy.
 */
export function prefixKeys(messages: readonly string[], from = 0): (Buffer | undefined)[] {
  const keys = new Array<Buffer | undefined>(messages.length);
  const hash = createHash('sha256').update('[');
  for (let i = 0; i < messages.length; i++) {
    if (i > 0) hash.update(',');
    hash.update(messages[i]);
    if (i >= from) keys[i] = hash.copy().digest();
  }
  return keys;
}

/** Key of a template: SHA-256 of its slot and text. */
export function templateKey(template: string, slot: number): Buffer {
  return createHash('sha256').update(`${slot}\u0000`).update(template).digest();
}

/**
 * A credential-named key in JSON text: `"authorization":`, `"api_key":` or `"apikey":` in any
 * case. In JSON.stringify output a quote that opens a key is never preceded by a backslash, and a
 * quote inside a string value always is, so a value merely mentioning these words never matches.
 */
const CREDENTIAL_KEY_TEXT = /(?<!\\)"(?:authorization|api_?key)":/i;

/** Offset of the first credential-named key in the JSON text, or -1. */
export function credentialKeyOffset(text: string): number {
  return text.search(CREDENTIAL_KEY_TEXT);
}

/** Whether `text` contains any of `secrets` (non-empty values, compared as they are). */
export function containsSecret(text: string, secrets: readonly string[]): boolean {
  for (const s of secrets) if (s && text.includes(s)) return true;
  return false;
}
