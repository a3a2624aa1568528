/**
 * Tool results printed as tau2 prints them: Python's `json.dumps` of a pydantic model dump
 * (`", "` and `": "` separators, `\uXXXX` escapes, floats where the model has floats).
 */
import { pyDumps, type PyTypeTree } from '../../util/pyjson.js';

/** Python's `json.dumps(value)` of a tool result (ASCII escapes, floats where `types` says). */
export function dumpResult(value: unknown, types?: PyTypeTree): string {
  return pyDumps(value, { ensureAscii: true, types });
}

/** Python's `str()` of a JSON number argument (an integral value prints as an int). */
export function pyNumberStr(n: number): string {
  return dumpResult(n);
}
