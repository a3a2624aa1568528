/**
 * The JSON text of a chat-completions request (`{model, messages: [...], tools, ...}`), made from
 * parts serialized once: the model call sends it and the run store keeps it (content-addressed,
 * src/store/receipt-codec.ts) without serializing the same parts again at every call.
 *
 * - The **template** — the request's text without the value of its top-level `messages` key, with
 *   `slot`, the offset where that value goes — is interned: requests whose other fields are the
 *   same values (primitives by value, the `tools` array by the identity of its elements) get the
 *   very same template object and string, so its ~12 KB of tool schemas are serialized, encoded and
 *   hashed once per process, not once per call.
 * - Each message is serialized once per message object ({@link elementJson}) and encoded to UTF-8
 *   once ({@link elementBytes}).
 *
 * The contract is that of `ChatModel.complete` (src/models/chat-model.ts): an object inside a
 * request's top-level arrays (a message, a tool schema), once sent, is not changed. Joined, the
 * parts are byte for byte `JSON.stringify(request)`.
 */
import { elementJson } from './json-text.js';

/** A request's text without its `messages` value. Interned: compare by identity. Never changed. */
export interface RequestTemplate {
  /** JSON text of the request with the `messages` value left out (`{"model":"m","messages":,"tools":[…]}`). */
  readonly text: string;
  /** Character offset in `text` where the `messages` value goes. */
  readonly slot: number;
}

/** A request split into its interned template and its own `messages` array. */
export interface RequestParts {
  template: RequestTemplate;
  /** The request's `messages` array (not copied). */
  list: readonly unknown[];
}

/** A template with its UTF-8 bytes before and after the slot (made on first use). */
interface InternedTemplate extends RequestTemplate {
  bytes?: [Buffer, Buffer];
}

/** An array of objects already serialized, by the identity of its elements. */
interface ArrayEntry {
  items: readonly unknown[];
  text: string;
  id: number;
}

/** Keyed by the array's first element; one entry (the latest) per first element. */
const arrays = new WeakMap<object, ArrayEntry>();
let nextArrayId = 0;

/** Signature (keys, primitive values, array ids) -> interned template; cleared past {@link TEMPLATE_CAP}. */
const templates = new Map<string, InternedTemplate>();
const TEMPLATE_CAP = 512;

/** UTF-8 of each serialized object, for as long as the object lives. */
const bytes = new WeakMap<object, Buffer>();

/**
 * The JSON text of an array whose first element is an object, kept while the array holds the very
 * same elements (compared by identity, so a fresh copy of the same list hits); undefined for an
 * empty array or one starting with a primitive.
 */
function arrayEntry(list: readonly unknown[]): ArrayEntry | undefined {
  const first = list[0];
  if (typeof first !== 'object' || first === null) return undefined;
  const known = arrays.get(first);
  if (known && known.items.length === list.length) {
    let same = true;
    for (let i = 1; i < list.length && same; i++) same = known.items[i] === list[i];
    if (same) return known;
  }
  const entry: ArrayEntry = { items: list.slice(), text: `[${Array.from(list, elementJson).join(',')}]`, id: nextArrayId++ };
  arrays.set(first, entry);
  return entry;
}

/** Separator of signature parts: JSON text never holds a raw control character. */
const SEP = '\u0001';

/**
 * The request's interned template and its `messages` array, or undefined when `request` is not a
 * plain object (prototype Object or null, no `toJSON`) with an own `messages` array. Keys in the
 * request's own order; `undefined`, function and symbol values are left out as JSON.stringify
 * leaves them out.
 */
export function requestParts(request: unknown): RequestParts | undefined {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) return undefined;
  // A call's request is split when it is sent and again when its receipt is stored.
  const known = splits.get(request);
  if (known && known.parts.list === (request as { messages?: unknown }).messages && known.parts.list.length === known.length) return known.parts;
  const parts = splitParts(request);
  if (parts) splits.set(request, { parts, length: parts.list.length });
  return parts;
}

