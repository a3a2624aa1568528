/**
 * DB comparison (tau2 DB component, servicegym `db_gold`/`unchanged`): two states compared with
 * the domain's {@link StateOps}, optionally only under some JSON-pointer subtrees, with the
 * differing fields as evidence.
 */
import type { FieldDiff, StateOps } from '../spec/state.js';
import { BadInputError } from '../spec/errors.js';
import { diffState } from '../env/diff.js';
import { describeDiffs, type ComponentResult } from './evidence.js';
import type { GoldReplay } from './gold.js';
import { isRecord, jsonEqual } from './trace-index.js';

/** Segments of a JSON pointer (`/a/b~1c` → `['a', 'b/c']`); throws BadInputError unless it is `''` or starts with `/`. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new BadInputError(`not a JSON pointer: ${JSON.stringify(pointer)} (must start with "/")`);
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at `segs` inside a plain JSON value (undefined when absent). */
export function at(value: unknown, segs: readonly string[]): unknown {
  let cur = value;
  for (const s of segs) {
    if (Array.isArray(cur)) cur = /^\d+$/.test(s) ? cur[Number(s)] : undefined;
    else if (isRecord(cur)) cur = Object.prototype.hasOwnProperty.call(cur, s) ? cur[s] : undefined;
    else return undefined;
  }
  return cur;
}

/**
 * The part of `diffs` that lies under any of `paths` (JSON pointers). A diff at or below a path is
 * kept as is; a diff above a path (e.g. a whole record added) is narrowed to the path's subtree
 * and kept only if that subtree differs. Result order: the order of `diffs`.
 */
export function restrictDiff(diffs: readonly FieldDiff[], paths: readonly string[]): FieldDiff[] {
  const segsOf = paths.map((p) => ({ p, segs: pointerSegments(p) }));
  const out: FieldDiff[] = [];
  const seen = new Set<string>();
  const push = (d: FieldDiff) => {
    const k = `${d.path}\u0000${d.op}`;
    if (!seen.has(k)) (seen.add(k), out.push(d));
  };
  for (const d of diffs) {
    for (const { p, segs } of segsOf) {
      if (p === '' || d.path === p || d.path.startsWith(`${p}/`)) {
        push(d);
      } else if (d.path === '' || p.startsWith(`${d.path}/`)) {
        const rest = segs.slice(pointerSegments(d.path).length);
        const before = d.op === 'add' ? undefined : at(d.before, rest);
        const after = d.op === 'remove' ? undefined : at(d.after, rest);
        if (!jsonEqual(before, after)) diffState(before, after, segs).forEach(push);
      }
    }
  }
  return out;
}

/** Outcome of comparing two states. */
export interface StateComparison {
  equal: boolean;
  /** Fields that differ from `expected` (before) to `actual` (after); empty when equal. */
  diff: FieldDiff[];
}

/**
 * Compares `actual` with `expected`: the whole state with `ops.equal` (diff computed only when
 * unequal), or, with `paths`, only those JSON-pointer subtrees (via `ops.diff`).
 */
export function compareStates<S>(ops: StateOps<S>, expected: S, actual: S, paths?: readonly string[]): StateComparison {
  if (paths === undefined) {
    if (ops.equal(expected, actual)) return { equal: true, diff: [] };
    return { equal: false, diff: ops.diff(expected, actual) };
  }
  const diff = restrictDiff(ops.diff(expected, actual), paths);
  return { equal: diff.length === 0, diff };
}

/**
 * tau2 DB component: 1 iff the episode's final state equals the gold replay's final state
 * (tau2 compares DB hashes; equal data ⇔ equal hash). Evidence names the differing fields as
 * `gold …, episode …` and any gold actions that failed during the replay.
 */
export function dbComponent<S>(ops: StateOps<S>, gold: GoldReplay<S>, finalState: S): ComponentResult {
  const cmp = compareStates(ops, gold.finalState, finalState);
  const goldNote = gold.errors.length
    ? ` (gold replay: ${gold.errors.map((e) => `${e.action_id} ${e.name} failed: ${e.output}`).join('; ')})`
    : '';
  const evidence = cmp.equal
    ? `final state equals the gold replay's${goldNote}`
    : `${cmp.diff.length} field(s) differ from the gold replay: ${describeDiffs(cmp.diff, ['gold', 'episode'])}${goldNote}`;
  return {
    score: cmp.equal ? 1 : 0,
    check: { id: 'tau2_db', kind: 'DB', verdict: cmp.equal ? 'pass' : 'fail', evidence, diff: cmp.diff },
  };
}
