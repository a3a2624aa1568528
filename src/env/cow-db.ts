/**
 * A copy-on-write view of a table-shaped DB (`{table: {id: record}}`, as tau2's airline and
 * retail DBs are). The base DB is loaded and validated once per process and never mutated; each
 * episode gets a view whose writes clone only the records they touch. Equality, diffs and
 * hashes then cost in proportion to the records touched, not to the size of the DB.
 */
import { diffState, type FieldDiff } from './diff.js';
import { canonicalEqual } from '../util/canonical.js';
import { clonePlain } from '../util/clone.js';

export type Tables = Record<string, Record<string, unknown>>;

const DELETED = Symbol('deleted');

/** A copy-on-write view over a shared table DB (see the module doc). Not thread-safe. */
export class CowDb<T extends Tables = Tables> {
  /** Per table: id -> cloned/new record, or DELETED. */
  private readonly overlay = new Map<keyof T, Map<string, unknown>>();
  /** New ids per table, in insertion order (base ids keep their order first). */
  private readonly added = new Map<keyof T, string[]>();
  /** Records this view cloned or put itself (a branch shares its parent's until it writes). */
  private readonly own = new WeakSet<object>();

  /** @param base the shared DB; must not be mutated by anyone while views exist */
  constructor(readonly base: T) {}

  /** A fresh view over the same base (what each episode starts from). */
  fork(): CowDb<T> {
    return new CowDb(this.base);
  }

  /** A view that starts from this view's current state (copies the overlay, shares records). */
  branch(): CowDb<T> {
    const v = new CowDb(this.base);
    for (const [t, m] of this.overlay) v.overlay.set(t, new Map(m));
    for (const [t, ids] of this.added) v.added.set(t, [...ids]);
    return v;
  }

  /** The record, or undefined. Do not mutate it: use {@link mut}. */
  get<K extends keyof T>(table: K, id: string): T[K][string] | undefined {
    const o = this.overlay.get(table);
    if (o?.has(id)) {
      const v = o.get(id);
      return v === DELETED ? undefined : (v as T[K][string]);
    }
    return Object.prototype.hasOwnProperty.call(this.base[table], id) ? this.base[table][id] as T[K][string] : undefined;
  }

  has(table: keyof T, id: string): boolean {
    return this.get(table, id) !== undefined;
  }

  /** The record made private to this view (deep-cloned on first write); throws if absent. */
  mut<K extends keyof T>(table: K, id: string): T[K][string] {
    let o = this.overlay.get(table);
    if (!o) this.overlay.set(table, (o = new Map()));
    const cur = o.get(id);
    if (cur !== undefined && cur !== DELETED && this.own.has(cur as object)) return cur as T[K][string];
    const from = this.get(table, id);
    if (from === undefined) throw new Error(`CowDb.mut: no record ${String(table)}/${id}`);
    const copy = clonePlain(from);
    o.set(id, copy);
    this.own.add(copy as object);
    return copy;
  }

  /** Inserts or replaces a record. */
  put<K extends keyof T>(table: K, id: string, value: T[K][string]): void {
    let o = this.overlay.get(table);
    if (!o) this.overlay.set(table, (o = new Map()));
    const existed = this.has(table, id);
    o.set(id, value);
    if (typeof value === 'object' && value !== null) this.own.add(value);
    if (!existed && !Object.prototype.hasOwnProperty.call(this.base[table], id)) {
      const ids = this.added.get(table) ?? [];
      if (!ids.includes(id)) ids.push(id);
      this.added.set(table, ids);
    }
  }

  /** Removes a record. */
  remove(table: keyof T, id: string): void {
    let o = this.overlay.get(table);
    if (!o) this.overlay.set(table, (o = new Map()));
    o.set(id, DELETED);
  }

  /** Ids of a table in insertion order (base order, then new ids). */
  ids(table: keyof T): string[] {
    const o = this.overlay.get(table);
    const out = Object.keys(this.base[table]).filter((id) => !(o?.get(id) === DELETED));
    for (const id of this.added.get(table) ?? []) if (o?.get(id) !== DELETED) out.push(id);
    return out;
  }

