/**
 * How a domain's state is copied, compared, diffed and hashed. Small JSON states use the plain
 * defaults; large DBs (airline, retail) use copy-on-write views so each of these costs in
 * proportion to what an episode touched.
 */

/** One changed field, tau2 reference format: JSON-pointer `path`, `op`, `before`, `after`. */
export interface FieldDiff {
  path: string;
  op: 'add' | 'remove' | 'replace';
  before: unknown;
  after: unknown;
}

export interface StateOps<S> {
  /** A private copy of `s` for one episode. Must be cheap for large DBs. */
  fork(s: S): S;
  /** Whether two states hold equal data (key order ignored). */
  equal(a: S, b: S): boolean;
  /** Per-field differences from `a` to `b`. */
  diff(a: S, b: S): FieldDiff[];
  /**
   * Whether `s` is known to be `start` unchanged: a fork of it not written since, which compares,
   * diffs and hashes as `start` does in every way (the same records, in the same order). False
   * when not known. Absent: never known. Lets evaluators reuse comparisons made for `start`.
   */
  unwrittenFork?(start: S, s: S): boolean;
  /** A content hash of the state (tau2-compatible where the domain promises it). */
  hash(s: S): string;
  /**
   * What the first {@link hash} of `s` (or of a state forked from it) does once and keeps, in steps
   * of a millisecond or two each: iterated to its end, that work is done (hashing a state then costs
   * only what it adds). Lets a runner do the work between other work, e.g. while it waits on model
   * calls, without holding its thread for the whole of it. Absent: that work is one `hash(s)`.
   */
  hashSteps?(s: S): Iterator<unknown>;
  /**
   * The compared state as plain JSON, for checks that read values at JSON pointers (`field_in`,
   * `state_count`). Absent: the state itself is plain JSON. Must be consistent with `diff` paths.
   */
  view?(s: S): unknown;
  /**
   * A second DB held in the same state, hashed and diffed on its own (tau2 telecom's user-side
   * device DB: `user_db_hash`, `user_db_diff`). When present, `hash` and `diff` cover the main
   * DB only and `equal` covers both.
   */
  userDb?: { hash(s: S): string; diff(a: S, b: S): FieldDiff[] };
}
