/**
 * A content hash for table DBs in a {@link CowDb} view that costs in proportion to the number of
 * records, not their size: each record's canonical-JSON SHA-256 is computed once (cached per
 * record object, and base records are never mutated), and the DB hash is the SHA-256 of the
 * `table/id/recordHash` lines in table and insertion order. For servicegym's own domains, whose
 * hashes need not match any other tool's.
 */
import { createHash } from 'node:crypto';
import type { CowDb, Tables } from '../../env/cow-db.js';
import { canonicalJson } from '../../util/canonical.js';

const recordHashes = new WeakMap<object, string>();

function recordHash(record: unknown): string {
  return createHash('sha256').update(canonicalJson(record)).digest('hex');
}

/**
 * The hash of a table DB view (hex SHA-256). Base records' hashes are cached across views;
 * records the view touched are hashed afresh on every call.
 */
export function cowRecordHash<T extends Tables>(db: CowDb<T>): string {
  const touched = db.touched();
  const h = createHash('sha256');
  for (const table of Object.keys(db.base) as (keyof T & string)[]) {
    const mine = new Set(touched.get(table) ?? []);
    for (const id of db.ids(table)) {
      const rec = db.get(table, id);
      let rh: string;
      if (!mine.has(id) && typeof rec === 'object' && rec !== null) {
        // Shared base records never change, so their hash is cached; touched ones may, so never.
        rh = recordHashes.get(rec) ?? recordHash(rec);
        recordHashes.set(rec, rh);
      } else rh = recordHash(rec);
      h.update(`${table}/${id}/${rh}\n`);
    }
  }
  return h.digest('hex');
}
