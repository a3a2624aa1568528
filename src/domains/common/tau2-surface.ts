/**
 * tau2's exact tool surface for tau2 mode: the names, descriptions and parameter schemas tau2
 * hands to the model, read from a per-domain data file (`<domain>/data/tau2-tools.json`, the
 * `tools.json` exported from tau2-bench's own code, shipped under tau2's MIT licence; see the
 * `tau2-tools.LICENSE.md` beside each file), and tau2's argument errors.
 *
 * tau2 passes a tool call's arguments as Python keyword arguments without validating them
 * against the schema (tau2-notes §1.2): a missing or unknown argument raises Python's
 * `TypeError`, which the agent sees as `Error: <Toolkit>.<tool>() …`. {@link pythonArgumentError}
 * phrases those texts; type checks stay the tool's own (tau2 has none to compare with).
 */
import fs from 'node:fs';
import type { WireTool } from '../../spec/messages.js';
import type { ToolDef, ToolRequestor } from '../../spec/tool.js';

/** A `tools.json` as tau2 exports it: `agent_tools` for the agent, `user_tools` for the user (telecom). */
export interface Tau2SurfaceFile {
  source?: string;
  agent_tools: WireTool[];
  user_tools?: WireTool[];
}

/** Where a domain's tau2 surface comes from and the Python classes its tools are methods of. */
export interface Tau2SurfaceSpec {
  /** Absolute path of the `tau2-tools.json` data file. */
  file: string;
  /** tau2's toolkit class of the agent tools (`AirlineTools`, `RetailTools`), as Python names it in errors. */
  agentToolkit: string;
  /** The user toolkit class, when the surface has user tools. */
  userToolkit?: string;
}

const cache = new Map<string, Tau2SurfaceFile>();

/** Reads (once per process) a surface file; throws Error when it lacks `agent_tools` (a packaging bug). */
export function readTau2Surface(file: string): Tau2SurfaceFile {
  let s = cache.get(file);
  if (!s) {
    s = JSON.parse(fs.readFileSync(file, 'utf8')) as Tau2SurfaceFile;
    if (!Array.isArray(s.agent_tools)) throw new Error(`${file}: not a tau2 tool surface (no agent_tools array)`);
    cache.set(file, s);
  }
  return s;
}

const quote = (n: string) => `'${n}'`;

/**
 * The `TypeError` text Python (3.10–3.12) raises when `<qualname>(**args)` does not fit the
 * signature the schema describes (its `properties` in signature order, `required` without
 * defaults), or null when it fits. An unknown keyword is reported first (the first one, in the
 * call's key order): `X.f() got an unexpected keyword argument 'k'`; then all missing ones:
 * `X.f() missing 1 required positional argument: 'a'`, `… 2 … arguments: 'a' and 'b'`,
 * `… 3 … arguments: 'a', 'b', and 'c'`. Arguments that are not a JSON object return null (left to
 * the environment's own check).
 */
export function pythonArgumentError(qualname: string, parameters: Record<string, unknown> | undefined, args: unknown): string | null {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return null;
  const props = Object.keys((parameters?.properties as Record<string, unknown> | undefined) ?? {});
  const required = ((parameters?.required as string[] | undefined) ?? []).slice().sort((a, b) => props.indexOf(a) - props.indexOf(b));
  const given = Object.keys(args as Record<string, unknown>);
  const unknown = given.find((k) => !props.includes(k));
  if (unknown !== undefined) return `${qualname}() got an unexpected keyword argument '${unknown}'`;
  const missing = required.filter((k) => !given.includes(k));
  if (missing.length === 0) return null;
  const names = missing.map(quote);
  const list = names.length === 1 ? names[0] : names.length === 2 ? `${names[0]} and ${names[1]}` : `${names.slice(0, -1).join(', ')}, and ${names[names.length - 1]}`;
  return `${qualname}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${list}`;
}

function dress<S>(tool: ToolDef<S>, wire: WireTool, toolkit: string): ToolDef<S> {
  const parameters = wire.function.parameters as Record<string, unknown> | undefined;
  return {
    ...tool,
    description: wire.function.description ?? '',
    jsonSchema: parameters ?? {},
    checkArguments: (args) => pythonArgumentError(`${toolkit}.${tool.name}`, parameters, args),
  };
}

function side<S>(tools: readonly ToolDef<S>[], wires: readonly WireTool[], requestor: ToolRequestor, toolkit: string, file: string): ToolDef<S>[] {
  const mine = tools.filter((t) => t.requestor === requestor);
  const listed = new Set(wires.map((w) => w.function.name));
  const extra = mine.filter((t) => !listed.has(t.name)).map((t) => t.name);
  if (extra.length) throw new Error(`${file}: ${requestor} tools not in tau2's surface: ${extra.join(', ')}`);
  return wires.map((w) => {
    const t = mine.find((x) => x.name === w.function.name);
    if (!t) throw new Error(`${file}: tau2 ${requestor} tool '${w.function.name}' has no implementation`);
    return dress(t, w, toolkit);
  });
}

/**
 * `tools` on tau2's surface: the same implementations, in the file's order, each with tau2's
 * description, its parameter schema verbatim (`jsonSchema`) and tau2's argument errors
 * (`checkArguments`). Agent tools follow `agent_tools`; user tools follow `user_tools` when the
 * file lists any (otherwise they are kept as they are). Throws Error when the sets of names differ
 * (a packaging bug: tau2 mode must expose exactly tau2's tools).
 */
export function withTau2Surface<S>(tools: readonly ToolDef<S>[], spec: Tau2SurfaceSpec): ToolDef<S>[] {
  const surface = readTau2Surface(spec.file);
  const agent = side(tools, surface.agent_tools, 'assistant', spec.agentToolkit, spec.file);
  const userWires = surface.user_tools ?? [];
  const user = userWires.length
    ? side(tools, userWires, 'user', spec.userToolkit ?? spec.agentToolkit, spec.file)
    : tools.filter((t) => t.requestor === 'user');
  return [...agent, ...user];
}
