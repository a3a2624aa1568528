/**
 * The environment: one episode's back-end state, reached through a surface's tools.
 *
 * Lifecycle: `open()` (the surface opens its per-episode resource), any number of `execute()`
 * calls, `close()` — always, also after a crash, a deadline or a kill signal (open environments
 * with a closable resource are tracked and closed on SIGINT/SIGTERM). Without a surface the
 * domain's own tools are the tools (the API surface) and open/close do nothing.
 *
 * Two logs (architecture notes, "The back-end action log is what checks read"):
 * - `log`, the tool calls as the caller made them and what the caller saw;
 * - `actionLog`, every back-end operation performed, with the call that caused it. A `call`
 *   tool (the API surface) is one action per call, malformed calls included; a `self` tool
 *   records its actions through `ctx.act` / `ctx.record`; what a surface does while it opens
 *   (a web app's start page reading its list) is recorded with requestor `system` and no cause.
 *
 * Outcomes: an unknown tool, malformed JSON arguments, arguments that fail the schema, or a
 * {@link ToolError} become a tool message `Error: …` the caller sees — never an exception. A tool
 * that throws anything else is a harness error: the call answers `Error: harness error in tool
 * …`, the entry carries `harnessError`, and {@link Environment.harnessFault} is set so the
 * orchestrator ends the episode as `harness_error` (not scored).
 */
import type { ActionCause, ActionLogEntry, ActionRequestor } from '../spec/action-log.js';
import type { ContentPart } from '../spec/content.js';
import type { Domain } from '../spec/domain.js';
import { HarnessError } from '../spec/errors.js';
import type { ToolCall } from '../spec/messages.js';
import type { FieldDiff, StateOps } from '../spec/state.js';
import type { Surface } from '../spec/surface.js';
import type { Task } from '../spec/task.js';
import type { ActionOutcome, RecordedAction, ToolContext, ToolDef, ToolRequestor } from '../spec/tool.js';
import { describeThrown, invokeTool, parseArguments, validateArguments, type DispatchOutcome } from './dispatch.js';
import { trackOpen, untrackOpen } from './open-environments.js';
import { plainStateOps } from './plain-state.js';

/** One executed tool call (the caller's view). */
export interface ToolLogEntry {
  /** 0-based index of the call within the episode. */
  step: number;
  requestor: ToolRequestor;
  name: string;
  /** Parsed arguments, or the raw string when it was not valid JSON. */
  arguments: unknown;
  /** The exact text the caller sees (for a result with parts: its text parts, joined). */
  output: string;
  /** The result's content parts (text and images) when the tool answered with parts. */
  parts?: ContentPart[];
  error: boolean;
  /** True when the call changed (or could have changed) back-end state: a write that succeeded. */
  mutating: boolean;
  /** Set when the tool's code threw (a harness error): `Name: message`. */
  harnessError?: string;
}

/** The first harness error of an episode: which tool, and what it threw. */
export interface HarnessFault {
  tool: string;
  message: string;
}

export interface EnvironmentOptions {
  /** Fixed "now" (ISO-8601) given to tools. */
  now: string;
  /** Id generator seed: ids are `${prefix}${seed}${counter}` unless the domain overrides. */
  idSeed?: string;
  /** Start from this state instead of `domain.initialState()` (it is forked, not mutated). */
  state?: unknown;
  /** The surface whose tools the callers use; default the API surface (the domain's own tools). */
  surface?: Surface;
  /** The episode's task, handed to the surface when it opens. */
  task?: Task;
  /** Run the domain's `sync` after each successful call (default true; tau2's gold replay: false). */
  sync?: boolean;
}

type Phase = 'new' | 'open' | 'closed';

