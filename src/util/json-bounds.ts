/**
 * Bounds on JSON a model supplies (a response body, tool-call arguments) before it reaches any
 * recursive code: parsing, schema checks, canonical hashing, pretty-printing and the store all
 * recurse, and a few kilobytes of `[[[[…` (about 4,000 levels) overflow the stack. The text is
 * scanned without recursion; an over-deep or over-large text is refused with a message the
 * caller turns into a tool error the agent sees (arguments) or a provider fault (a response).
 */

/** Deepest nesting of arrays and objects accepted from a model (legitimate tool arguments use < 10). */
export const MAX_MODEL_JSON_DEPTH = 64;
/** Largest tool-call arguments text accepted, in UTF-16 code units (256 Ki). */
export const MAX_TOOL_ARGUMENTS_CHARS = 256 * 1024;
/** Largest response body accepted, in UTF-16 code units (16 Mi). */
export const MAX_RESPONSE_BODY_CHARS = 16 * 1024 * 1024;

export interface JsonBounds {
  maxDepth?: number;
  maxChars?: number;
}

/**
 * Why `text` exceeds the bounds (nesting deeper than `maxDepth`, default {@link MAX_MODEL_JSON_DEPTH};
 * longer than `maxChars`, default {@link MAX_TOOL_ARGUMENTS_CHARS}), or null when it is within them.
 * Brackets inside strings do not count. Does not check that the text is valid JSON.
 */
export function jsonBoundsProblem(text: string, bounds: JsonBounds = {}): string | null {
  const maxDepth = bounds.maxDepth ?? MAX_MODEL_JSON_DEPTH;
  const maxChars = bounds.maxChars ?? MAX_TOOL_ARGUMENTS_CHARS;
  if (text.length > maxChars) return `the JSON text is ${text.length} characters long, more than the ${maxChars} accepted from a model`;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > maxDepth) return `the JSON nests deeper than ${maxDepth} levels (at character ${i}), more than accepted from a model`;
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return null;
}

/**
 * `JSON.parse(text)` after {@link jsonBoundsProblem}; throws an Error whose message says which
 * bound was exceeded (callers already turn a parse error into a tool error the agent sees).
 */
export function parseModelJson(text: string, bounds: JsonBounds = {}): unknown {
  const problem = jsonBoundsProblem(text, bounds);
  if (problem) throw new Error(problem);
  return JSON.parse(text);
}