/** Parts of a request object, by the object, with the length its `messages` had (a request, once sent, is not changed). */
const splits = new WeakMap<object, { parts: RequestParts; length: number }>();

/** {@link requestParts}, made afresh. */
function splitParts(request: object): RequestParts | undefined {
  const proto = Object.getPrototypeOf(request);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const obj = request as Record<string, unknown>;
  const list = obj.messages;
  if (typeof obj.toJSON === 'function' || !Object.hasOwn(obj, 'messages') || !Array.isArray(list)) return undefined;
  const keys = Object.keys(obj);
  const texts: (string | undefined)[] = new Array(keys.length);
  let signature = '';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === 'messages') {
      signature += `${SEP}@`;
      continue;
    }
    const value = obj[key];
    const entry = Array.isArray(value) ? arrayEntry(value) : undefined;
    const text = entry ? entry.text : Array.isArray(value) ? `[${Array.from(value, elementJson).join(',')}]` : JSON.stringify(value);
    texts[i] = text;
    // An array of objects is named by its entry's id; any other value by its text (never starting with '#').
    if (text !== undefined) signature += `${SEP}${JSON.stringify(key)}:${entry ? `#${entry.id}` : text}`;
  }
  let template = templates.get(signature);
  if (!template) {
    const before: string[] = [];
    const after: string[] = [];
    let parts = before;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === 'messages') {
        parts = after;
        continue;
      }
      if (texts[i] !== undefined) parts.push(`${JSON.stringify(keys[i])}:${texts[i]}`);
    }
    before.push('"messages":');
    const head = `{${before.join(',')}`;
    if (templates.size >= TEMPLATE_CAP) templates.clear();
    template = { text: `${head}${after.length ? `,${after.join(',')}` : ''}}`, slot: head.length };
    templates.set(signature, template);
  }
  return { template, list };
}

