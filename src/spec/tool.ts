/**
 * Tool definitions: what a surface exposes to the agent (or, in dual-control domains, to the
 * user), and the back-end operations of a domain (on the API surface they are the same thing).
 */
import type { z } from 'zod';
import type { Content } from './content.js';

/** tau2's tool kinds: `write` tools mutate state; the others never do. */
export type ToolKind = 'read' | 'write' | 'generic' | 'think';
/** Who may call the tool. */
export type ToolRequestor = 'assistant' | 'user';

/** What a back-end operation answered, as the action log keeps it. */
export interface ActionOutcome {
  /** The operation's result text as the API tool would return it (`Error: …` on error). */
  result: string;
  error: boolean;
}

/** A back-end action a tool performed itself (see {@link ToolContext.record}). */
export interface RecordedAction extends ActionOutcome {
  /** The operation, named as the API domain names its tool (e.g. `cancel_reservation`). */
  name: string;
  arguments: unknown;
  /** True for a write that succeeded. */
  mutating: boolean;
}

/** Injected sources of time and identity, and the action log; environments never read the real clock. */
export interface ToolContext<S> {
  /** The episode's state; write tools mutate it in place. */
  state: S;
  /** The environment's fixed "now", an ISO-8601 timestamp. */
  now: string;
  /** Deterministic id generator: `nextId('R')` gives the next id with that prefix. */
  nextId: (prefix: string) => string;
  /**
   * Performs one back-end operation (the domain tool named `name`, e.g. `cancel_reservation`)
   * as this tool call's doing: the arguments are validated with the operation's schema, the
   * operation runs, and it is appended to the action log with this call as its cause. Resolves to
   * what the back-end answered; an unknown operation or invalid arguments resolve to an error
   * outcome (the back-end refused), never a rejection. A terminal command or a form submit that
   * reaches the back-end goes through here, so ordering, confirmation and forbidden-write checks
   * see it.
   */
  act: (name: string, args: unknown) => Promise<ActionOutcome>;
  /** Appends a back-end action the tool performed without {@link act} (e.g. a GUI app's own write). */
  record: (action: RecordedAction) => void;
  /** The surface's per-episode resource (a browser context, a terminal session); undefined on the API surface. */
  surface?: unknown;
}

/**
 * A tool result with content parts and an error flag: what a tool returns when its answer is not
 * plain text (a screenshot as an `image_url` part beside a caption), or when it reports an error
 * without throwing. Build one with {@link toolResult}.
 */
export class ToolResult {
  constructor(
    readonly content: Content,
    readonly error: boolean = false,
  ) {}
}

/** A {@link ToolResult}: `content` is text or content parts (text and `image_url` data URLs). */
export function toolResult(content: Content, opts: { error?: boolean } = {}): ToolResult {
  return new ToolResult(content, opts.error ?? false);
}

/**
 * One tool. `parameters` is a zod object schema: it validates arguments and is exported as the
 * JSON Schema the model sees. `invoke` returns a value or a Promise of one: a string verbatim, a
 * {@link ToolResult} (content parts, error flag), anything else serialised by the domain. It
 * throws {@link ToolError} for a failure the agent should see as `Error: …`; anything else it
 * throws is a bug in the harness (the episode ends as `harness_error`, not scored).
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
  /**
   * How the tool reaches the action log. `call` (default; API tools): the call itself is one
   * back-end action. `self` (terminal, web and pixel surfaces): the tool records the back-end
   * actions it causes through {@link ToolContext.act} / {@link ToolContext.record}.
   */
  records?: 'call' | 'self';
  invoke: (args: A, ctx: ToolContext<S>) => unknown;
}

/** A failure inside a tool that the agent sees as a tool message `Error: <message>`. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}
