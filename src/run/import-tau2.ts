/**
 * Importing a tau2-bench results file: every simulation's messages become an OpenAI-format
 * trajectory, are replayed in a fresh environment of the same dataset and scored by servicegym
 * exactly as a live episode (src/run/replay-trajectory.ts), and servicegym's reward components
 * are compared with the ones tau2 recorded (`reward_info.reward_breakdown`: DB, ENV_ASSERTION,
 * COMMUNICATE, ACTION; NL_ASSERTION needs a judge model and is reported as not judged without
 * one), plus the total reward and the termination reason. Each disagreement is named with the
 * evidence of servicegym's check.
 */
import type { LoadedDomain } from '../spec/domain.js';
import type { ChatMessage } from '../spec/messages.js';
import type { EpisodeRunLog, Pin } from '../spec/run-log.js';
import { TAU2_COMPONENTS, type Tau2Message, type Tau2Results, type Tau2Simulation } from '../spec/tau2-results.js';
import type { ChatModel } from '../models/chat-model.js';
import type { TaskEvaluation } from '../evaluation/types.js';
import { replayTrajectory, datasetEnv } from './replay-trajectory.js';
import { taskEpisodeLog } from './episode-log.js';

/** Agreement on one component (or `reward`) over the simulations where tau2 recorded it. */
export interface ComponentAgreement {
  component: string;
  agree: number;
  disagree: number;
  /** servicegym could not judge it (NL assertions without a judge model). */
  not_judged: number;
}

/** One named disagreement. */
export interface Disagreement {
  simulation_id: string;
  task_id: string;
  trial: number;
  /** A component name, `reward` or `termination`. */
  component: string;
  tau2: number | string | null;
  servicegym: number | string | null;
  /** servicegym's evidence (the check of that component). */
  evidence: string;
}

/** What {@link importTau2Simulations} gives back. */
export interface Tau2Import {
  records: EpisodeRunLog[];
  /** Per component in tau2's order (DB, ENV_ASSERTION, COMMUNICATE, ACTION, NL_ASSERTION), then `reward`; only those tau2 recorded. */
  agreement: ComponentAgreement[];
  disagreements: Disagreement[];
  /** Simulations not imported, with the reason (no messages, unknown task). */
  skipped: { simulation_id: string; task_id: string; reason: string }[];
  /** Simulations whose recorded tool outputs the fresh environment did not reproduce. */
  tool_output_differences: { simulation_id: string; count: number; first: string }[];
}

/**
 * A tau2 message list as chat-completions messages (tool-call arguments as JSON text; a tool
 * message's `id` becomes `tool_call_id`). In dual control (tau2 telecom) a user message with tool
 * calls is the customer acting on their own device: it and the results answering it are marked
 * `requestor: "user"`, as servicegym's own episodes record them, so the replay user performs them.
 */