/** The UTF-8 bytes of {@link elementJson}`(x)`, encoded once per object (primitives each time). */
export function elementBytes(x: unknown): Buffer {
  if (typeof x !== 'object' || x === null) return Buffer.from(elementJson(x));
  let b = bytes.get(x);
  if (b === undefined) bytes.set(x, (b = Buffer.from(elementJson(x))));
  return b;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** A request's JSON text as UTF-8 pieces to send one after the other (shared, cached buffers: never change them), and their total length in bytes. */
export interface RequestChunks {
  chunks: readonly Buffer[];
  size: number;
}

/**
 * The bytes of `Buffer.from(JSON.stringify(request))` (UTF-8; `'null'` where JSON.stringify gives
 * undefined) as pieces: the interned template's bytes and each message's cached bytes, with the
 * brackets and commas between them. A call costs the encoding of its new messages only; a socket
 * writes the pieces in one go without their being copied into one buffer first.
 */
export function requestChunks(request: unknown): RequestChunks {
  const parts = requestParts(request);
  if (!parts) {
    const whole = Buffer.from(JSON.stringify(request) ?? 'null');
    return { chunks: [whole], size: whole.byteLength };
  }
  const t = parts.template as InternedTemplate;
  t.bytes ??= [Buffer.from(t.text.slice(0, t.slot)), Buffer.from(t.text.slice(t.slot))];
  const chunks: Buffer[] = [t.bytes[0], OPEN];
  let size = t.bytes[0].byteLength + t.bytes[1].byteLength + 2;
  for (let i = 0; i < parts.list.length; i++) {
    const b = elementBytes(parts.list[i]);
    if (i > 0) chunks.push(COMMA);
    chunks.push(b);
    size += b.byteLength + (i > 0 ? 1 : 0);
  }
  chunks.push(CLOSE, t.bytes[1]);
  return { chunks, size };
}

/** {@link requestChunks} joined into one buffer: `Buffer.from(JSON.stringify(request))`. */
export function requestBytes(request: unknown): Buffer {
  const { chunks, size } = requestChunks(request);
  return joinChunks(chunks, size);
}

/** Bodies up to this size are cut from a shared slab ({@link joinChunks}), bytes. */
const SLAB_PIECE_MAX = 128 * 1024;
/** Size of one slab, bytes. */
const SLAB_SIZE = 1024 * 1024;
/** Most slabs kept for reuse once every body cut from them is released (more are left to the collector). */
const SLABS_KEPT = 8;

/** A slab and how many bodies cut from it are still in use (not released). */
interface Slab {
  bytes: Buffer;
  used: number;
  live: number;
}

let current: Slab | undefined;
let made = 0;
/** Slabs none of whose bodies is in use: written again from their start. */
const spare: Slab[] = [];
/** The slab each body in use was cut from (a body's entry goes when it is released). */
const owners = new WeakMap<Buffer, Slab>();

function keepSpare(s: Slab): void {
  s.used = 0;
  if (spare.length < SLABS_KEPT) spare.push(s);
}

/** A slab with `size` bytes free: the current one, else a spare one, else a new one. */
function slabFor(size: number): Slab {
  if (current && current.used + size <= SLAB_SIZE) return current;
  const full = current;
  current = spare.pop() ?? (made++, { bytes: Buffer.allocUnsafeSlow(SLAB_SIZE), used: 0, live: 0 });
  if (full && full.live === 0) keepSpare(full);
  return current;
}

/**
 * `chunks` joined into one buffer of `size` bytes (their total), as `Buffer.concat(chunks, size)`
 * gives, for the one buffer a request body is sent from. A body of at most 128 KiB is a view into
 * a shared 1 MiB slab: at a thousand calls in flight, each ~12 KB, this spares the allocation of
 * an ArrayBuffer of its own per call, whose external memory the garbage collector otherwise counts
 * and sweeps for. The caller never changes the bytes it gets, and hands the body back with
 * {@link releaseJoined} once nothing reads it any more: a slab is written again from its start
 * only when every body cut from it has been released, which spares the page faults a fresh
 * megabyte costs on its first write (a 1,000-episode run sends ~60 MB of bodies: 0.2-0.3 s of CPU
 * in fresh slabs on a 2-core machine, a few ms in reused ones). A body never released is never
 * overwritten (its slab is left to the collector).
 * @throws RangeError when `size` is not the pieces' total byte length.
 */
export function joinChunks(chunks: readonly Buffer[], size: number): Buffer {
  if (chunks.length === 1) return chunks[0];
  if (size > SLAB_PIECE_MAX) return Buffer.concat(chunks, size);
  if (chunks.reduce((n, c) => n + c.byteLength, 0) !== size) throw new RangeError(`joinChunks: size ${size} is not the pieces' total`);
  const s = slabFor(size);
  const out = s.bytes.subarray(s.used, s.used + size);
  let at = 0;
  for (const c of chunks) at += c.copy(out, at);
  // The next piece starts 8-byte aligned, as Node's pool aligns its pieces.
  s.used = (s.used + size + 7) & ~7;
  s.live++;
  owners.set(out, s);
  return out;
}

/** How many 1 MiB slabs {@link joinChunks} has allocated in this process (for tests and benchmarks). */
export function slabsMade(): number {
  return made;
}

/**
 * Hands back a body {@link joinChunks} gave, once nothing reads it any more: no socket has any of
 * it left to write (the model client hands back a body sent once and answered 2xx, which the
 * server read in full; see `postJsonWithRetries`). Its bytes may then be overwritten by a later
 * body. A body not cut from a slab, or released already, is ignored. A body never handed back is
 * never overwritten.
 */
export function releaseJoined(body: Buffer): void {
  const s = owners.get(body);
  if (!s) return;
  owners.delete(body);
  s.live--;
  if (s.live > 0) return;
  if (s === current) s.used = 0;
  else keepSpare(s);
}
