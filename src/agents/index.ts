/**
 * The agent registry: an explicit map from kind to factory. Commands name a kind (`llm`,
 * `oracle`, `scripted`, and — registered beside them — `replay`, which replays a recorded
 * trajectory); the episode builder asks the registry, never an `if` on the kind.
 */
import type { LoadedDomain } from '../spec/domain.js';
import { BadInputError } from '../spec/errors.js';
import type { WireTool } from '../spec/messages.js';
import type { Surface } from '../spec/surface.js';
import type { Task } from '../spec/task.js';
import type { ChatModel } from '../models/chat-model.js';
import type { Agent } from './agent.js';
import { LLMAgent, type ImageDelivery } from './llm-agent.js';
import { OracleAgent, oracleReport } from './oracle-agent.js';
import { ScriptedAgent, call, say, stop, type ScriptEntry } from './scripted-agent.js';
import { uiScriptAgent } from './ui-oracle.js';
import { ReplayAgent } from './replay-agent.js';
import type { ChatMessage } from '../spec/messages.js';

/** What an agent factory gets for one episode. */
export interface AgentContext {
  loaded: LoadedDomain<any>;
  task: Task;
  /** Trial index (from 0). */
  trial: number;
  /** The OpenAI `tools[]` of the surface's agent tools. */
  tools: WireTool[];
  /** The agent's model (kinds that need one: `llm`). */
  model?: ChatModel;
  temperature?: number;
  seed?: number;
  /** A raw system prompt (a prompt candidate, a campaign prompt); default: the domain policy in servicegym's agent instructions. */
  systemPrompt?: string;
  /** The script of a `scripted` agent. */
  script?: ScriptEntry[];
  /** The recorded trajectory a `replay` agent plays back (chat-completions messages, system first if recorded). */
  trajectory?: readonly ChatMessage[];
  /** The surface the agent works on (its oracle, when it has one, drives the `oracle` kind). */
  surface?: Surface;
  /** How a model receives tool-result images: in the tool message (default) or as a user message after it. */
  imageDelivery?: ImageDelivery;
}

/** One registered agent kind. */
export interface AgentKind {
  /** One line for help texts. */
  description: string;
  /** Whether the kind needs `model` (commands ask for `--agent-model` then). */
  needsModel: boolean;
  /** Builds a fresh agent for one episode; throws BadInputError when the context lacks what the kind needs. */
  create(ctx: AgentContext): Agent;
}

const need = <T>(v: T | undefined, kind: string, what: string): T => {
  if (v === undefined) throw new BadInputError(`the ${kind} agent needs ${what}`);
  return v;
};

export const agentKinds: Record<string, AgentKind> = {
  llm: {
    description: 'a model with the domain policy and the surface tools',
    needsModel: true,
    create: (c) => {
      const model = need(c.model, 'llm', 'a model (--agent-model)');
      const common = { model, tools: c.tools, temperature: c.temperature, seed: c.seed, imageDelivery: c.imageDelivery };
      return c.systemPrompt !== undefined ? new LLMAgent({ ...common, systemPrompt: c.systemPrompt }) : new LLMAgent({ ...common, policy: c.loaded.policy });
    },
  },
  oracle: {
    description: "the task's gold actions, each write after a confirmation request, then the required information",
    needsModel: false,
    create: (c) => {
      // A surface with its own oracle (a GUI app's scripted coordinates, a terminal's entries) performs the gold actions through its tools.
      const onSurface = c.surface?.oracle?.(c.loaded.domain, c.task);
      // Its report says what the API oracle says: the task's gold messages, then the required information.
      const report = [...(c.task.servicegym?.gold_messages ?? []), oracleReport(c.task.evaluation_criteria?.communicate_info ?? [])].join('\n');
      if (onSurface) return new ScriptedAgent([...onSurface.map((s) => call(s.name, s.arguments)), say(report), stop()], { systemPrompt: `Oracle agent: performs the gold actions of task ${c.task.id} on the ${c.surface!.name} surface.`, idPrefix: 'oracle_' });
      // Dual control: with user-side gold actions the oracle asks the customer to perform them.
      // Solo mode (tau2): no customer, so the oracle performs the device actions itself.
      if (c.loaded.domain.soloMode === true) return new OracleAgent(c.task, { performUserActions: true });
      // A web task: the gold actions are back-end operations the agent's tools do not reach; the
      // oracle works the pages instead. On a surface offering the domain's own tools it calls them.
      const offered = new Set(c.tools.map((t) => t.function.name));
      const domainToolsOffered = c.loaded.domain.tools.filter((t) => t.requestor === 'assistant').every((t) => offered.has(t.name));
      const ui = domainToolsOffered ? null : c.loaded.uiOracle?.(c.task);
      if (ui) return uiScriptAgent(ui, `Oracle agent: works task ${c.task.id} through the browser.`);
      const writes = new Set(c.loaded.domain.tools.filter((t) => t.kind === 'write' && t.requestor === 'assistant').map((t) => t.name));
      const instructUser = c.loaded.domain.tools.some((t) => t.requestor === 'user') && (c.task.evaluation_criteria?.actions ?? []).some((a) => a.requestor === 'user');
      return new OracleAgent(c.task, { confirmWrites: (n) => writes.has(n), instructUser });
    },
  },
  scripted: {
    description: 'a fixed list of turns (tests, faulty agents)',
    needsModel: false,
    create: (c) => new ScriptedAgent(need(c.script, 'scripted', 'a script')),
  },
  replay: {
    description: "a recorded trajectory's assistant turns, in order (evaluate, import tau2-results)",
    needsModel: false,
    create: (c) => new ReplayAgent(need(c.trajectory, 'replay', 'a recorded trajectory')),
  },
};

/** The kind registered under `name`; throws {@link BadInputError} listing the known kinds. */
export function getAgentKind(name: string): AgentKind {
  const k = agentKinds[name];
  if (!k) throw new BadInputError(`unknown agent '${name}' (known: ${Object.keys(agentKinds).join(', ')})`);
  return k;
}
