import type { RunComparison, TaskRateRow } from '../evaluation/run-comparison.js';

/**
 * The viewer's data contract: what the JSON API answers and what a static export embeds in
 * `data.js`. Types only, shared by the server (`src/viewer/`) and the UI (`viewer/`), so both
 * sides of the wire are checked against one definition.
 */

/** One point of a pass^k curve. */
export interface PassPoint {
  k: number;
  value: number;
  /** 95% bootstrap interval over tasks (seeded; `evaluation/pass-k-ci.ts`), when computed. */
  low?: number;
  high?: number;
}

/** One run (campaign, task run or optimisation) as the runs list shows it. */
export interface RunListItem {
  id: string;
  kind: 'campaign' | 'run' | 'optimize';
  /**
   * The command that made the run, as the viewer labels it: `validate`, `run`, `import`,
   * `campaign`, `optimize` (the summary's `command`; for runs stored before it was recorded, a
   * `validate-` run id is `validate`, anything else its `kind`).
   */
  command: string;
  name: string;
  domain: string | null;
  /** ISO-8601 timestamp. */
  created_at: string;
  agent_model: string | null;
  user_model: string | null;
  /** First 12 hex digits of the SHA-256 of the agent's system prompt (first episode), or of `summary.prompt_hash`. */
  prompt_hash: string | null;
  /** Distinct task ids. */
  tasks: number;
  /** Trials per task (the largest count over tasks and labels): with personas, every persona's episodes of a task. */
  trials: number;
  /**
   * A task run whose tasks each play several personas (`--personas`, or a task's own persona set):
   * the most personas of one task and the most trials of one task with one persona, so the size
   * reads tasks × trials × personas. Absent otherwise.
   */
  personas?: { count: number; trials: number };
  /** Distinct episode labels (evaluation names of a campaign, `oracle`/`llm` for task runs). */
  labels: string[];
  episodes: number;
  /** Mean tau2 reward over scored episodes (null rewards count 0); null when none. */
  reward_mean: number | null;
  /** Mean partial score over scored episodes that have one; null when none. */
  partial_mean: number | null;
  pass_hat_k: PassPoint[];
  /** Scored episodes with a reward below 1 (not judged ones are not failures: see `unjudged`). */
  failed: number;
  /** Scored episodes with no reward (not judged): counted as 0 in the means and pass^k, which are then lower bounds. */
  unjudged: number;
  /** Episodes left out of the scores: infrastructure, harness or evaluation errors. */
  errors: number;
  /** Provider-reported cost in USD; null when the provider reported none (never estimated). */
  cost_usd: number | null;
  total_tokens: number | null;
  /** Model-call retries summed over roles (absent when no call needed one): calls retried, extra attempts, seconds waited, failed attempts by kind. */
  retries?: { retried_calls: number; extra_attempts: number; waited_seconds: number; faults: Record<string, number> };
  /** True when the optimiser page has something to show for this run. */
  has_optimizer: boolean;
  /** Tags given at start (`run --tag`, stored as `summary.tags`); empty when none. */
  tags: string[];
  /** The surface the agent worked through (`api`, `terminal`, `pixels` ...), as the run recorded it (`run`, `validate`); absent when not recorded. */
  surface?: string;
  /** True when the run was evaluated in strict mode (`run --strict`, `validate --strict`); absent otherwise. */
  strict?: true;
  /**
   * `complete`; `in_progress` (a live process holds the run's lock: scores cover what is stored so
   * far); `interrupted` (not finished and nobody is writing it: resume it); `stopped` (finished
   * before every planned episode started: see `halted`; resume it).
   */
  status: RunStatus;
  /**
   * Why a `stopped` task run stopped before every planned episode started, as its stored summary
   * has it (`run` on Ctrl-C, SIGTERM or `--max-cost`): the reason (`interrupted (Ctrl-C)`,
   * `--max-cost $1 reached (…)`) and how many planned episodes did not start. Absent otherwise.
   */
  halted?: RunHalted;
}

/** Whether a run is finished, being written, was stopped before it finished, or finished with episodes not started. */
export type RunStatus = 'complete' | 'in_progress' | 'interrupted' | 'stopped';

/** Why a run stopped before every planned episode started (the stored summary's `halted`). */
export interface RunHalted {
  reason: string;
  /** Planned episodes that never started (`run --resume` runs them). */
  not_started: number;
}

