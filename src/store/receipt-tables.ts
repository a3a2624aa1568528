/**
 * The receipt tables of the run store (schema v3): receipts whose requests are stored
 * content-addressed (src/store/receipt-codec.ts), so that a conversation prefix is stored once and
 * the store grows linearly with conversation length; every receipt reconstructs byte-identically
 * (`request` and `response` are exactly the `JSON.stringify` text schema v2 stored).
 *
 * | table | holds |
 * |---|---|
 * | `receipt_templates` | a request without its `messages` value (`body`), and `slot`, the offset where it goes; unique by `hash` |
 * | `receipt_messages`  | one node per conversation prefix: `parent` node, `message` JSON text; unique by `hash` (SHA-256 of the parent's hash and the message) |
 * | `receipts`          | one model call: `template` + `prefix` (its last message node; null for no messages), or the whole `request` text when it has no `messages` array; since v4 the episode key of the call that made it (`task_id`, `trial`, `persona`, `attempt`, `call_index`; null when unknown) |
 *
 * Credentials are checked once per stored piece, by value on its serialized text: a piece already
 * stored (a known prefix, a known template) was checked when it was first written.
 */
import type { Hash } from 'node:crypto';
import { elementJson } from '../util/json-text.js';
import type Database from 'better-sqlite3';
import {
  containsSecret,
  continueKeys,
  credentialKeyOffset,
  fillMessageTexts,
  firstMessageHash,
  joinRequest,
  joinRequestText,
  prefixKeys,
  splitRequest,
  splitRequestLazily,
  templateKey,
  type FirstMessageHash,
  type SplitRequest,
} from './receipt-codec.js';

/** DDL of the receipt tables (schema v4: v3's plus the episode key columns of `receipts`). */
export const RECEIPT_TABLES_DDL = `
CREATE TABLE receipt_templates (
  id    INTEGER PRIMARY KEY,
  hash  BLOB NOT NULL UNIQUE,
  slot  INTEGER NOT NULL,
  body  TEXT NOT NULL
);

CREATE TABLE receipt_messages (
  id      INTEGER PRIMARY KEY,
  hash    BLOB NOT NULL UNIQUE,
  parent  INTEGER REFERENCES receipt_messages (id),
  message TEXT NOT NULL
);

CREATE TABLE receipts (
  run_id          TEXT NOT NULL,
  seq             INTEGER NOT NULL,
  kind            TEXT NOT NULL,
  provider        TEXT NOT NULL,
  endpoint        TEXT NOT NULL,
  template        INTEGER REFERENCES receipt_templates (id),
  prefix          INTEGER REFERENCES receipt_messages (id),
  request         TEXT,
  response        TEXT NOT NULL,
  elapsed_seconds REAL NOT NULL,
  task_id         TEXT,
  trial           INTEGER,
  persona         TEXT,
  attempt         INTEGER,
  call_index      INTEGER,
  PRIMARY KEY (run_id, seq),
  CHECK ((template IS NULL) = (request IS NOT NULL))
);
`;

/**
 * Which episode of a run made a receipt's call (stored with it since schema v4): the episode's task,
 * trial and persona (null without personas), the run's attempt (the `attempts` entry of the
 * invocation that made the call; null when not known) and the call's 0-based index among the
 * episode's model calls (agent and user in call order, then its judge calls).
 */
export interface ReceiptEpisodeKey {
  task_id: string;
  trial: number;
  persona: string | null;
  attempt: number | null;
  call: number;
}

/** One model call of a run; `(run_id, seq)` is unique. Must not contain credentials. */
export interface ReceiptRow {
  run_id: string;
  /** Call sequence number within the run (integer). */
  seq: number;
  kind: string;
  provider: string;
  endpoint: string;
  /** JSON value. */
  request: unknown;
  /** JSON value. */
  response: unknown;
  /** Wall time of the call, in seconds. */
  elapsed_seconds: number;
  /** The episode that made the call, when known (a one-process `run` records it; absent otherwise). */
  episode?: ReceiptEpisodeKey;
}

/** The episode key columns of a stored receipt row. */
interface EpisodeColumns {
  task_id: string | null;
  trial: number | null;
  persona: string | null;
  attempt: number | null;
  call_index: number | null;
}

