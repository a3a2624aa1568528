/**
 * A surface: how an agent reaches a domain's back-end (architecture notes, "A surface is an
 * adapter, not a domain"). The API surface hands the agent the domain's tools as they are; a
 * terminal, web or pixel surface gives it commands, clicks or keystrokes whose tools call the
 * back-end through `ToolContext.act`, and holds a per-episode resource (a terminal session, a
 * browser context) that is opened with the episode's environment and always closed with it.
 */
import type { Domain } from './domain.js';
import type { Task } from './task.js';
import type { ActionOutcome, ToolDef } from './tool.js';

/** What a surface gets when an episode's environment opens. */
export interface SurfaceOpenContext<S> {
  domain: Domain<S>;
  /** The episode's live state (write tools mutate it in place). */
  state: S;
  /** The environment's fixed "now" (ISO-8601). */
  now: string;
  /** The episode's task, when the environment was built for one (a GUI surface hands the agent its documents). */
  task?: Task;
  /**
   * Performs one back-end operation as the harness's doing while the surface opens (e.g. the reads
   * of a web app's start page before the agent's first action): recorded in the action log with
   * requestor `system` and no cause. Resolves to the back-end's answer (`error: true` for a
   * refusal); rejects with HarnessError when the operation's code throws. Valid only until `open`
   * settles. Absent where the environment offers none (then such operations have no cause to record).
   */
  act?: (name: string, args: unknown) => Promise<ActionOutcome>;
}

/** One tool call of a surface's oracle: a tool of the surface and its arguments. */
export interface SurfaceCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface Surface {
  /** Registry name, e.g. `api`. */
  name: string;
  /** One line on what the agent sees and does on this surface. */
  description: string;
  /**
   * The surface drives a browser (the process's one Chromium, src/surfaces/browser-pool.ts), so
   * its episodes run on the process's main thread only: `run --threads` refuses it. Absent: false.
   */
  browser?: boolean;
  /**
   * The surface hands the agent images (screenshots, page images), so how a model receives them
   * (`run --screenshots`) is a setting of a run on it. Absent: false (text only).
   */
  images?: boolean;
  /**
   * The tools the agent (requestor `assistant`) and the user (requestor `user`) call on this
   * surface for `domain`: names, descriptions and schemas are static, so agents can be built
   * before an episode opens. Throws SurfaceUnsupportedError (a BadInputError giving the reason)
   * when the surface cannot front the domain.
   */
  tools<S>(domain: Domain<S>): ToolDef<S>[];
  /**
   * Opens the per-episode resource; its value reaches every tool call as `ctx.surface`. Absent:
   * nothing to open (the API surface). A rejection is a harness error.
   */
  open?<S>(ctx: SurfaceOpenContext<S>): unknown | Promise<unknown>;
  /** Whether the surface can carry `task` (a GUI app fronts only some tasks); absent: every task. */
  fronts?<S>(domain: Domain<S>, task: Task): boolean;
  /**
   * The oracle on this surface: tool calls that perform `task`'s gold actions through the
   * surface (a GUI's scripted coordinates from its own layout), or absent when the gold actions
   * are the surface's tools themselves (the API surface). Throws BadInputError when the surface
   * cannot perform the task.
   */
  oracle?<S>(domain: Domain<S>, task: Task): SurfaceCall[];
  /** Releases what `open` returned; called exactly once per opened episode, also after a crash, a deadline or a kill signal. */
  close?(resource: unknown): void | Promise<void>;
}

