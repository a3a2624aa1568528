/**
 * One tool invocation, without the bookkeeping: argument parsing and validation, the call (sync or
 * async), and turning what the tool gave back into what the caller sees.
 *
 * Outcomes (architecture notes, tau2 semantics): malformed JSON or arguments that fail the schema
 * are a tool error the caller sees (`Error: …`); a {@link ToolError} is one too; anything else
 * the tool throws is a harness error (a bug), reported as `harness` and never shown as the
 * agent's failure.
 */
import type { ContentPart } from '../spec/content.js';
import { contentText } from '../spec/content.js';
import type { OutputStyle } from '../spec/domain.js';
import type { ToolContext, ToolDef } from '../spec/tool.js';
import { ToolError, ToolResult } from '../spec/tool.js';
import { pyDumps } from '../util/pyjson.js';
import { parseModelJson } from '../util/json-bounds.js';

/** What one invocation produced. */
export interface DispatchOutcome {
  /** Parsed arguments, or the raw string when it was not valid JSON. */
  arguments: unknown;
  /** The text the caller sees (the text parts joined when the result has parts). */
  output: string;
  /** The content parts, when the tool answered with parts rather than text. */
  parts?: ContentPart[];
  error: boolean;
  /** Set when the tool threw something other than a ToolError: `name: message`. */
  harness?: string;
}

/** Parses `raw` (JSON text; blank means `{}`) and validates it with the tool's schema. */
export function parseArguments(tool: ToolDef<any>, raw: string): { ok: true; args: unknown } | { ok: false; arguments: unknown; output: string } {
  let args: unknown;
  try {
    args = raw.trim() === '' ? {} : parseModelJson(raw);
  } catch (e) {
    return { ok: false, arguments: raw, output: `Error: arguments for ${tool.name} are not valid JSON: ${(e as Error).message}` };
  }
  return validateArguments(tool, args);
}

/**
 * Arguments validated so far per tool schema (up to {@link JIT_AFTER}). zod's fast path for an
 * object schema compiles a function (`new Function`) the first time it is used: for a schema that
 * validates a few calls (a process checking a dataset's gold actions) compiling costs more than it
 * saves, so the first {@link JIT_AFTER} calls of each schema skip it (same result, zod's `jitless`).
 */
const schemaParses = new WeakMap<object, number>();
const JIT_AFTER = 64;

/**
 * Validates parsed arguments: first the tool's own signature check (`checkArguments`, e.g.
 * Python's TypeError texts in tau2 mode), then its schema; the failure names each bad path.
 */
export function validateArguments(tool: ToolDef<any>, args: unknown): { ok: true; args: unknown } | { ok: false; arguments: unknown; output: string } {
  const misfit = tool.checkArguments?.(args);
  if (misfit) return { ok: false, arguments: args, output: `Error: ${misfit}` };
  const n = schemaParses.get(tool.parameters) ?? 0;
  if (n < JIT_AFTER) schemaParses.set(tool.parameters, n + 1);
  const parsed = tool.parameters.safeParse(args, { jitless: n < JIT_AFTER });
  if (parsed.success) return { ok: true, args: parsed.data };
  const issues = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`).join('; ');
  return { ok: false, arguments: args, output: `Error: invalid arguments for ${tool.name}: ${issues}` };
}

/** What a tool returned, as text (and parts): strings verbatim, {@link ToolResult}s as given, other values serialised. */
export function renderResult(result: unknown, style: OutputStyle): Pick<DispatchOutcome, 'output' | 'parts' | 'error'> {
  if (typeof result === 'string') return { output: result, error: false };
  if (result instanceof ToolResult) {
    const c = result.content;
    return typeof c === 'string' ? { output: c, error: result.error } : { output: contentText(c), parts: [...c], error: result.error };
  }
  return { output: pyDumps(result, { ensureAscii: style.ensureAscii }), error: false };
}

/** Describes a thrown value: `Name: message`. */
export function describeThrown(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/**
 * Runs `tool` on validated `args`. Never rejects: a ToolError becomes `Error: <message>`,
 * anything else thrown becomes a `harness` outcome.
 */
export async function invokeTool<S>(tool: ToolDef<S>, args: unknown, ctx: ToolContext<S>, style: OutputStyle): Promise<DispatchOutcome> {
  try {
    const result = await tool.invoke(args, ctx);
    return { arguments: args, ...renderResult(result, style) };
  } catch (e) {
    if (e instanceof ToolError) return { arguments: args, output: `Error: ${e.message}`, error: true };
    return { arguments: args, output: `Error: harness error in tool ${tool.name}`, error: true, harness: describeThrown(e) };
  }
}
