/**
 * Tool definitions: what a domain exposes to the agent (or, in some domains, to the user).
 */
import type { z } from 'zod';

/** tau2's tool kinds: `write` tools mutate state; the others never do. */
export type ToolKind = 'read' | 'write' | 'generic' | 'think';
/** Who may call the tool. */
export type ToolRequestor = 'assistant' | 'user';

/** Injected sources of time and identity; environments never read the real clock. */
export interface ToolContext<S> {
  /** The episode's state; write tools mutate it in place. */
  state: S;
  /** The environment's fixed "now", an ISO-8601 timestamp. */
  now: string;
  /** Deterministic id generator: `nextId('R')` gives the next id with that prefix. */
  nextId: (prefix: string) => string;
}

/**
 * One tool. `parameters` is a zod object schema: it validates arguments and is exported as the
 * JSON Schema the model sees. `invoke` returns a value (strings verbatim, anything else serialised
 * by the domain) or throws {@link ToolError} for a failure the agent should see as `Error: …`.
 */
export interface ToolDef<S = unknown, A = any> {
  name: string;
  description: string;
  parameters: z.ZodType<A>;
  kind: ToolKind;
  requestor: ToolRequestor;
  /** Override the exported JSON Schema (when the wire schema must match a recorded one exactly). */
  jsonSchema?: Record<string, unknown>;
  /**
   * Checked before `parameters` on the parsed arguments: a message (without `Error: `) when the
   * call does not fit the tool's signature, phrased as the surface's origin phrases it (tau2:
   * Python's `TypeError` texts); null when it fits.
   */
  checkArguments?: (args: unknown) => string | null;
  invoke: (args: A, ctx: ToolContext<S>) => unknown;
}

/** A failure inside a tool that the agent sees as a tool message `Error: <message>`. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}
