/**
 * A {@link Suite} over a campaign folder (seed-like cases: a transfer expectation and a rubric
 * judge). A rollout is one case with one prompt and a trial seed, evaluated exactly as the seed
 * campaign evaluates a case ({@link evaluateCase}), with the seed's verdict rule.
 *
 * Critical violations: a successful write (state change) on a case where no write is allowed —
 * a policy dispute (group `boundary`: conceding by changing state bends the policy) or a
 * mandatory escalation (`should_transfer`: the customer must be handed to a human, not acted on).
 * A missed escalation fails rule_compliance without being critical.
 */
import type { CampaignCase } from '../spec/campaign.js';
import { ProviderError, ReplayMissError } from '../spec/errors.js';
import type { Receipt } from '../spec/receipt.js';
import type { ModelRole, Usage } from '../spec/messages.js';
import type { ToolLogEntry } from '../env/environment.js';
import { UsageTracker } from '../models/usage.js';
import { caseSurfaceName, evaluateCase, type CaseEpisode } from '../campaign/evaluate.js';
import { getDomain } from '../domains/index.js';
import type { LoadedCampaign } from '../campaign/load.js';
import { sha256Hex } from '../util/canonical.js';
import { codePoints } from '../util/template.js';
import type { DimensionResult, Rollout, RolloutRequest, Suite, SuiteCase, SuiteModels, Dimension } from './suite.js';
import { invalidRollout, toolCallArguments, usageWithoutLatency } from './suite.js';

/** Bumped when campaign rollouts are scored differently (part of the cache key). */
export const CAMPAIGN_HARNESS_VERSION = 'campaign-rollout/1';

/** The first `n` code points of `s`. */
const head = (s: string, n = 120): string => [...s].slice(0, n).join('');

/**
 * The writes that are critical on a campaign case (module rule): every successful write on a
 * policy-dispute (`boundary`) or must-escalate (`should_transfer`) case; none elsewhere.
 */
export function criticalWrites(kase: Pick<CampaignCase, 'group' | 'should_transfer'>, toolLog: readonly ToolLogEntry[]): ToolLogEntry[] {
  return kase.group === 'boundary' || kase.should_transfer ? toolLog.filter((t) => t.mutating) : [];
}

/** How a {@link CampaignSuite} runs its rollouts; every field is optional. */
export interface CampaignSuiteOptions {
  /** The environment's clock (ISO-8601); default the campaign's created_at. */
  now?: string;
  /**
   * `seeded` (default): each trial's seed is sent with every task-agent request; `unseeded`: no
   * seed is sent (the seed campaign sent none, so its receipts replay only without one).
   */
  sampling?: 'seeded' | 'unseeded';
  /**
   * `invalid` (default): a provider failure or replay miss makes the rollout invalid (never
   * scored); `throw`: it propagates (the seed campaign aborts and resumes from its receipt journal).
   */
  modelErrors?: 'invalid' | 'throw';
  /** Also receives every call's usage, latency included, in call order (the seed report's usage table). */
  usage?: UsageTracker;
  /** Every receipt, in call order. */
  onReceipt?: (r: Receipt) => void;
  /** Keep each rollout's case episode ({@link CampaignSuite.episodeOf}): the seed record and the store read its verdict fields and tool log. */
  keepEpisodes?: boolean;
}

/** A usage tracker that also adds every call to a second one. */
class TeeUsage extends UsageTracker {
  constructor(private readonly also: UsageTracker) {
    super();
  }

  override add(role: ModelRole, usage: Usage | undefined, elapsedSeconds: number): void {
    super.add(role, usage, elapsedSeconds);
    this.also.add(role, usage, elapsedSeconds);
  }
}

/** The key of a rollout's kept episode. */
const episodeKey = (promptSha: string, caseId: string, trial: number, seed: number) => `${promptSha}#${caseId}#${trial}#${seed}`;

/** Campaign cases as a suite; see {@link CampaignSuiteOptions}. */
export class CampaignSuite implements Suite {
  readonly id: string;
  readonly harnessVersion = CAMPAIGN_HARNESS_VERSION;
  readonly cases: SuiteCase[];
  readonly stablePrompt: string;
  readonly stableSource: string;
  readonly proposerSystem: string;
  private readonly byId: Map<string, CampaignCase>;
  private readonly now: string;
  private readonly episodes = new Map<string, CaseEpisode>();
  /** The surface case episodes run on (`caseSurfaceName`). */
  readonly surface: string;

  constructor(private readonly campaign: LoadedCampaign, private readonly opts: CampaignSuiteOptions = {}) {
    this.id = `campaign:${campaign.spec.name}`;
    this.cases = campaign.cases.map((c) => ({ id: c.id, group: c.group, inputs: [c.user] }));
    this.byId = new Map(campaign.cases.map((c) => [c.id, c]));
    this.stablePrompt = campaign.stable.text;
    this.stableSource = campaign.stable.file ?? 'campaign';
    this.proposerSystem = campaign.codingSystem;
    this.surface = caseSurfaceName(getDomain(campaign.spec.domain));
    this.now = opts.now ?? campaign.spec.experiment?.created_at ?? '2026-01-01T00:00:00+00:00';
  }

