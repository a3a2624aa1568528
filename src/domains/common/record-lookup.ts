/** Record look-ups for the tools of table-DB domains (copy-on-write views). */
import type { CowDb, Tables } from '../../env/cow-db.js';
import { ToolError } from '../../spec/tool.js';

/**
 * The record `id` of `table` in `db`, or a tool error the agent sees: `<label> <id> not found`
 * (e.g. `Reservation H-55102 not found`).
 */
export function recordOrToolError<T extends Tables, K extends keyof T>(db: CowDb<T>, table: K, id: string, label: string): T[K][string] {
  const r = db.get(table, id);
  if (r === undefined) throw new ToolError(`${label} ${id} not found`);
  return r;
}
