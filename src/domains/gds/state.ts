/**
 * The GDS episode state: the committed store (flights and PNRs, compared and hashed), the PNR
 * history (an audit trail, shown by `*H`, not compared), and the host's session (work area,
 * pending changes, last availability display), which lives only for the episode. The screen's
 * pager belongs to the terminal surface.
 */
import type { StateOps } from '../../spec/state.js';
import { CowDb } from '../../env/cow-db.js';
import { cowRecordHash } from '../common/record-hash.js';
import type { Flight, HistoryEntry, Pnr } from './schema.js';

/** The store's tables by key. */
export type GdsTables = { flights: Record<string, Flight>; pnrs: Record<string, Pnr> };
/** An episode's copy-on-write view of the store. */
export type GdsStore = CowDb<GdsTables>;

/**
 * A pending change: its wording in the PNR history (`SOLD XA208 M 20OCT JFKORD 2`) and the
 * back-end operation end transaction commits for it, named and argued as the action log and the
 * tasks' gold actions state it (`sell_segment {locator, flight, date, class, count}`; see host.ts).
 */
export interface PendingChange {
  text: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** The terminal session: the PNR being worked on and what the last entries displayed. */
export interface GdsSession {
  /** The working copy of the retrieved PNR (changes stay here until end transaction). */
  area: Pnr | null;
  /** Pending changes, in the order made (sorted by wording at end transaction). */
  changes: PendingChange[];
  /** The pending received-from (entry `6`). */
  received: string | null;
  /** The last availability display: its date, city pair and flight keys by line number. */
  avail: { date: string; from: string; to: string; keys: string[] } | null;
}

export interface GdsState {
  db: GdsStore;
  history: HistoryEntry[];
  session: GdsSession;
}

/** An empty session. */
export const newSession = (): GdsSession => ({ area: null, changes: [], received: null, avail: null });

/**
 * StateOps for the GDS: fork copies the store and history and starts a fresh session; equality,
 * diff and hash look at the committed store only (pending changes that were never ended are, as in
 * a real GDS, not there).
 */
export const gdsStateOps: StateOps<GdsState> = {
  fork: (s) => ({ db: s.db.branch(), history: structuredClone(s.history), session: newSession() }),
  equal: (a, b) => CowDb.equal(a.db, b.db),
  diff: (a, b) => CowDb.diff(a.db, b.db),
  hash: (s) => cowRecordHash(s.db),
  view: (s) => s.db.materialize(),
};
