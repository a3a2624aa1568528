/**
 * Default {@link StateOps} for small plain-JSON states: deep clone, canonical-JSON equality and
 * hash, field diff.
 */
import type { StateOps } from '../spec/state.js';
import { canonicalHash, canonicalJson } from '../util/canonical.js';
import { diffState } from './diff.js';

/** StateOps for plain JSON states: structuredClone fork, canonical-JSON equality and sha256 hash, field diff. */
export const plainStateOps: StateOps<any> = {
  fork: (s) => structuredClone(s),
  equal: (a, b) => canonicalJson(a) === canonicalJson(b),
  diff: (a, b) => diffState(a, b),
  hash: (s) => canonicalHash(s),
};
