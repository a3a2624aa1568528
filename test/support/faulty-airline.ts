/**
 * Scripted agents on the five seed tasks of servicegym's airline dataset, two trials each, some
 * faulty (scores as pinned in test/domains/airline/seed-tasks.test.ts):
 *
 * | task | trial 0                                   | trial 1                                  |
 * |------|-------------------------------------------|------------------------------------------|
 * | T01  | writes 8KQ2ZD's date: reward 0, 0%        | malformed call, then perfect: 1, 100%    |
 * | T02  | perfect: 1, 100%                          | upgrade on the credit card: 0, 75%       |
 * | T03  | never verifies the delay: 1, 45%          | the same                                 |
 * | T15  | states no total: 0, 85%                   | the same                                 |
 * | T17  | perfect: 1, 100%                          | perfect                                  |
 *
 * Run means: reward 0.6, partial 0.735, pass^1 0.6, pass^2 0.4; 4 episodes with reward 0.
 */
import { call, say, type ScriptStep } from '../../src/agents/scripted-agent.js';
import type { Task } from '../../src/spec/task.js';
import type { ScriptedEpisode } from './scripted-run.js';
import {
  cancel, reservation, userDetails,
  T01_MOVE_SUMMARY, T01_MOVED, T01_OPENING, T01_REASON, t01Move,
  bags, GIFT, T02_CREDIT_CARD_DONE, T02_CREDIT_CARD_SUMMARY, T02_DONE, T02_OPENING, T02_SUMMARY, upgrade,
  certificate, T03_DONE, T03_OPENING, T03_SUMMARY,
  T15_DONE_NO_TOTAL, T15_OPENING, T15_READS, T15_SUMMARY,
  insure, mergeReturn, OUTBOUND_SUMMARY, outboundSplit, RETURN_SUMMARY, T17_DONE, T17_OPENING, T17_READS,
} from './airline-seed-scripts.js';

const ask = (summary: string): ScriptStep => say(`${summary} Shall I proceed?`);

const T01_PERFECT = [userDetails('mia_lee_301'), reservation('8KQ2ZD'), say(T01_REASON)];
const T01_WRITES = [userDetails('mia_lee_301'), reservation('8KQ2ZD'), ask(T01_MOVE_SUMMARY), t01Move, say(T01_MOVED)];
const T01_MALFORMED_THEN_PERFECT = [call('get_user_details', '{"user_id": "mia_lee_301"'), ...T01_PERFECT];

const goldBags = bags(2);
const T02_PERFECT = [userDetails('raj_patel_118'), reservation('Q7M4LT'), ask(T02_SUMMARY), upgrade(GIFT), goldBags, say(T02_DONE)];
const T02_CREDIT_CARD = [userDetails('raj_patel_118'), reservation('Q7M4LT'), ask(T02_CREDIT_CARD_SUMMARY), upgrade('credit_card_1180001'), goldBags, say(T02_CREDIT_CARD_DONE)];

const T03_NEVER_VERIFIES = [userDetails('ana_gomez_442'), reservation('3PZK9W'), ask(T03_SUMMARY), cancel('3PZK9W'), certificate(150), certificate(150), say(T03_DONE)];

const T15_NO_TOTAL = [...T15_READS, ask(T15_SUMMARY), cancel('IV1A24'), cancel('IV2BUS'), cancel('IV4CXL'), say(T15_DONE_NO_TOTAL)];

const T17_PERFECT = [...T17_READS, ask(OUTBOUND_SUMMARY), outboundSplit, ask(RETURN_SUMMARY), mergeReturn, insure('HPRET2'), say(T17_DONE)];

const PLAYS: Record<string, [ScriptedEpisode, ScriptedEpisode]> = {
  T01: [{ opening: T01_OPENING, script: T01_WRITES }, { opening: T01_OPENING, script: T01_MALFORMED_THEN_PERFECT }],
  T02: [{ opening: T02_OPENING, script: T02_PERFECT }, { opening: T02_OPENING, script: T02_CREDIT_CARD }],
  T03: [{ opening: T03_OPENING, script: T03_NEVER_VERIFIES }, { opening: T03_OPENING, script: T03_NEVER_VERIFIES }],
  T15: [{ opening: T15_OPENING, script: T15_NO_TOTAL }, { opening: T15_OPENING, script: T15_NO_TOTAL }],
  T17: [{ opening: T17_OPENING, script: T17_PERFECT }, { opening: T17_OPENING, script: T17_PERFECT }],
};

/** The episode of seed task `task` at trial 0 or 1 (see the module table). */
export function faultyAirlinePlay(task: Task, trial: number): ScriptedEpisode {
  const plays = PLAYS[task.id];
  if (!plays || !plays[trial]) throw new Error(`no scripted play for ${task.id} trial ${trial}`);
  return plays[trial];
}