/** A stored receipt with `request` and `response` as their exact stored JSON text. */
export type ReceiptTextRow = Omit<ReceiptRow, 'request' | 'response'> & { request: string; response: string };

/** A receipt serialized and checked, ready to be written ({@link ReceiptTables.encode}). */
export interface EncodedReceipt {
  row: Omit<ReceiptRow, 'request' | 'response'>;
  request: SplitRequest;
  response: string;
  /** Prefix keys of the split request's messages, at least from position `known` on. */
  keys: (Buffer | undefined)[];
  /** Messages [0, known) have a stored node, the last of which is `knownId`. */
  known: number;
  knownId: number | null;
  /** Running prefix hash after the last message (to continue from on the conversation's next call). */
  state: Hash | null;
  /** The previous call's last message object, when this call continued its conversation. */
  continued: object | null;
}

/** A committed receipt's last message object -> its request's message list, running hash and node id. */
interface Continuation {
  list: readonly unknown[];
  state: Hash;
  id: number;
}

/** Keys (compared lower-cased) that mark a credential inside a receipt. */
const CREDENTIAL_KEYS = new Set(['authorization', 'api_key', 'apikey']);

/** JSON path of the first credential-named key inside `value`, or undefined (only to name a refused receipt's key). */
function findCredentialKey(value: unknown, at: string, seen = new Set<object>()): string | undefined {
  if (value === null || typeof value !== 'object' || seen.has(value)) return undefined;
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findCredentialKey(value[i], `${at}[${i}]`, seen);
      if (hit) return hit;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    const here = `${at}.${key}`;
    if (CREDENTIAL_KEYS.has(key.toLowerCase())) return here;
    const hit = findCredentialKey(child, here, seen);
    if (hit) return hit;
  }
  return undefined;
}

/** Cap on cached prefix leaves (one per recent receipt); the oldest is evicted. */
const LEAF_CACHE = 50_000;
/** Cap on cached templates and on pieces staged in one transaction (both merely save look-ups). */
const SMALL_CACHE = 256;
const STAGED_CAP = 200_000;

