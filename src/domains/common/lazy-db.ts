/**
 * A table-shaped base DB (`{table: {id: record}}`, the base of a {@link CowDb}) that is read on
 * first use. Its tables are enumerable getters: the first access to any of them loads the whole
 * DB once, and every later access returns the loaded tables. Starting an episode (a view over the
 * base, its system prompt, the user simulator's opening turn) touches no table, so a run can send
 * its first model calls before the DB is read, and read it while it waits on them (`load()`).
 */
import type { Tables } from '../../env/cow-db.js';

/** A lazily read base DB (see the module doc). */
export interface LazyTableDb<T extends Tables> {
  /** The base DB: one object for the whole process, its tables read on first access. */
  db: T;
  /** Reads the DB now if it was not read yet (idempotent); rethrows what `read` throws, each time it is asked. */
  load(): void;
  /** Whether the DB has been read. */
  loaded(): boolean;
}

/**
 * A base DB with the tables `tables` whose content `read()` returns (called at most once, on the
 * first access to a table or the first `load()`; a throw is not kept, the next access reads again).
 * `read()`'s result must have exactly these tables.
 */
export function lazyTableDb<T extends Tables>(tables: readonly (keyof T & string)[], read: () => T): LazyTableDb<T> {
  let value: T | undefined;
  const get = (): T => {
    if (value === undefined) {
      const v = read();
      const got = Object.keys(v).sort().join(',');
      const want = [...tables].sort().join(',');
      if (got !== want) throw new Error(`lazyTableDb: the DB read has the tables ${got}, expected ${want}`);
      value = v;
    }
    return value;
  };
  const db = {} as T;
  for (const t of tables) Object.defineProperty(db, t, { enumerable: true, get: () => get()[t] });
  return { db, load: () => void get(), loaded: () => value !== undefined };
}
