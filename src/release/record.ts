/**
 * Release records: every release decision (a candidate's `release_to_canary`, `reject` or
 * `insufficient_evidence`; a canary's `promote` or `rollback`) as canonical JSON (RFC 8785:
 * sorted keys) with its sha256. The record holds no wall time and no latency, so the same seed
 * and the same model answers give a byte-identical record.
 */
import { canonicalHash, canonicalJson } from '../util/canonical.js';

/** Decisions a release record can carry. */
export type ReleaseDecision = 'release_to_canary' | 'reject' | 'insufficient_evidence' | 'promote' | 'rollback';

/** Where a candidate's decision was reached. */
export type ReleaseStage = 'static' | 'screen' | 'gate' | 'confirm' | 'canary';

/** One side of a paired rollout in a record. */
export interface OutcomeRow {
  valid: boolean;
  success: boolean;
  critical: string[];
  infra_error?: string;
}

/** A parent × candidate pair on one case and trial seed. */
export interface PairRow {
  case_id: string;
  group: 'boundary' | 'holdout';
  trial: number;
  seed: number;
  parent: OutcomeRow;
  candidate: OutcomeRow;
}

/** The record's body, before hashing. Free-form sections are JSON values. */
export interface ReleaseRecordBody {
  schema: 'servicegym.release/1';
  run: { name: string; identity: string; seed: number; suite: string };
  decision: ReleaseDecision;
  stage: ReleaseStage;
  reasons: string[];
  parent: { sha256: string; role: 'stable' };
  candidate: { sha256: string; lineage_parent_sha256: string | null; round: number | null; proposal: number | null };
  edits: unknown[];
  edit_checks: unknown[];
  rationale: string;
  outcomes: { screen: PairRow[]; gate: PairRow[]; sealed: PairRow[]; canary?: unknown[] };
  statistics: Record<string, unknown>;
  seeds: Record<string, unknown>;
  splits: Record<string, string[]>;
  models: Record<string, unknown>;
  costs: Record<string, unknown>;
  diff: string;
}

/** A hashed release record. */
export type ReleaseRecord = ReleaseRecordBody & { sha256: string };

/** Adds the sha256 of the body's canonical JSON. */
export function sealRecord(body: ReleaseRecordBody): ReleaseRecord {
  return { ...body, sha256: canonicalHash(body) };
}

/** The bytes written to disk: canonical JSON of the whole record (sha256 included) and a newline. */
export function recordBytes(r: ReleaseRecord): string {
  return canonicalJson(r) + '\n';
}

/** Recomputes the hash of a record read back (true when the body is unchanged). */
export function verifyRecord(r: ReleaseRecord): boolean {
  const { sha256, ...body } = r;
  return canonicalHash(body) === sha256;
}
