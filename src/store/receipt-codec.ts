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
 * schema v2 stored. A request that is not a plain object with a `messages` array is kept whole
 * (`inline`).
 */
import { createHash, type Hash } from 'node:crypto';
import { elementJson } from '../util/json-text.js';
import { requestParts } from '../util/request-text.js';

/** A request's JSON text, split for content-addressed storage. */
export type SplitRequest =
  | { kind: 'inline'; text: string }
  | {
      kind: 'split';
      template: string;
      slot: number;
      /** JSON text of each message (from {@link splitRequestLazily}: of those filled in). */
      messages: string[];
      /** The request's own `messages` array (its elements are what the texts were made from). */
      list: readonly unknown[];
    };

/** `JSON.stringify(value)`, with `'null'` where JSON.stringify gives undefined (as the store has always written). */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/**
 * Splits `request` into its template and the JSON texts of its messages; `inline` (the whole text)
 * when it is not a plain object with an own `messages` array. Byte for byte what JSON.stringify
 * writes: keys in the same order, `undefined`/function/symbol values left out, holes and undefined
 * elements as `null`. No copy of the request is made; the template is interned and objects inside
 * the request's top-level arrays (messages, tools) are serialized once per process
 * (src/util/request-text.ts: they must not change once sent), so a call whose template is already
 * known yields the very same `template` string as before.
 */
export function splitRequest(request: unknown): SplitRequest {
  const split = splitRequestLazily(request);
  if (split.kind === 'split') fillMessageTexts(split, 0);
  return split;
}

/**
 * {@link splitRequest} with `messages` not yet filled in (an array of the list's length): the
 * caller fills in the texts it needs with {@link fillMessageTexts} — a conversation's next call
 * needs only those of its new messages.
 */
export function splitRequestLazily(request: unknown): SplitRequest {
  const parts = requestParts(request);
  if (!parts) return { kind: 'inline', text: toJsonText(request) };
  const { template, list } = parts;
  return { kind: 'split', template: template.text, slot: template.slot, messages: new Array<string>(list.length), list };
}

/** Fills in the JSON text of the split request's messages from position `from` on. */
export function fillMessageTexts(split: Extract<SplitRequest, { kind: 'split' }>, from: number): void {
  for (let i = from; i < split.list.length; i++) split.messages[i] ??= elementJson(split.list[i]);
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
 * `state` is the running hash after the last message, from which a longer conversation's keys
 * continue ({@link continueKeys}).
 */
export function prefixKeys(messages: readonly string[], from = 0): { keys: (Buffer | undefined)[]; state: Hash } {
  return extendKeys(createHash('sha256').update('['), messages, 0, from);
}

/**
 * The keys of `messages` from position `from` (default `known`) on, continuing from `base`: the
 * running hash after messages 0..known-1 (left unchanged). Returns the keys (undefined before
 * `from`) and the new state.
 */
export function continueKeys(base: Hash, messages: readonly string[], known: number, from = known): { keys: (Buffer | undefined)[]; state: Hash } {
  return extendKeys(base.copy(), messages, known, from);
}

/** {@link continueKeys} on `state` itself (changed). */
function extendKeys(state: Hash, messages: readonly string[], known: number, from: number): { keys: (Buffer | undefined)[]; state: Hash } {
  const keys = new Array<Buffer | undefined>(messages.length);
  for (let i = known; i < messages.length; i++) {
    state.update(i > 0 ? `,${messages[i]}` : messages[i]);
    if (i >= from) keys[i] = state.copy().digest();
  }
  return { keys, state };
}

/** The running hash after a conversation's first message (`[m0`), and that one-message prefix's key. */
export interface FirstMessageHash {
  state: Hash;
  key: Buffer;
}

/** The {@link FirstMessageHash} of a first message's JSON text. */
export function firstMessageHash(text: string): FirstMessageHash {
  const state = createHash('sha256').update(`[${text}`);
  return { state, key: state.copy().digest() };
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
