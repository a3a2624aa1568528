/**
 * The environment: executes tool calls against a domain's state.
 *
 * Rules (architecture notes, tau2 semantics): an unknown tool, malformed JSON arguments, arguments
 * that fail the schema, or a failure inside a tool become a tool message `Error: …` that the agent
 * sees — never an exception. Every call is written to the tool log.
 */
import type { Domain } from '../spec/domain.js';
import type { ToolCall } from '../spec/messages.js';
import type { ToolDef, ToolRequestor } from '../spec/tool.js';
import { ToolError } from '../spec/tool.js';
import { pyDumps } from '../util/pyjson.js';
import type { FieldDiff, StateOps } from '../spec/state.js';
import { plainStateOps } from './plain-state.js';

/** One executed tool call. */
export interface ToolLogEntry {
  /** 0-based index of the call within the episode. */
  step: number;
  requestor: ToolRequestor;
  name: string;
  /** Parsed arguments, or the raw string when it was not valid JSON. */
  arguments: unknown;
  /** The exact text the caller sees. */
  output: string;
  error: boolean;
  /** True when the tool is a write tool and ran without error. */
  mutating: boolean;
}

export interface EnvironmentOptions {
  /** Fixed "now" (ISO-8601) given to tools. */
  now: string;
  /** Id generator seed: ids are `${prefix}${seed}${counter}` unless the domain overrides. */
  idSeed?: string;
  /** Start from this state instead of `domain.initialState()` (it is forked, not mutated). */
  state?: unknown;
}

/** A domain's live state for one episode plus its tool log. */
export class Environment<S = unknown> {
  readonly domain: Domain<S>;
  state: S;
  readonly log: ToolLogEntry[] = [];
  private readonly initial: S;
  private readonly ops: StateOps<S>;
  private readonly now: string;
  private idCounter = 0;
  private readonly idSeed: string;
  private readonly byName: Map<string, ToolDef<S>>;

  constructor(domain: Domain<S>, opts: EnvironmentOptions) {
    this.domain = domain;
    this.ops = domain.state ?? plainStateOps;
    this.initial = (opts.state as S) ?? domain.initialState();
    this.state = this.ops.fork(this.initial);
    this.now = opts.now;
    this.idSeed = opts.idSeed ?? '';
    this.byName = new Map(domain.tools.map((t) => [t.name, t]));
  }

  /** Tools the given requestor may call. */
  toolsFor(requestor: ToolRequestor): ToolDef<S>[] {
    return this.domain.tools.filter((t) => t.requestor === requestor);
  }

  /**
   * Executes one tool call from the model and returns what the caller sees.
   * Never throws for a bad call; bugs in tool code that are not {@link ToolError} are still
   * reported to the agent as `Error: …` (as tau2 does) and flagged in the log.
   */
  execute(call: ToolCall, requestor: ToolRequestor = 'assistant'): ToolLogEntry {
    const name = call.function.name;
    const raw = call.function.arguments;
    let args: unknown = raw;
    const finish = (output: string, error: boolean, mutating = false): ToolLogEntry => {
      const entry: ToolLogEntry = { step: this.log.length, requestor, name, arguments: args, output, error, mutating };
      this.log.push(entry);
      return entry;
    };
    const tool = this.byName.get(name);
    if (!tool || tool.requestor !== requestor) return finish(`Error: Tool '${name}' not found.`, true);
    try {
      args = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch (e) {
      return finish(`Error: arguments for ${name} are not valid JSON: ${(e as Error).message}`, true);
    }
    const misfit = tool.checkArguments?.(args);
    if (misfit) return finish(`Error: ${misfit}`, true);
    const parsed = tool.parameters.safeParse(args);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`)
        .join('; ');
      return finish(`Error: invalid arguments for ${name}: ${issues}`, true);
    }
    try {
      const result = tool.invoke(parsed.data, {
        state: this.state,
        now: this.now,
        nextId: (prefix) => `${prefix}${this.idSeed}${++this.idCounter}`,
      });
      const output =
        typeof result === 'string' ? result : pyDumps(result, { ensureAscii: this.domain.outputStyle.ensureAscii });
      return finish(output, false, tool.kind === 'write');
    } catch (e) {
      const message = e instanceof ToolError ? e.message : `${(e as Error)?.message ?? String(e)}`;
      return finish(`Error: ${message}`, true);
    }
  }

  /** The domain's hash of the current state. */
  stateHash(): string {
    return this.ops.hash(this.state);
  }

  /** Whether any call changed the state. */
  changed(): boolean {
    return !this.ops.equal(this.initial, this.state);
  }

  /** Per-field differences between the initial and the current state. */
  diff(): FieldDiff[] {
    return this.ops.diff(this.initial, this.state);
  }

  /** Whether this environment's state equals another's (e.g. the gold replay's). */
  sameStateAs(other: Environment<S>): boolean {
    return this.ops.equal(this.state, other.state);
  }
}