/** Calls, tokens, latency and provider-reported cost of one role (agent, user, judge, ...). */
export interface RoleUsageView {
  role: string;
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Summed call latency in seconds; null when not recorded. */
  latency_seconds: number | null;
  /** Provider-reported cost in USD; null when the provider reported none (never estimated). */
  cost_usd: number | null;
}

/** Scores of one label (prompt version, persona, mode) of a run with several. */
export interface LabelBreakdown {
  label: string;
  tasks: number;
  episodes: number;
  /** Scored episodes (infrastructure, harness and evaluation errors left out). */
  scored: number;
  passed: number;
  reward_mean: number | null;
  partial_mean: number | null;
  pass_hat_k: PassPoint[];
}

/** How an episode is coloured in the matrix. */
export type Outcome = 'pass' | 'partial' | 'fail' | 'unjudged' | 'error';

/** An episode without its trajectory: one matrix cell. */
export interface EpisodeOutlineView {
  episode_id: string;
  task_id: string;
  trial: number;
  label: string;
  /** Null when not judged, and when not scored (`error`). */
  reward: number | null;
  /** Null when not scored (`error`). */
  partial: number | null;
  termination: string | null;
  /** Ids of the failed checks that count towards the reward or partial score (as the CLI lists them; src/evaluation/counted.ts). */
  failed_checks: string[];
  /** Ids of the failed checks that count towards neither score: diagnostics, e.g. `tau2_action` outside strict mode. */
  diagnostic_checks: string[];
  /** Why the episode is left out of the scores, if it is. */
  error: 'infra' | 'harness' | 'evaluation' | null;
  outcome: Outcome;
}

/** `GET /api/runs/:id`. */
export interface RunDetail {
  run: RunListItem;
  /** The stored summary as is. */
  summary: unknown;
  /** The agent's system prompt of the first episode, for prompt diffs. */
  prompt: string | null;
  /** Episodes in matrix order: task (natural order of ids), then label, then trial. */
  episodes: EpisodeOutlineView[];
  /** Present when the run has an optimiser view (see {@link OptimizerView}). */
  optimizer: OptimizerView | null;
  /** The run's usage by role (from its summary); empty when none was recorded. */
  usage_by_role: RoleUsageView[];
  /** Per-label scores when the run has several labels (never one pooled reward only); else empty. */
  by_label: LabelBreakdown[];
}

/** One parsed tool call of an agent turn. */
export interface ToolCallView {
  id: string;
  name: string;
  /** Parsed JSON arguments, or the raw text when they are not valid JSON. */
  arguments: unknown;
  /** True when the arguments were not valid JSON. */
  malformed: boolean;
}

/** One entry of a transcript, in conversation order; `images` are the message's image parts as data URLs. */
export type TranscriptEntry =
  | { kind: 'system'; text: string }
  | { kind: 'customer'; text: string; /** `data:image/…` URLs of image parts. */ images?: string[]; /** The customer's own tool calls (dual control: device tools, requestor `user`). */ tool_calls?: ToolCallView[] }
  | { kind: 'agent'; text: string; tool_calls: ToolCallView[]; images?: string[] }
  | {
      kind: 'tool';
      name: string;
      call_id: string;
      output: string;
      error: boolean;
      /** `data:image/…` URLs of image parts (e.g. a surface's screenshot). */
      images?: string[];
      /** `user` when the output answers one of the customer's own tool calls. */
      requestor?: 'user';
    }
  | { kind: 'error'; text: string };

/** A changed field: JSON-pointer path, `before` = gold final DB, `after` = the episode's final DB. */
export interface FieldDiffView {
  path: string;
  op: 'add' | 'remove' | 'replace';
  before: unknown;
  after: unknown;
}

/** One evaluated check with what it weighs. */
export interface CheckView {
  id: string;
  kind: string;
  verdict: 'pass' | 'fail' | 'not_judged';
  /** The regex match, the out-of-order calls, the differing fields, the judge's reason. */
  evidence: string;
  /** Rubric points that depend on this check (sum over the rubric items that list it); null when none. */
  weight: number | null;
  /** Human reading of the weight: "35 (cabin_change)", "in the tau2 reward", "diagnostic". */
  weight_label: string;
  /**
   * Whether the check counts towards the reward or the partial score (src/evaluation/counted.ts
   * `checkCounts`); false for a diagnostic, e.g. `tau2_action` outside strict mode. Campaign and
   * optimiser checks all count.
   */
  counts: boolean;
  diff: FieldDiffView[];
}