export function tau2ChatMessages(messages: readonly Tau2Message[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  const calls = (m: Tau2Message) => (m.tool_calls ?? []).map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
  for (const m of messages) {
    if (m.role === 'user' && m.tool_calls?.length) out.push({ role: 'user', content: m.content ?? '', tool_calls: calls(m), requestor: 'user' } as ChatMessage);
    else if (m.role === 'system' || m.role === 'user') out.push({ role: m.role, content: m.content ?? '' });
    else if (m.role === 'tool') out.push({ role: 'tool', tool_call_id: m.id ?? '', content: m.content ?? '', ...(m.requestor === 'user' ? { requestor: 'user' } : {}) } as ChatMessage);
    else {
      const c = calls(m);
      out.push({ role: 'assistant', content: m.content ?? null, ...(c.length ? { tool_calls: c } : {}) });
    }
  }
  return out;
}

const same = (a: number, b: number) => Math.abs(a - b) < 1e-9;

/** Compares one simulation's recorded reward info with servicegym's evaluation. */
function compare(sim: Tau2Simulation, trial: number, ev: TaskEvaluation | null, termination: string, tally: Map<string, ComponentAgreement>, out: Disagreement[]): void {
  const info = sim.reward_info;
  const base = { simulation_id: sim.id, task_id: sim.task_id, trial };
  if (termination !== sim.termination_reason) out.push({ ...base, component: 'termination', tau2: sim.termination_reason, servicegym: termination, evidence: 'the replayed conversation ended differently' });
  if (!info) return;
  const count = (component: string, tau2: number, ours: number | null | undefined, evidence: string) => {
    const t = tally.get(component) ?? { component, agree: 0, disagree: 0, not_judged: 0 };
    tally.set(component, t);
    if (ours === null || ours === undefined) return void t.not_judged++;
    if (same(tau2, ours)) return void t.agree++;
    t.disagree++;
    out.push({ ...base, component, tau2, servicegym: ours, evidence });
  };
  const breakdown = info.reward_breakdown ?? {};
  for (const c of TAU2_COMPONENTS) {
    if (breakdown[c] === undefined) continue;
    const check = ev?.checks.find((k) => k.kind === c);
    count(c, breakdown[c], ev ? (ev.reward_breakdown[c] ?? null) : null, check?.evidence ?? 'no evaluation');
  }
  const failing = ev?.checks.filter((k) => info.reward_basis?.includes(k.kind) && k.verdict === 'fail').map((k) => `${k.kind}: ${k.evidence}`) ?? [];
  count('reward', info.reward, ev ? ev.reward : null, failing.join('; ') || (ev ? `termination ${ev.termination}` : 'no evaluation'));
}

/** Options of {@link importTau2Simulations}. */
export interface ImportTau2Options {
  results: Tau2Results;
  /** The dataset the simulations ran on (tau2's folder for the domain). */
  loaded: LoadedDomain<any>;
  judge?: ChatModel;
}

function pin(party: Tau2Results['info']['agent_info']): Pin | null {
  if (!party) return null;
  const t = party.llm_args?.temperature;
  return { kind: `tau2:${party.implementation}`, model: party.llm ?? null, provider: null, prompt_sha256: null, temperature: typeof t === 'number' ? t : null };
}

/** Replays and scores every simulation, compares the rewards, and builds the run-log records. */
export async function importTau2Simulations(opts: ImportTau2Options): Promise<Tau2Import> {
  const { results, loaded } = opts;
  const env = datasetEnv(loaded);
  const tasks = new Map(loaded.tasks.map((t) => [t.id, t]));
  const tally = new Map<string, ComponentAgreement>();
  const result: Tau2Import = { records: [], agreement: [], disagreements: [], skipped: [], tool_output_differences: [] };
  const trials = new Map<string, number>();
  const settings = { ...(results.info.max_steps ? { maxSteps: results.info.max_steps } : {}), ...(results.info.max_errors ? { maxErrors: results.info.max_errors } : {}) };
  for (const sim of results.simulations) {
    const trial = typeof sim.trial === 'number' ? sim.trial : (trials.get(sim.task_id) ?? 0);
    trials.set(sim.task_id, trial + 1);
    const task = tasks.get(sim.task_id);
    if (!task || !sim.messages) {
      result.skipped.push({ simulation_id: sim.id, task_id: sim.task_id, reason: !task ? `task ${sim.task_id} is not in the dataset (${loaded.source})` : 'no messages recorded' });
      continue;
    }
    const messages = tau2ChatMessages(sim.messages);
    const r = await replayTrajectory({ loaded, task, messages, env, judge: opts.judge, settings });
    if (r.toolOutputDifferences.length) {
      const d = r.toolOutputDifferences[0];
      result.tool_output_differences.push({ simulation_id: sim.id, count: r.toolOutputDifferences.length, first: `tool output #${d.index}: recorded ${JSON.stringify(d.recorded).slice(0, 200)}, replayed ${d.replayed === null ? 'never ran' : JSON.stringify(d.replayed).slice(0, 200)}` });
    }
    compare(sim, trial, r.evaluation, r.episode.termination, tally, result.disagreements);
    result.records.push(
      await taskEpisodeLog({
        loaded, task, episodeId: `${sim.task_id}#${trial}`, trial, label: 'tau2', episode: r.episode, evaluation: r.evaluation,
        evaluationError: r.evaluationError, infraError: null, env, agent: pin(results.info.agent_info), user: pin(results.info.user_info),
      }),
    );
  }
  result.agreement = [...TAU2_COMPONENTS, 'reward'].flatMap((c) => (tally.has(c) ? [tally.get(c)!] : []));
  return result;
}
