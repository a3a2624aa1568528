/**
 * Errors that reach a user, classed by whose fault they are (architecture notes).
 *
 * - {@link BadInputError}: the user's file or flag is wrong; the CLI exits 2.
 * - {@link ProviderError}: the model endpoint failed after retries.
 * - {@link ReplayMissError}: a replayed request has no recorded response.
 * Anything else is an internal bug and is reported as such.
 */

/** A file or flag given by the user is malformed. `file` and `path` locate the fault. */
export class BadInputError extends Error {
  readonly file?: string;
  readonly path?: string;
  constructor(message: string, opts: { file?: string; path?: string } = {}) {
    const where = [opts.file, opts.path ? `at ${opts.path}` : undefined].filter(Boolean).join(' ');
    super(where ? `${where}: ${message}` : message);
    this.name = 'BadInputError';
    this.file = opts.file;
    this.path = opts.path;
  }
}

/**
 * A surface cannot front a domain (it lacks what the surface drives: a command interpreter, a web
 * app, a GUI app). Thrown by {@link Surface.tools}; `because` is the reason alone, e.g. "it offers
 * no command interpreter", so a caller can add to the sentence (the surface catalog names the
 * surfaces the domain supports) without repeating it. A BadInputError: the user chose the pair.
 */
export class SurfaceUnsupportedError extends BadInputError {
  readonly domain: string;
  readonly surface: string;
  readonly because: string;
  constructor(domain: string, surface: string, because: string) {
    super(`the ${domain} domain does not support the ${surface} surface: ${because}`);
    this.name = 'SurfaceUnsupportedError';
    this.domain = domain;
    this.surface = surface;
    this.because = because;
  }
}

/** A model provider call failed after all retries (network, 5xx, 429, timeout), or its credential was refused. */
export class ProviderError extends Error {
  readonly status?: number;
  /** Attempts, waits and fault kinds of the failed call, when known. */
  readonly retries?: { attempts: number; waited_seconds: number; faults: string[] };
  /** The credential was refused (401/403): further calls cannot succeed, a run stops at once. */
  readonly fatal: boolean;
  constructor(message: string, opts: { status?: number; cause?: unknown; retries?: { attempts: number; waited_seconds: number; faults: string[] }; fatal?: boolean } = {}) {
    super(message, { cause: opts.cause });
    this.name = 'ProviderError';
    this.status = opts.status;
    this.retries = opts.retries;
    this.fatal = opts.fatal ?? false;
  }
}

/**
 * The model answered, but its answer is not a well-formed chat completion: `choices` is empty, a
 * message's `content` is not a string, a tool call has no `id`, `arguments` is not a JSON string…
 * (the body has a `choices` array; a body without one is a provider fault, a plain
 * {@link ProviderError}). A subclass of ProviderError so callers that only know provider faults
 * still stop on it; the episode loop tells it apart: after the agent's one retry it is the agent's
 * failure, not an infrastructure error (issue 10). `raw` keeps every malformed body received, in
 * order, exactly as parsed from the wire.
 */
export class MalformedResponseError extends ProviderError {
  readonly raw: unknown[];
  constructor(message: string, raw: unknown[]) {
    super(message);
    this.name = 'MalformedResponseError';
    this.raw = raw;
  }
}

/** A request during replay has no recorded receipt; names the closest one and the first difference. */
export class ReplayMissError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplayMissError';
  }
}

/** A run ran out of budget (rollouts, calls, tokens or cost). */
export class BudgetExceededError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BudgetExceededError';
  }
}

/** Formats a zod issue path as a JSON path such as `$.api_turns[3].request.messages`. */
export function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '$';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(seg)) out += `.${seg}`;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out;
}

/**
 * A bug in harness code, not the agent's failure: a tool that threw something other than a
 * ToolError, a surface that failed to open. The episode ends as `harness_error` and is left out
 * of scores like an infrastructure fault (architecture notes: "A tool that throws is a bug").
 */
export class HarnessError extends Error {
  /** The tool whose code failed, when a tool did. */
  readonly tool?: string;
  constructor(message: string, opts: { tool?: string; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = 'HarnessError';
    this.tool = opts.tool;
  }
}
