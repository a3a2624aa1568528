/**
 * The one episode builder every command uses: from a domain, a task and the registry names of the
 * agent, the user simulator and the surface, it makes the episode's parties and its environment
 * (fresh, at the task's start state, not yet opened — `runEpisode` opens and closes it).
 */
import type { LoadedDomain } from '../spec/domain.js';
import type { WireTool } from '../spec/messages.js';
import type { Surface } from '../spec/surface.js';
import type { Task } from '../spec/task.js';
import { Environment } from '../env/environment.js';
import { toWireTool } from '../env/wire-tools.js';
import { taskInitialState, type ReplayEnvOptions } from '../evaluation/initial-state.js';
import { getAgentKind, type AgentContext } from '../agents/index.js';
import type { Agent } from '../agents/agent.js';
import { getUserKind, ticketUser, type UserContext } from '../users/index.js';
import type { User } from '../users/user.js';
import { apiSurface } from '../surfaces/api.js';
import { importedSurface, loadSurface } from '../surfaces/catalog.js';

/** The agent of an episode: a registered kind and what it needs (model, prompt, script …). */
export type AgentSpec = { kind: string } & Omit<AgentContext, 'loaded' | 'task' | 'trial' | 'tools'>;
/** The user simulator of an episode: a registered kind and what it needs (model, persona, replies …). */
export type UserSpec = { kind: string } & Omit<UserContext, 'loaded' | 'task' | 'trial'>;

/** Everything an episode is built from. */
export interface EpisodeSpec {
  loaded: LoadedDomain<any>;
  task: Task;
  /** Trial index (from 0). */
  trial: number;
  agent: AgentSpec;
  user: UserSpec;
  /** How the agent reaches the back-end; default the dataset's surface (`LoadedDomain.surface`), else the API surface. */
  surface?: Surface;
  /** The environment's "now" and id seed; give the evaluator the same. */
  env: ReplayEnvOptions;
  /** Start from this state instead of the task's start state (it is forked, not mutated). */
  state?: unknown;
}

/** The parties and the environment of one episode. */
export interface BuiltEpisode {
  agent: Agent;
  user: User;
  env: Environment<any>;
}

/**
 * The episode's surface: the one asked for, else the dataset's own (`LoadedDomain.surface`, which
 * must have been loaded: `buildEpisode` does so, else `await loadSurface(name)`), else the API surface.
 */
export function surfaceOf(spec: { loaded: LoadedDomain<any>; surface?: Surface }): Surface {
  return spec.surface ?? (spec.loaded.surface ? importedSurface(spec.loaded.surface) : apiSurface);
}

/** The registry name of a dataset's own surface (`LoadedDomain.surface`, else the API surface), without loading it. */
export function ownSurfaceName(loaded: LoadedDomain<any>): string {
  return loaded.surface ?? apiSurface.name;
}

const wireCache = new WeakMap<Surface, WeakMap<object, WireTool[]>>();

/** The OpenAI `tools[]` of a surface's agent tools for a domain (converted once per surface and domain). */
export function agentToolsOf(loaded: LoadedDomain<any>, surface: Surface = apiSurface): WireTool[] {
  let perDomain = wireCache.get(surface);
  if (!perDomain) wireCache.set(surface, (perDomain = new WeakMap()));
  let tools = perDomain.get(loaded.domain);
  if (!tools) perDomain.set(loaded.domain, (tools = surface.tools(loaded.domain).filter((t) => t.requestor === 'assistant').map(toWireTool)));
  return tools;
}

/**
 * Builds one episode: the agent and user from their registries, and a fresh environment on the
 * surface at the task's start state. Throws BadInputError for an unknown kind or a kind missing
 * what it needs, and what `taskInitialState` throws for a malformed start state.
 */
export async function buildEpisode(spec: EpisodeSpec): Promise<BuiltEpisode> {
  if (!spec.surface && spec.loaded.surface) await loadSurface(spec.loaded.surface);
  return { agent: buildAgent(spec), user: buildUser(spec), env: await buildEnvironment(spec) };
}

/** The episode's agent, from the agent registry (see {@link buildEpisode}). */
export function buildAgent(spec: Pick<EpisodeSpec, 'loaded' | 'task' | 'trial' | 'agent' | 'surface'>): Agent {
  const { kind, ...ctx } = spec.agent;
  const surface = surfaceOf(spec);
  return getAgentKind(kind).create({ ...ctx, loaded: spec.loaded, task: spec.task, trial: spec.trial, tools: agentToolsOf(spec.loaded, surface), surface });
}

/** The episode's user simulator, from the user registry (see {@link buildEpisode}). */
export function buildUser(spec: Pick<EpisodeSpec, 'loaded' | 'task' | 'trial' | 'user'>): User {
  // Solo mode (tau2): no customer but the ticket, whatever simulator was asked for.
  if (spec.loaded.domain.soloMode === true) return ticketUser(spec.task);
  const { kind, ...ctx } = spec.user;
  return getUserKind(kind).create({ ...ctx, loaded: spec.loaded, task: spec.task, trial: spec.trial });
}

/** A fresh environment on the episode's surface at the task's start state (not yet opened). */
export async function buildEnvironment(spec: Pick<EpisodeSpec, 'loaded' | 'task' | 'env' | 'state' | 'surface'>): Promise<Environment<any>> {
  const state = spec.state ?? (await taskInitialState(spec.loaded.domain, spec.task, spec.env));
  return new Environment(spec.loaded.domain, { now: spec.env.now, idSeed: spec.env.idSeed, state, surface: surfaceOf(spec), task: spec.task });
}