  /** `table` → ids this view wrote (changed, added or removed), in write order. */
  touched(): Map<keyof T, string[]> {
    const m = new Map<keyof T, string[]>();
    for (const [t, o] of this.overlay) m.set(t, [...o.keys()]);
    return m;
  }

  /** The whole DB as a plain object (untouched records shared with the base, not copied). */
  materialize(): T {
    const out = {} as T;
    for (const table of Object.keys(this.base) as (keyof T)[]) out[table] = this.table(table);
    return out;
  }

  /** One table as a plain object, as {@link materialize} has it (the base's own when this view did not write it). */
  table<K extends keyof T>(table: K): T[K] {
    const o = this.overlay.get(table);
    if (!o) return this.base[table];
    const t: Record<string, unknown> = {};
    for (const id of this.ids(table)) t[id] = this.get(table, id);
    return t as T[K];
  }

  /**
   * Whether this view holds exactly `other`'s records: the same base, and the same written,
   * added and removed records (the very objects, in the same order) — a branch of `other` that
   * neither has written since. Then the two compare, diff and hash alike in every way.
   */
  sharesRecordsWith(other: CowDb<T>): boolean {
    if (this.base !== other.base || this.overlay.size !== other.overlay.size || this.added.size !== other.added.size) return false;
    const theirs = other.overlay.entries();
    for (const [t, mine] of this.overlay) {
      const [ot, o] = theirs.next().value as [keyof T, Map<string, unknown>];
      if (ot !== t || o.size !== mine.size) return false;
      const entries = o.entries();
      for (const [id, v] of mine) {
        const [oid, ov] = entries.next().value as [string, unknown];
        if (oid !== id || ov !== v) return false;
      }
    }
    const added = other.added.entries();
    for (const [t, ids] of this.added) {
      const [ot, oids] = added.next().value as [keyof T, string[]];
      if (ot !== t || oids.length !== ids.length || ids.some((id, i) => oids[i] !== id)) return false;
    }
    return true;
  }

  /** Ids either view touched, per table. */
  private static touchedUnion<T extends Tables>(a: CowDb<T>, b: CowDb<T>): Map<keyof T, string[]> {
    const m = new Map<keyof T, Set<string>>();
    for (const v of [a, b]) for (const [t, ids] of v.touched()) {
      const s = m.get(t) ?? new Set<string>();
      ids.forEach((id) => s.add(id));
      m.set(t, s);
    }
    return new Map([...m].map(([t, s]) => [t, [...s]]));
  }

  /**
   * Whether two views over the same base hold equal data (key order ignored). Compares only the
   * records either view touched; views over different bases fall back to comparing everything.
   */
  static equal<T extends Tables>(a: CowDb<T>, b: CowDb<T>): boolean {
    if (a.base !== b.base) return canonicalEqual(a.materialize(), b.materialize());
    for (const [t, ids] of CowDb.touchedUnion(a, b)) {
      for (const id of ids) {
        const x = a.get(t, id);
        const y = b.get(t, id);
        if (x === y) continue;
        if (x === undefined || y === undefined || !canonicalEqual(x, y)) return false;
      }
      // No id-count check needed: an id present in one view and not the other was added or
      // removed by one of them, so it is touched and compared above.
    }
    return true;
  }

  /** Per-field diff from `a` to `b` (same base: touched records only), JSON-pointer paths. */
  static diff<T extends Tables>(a: CowDb<T>, b: CowDb<T>): FieldDiff[] {
    if (a.base !== b.base) return diffState(a.materialize(), b.materialize());
    const out: FieldDiff[] = [];
    for (const [t, ids] of CowDb.touchedUnion(a, b)) {
      for (const id of ids) out.push(...diffState(a.get(t, id), b.get(t, id), [String(t), id]));
    }
    return out;
  }
}
