/**
 * The GDS oracle's keystrokes: for each task, the entries a careful agent types at the terminal,
 * policy-perfect (IRROPS policy) and in a natural order. Their effect on the PNR store is the
 * task's gold actions (host operations, operations.ts); the gold replay and the checks use those,
 * never these lines, so an agent is free to type any entries with the same effect. The terminal
 * surface's oracle plays them (CommandInterpreter.oracle).
 */
import type { Task } from '../../spec/task.js';

/** The oracle's entries by task id. */
export const GDS_ORACLE_ENTRIES: Readonly<Record<string, readonly string[]>> = {
  T12: ['*LKJ8TQ', '120OCTJFKORD', '02M3', 'X1', '3WCHR/1-1.1', '6AGENT', 'E'],
  G01: ['*QWM4RA', '3VGML-2.1', '6AGENT', 'E'],
  G02: ['*BZT7KX', 'X1', '6AGENT', 'E'],
  G03: ['*HNF2PC', '.1HK', '6AGENT', 'E'],
  G04: ['*DRS5LM', '121OCTATLMIA', '02Y3', 'X2', '6AGENT', 'E'],
  G05: ['*KPL9WE', '5VOLUNTARY CHANGE REQUEST - PAX WANTS XA512 25OCT - REFER TICKETING', '6AGENT', 'E'],
  G06: ['*TQE3NB', '3WCHR/1-1.1', '5WCHR ADDED PER Q12', '6AGENT', 'E'],
  G07: ['*MVB6QS', '125OCTORDDEN', '01Y1', 'IR', '5PAX DECLINED ORD-DEN', '6AGENT', 'E'],
  G08: ['*CFX8DU', '9NYC917-555-0133-M', '5PAX PREFERS TEXT MESSAGES', '6AGENT', 'E'],
  G09: ['*WLN4TZ', '120OCTSEASFO', '121OCTSEASFO', '01Y1', 'X1', '6AGENT', 'E'],
};

/** The oracle's entries for `task`, or null for a task without a script (a task added elsewhere). */
export function gdsOracleEntries(task: Task): readonly string[] | null {
  return GDS_ORACLE_ENTRIES[task.id] ?? null;
}