/** One rubric item of the partial score. */
export interface RubricView {
  id: string;
  weight: number;
  description: string;
  verdict: 'pass' | 'fail' | 'not_judged';
  checks: string[];
}

/** `GET /api/runs/:id/episodes/:eid`. */
export interface EpisodeDetail {
  run: { id: string; name: string; kind: RunListItem['kind']; domain: string | null };
  episode: EpisodeOutlineView;
  /** Place in the run's matrix order, for keyboard navigation. */
  position: { index: number; total: number; prev: string | null; next: string | null };
  transcript: TranscriptEntry[];
  checks: CheckView[];
  rubric: RubricView[];
  reward_basis: string[];
  reward_breakdown: Record<string, number | null>;
  /** Gold final DB → episode final DB, per field. */
  db_diff: FieldDiffView[];
  errors: { infra: string | null; harness: string | null; evaluation: string | null };
  usage: unknown;
  /** Other facts of the episode worth showing (e.g. a campaign case's group and rubric). */
  facts: { name: string; value: string }[];
  /** The task the episode ran (scenario, gold actions, assertions), when the viewer could find it; null when not. */
  task?: TaskInfoView | null;
  /** The surface the agent worked through (`api`, `terminal`, ...), when recorded. */
  surface?: string;
  /** Model seconds (sum of call latencies) and wall seconds of the episode, when recorded. */
  timings?: {
    model_seconds: number;
    elapsed_seconds: number | null;
    /** Each agent / customer message produced by a recorded model call, with that call's latency (seconds). */
    turns?: { message_index: number; role: 'assistant' | 'user'; latency_seconds: number }[];
  };
  /** Back-end action seq (as evidence cites `#N`) → index of the message whose tool call caused it. */
  action_turns?: Record<string, number>;
  /** The executed tool calls in order (agent's and customer's), when recorded. */
  tool_timeline?: ToolStepView[];
  /** Canonical-JSON hash of the task as the episode ran it, when recorded (compared with {@link TaskInfoView.sha256}). */
  task_sha256?: string | null;
  /** The back-end store from the task's start state to the episode's final state, per field (`before` = start, `after` = final); null when not recorded. */
  state_diff?: FieldDiffView[] | null;
  /** Tool call id → the back-end writes it caused (`operation {json args}`), when recorded. */
  call_writes?: Record<string, string[]>;
  /** Why a task episode's reward and partial score are what they are (task evaluations only). */
  score_explained?: ScoreExplanationView | null;
}

/** One reward component of a task evaluation. */
export interface ScoreComponentView {
  /** DB, ENV_ASSERTION, COMMUNICATE, NL_ASSERTION, ACTION. */
  name: string;
  /** The check that scored it (`tau2_db`, ...), when stored. */
  check_id: string | null;
  /** True when it is in the task's reward basis (it counts). */
  counts: boolean;
  value: number | null;
  /** Its check's evidence (what matched or differed). */
  evidence: string | null;
}

/** The reward and the partial score, each with its formula and the reason in words. */
export interface ScoreExplanationView {
  termination: string;
  components: ScoreComponentView[];
  reward: { value: number | null; formula: string; why: string };
  partial: { value: number; formula: string; why: string };
  /** True when some scoring check was not judged: both numbers are lower bounds. */
  lower_bound: boolean;
}

/** One executed tool call of an episode, for the tool-call timeline. */
export interface ToolStepView {
  /** 0-based index of the call within the episode. */
  step: number;
  requestor: 'assistant' | 'user';
  name: string;
  error: boolean;
  mutating: boolean;
  /** Index of the message that carried the call, when known. */
  turn: number | null;
}

/** How one task did in one run of a comparison. */
export interface TaskOutcome {
  episodes: number;
  /** Scored episodes with reward 1. */
  passed: number;
  scored: number;
  reward_mean: number | null;
  partial_mean: number | null;
  episode_ids: string[];
}

/** improved / regressed: the task's success rate is higher / lower in B than in A; added / removed: only in B / only in A. */
export type Change = TaskRateRow['direction'];

export interface CompareRow {
  /** Task id, prefixed by the label when a campaign or optimisation has several prompt versions. */
  key: string;
  a: TaskOutcome | null;
  b: TaskOutcome | null;
  change: Change;
  /** Success rate (scored episodes with reward 1 / scored episodes) in A and in B; null when not run or none scored. */
  rate_a: number | null;
  rate_b: number | null;
  /** `rate_b - rate_a`; null when either is unknown. */
  rate_delta: number | null;
  /** B's partial mean minus A's; null when either is unknown. */
  partial_delta: number | null;
  /** Two-sided Fisher exact p-value of A's vs B's successes and whether it is below 0.05; null when not in both runs. */
  noise: { p: number; beyond_noise: boolean } | null;
}

