/** The evaluator's public API (see each module for the rules it implements). */
export type { CheckResult, EpisodeTrace, RubricResult, TaskEvaluation, TerminationReason, Verdict } from './types.js';
export { evaluateTask, EARNING_TERMINATIONS, type EvaluateTaskOptions } from './compose.js';
export { replayGold, clearGoldCache, type GoldReplay, type GoldActionError } from './gold.js';
export { taskInitialState, applyInitializationData, deepMerge, DEFAULT_REPLAY_ENV, type ReplayEnvOptions } from './initial-state.js';
export { compareStates, restrictDiff, pointerSegments, dbComponent, type StateComparison } from './db.js';
export { goldActionMatches, actionComponent } from './actions.js';
export { communicatedAt, communicateCheck, communicateComponent } from './communicate.js';
export { envAssertionComponent } from './env-assertions.js';
export {
  judgeNlAssertions,
  buildNlJudgeRequest,
  parseNlJudgeReply,
  renderTranscript,
  nlComponent,
  describeNlVerdicts,
  NL_JUDGE_SYSTEM,
  type NlVerdict,
  type NlJudgement,
} from './nl.js';
export { runCheck, checkFunctions, nlCheckResult, type CheckContext, type CheckOf } from './checks/index.js';
export { indexActions, indexToolCalls, matchesCall, type LoggedCall } from './trace-index.js';
export { isSuccess, binomial, taskPassHatK, passHatK, passHatKCurve, maxK, SUCCESS_TOLERANCE, type TrialRewards } from './pass-k.js';
export type { ComponentResult } from './evidence.js';
export {
  resolveStrict,
  strictBasis,
  transferClaim,
  transferClaimCheck,
  partitionKnownBad,
  TRANSFER_CLAIM_FLAG,
  STRICT_TRANSFER_TOOLS,
  type StrictOptions,
  type StrictSetting,
  type KnownBadTask,
} from './strict.js';
export { lintDataset, formatLintReport, type LintFinding, type LintReport } from './lint.js';
export { passHatKIntervals, compareTrialSets, fisherExact, minTasksForNoise, noiseVerdict, type NoiseVerdict, type PassHatKInterval, type BootstrapOptions, type TrialSetComparison, type TaskDifference } from './pass-k-ci.js';
