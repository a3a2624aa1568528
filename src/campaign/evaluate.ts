/**
 * Evaluating one campaign case with one prompt (a rollout of the optimiser's campaign suite): the
 * task agent's episode, the judge (only when the agent did not transfer), and the seed's verdict rule:
 * should transfer ⇒ correct iff transferred; otherwise correct iff not transferred and judged handled.
 */
import type { CampaignCase } from '../spec/campaign.js';
import type { Receipt } from '../spec/receipt.js';
import type { ActionLogEntry } from '../spec/action-log.js';
import type { ChatMessage } from '../spec/messages.js';
import type { Domain, LoadedDomain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import type { ToolLogEntry } from '../env/environment.js';
import { importDomain } from '../domains/catalog.js';
import type { ChatModel } from '../models/chat-model.js';
import type { UsageTracker } from '../models/usage.js';
import { runEpisode, type TerminationReason } from '../orchestrator/episode.js';
import { buildEpisode, ownSurfaceName } from '../orchestrator/build.js';
import { judgeReply } from '../evaluation/rubric-judge.js';
import type { LoadedCampaign, PromptVariant } from './load.js';

/** One case's result, with the seed record's fields first (in its order). */
export interface CaseResult {
  id: string;
  group: 'holdout' | 'boundary';
  correct: boolean;
  transferred: boolean;
  should_transfer: boolean;
  note: string;
  final_text: string;
  transfer_reason: string | null;
  tool_calls: string[];
  handled: boolean | null;
  judge_reason: string | null;
  rubric: string;
  user: string;
}

/** A case's result plus what the record does not carry but the store and viewer need. */
export interface CaseEpisode {
  result: CaseResult;
  messages: ChatMessage[];
  toolLog: ToolLogEntry[];
  /** What the back-end did (src/spec/action-log.ts). */
  actionLog: ActionLogEntry[];
  termination: TerminationReason;
  receipts: Receipt[];
}

export interface PromptEvaluation {
  key: string;
  label: string;
  row_label: string;
  /** [correct, total] over holdout cases. */
  holdout: [number, number];
  /** [correct, total] over boundary cases. */
  boundary: [number, number];
  episodes: CaseEpisode[];
}

export interface EvaluateOptions {
  campaign: LoadedCampaign;
  prompt: PromptVariant;
  model: ChatModel;
  usage: UsageTracker;
  /** Fixed "now" for the environment (ISO-8601). */
  now: string;
  onReceipt?: (r: Receipt) => void;
}

/** Verdict note for a case, from the campaign's note texts. */
function noteFor(c: LoadedCampaign, shouldTransfer: boolean, transferred: boolean, handled: boolean | null): string {
  const n = c.spec.verdict_notes;
  if (shouldTransfer) return transferred ? n.transferred_as_required : n.missed_transfer;
  if (transferred) return n.over_transfer;
  return handled === true ? n.handled : n.mishandled;
}

/**
 * A campaign case as the episode builder sees it: the case's domain with the prompt under test as
 * its policy, and a one-turn task whose customer says the case's message. The builder converts the
 * domain's tools to wire tools once per domain (the costly part of a case).
 */
function caseEpisodeSpec(domain: Domain<any>, prompt: PromptVariant, kase: CampaignCase): { loaded: LoadedDomain<any>; task: Task } {
  return {
    loaded: caseDataset(domain, prompt.text),
    task: { id: kase.id, user_scenario: { instructions: kase.user } },
  };
}

function caseDataset(domain: Domain<any>, policy: string): LoadedDomain<any> {
  return { domain, mode: 'servicegym', policy, tasks: [], source: 'campaign' };
}

/**
 * The registry name of the surface campaign case episodes run on: the episode builder's choice
 * for a case's dataset, which names no surface of its own (so the API surface today).
 */
export function caseSurfaceName(domain: Domain<any>): string {
  return ownSurfaceName(caseDataset(domain, ''));
}

/** One case of a campaign, evaluated once: {@link evaluateCase}'s options. */
export interface EvaluateCaseOptions extends EvaluateOptions {
  kase: CampaignCase;
  /** Sampling seed sent with every task-agent request (optimiser trials); not sent when unset (the seed campaign). */
  seed?: number;
  /** The judge model; default `model` (the seed campaign used one model for every role). */
  judge?: ChatModel;
}

/**
 * Evaluates one case with one prompt: the task agent's episode, then the judge when the agent
 * did not transfer and the customer stopped. Model errors propagate (`modelErrors: 'throw'`).
 */
export async function evaluateCase(opts: EvaluateCaseOptions): Promise<CaseEpisode> {
  const { campaign, prompt, model, usage, kase } = opts;
  const domain = await importDomain(campaign.spec.domain);
  const built = await buildEpisode({
    ...caseEpisodeSpec(domain, prompt, kase),
    trial: 0,
    agent: { kind: 'llm', model, systemPrompt: prompt.text, temperature: campaign.spec.model.temperature, seed: opts.seed },
    user: { kind: 'scripted', replies: [kase.user] },
    env: { now: opts.now, idSeed: '' },
  });
  // Seed semantics: no canned greeting, at most max_steps agent calls, the transfer tool ends
  // the episode at once, and a failed model call aborts the campaign (it resumes from its journal).
  const ep = await runEpisode({
    ...built,
    greeting: null,
    maxSteps: campaign.spec.agent.max_steps,
    stepCounting: 'agent_turns',
    transferTools: [campaign.spec.agent.transfer_tool],
    transferEnds: 'on_call',
    errorCounting: 'consecutive',
    mixedMessages: 'allow',
    modelErrors: 'throw',
    usage,
    onReceipt: opts.onReceipt,
  });
  const transferred = ep.termination === 'transfer';
  const reasonArg = (ep.transfer?.arguments as Record<string, unknown> | undefined)?.[campaign.spec.agent.transfer_reason_arg];
  let handled: boolean | null = null;
  let judgeReason: string | null = null;
  const receipts = [...ep.receipts];
  if (!transferred && ep.termination === 'user_stop') {
    const j = await judgeReply({
      model: opts.judge ?? model,
      template: campaign.judgeTemplate,
      user: kase.user,
      rubric: kase.rubric,
      reply: ep.finalText,
      temperature: campaign.spec.model.temperature,
    });
    usage.add('llm_judge', j.call.response.usage, j.call.elapsedSeconds);
    opts.onReceipt?.(j.call.receipt);
    receipts.push(j.call.receipt);
    handled = j.handled;
    judgeReason = j.reason;
  } else if (!transferred) {
    handled = false;
    judgeReason = `not judged: the episode ended by ${ep.termination} without a reply`;
  }
  const correct = kase.should_transfer ? transferred : !transferred && handled === true;
  return {
    result: {
      id: kase.id,
      group: kase.group,
      correct,
      transferred,
      should_transfer: kase.should_transfer,
      note: noteFor(campaign, kase.should_transfer, transferred, handled),
      final_text: transferred ? '' : ep.finalText,
      transfer_reason: transferred ? (typeof reasonArg === 'string' ? reasonArg : null) : null,
      tool_calls: ep.toolLog.map((t) => t.name),
      handled,
      judge_reason: judgeReason,
      rubric: kase.rubric,
      user: kase.user,
    },
    messages: ep.messages,
    toolLog: ep.toolLog,
    actionLog: ep.actionLog,
    termination: ep.termination,
    receipts,
  };
}

/** A prompt's evaluation from its case episodes (in case order): the holdout and boundary tallies. */
export function promptEvaluation(prompt: Pick<PromptVariant, 'key' | 'label' | 'row_label'>, episodes: CaseEpisode[]): PromptEvaluation {
  const count = (g: 'holdout' | 'boundary'): [number, number] => {
    const rs = episodes.map((e) => e.result).filter((r) => r.group === g);
    return [rs.filter((r) => r.correct).length, rs.length];
  };
  return { key: prompt.key, label: prompt.label, row_label: prompt.row_label, holdout: count('holdout'), boundary: count('boundary'), episodes };
}
