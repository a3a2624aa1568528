/**
 * Default {@link StateOps} for small plain-JSON states: deep clone, canonical-JSON equality and
 * hash, field diff.
 */
import type { StateOps } from '../spec/state.js';
import { canonicalEqual, canonicalHash } from '../util/canonical.js';
import { diffState } from './diff.js';

/** StateOps for plain JSON states: structuredClone fork, canonical-JSON equality and sha256 hash, field diff. */
export const plainStateOps: StateOps<any> = {
  fork: (s) => structuredClone(s),
  equal: (a, b) => canonicalEqual(a, b),
  diff: (a, b) => diffState(a, b),
  hash: (s) => canonicalHash(s),
};