/** A domain's live state for one episode, its tool-call log and its back-end action log. */
export class Environment<S = unknown> {
  readonly domain: Domain<S>;
  state: S;
  /** The tool calls, in order. */
  readonly log: ToolLogEntry[] = [];
  /** The back-end actions, in order. */
  readonly actionLog: ActionLogEntry[] = [];
  /** The first harness error, if a tool's code threw. */
  harnessFault: HarnessFault | null = null;
  private readonly initial: S;
  private readonly ops: StateOps<S>;
  private readonly now: string;
  private idCounter = 0;
  private readonly idSeed: string;
  private readonly surface?: Surface;
  private readonly task?: Task;
  private readonly tools: ToolDef<S>[];
  private readonly byName: Map<string, ToolDef<S>>;
  private readonly backend: Map<string, ToolDef<S>>;
  /** Unknown tools are logged as error actions when every tool is itself a back-end call. */
  private readonly callSurface: boolean;
  private phase: Phase = 'new';
  private readonly sync: ((state: S) => void) | undefined;
  private resource: unknown;

  constructor(domain: Domain<S>, opts: EnvironmentOptions) {
    this.domain = domain;
    this.ops = domain.state ?? plainStateOps;
    this.initial = (opts.state as S) ?? domain.initialState();
    this.state = this.ops.fork(this.initial);
    this.now = opts.now;
    this.idSeed = opts.idSeed ?? '';
    this.surface = opts.surface;
    this.task = opts.task;
    this.tools = opts.surface ? opts.surface.tools(domain) : domain.tools;
    this.byName = new Map(this.tools.map((t) => [t.name, t]));
    this.backend = new Map(domain.tools.map((t) => [t.name, t]));
    this.callSurface = this.tools.every((t) => (t.records ?? 'call') === 'call');
    this.sync = opts.sync === false ? undefined : domain.sync;
  }

  /** Tools the given requestor may call. */
  toolsFor(requestor: ToolRequestor): ToolDef<S>[] {
    return this.tools.filter((t) => t.requestor === requestor);
  }

  /** Whether the environment is open (between `open()` and `close()`). */
  get isOpen(): boolean {
    return this.phase === 'open';
  }

  /**
   * Opens the episode: the surface's per-episode resource. Throws HarnessError when the surface
   * fails to open (the environment is then closed) or when called twice.
   */
  async open(): Promise<void> {
    if (this.phase !== 'new') throw new HarnessError(`environment already ${this.phase === 'open' ? 'open' : 'closed'}`);
    this.phase = 'open';
    if (!this.surface?.close && !this.surface?.open) return;
    trackOpen(this);
    try {
      // what the surface does while opening (a start page's reads) is the harness's doing: requestor system, no cause
      const act = (name: string, args: unknown) => this.act('system', name, args);
      this.resource = await this.surface.open?.({ domain: this.domain, state: this.state, now: this.now, ...(this.task ? { task: this.task } : {}), act });
    } catch (e) {
      await this.close();
      throw new HarnessError(`surface ${this.surface.name} failed to open: ${describeThrown(e)}`, { cause: e });
    }
  }

  /** Closes the episode (idempotent; a never-opened environment just becomes closed). Never rejects. */
  async close(): Promise<void> {
    if (this.phase === 'closed') return;
    const wasOpen = this.phase === 'open';
    this.phase = 'closed';
    untrackOpen(this);
    if (!wasOpen || !this.surface?.close) return;
    try {
      await this.surface.close(this.resource);
    } catch (e) {
      this.harnessFault ??= { tool: `surface ${this.surface.name}`, message: `close failed: ${describeThrown(e)}` };
    }
  }

