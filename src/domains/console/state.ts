/**
 * The console's episode state: the record store (compared, diffed and hashed), and beside it what
 * people write in their own words — the case feed and the free text of records (call comments,
 * case descriptions) — kept and shown, but, like a CRM's audit trail, not part of the gold
 * comparison: two agents that file the same records in different words end in the same state.
 */
import type { StateOps } from '../../spec/state.js';
import { CowDb } from '../../env/cow-db.js';
import { cowRecordHash } from '../common/record-hash.js';
import type { ConsoleTables, FeedItem } from './schema.js';

/** An episode's copy-on-write view of the record store. */
export type ConsoleStore = CowDb<ConsoleTables>;

export interface ConsoleState {
  db: ConsoleStore;
  /** The case feeds, oldest first. */
  feed: FeedItem[];
  /** Free text by `<record id>.<field>` (e.g. `TSK-3.comments`). */
  notes: Record<string, string>;
}

/** StateOps: fork copies the store, feed and notes; equality, diff and hash look at the store only. */
export const consoleStateOps: StateOps<ConsoleState> = {
  fork: (s) => ({ db: s.db.branch(), feed: structuredClone(s.feed), notes: { ...s.notes } }),
  equal: (a, b) => CowDb.equal(a.db, b.db),
  diff: (a, b) => CowDb.diff(a.db, b.db),
  hash: (s) => cowRecordHash(s.db),
  view: (s) => s.db.materialize(),
};
