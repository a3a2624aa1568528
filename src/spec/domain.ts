/**
 * A domain: back-end state, the tools over it, and the written policy.
 */
import type { ToolDef } from './tool.js';
import type { StateOps } from './state.js';

/** How a domain serialises non-string tool results (Python `json.dumps` flavour). */
export interface OutputStyle {
  /** Python `ensure_ascii`: tau2 uses true; the seed experiment's mock used false. */
  ensureAscii: boolean;
}

export interface Domain<S = unknown> {
  /** Registry name, e.g. `yunshu`. */
  name: string;
  /** One line on what the domain is and where its data comes from. */
  description: string;
  /** The policy text given to the agent (markdown), if the domain has one. */
  policy?: string;
  tools: ToolDef<S>[];
  /** The initial state. Environments fork it (see {@link StateOps.fork}) and never mutate it. */
  initialState: () => S;
  /** How the state is forked, compared, diffed and hashed; plain JSON defaults when absent. */
  state?: StateOps<S>;
  outputStyle: OutputStyle;
}