/**
 * `GET /api/compare?a=&b=`: the comparison of `evaluation/run-comparison.ts` (overall difference
 * and noise, pass^k pairs, differing settings, prompt diff, task sets, counts) and the page's rows.
 */
export interface CompareView {
  a: RunListItem;
  b: RunListItem;
  /** One row per task key, in natural task order. */
  rows: CompareRow[];
  comparison: RunComparison;
}

/** One gate check of a release. */
export interface GateCheckView {
  name: string;
  passed: boolean;
  detail: string | null;
}

/** An episode a release edit cites as its reason. */
export interface EvidenceLink {
  run_id: string;
  episode_id: string;
  note: string;
}

/** One prompt edit of a release. */
export interface EditView {
  old_str: string;
  new_str: string;
  evidence: EvidenceLink[];
}

/** One prompt release: stable, candidate, canary, control, rejected, ... */
export interface ReleaseView {
  id: string;
  label: string;
  status: string;
  created_at: string | null;
  /** Scores of this release's prompt, by case group: `{name, passed, total}`. */
  scores: { name: string; passed: number; total: number }[];
  gate: { decision: string | null; accepted: boolean | null; checks: GateCheckView[] } | null;
  statistics: { name: string; value: string }[];
  edits: EditView[];
  rationale: string | null;
  diff: string | null;
  /** Label of the run's episodes evaluated with this release, if any. */
  episode_label: string | null;
  /** The prompt version (12 hex digits of its sha256), for the optimiser's release records. */
  version?: string | null;
  /** Its lifecycle, oldest first: every state a release decision put it in (canary, then rolled back, ...). */
  history?: ReleaseHistoryItem[];
  /** The stages of its release gate, in order (static checks, screen, gate looks, sealed confirmation, canary). */
  stages?: GateStageView[];
  /** pass^k of the stable prompt (parent) and this candidate on the gate's cases. */
  pass_k?: PassKPairView[];
  /** The canary's sequential test, episode by episode (null when no canary decided). */
  sprt?: SprtView | null;
}

/** One lifecycle step of a prompt version. */
export interface ReleaseHistoryItem {
  /** stable, candidate, canary, rejected, rolled_back, retired. */
  state: string;
  /** release_to_canary, reject, insufficient_evidence, promote, rollback; null for the starting stable prompt. */
  decision: string | null;
  /** Where the decision was reached (static, screen, gate, confirm, canary), from its release record. */
  stage: string | null;
  decided_at: string | null;
  /** The record's first reason. */
  reason: string | null;
}

/** A critical violation of a candidate's rollout, linked to its episode when the run stored it. */
export interface CriticalLink {
  /** `case#trial` (gate, screen, sealed) or the canary episode's id. */
  id: string;
  /** The stored episode of this run, or null (e.g. a served conversation of real traffic). */
  episode_id: string | null;
  /** The violations named by the rollout's evaluation (empty when the record lists none). */
  violations: string[];
}

/** One stage of a candidate's release gate: its verdict, numbers, checks and critical violations. */
export interface GateStageView {
  /** static, screen, gate look 1, gate look 2, sealed confirmation, canary. */
  stage: string;
  verdict: string;
  /** Valid and all paired rollouts (null when the stage pairs none). */
  pairs: { valid: number; total: number } | null;
  /** Boundary cases: paired changes, the sign test's p (raw; the page rounds it) and α, success rates. */
  boundary: { pairs: number; improved: number; worsened: number; p_value: number | null; alpha: number | null; parent_rate: number | null; candidate_rate: number | null } | null;
  /** Holdout cases: net new failures against the non-inferiority bound. */
  holdout: { pairs: number; net: number; bound: number } | null;
  /** Each rule: passed, failed, or not decidable (null). */
  checks: { name: string; passed: boolean | null; detail: string }[];
  critical: CriticalLink[];
}

/** pass^k of the parent and the candidate at one k (null: too few trials per case). */
export interface PassKPairView {
  k: number;
  parent: number | null;
  candidate: number | null;
}