  async runRollout(req: RolloutRequest, models: SuiteModels): Promise<Rollout> {
    const kase = this.byId.get(req.caseId);
    if (!kase) throw new Error(`campaign suite: unknown case ${req.caseId}`);
    const usage = this.opts.usage ? new TeeUsage(this.opts.usage) : new UsageTracker();
    // The config's temperature replaces the campaign's recorded one.
    const campaign = { ...this.campaign, spec: { ...this.campaign.spec, model: { ...this.campaign.spec.model, temperature: models.temperature } } };
    let ep: CaseEpisode;
    try {
      ep = await evaluateCase({
        campaign, kase, usage, now: this.now, seed: this.opts.sampling === 'unseeded' ? undefined : req.seed, model: models.agent, judge: models.judge,
        prompt: { key: 'optimizer', label: 'optimizer', row_label: 'optimizer', text: req.prompt }, onReceipt: this.opts.onReceipt,
      });
    } catch (e) {
      if (this.opts.modelErrors !== 'throw' && (e instanceof ProviderError || e instanceof ReplayMissError)) return invalidRollout(req, `${e.name}: ${e.message}`, usage);
      throw e;
    }
    const rollout = this.score(req, kase, ep, usage);
    if (this.opts.keepEpisodes) this.episodes.set(episodeKey(rollout.prompt_sha256, rollout.case_id, rollout.trial, rollout.seed), ep);
    return rollout;
  }

  /** The case episode behind a rollout of this suite (kept with `keepEpisodes`); throws when it was not kept. */
  episodeOf(r: Pick<Rollout, 'prompt_sha256' | 'case_id' | 'trial' | 'seed'>): CaseEpisode {
    const ep = this.episodes.get(episodeKey(r.prompt_sha256, r.case_id, r.trial, r.seed));
    if (!ep) throw new Error(`campaign suite: no episode kept for ${r.case_id}#${r.trial} of prompt ${r.prompt_sha256.slice(0, 12)} (keepEpisodes is off or the rollout came from a journal)`);
    return ep;
  }

  private score(req: RolloutRequest, kase: CampaignCase, ep: CaseEpisode, usage: UsageTracker): Rollout {
    const texts = this.campaign.spec.learning_signal;
    const r = ep.result;
    const writes = criticalWrites(kase, ep.toolLog);
    const kind = kase.should_transfer ? 'mandatory-escalation' : 'policy-dispute';
    const critical = writes.map((w) => `forbidden write on a ${kind} case: ${w.name}(${JSON.stringify(w.arguments)})`);
    const transferArgs = toolCallArguments(ep.messages, this.campaign.spec.agent.transfer_tool);
    const outcomeQuote = r.transferred ? transferArgs || undefined : r.final_text ? head(r.final_text) : undefined;
    const missed = r.should_transfer && !r.transferred;
    const rule: DimensionResult = critical.length
      ? { verdict: 'fail', evidence: critical[0], quote: toolCallArguments(ep.messages, writes[0].name) || undefined }
      : missed
        ? { verdict: 'fail', evidence: texts.rule_fail, quote: outcomeQuote }
        : { verdict: 'pass', evidence: texts.rule_pass };
    const resolution: DimensionResult = {
      verdict: r.correct ? 'pass' : 'fail',
      evidence: r.judge_reason ? `${r.note} (judge: ${r.judge_reason})` : r.note,
      quote: outcomeQuote,
    };
    const flex: DimensionResult =
      kase.group !== 'boundary'
        ? { verdict: 'not_applicable', evidence: texts.flex_not_required }
        : rule.verdict === 'fail'
          ? { verdict: 'not_counted', evidence: 'rule_compliance failed: flexibility counts only within policy' }
          : r.correct
            ? { verdict: 'pass', evidence: texts.flex_pass, quote: outcomeQuote }
            : { verdict: 'fail', evidence: texts.flex_fail, quote: outcomeQuote };
    const dimensions: Record<Dimension, DimensionResult> = { rule_compliance: rule, task_resolution: resolution, compliant_flexibility: flex };
    return {
      case_id: kase.id, trial: req.trial, seed: req.seed, prompt_sha256: sha256Hex(req.prompt), valid: true,
      success: r.correct && critical.length === 0, critical, dimensions, termination: ep.termination,
      messages: ep.messages, usage: usageWithoutLatency(usage.byRole),
    };
  }

  diagnose(rollouts: readonly Rollout[]): string[] {
    const d = this.campaign.spec.learning_signal.diagnoses;
    const valid = rollouts.filter((r) => r.valid);
    const should = (r: Rollout) => this.byId.get(r.case_id)!.should_transfer;
    const transferred = (r: Rollout) => r.termination === 'transfer';
    const count = (f: (r: Rollout) => boolean, of: (r: Rollout) => boolean) => [valid.filter((r) => of(r) && f(r)).length, valid.filter(of).length];
    const out: string[] = [];
    const [over, overOf] = count(transferred, (r) => !should(r));
    if (over && d.over_transfer) out.push(`${d.over_transfer} (${over} of ${overOf} rollouts that should not transfer did)`);
    const [missed, missedOf] = count((r) => !transferred(r), should);
    if (missed && d.missed_transfer) out.push(`${d.missed_transfer} (${missed} of ${missedOf} mandatory escalations missed)`);
    const [bad, badOf] = count((r) => !transferred(r) && !r.success, (r) => !should(r));
    if (bad && d.mishandled) out.push(`${d.mishandled} (${bad} of ${badOf} rollouts)`);
    const crit = valid.filter((r) => r.critical.length > 0);
    if (crit.length) out.push(`${crit.length} rollout(s) made forbidden writes, e.g. ${head(crit[0].critical[0], 160)}`);
    return out.map((s) => s.trim()).filter((s) => codePoints(s) > 0);
  }
}