  /**
   * Executes one tool call and resolves to what the caller sees; never rejects for a bad call or
   * a failing tool (see the module doc). `cause` is the index in the episode's messages of the
   * message carrying the call (its id becomes the action's `tool_call_id`). Rejects only when
   * the environment is closed, or not opened while its surface has a resource to open.
   */
  async execute(call: ToolCall, requestor: ToolRequestor = 'assistant', cause?: { message_index: number }): Promise<ToolLogEntry> {
    if (this.phase === 'closed' || (this.phase === 'new' && this.surface?.open)) {
      throw new HarnessError(`environment ${this.phase === 'closed' ? 'closed' : 'not opened'}: cannot execute ${call.function.name}`);
    }
    const name = call.function.name;
    const actionCause: ActionCause | undefined = cause ? { message_index: cause.message_index, tool_call_id: call.id } : undefined;
    const tool = this.byName.get(name);
    // tau2 solo mode: the agent may call the user-side tools too
    if (!tool || (tool.requestor !== requestor && !(this.domain.soloMode === true && requestor === 'assistant'))) {
      const out: DispatchOutcome = { arguments: call.function.arguments, output: `Error: Tool '${name}' not found.`, error: true };
      return this.finish(requestor, name, out, this.callSurface, false, actionCause);
    }
    const byCall = (tool.records ?? 'call') === 'call';
    const parsed = parseArguments(tool, call.function.arguments);
    if (!parsed.ok) return this.finish(requestor, name, { ...parsed, error: true }, byCall, false, actionCause);
    const before = this.actionLog.length;
    let out = await invokeTool(tool, parsed.args, this.context(requestor, actionCause), this.domain.outputStyle);
    if (!out.error && this.sync) {
      // tau2's sync_tools() after the call; its failure is the call's error, as in tau2
      try {
        this.sync(this.state);
      } catch (e) {
        out = { arguments: out.arguments, output: `Error: ${(e as Error)?.message ?? String(e)}`, error: true };
      }
    }
    const mutating = byCall
      ? tool.kind === 'write' && !out.error
      : this.actionLog.slice(before).some((a) => a.mutating);
    return this.finish(requestor, name, out, byCall, mutating, actionCause);
  }

  private finish(requestor: ToolRequestor, name: string, out: DispatchOutcome, asAction: boolean, mutating: boolean, cause?: ActionCause): ToolLogEntry {
    const entry: ToolLogEntry = { step: this.log.length, requestor, name, arguments: out.arguments, output: out.output, error: out.error, mutating };
    if (out.parts) entry.parts = out.parts;
    if (out.harness !== undefined) {
      entry.harnessError = out.harness;
      this.harnessFault ??= { tool: name, message: out.harness };
    }
    this.log.push(entry);
    if (asAction) this.appendAction(requestor, { name, arguments: out.arguments, result: out.output, error: out.error, mutating }, cause);
    return entry;
  }

  private appendAction(requestor: ActionRequestor, a: RecordedAction, cause?: ActionCause): void {
    const entry: ActionLogEntry = { seq: this.actionLog.length, requestor, name: a.name, arguments: a.arguments, result: a.result, error: a.error, mutating: a.mutating };
    if (cause) entry.cause = cause;
    this.actionLog.push(entry);
  }

  private context(requestor: ActionRequestor, cause?: ActionCause): ToolContext<S> {
    return {
      state: this.state,
      now: this.now,
      nextId: (prefix) => `${prefix}${this.idSeed}${++this.idCounter}`,
      act: (name, args) => this.act(requestor, name, args, cause),
      record: (a) => this.appendAction(requestor, a, cause),
      surface: this.resource,
    };
  }

  /** A back-end operation on behalf of a `self` tool (see `ToolContext.act`). Rejects with HarnessError when the operation's code throws. */
  private async act(requestor: ActionRequestor, name: string, args: unknown, cause?: ActionCause): Promise<ActionOutcome> {
    const op = this.backend.get(name);
    const record = (out: { arguments: unknown; output: string; error: boolean }, mutating: boolean): ActionOutcome => {
      this.appendAction(requestor, { name, arguments: out.arguments, result: out.output, error: out.error, mutating }, cause);
      return { result: out.output, error: out.error };
    };
    if (!op) return record({ arguments: args, output: `Error: Tool '${name}' not found.`, error: true }, false);
    const valid = validateArguments(op, args);
    if (!valid.ok) return record({ ...valid, error: true }, false);
    const out = await invokeTool(op, valid.args, this.context(requestor, cause), this.domain.outputStyle);
    record(out, op.kind === 'write' && !out.error);
    if (out.harness !== undefined) {
      this.harnessFault ??= { tool: name, message: out.harness };
      throw new HarnessError(`back-end operation ${name} failed: ${out.harness}`, { tool: name });
    }
    return { result: out.output, error: out.error };
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