const INSERT_RECEIPT = `INSERT INTO receipts (run_id, seq, kind, provider, endpoint, template, prefix, request, response, elapsed_seconds, task_id, trial, persona, attempt, call_index)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** Prefix keys looked up first, counted from the end of a request's messages. */
const RECENT = 8;

const keyText = (key: Buffer): string => key.toString('latin1');
/** A cached template's slot and row id, keyed by its text (an interned string: src/util/request-text.ts). */
interface TemplateEntry {
  slot: number;
  id: number;
}

/**
 * Writer and reader of the receipt tables of one connection. Ids it caches are only those of
 * committed rows: the caller reports each transaction's end with {@link commit} or {@link rollback}.
 */
export class ReceiptTables {
  private readonly prepared = new Map<string, Database.Statement>();
  /** Committed: prefix key of a receipt's last message -> node id (insertion-ordered, capped). */
  private readonly leaves = new Map<string, number>();
  private readonly templates = new Map<string, TemplateEntry>();
  /** Written in the open transaction: every node / template key -> id, and the leaves to cache on commit. */
  private readonly stagedNodes = new Map<string, number>();
  private readonly stagedTemplates = new Map<string, TemplateEntry>();
  private stagedLeaves: [string, number, EncodedReceipt][] = [];
  /** Committed: the last message object of a receipt -> how its conversation continues (weak: dies with the conversation). */
  private readonly continuations = new WeakMap<object, Continuation>();
  /** Shared first messages (frozen system prompts) -> their hash ({@link firstHash}). */
  private readonly firstHashes = new WeakMap<object, FirstMessageHash>();

  /** `secrets`: values that must never be stored (checked by value on every new serialized piece). */
  constructor(
    private readonly db: Database.Database,
    private readonly secrets: readonly string[] = [],
  ) {}

  /** The statement for `sql`, prepared once per connection. */
  private prep(sql: string): Database.Statement {
    let stmt = this.prepared.get(sql);
    if (!stmt) this.prepared.set(sql, (stmt = this.db.prepare(sql)));
    return stmt;
  }

  /**
   * Serializes `row` and checks every piece not yet stored: no credential-named key
   * (`authorization`, `api_key`, `apiKey`, any case, any depth) and none of the secrets.
   * @throws Error naming the receipt and the JSON path of the key (nothing is written).
   * @throws TypeError when `request`/`response` cannot be JSON-stringified.
   */
  encode(row: ReceiptRow): EncodedReceipt {
    // A response object is not changed once received: its text is made once (the model adapter may have made it already).
    const response = elementJson(row.response);
    const request = splitRequestLazily(row.request);
    const { request: _q, response: _r, ...meta } = row;
    const enc: EncodedReceipt = { row: meta, request, response, keys: [], known: 0, knownId: null, state: null, continued: null };
    const fresh: string[] = [];
    if (request.kind === 'inline') {
      fresh.push(request.text);
    } else {
      // Each fills in the texts of the messages it hashes: all, or on a conversation's next call the new ones.
      if (!this.continueConversation(enc, request)) this.findKnownPrefix(enc, request);
      if (this.cachedTemplate(request.template, request.slot) === undefined) fresh.push(request.template);
      for (let i = enc.known; i < request.messages.length; i++) fresh.push(request.messages[i]);
    }
    fresh.push(response);
    for (const text of fresh) {
      if (credentialKeyOffset(text) >= 0) {
        const at = findCredentialKey(row.request, '$.request') ?? findCredentialKey(row.response, '$.response') ?? 'a key of its serialized text';
        throw new Error(`refusing to store receipt ${row.run_id}#${row.seq}: it contains a credential key at ${at}; receipts must be credential-free`);
      }
      if (containsSecret(text, this.secrets)) {
        throw new Error(`refusing to store receipt ${row.run_id}#${row.seq}: it contains a secret value; receipts must be credential-free`);
      }
    }
    return enc;
  }

  /**
   * Sets `enc.keys`, `enc.known` and `enc.knownId`: the longest prefix of `messages` whose last
   * node is a cached leaf (or was written in the open transaction). A conversation's previous call
   * usually ends a few messages before the end, so only the last {@link RECENT} keys are taken
   * first; all of them only when none of those is known.
   */
  private findKnownPrefix(enc: EncodedReceipt, request: Extract<SplitRequest, { kind: 'split' }>): void {
    fillMessageTexts(request, 0);
    const messages = request.messages;
    const n = messages.length;
    const first = this.firstHash(request.list[0], messages[0]);
    const keysFrom = (from: number) => {
      if (!first) return prefixKeys(messages, from);
      const out = continueKeys(first.state, messages, 1, Math.max(1, from));
      out.keys[0] = first.key;
      return out;
    };
    let state: Hash;
    const scan = (from: number, to: number): boolean => {
      for (let i = to - 1; i >= from; i--) {
        const k = keyText(enc.keys[i]!);
        const id = this.leaves.get(k) ?? this.stagedNodes.get(k);
        if (id !== undefined) {
          enc.known = i + 1;
          enc.knownId = id;
          return true;
        }
      }
      return false;
    };
    const recent = Math.max(0, n - RECENT);
    ({ keys: enc.keys, state } = keysFrom(recent));
    enc.state = state;
    if (scan(recent, n) || recent === 0) return;
    ({ keys: enc.keys, state } = keysFrom(0));
    enc.state = state;
    scan(0, recent);
  }

  /**
   * The hash of a conversation's first message when it is a shared, frozen one (a system prompt
   * every episode opens with: `systemMessage` in src/models/chat-model.ts), made once per message
   * object; undefined for any other, or no, message.
   */
  private firstHash(message: unknown, text: string | undefined): FirstMessageHash | undefined {
    if (typeof message !== 'object' || message === null || !Object.isFrozen(message) || text === undefined) return undefined;
    let first = this.firstHashes.get(message);
    if (!first) this.firstHashes.set(message, (first = firstMessageHash(text)));
    return first;
  }

  /**
   * The fast path of a conversation's next call: when the request's message list starts with the
   * very objects (by identity) of a committed receipt's list, which ended at one of the last
   * {@link RECENT} positions, only the messages after it are hashed. Messages are never changed
   * once sent (src/util/json-text.ts), so equal identity means equal text.
   */
  private continueConversation(enc: EncodedReceipt, request: Extract<SplitRequest, { kind: 'split' }>): boolean {
    const list = request.list;
    const n = list.length;
    for (let i = n - 1; i >= Math.max(0, n - RECENT); i--) {
      const last = list[i];
      if (typeof last !== 'object' || last === null) continue;
      const c = this.continuations.get(last);
      if (!c || c.list.length !== i + 1) continue;
      let same = true;
      for (let k = 0; k < i && same; k++) same = c.list[k] === list[k];
      if (!same) continue;
      fillMessageTexts(request, i + 1);
      ({ keys: enc.keys, state: enc.state } = continueKeys(c.state, request.messages, i + 1));
      enc.known = i + 1;
      enc.knownId = c.id;
      enc.continued = last;
      return true;
    }
    return false;
  }

  /** Id of a committed or staged template with this text and slot (looked up by the text, before any hashing). */
  private cachedTemplate(body: string, slot: number): number | undefined {
    const committed = this.templates.get(body);
    if (committed?.slot === slot) return committed.id;
    const staged = this.stagedTemplates.get(body);
    return staged?.slot === slot ? staged.id : undefined;
  }

  private templateId(slot: number, body: string): number {
    const known = this.cachedTemplate(body, slot);
    if (known !== undefined) return known;
    const key = templateKey(body, slot);
    const info = this.prep('INSERT OR IGNORE INTO receipt_templates (hash, slot, body) VALUES (?, ?, ?)').run(key, slot, body);
    const id = info.changes ? Number(info.lastInsertRowid) : (this.prep('SELECT id FROM receipt_templates WHERE hash = ?').pluck().get(key) as number);
    if (this.stagedTemplates.size >= SMALL_CACHE) this.stagedTemplates.clear();
    this.stagedTemplates.set(body, { slot, id });
    return id;
  }

  private nodeId(key: Buffer, parent: number | null, message: string): number {
    const k = keyText(key);
    const known = this.stagedNodes.get(k);
    if (known !== undefined) return known;
    const info = this.prep('INSERT OR IGNORE INTO receipt_messages (hash, parent, message) VALUES (?, ?, ?)').run(key, parent, message);
    const id = info.changes ? Number(info.lastInsertRowid) : (this.prep('SELECT id FROM receipt_messages WHERE hash = ?').pluck().get(key) as number);
    if (this.stagedNodes.size >= STAGED_CAP) this.stagedNodes.clear();
    this.stagedNodes.set(k, id);
    return id;
  }

  /**
   * Writes one encoded receipt; call inside a transaction, then {@link commit} or {@link rollback}.
   * @throws SqliteError (SQLITE_CONSTRAINT_PRIMARYKEY when `(run_id, seq)` is already stored).
   */
  write(enc: EncodedReceipt): void {
    const r = enc.row;
    let template: number | null = null;
    let prefix: number | null = null;
    let text: string | null = null;
    if (enc.request.kind === 'inline') {
      text = enc.request.text;
    } else {
      const { messages, slot, template: body } = enc.request;
      template = this.templateId(slot, body);
      prefix = enc.knownId;
      for (let i = enc.known; i < messages.length; i++) prefix = this.nodeId(enc.keys[i]!, prefix, messages[i]);
      if (prefix !== null) this.stagedLeaves.push([keyText(enc.keys[messages.length - 1]!), prefix, enc]);
    }
    const e = r.episode;
    this.prep(INSERT_RECEIPT).run(r.run_id, r.seq, r.kind, r.provider, r.endpoint, template, prefix, text, enc.response, r.elapsed_seconds, e?.task_id ?? null, e?.trial ?? null, e?.persona ?? null, e?.attempt ?? null, e?.call ?? null);
  }

  /**
   * Writes a receipt given as the JSON texts schema v2 stored (the v2 → v3 migration). The request
   * is split only when the split joins back to exactly the same text; otherwise it stays whole.
   * No credential check: the row was checked when it was first written.
   */
  writeStoredText(row: ReceiptTextRow): void {
    let request: SplitRequest = { kind: 'inline', text: row.request };
    try {
      const split = splitRequest(JSON.parse(row.request));
      if (split.kind === 'split' && joinRequest(split.template, split.slot, split.messages) === row.request) request = split;
    } catch {
      // not JSON: kept as it is
    }
    const { request: _q, response, ...meta } = row;
    const enc: EncodedReceipt = { row: meta, request, response, keys: [], known: 0, knownId: null, state: null, continued: null };
    if (request.kind === 'split') this.findKnownPrefix(enc, request);
    this.write(enc);
  }

  /** The open transaction committed: its leaves and templates become cached look-ups. */
  commit(): void {
    for (const [k, id, enc] of this.stagedLeaves) {
      this.leaves.delete(k);
      this.leaves.set(k, id);
      if (enc.request.kind !== 'split' || !enc.state) continue;
      const list = enc.request.list;
      const last = list[list.length - 1];
      // One continuation per live conversation: the previous call's is no longer needed.
      if (enc.continued && enc.continued !== last) this.continuations.delete(enc.continued);
      if (typeof last === 'object' && last !== null) this.continuations.set(last, { list, state: enc.state, id });
    }
    while (this.leaves.size > LEAF_CACHE) this.leaves.delete(this.leaves.keys().next().value as string);
    if (this.templates.size + this.stagedTemplates.size > SMALL_CACHE) this.templates.clear();
    for (const [k, t] of this.stagedTemplates) this.templates.set(k, t);
    this.rollback();
  }

  /** The open transaction was rolled back (or committed and cached): forget what it wrote. */
  rollback(): void {
    this.stagedNodes.clear();
    this.stagedTemplates.clear();
    this.stagedLeaves = [];
  }

  /** Number of receipts of run `runId`. */
  count(runId: string): number {
    return this.prep('SELECT count(*) FROM receipts WHERE run_id = ?').pluck().get(runId) as number;
  }

  /** Receipts of run `runId` ordered by `seq`, request and response as their exact stored JSON text. */
  read(runId: string): ReceiptTextRow[] {
    const rows = this
      .prep(
        `SELECT run_id, seq, kind, provider, endpoint, template, prefix, request, response, elapsed_seconds, task_id, trial, persona, attempt, call_index
         FROM receipts WHERE run_id = ? ORDER BY seq`,
      )
      .all(runId) as (ReceiptTextRow & { template: number | null; prefix: number | null; request: string | null } & EpisodeColumns)[];
    if (rows.length === 0) return [];
    const templates = new Map<number, { slot: number; body: string }>();
    for (const t of this
      .prep('SELECT id, slot, body FROM receipt_templates WHERE id IN (SELECT template FROM receipts WHERE run_id = ?)')
      .all(runId) as { id: number; slot: number; body: string }[]) {
      templates.set(t.id, t);
    }
    const joined = this.prefixTexts(runId);
    return rows.map(({ template, prefix, request, task_id, trial, persona, attempt, call_index, ...r }) => {
      const key = task_id === null || trial === null || call_index === null ? {} : { episode: { task_id, trial, persona, attempt, call: call_index } };
      if (template === null) return { ...r, request: request!, ...key };
      const t = templates.get(template)!;
      return { ...r, request: joinRequestText(t.body, t.slot, prefix === null ? '' : joined(prefix)), ...key };
    });
  }

  /** For run `runId`: node id -> its conversation prefix's message texts joined by commas (memoised). */
  private prefixTexts(runId: string): (id: number) => string {
    const nodes = new Map<number, { parent: number | null; message: string }>();
    const all = this
      .prep(
        `WITH RECURSIVE chain (id) AS (
           SELECT prefix FROM receipts WHERE run_id = ? AND prefix IS NOT NULL
           UNION SELECT m.parent FROM receipt_messages m JOIN chain ON m.id = chain.id WHERE m.parent IS NOT NULL)
         SELECT m.id, m.parent, m.message FROM receipt_messages m JOIN chain ON m.id = chain.id`,
      )
      .all(runId) as { id: number; parent: number | null; message: string }[];
    for (const n of all) nodes.set(n.id, n);
    const memo = new Map<number, string>();
    return (id: number): string => {
      const path: number[] = [];
      let at: number | null = id;
      while (at !== null && !memo.has(at)) {
        path.push(at);
        at = nodes.get(at)!.parent;
      }
      let text = at === null ? undefined : memo.get(at);
      for (let i = path.length - 1; i >= 0; i--) {
        const message = nodes.get(path[i])!.message;
        text = text === undefined ? message : `${text},${message}`;
        memo.set(path[i], text);
      }
      return memo.get(id)!;
    };
  }
}