/** The canary's sequential probability ratio test (Wald's SPRT; the drop monitor is its CUSUM). */
export interface SprtView {
  decision: string;
  reason: string;
  /** Stable's success rate (H0) and the dropped rate the test looks for (H1). */
  p0: number;
  p1: number;
  alpha: number | null;
  beta: number | null;
  /** ln((1−β)/α): a drop alarm; ln(β/(1−α)): no drop. */
  upper: number;
  lower: number;
  min_episodes: number | null;
  /** Episodes in serving order: the log-likelihood ratio so far and the CUSUM (restarted at 0) after each. */
  steps: SprtStepView[];
}

/** One canary episode in the SPRT chart. */
export interface SprtStepView {
  /** 1-based position among the episodes read. */
  n: number;
  id: string;
  episode_id: string | null;
  valid: boolean;
  success: boolean;
  critical: boolean;
  llr: number;
  cusum: number;
}

/** The optimiser page of a run: the release history of its prompt. */
export interface OptimizerView {
  run_id: string;
  /** `campaign`: derived from a seed-shaped campaign record; `releases`: a record's `releases[]`. */
  source: 'campaign' | 'releases';
  /** The campaign's score table (label × case group), when there is one. */
  table: { columns: string[]; rows: { label: string; cells: { passed: number; total: number }[] }[] } | null;
  releases: ReleaseView[];
  diagnosis: string | null;
  /** Feedback cases the optimiser found not prompt-fixable (`record.not_prompt_fixable`), advice only. */
  escalations: EscalationView[];
}

/** One not-prompt-fixable case: how often it was tried, what keeps failing, what to do instead. */
export interface EscalationView {
  case_id: string;
  attempts: number;
  rollouts: number;
  /** E.g. `task_resolution ×10, compliant_flexibility ×10`, or the critical violations. */
  failing: string;
  recommendation: string;
}

/**
 * What `servicegym view --export` writes into `data.js` as `window.__SERVICEGYM_DATA__`: every
 * run and its matrix. Episode pages live in separate scripts (`episodes/N.js`, loaded when an
 * episode is opened), so opening the site does not parse every transcript of the store.
 */
export interface StaticData {
  version: 1;
  /**
   * The time the data is as of: the newest stored run's `created_at` (ISO-8601), null for a store
   * without runs. From the store, not the clock, so the same store exports the same bytes.
   */
  generated_at: string | null;
  runs: RunListItem[];
  details: Record<string, RunDetail>;
  /** Run id → episode id → the script (relative to index.html) holding that episode page. */
  episode_files: Record<string, Record<string, string>>;
}

/**
 * One episode script of a static export: it sets `window.__SERVICEGYM_EPISODES__[file]` to its
 * chunk, `file` being its own path relative to index.html.
 */
export type EpisodeChunk = Record<string, EpisodeDetail>;

/** Body of every non-2xx API answer. */
export interface ApiError {
  error: string;
  /** `store`: the store cannot be read (missing, locked, wrong schema); `not_found`: unknown id. */
  kind: 'store' | 'not_found' | 'bad_request';
}

/** An episode that matches a text search, with where and a snippet around the first match. */
export interface SearchHit {
  episode_id: string;
  /** `task`, `label`, `turn N (agent)`, `turn N (tool NAME)`, `check ID`, ... */
  where: string;
  snippet: string;
}

/** `GET /api/runs/:id/search?q=`. */
export interface SearchResult {
  q: string;
  hits: SearchHit[];
}

/** The task an episode ran, as the episode page shows it: the user scenario, gold actions and assertion texts. */
export interface TaskInfoView {
  id: string;
  purpose: string | null;
  /** The simulated customer's persona, when the task gives one. */
  persona: string | null;
  /** The user scenario's instructions, as labelled parts (`reason for call`, `known info`, ...; one `instructions` part when plain text). */
  scenario: { name: string; text: string }[];
  gold_actions: { action_id: string; requestor: string; name: string; arguments: unknown }[];
  nl_assertions: string[];
  communicate_info: string[];
  /** Environment assertions as `func(args) == value` lines. */
  env_assertions: string[];
  reward_basis: string[];
  /** servicegym tasks: the partial-credit rubric (id, weight, description). */
  rubric: { id: string; weight: number; description: string }[];
  /** servicegym tasks: the checks whose failure makes the partial score 0 (they count even outside the rubric). */
  zero_if_failed?: string[];
  /** Hash of the task definition found (as the run log hashes tasks), when the resolver computes it. */
  sha256?: string;
}

/** Finds the task of an episode: `(domain, task id)` → its view, or null when it cannot be found. */
export type TaskInfoResolver = (domain: string, taskId: string) => TaskInfoView | null;
