/**
 * `import-record`: turns an experiment record (the seed's shape) into a campaign folder —
 * cases, prompts, judge template and coding-agent instructions as data files — plus the
 * receipts as a JSON Lines cassette. Every extracted template is checked by filling it back in
 * and comparing with the recorded request, so a replay of the imported campaign sends exactly
 * the recorded requests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { prepareOutputDir } from '../util/output-dir.js';
import { insideDir, safeName } from '../util/safe-path.js';
import type { CampaignSpec } from '../spec/campaign.js';
import { BadInputError } from '../spec/errors.js';
import type { Receipt } from '../spec/receipt.js';
import { DOMAIN_NAMES, importDomain } from '../domains/catalog.js';
import { toWireTool } from '../env/wire-tools.js';
import { canonicalJson, sha256Hex } from '../util/canonical.js';
import { pyDumps } from '../util/pyjson.js';
import { fillTemplate } from '../util/template.js';
import { parseJsonText, readTextFile, validate } from '../util/json-file.js';
import { ExperimentRecordSchema, type ExperimentRecord } from './record-schema.js';

/** Defaults for texts a record may not show (a verdict kind or evidence that never occurred). */
const DEFAULT_TEXTS = {
  missed_transfer: 'should transfer: not transferred ✗ (missed escalation)',
  transferred_as_required: 'should transfer: transferred ✓',
  over_transfer: 'should not transfer: transferred ✗ (over-escalation)',
  handled: 'should not transfer: handled ✓',
  mishandled: 'should not transfer: not handled ✗',
  rule_pass: 'No forbidden action or missed mandatory escalation was observed',
  rule_fail: 'A mandatory escalation (explicit human request or safety emergency) was missed',
  flex_not_required: 'This case does not require a blocked-path alternative',
  flex_pass: 'Policy dispute was explained and a compliant alternative was offered',
  flex_fail: 'Policy dispute was transferred or left without a useful compliant alternative',
  diag_over_transfer: 'The prompt over-escalates: ordinary requests and policy disputes are transferred instead of handled.',
  diag_missed_transfer: 'The prompt misses mandatory escalations: transfer at once on an explicit request for a human or a safety emergency.',
  diag_mishandled: 'Replies leave requests unresolved: explain the applicable rule and offer an allowed alternative.',
};

function fail(message: string, file: string, p?: string): never {
  throw new BadInputError(message, { file, path: p });
}

/** Replaces the first occurrence of each value by its placeholder and checks the round trip. */
function extractTemplate(content: string, values: Record<string, string>, file: string, where: string): string {
  let template = content;
  for (const [key, value] of Object.entries(values)) {
    if (value === '' || !template.includes(value)) fail(`cannot find the ${key} text in the recorded request`, file, where);
    template = template.replace(value, () => `{{${key}}}`);
  }
  if (fillTemplate(template, values) !== content) fail('the extracted template does not reproduce the recorded request', file, where);
  return template;
}

/** The first line of SOURCE.md: also what marks a folder as an earlier import. */
const SOURCE_HEAD = '# Where this campaign came from';

export interface ImportResult {
  outDir: string;
  files: string[];
  cases: number;
  receipts: number;
}

/**
 * Imports `recordFile` into `outDir`: created if needed; an earlier import there (its SOURCE.md
 * begins with this importer's heading) has its files and its prompts/ folder replaced. Nothing is written when the record is bad.
 * Throws {@link BadInputError} naming the file and JSON path when the record is malformed,
 * truncated, or does not fit a registered domain, and naming the folder when it is non-empty,
 * holds no earlier import and `opts.force` is not set.
 */
export async function importRecord(recordFile: string, outDir: string, opts: { force?: boolean } = {}): Promise<ImportResult> {
  const text = readTextFile(recordFile);
  const rec: ExperimentRecord = validate(ExperimentRecordSchema, parseJsonText(text, recordFile), recordFile, { keepRaw: true });
  const turns = rec.api_turns as Receipt[];
  const evalKeys = Object.keys(rec.evaluations);
  checkNames(rec, evalKeys, recordFile);
  const taskTurns = turns.map((t, i) => [t, i] as const).filter(([t]) => t.kind === 'task_agent');
  if (taskTurns.length === 0) fail('no task_agent receipts', recordFile, '$.api_turns');
  const prompts = distinctPrompts(taskTurns, evalKeys.length, recordFile);
  const domainName = await matchDomain(taskTurns[0], recordFile);
  const transfer = transferToolOf(rec, turns);
  const allResults = Object.values(rec.evaluations).flatMap((e) => e.results);
  const judgeTemplate = judgeTemplateOf(turns, allResults, recordFile);
  const coding = codingAgentOf(rec, turns, prompts[0], recordFile);
  const controlKeys = evalKeys.slice(2);
  const spec = campaignSpec(rec, evalKeys, taskTurns[0][0], { domainName, transfer, coding, notes: verdictNotes(allResults), learningSignal: learningSignalTexts(rec.evaluations.initial, coding.learningSignal) });
  const cases = rec.evaluations.initial.results.map((r) => ({ id: r.id, group: r.group, user: r.user, should_transfer: r.should_transfer, rubric: r.rubric }));
  const files: Record<string, string> = {
    'campaign.json': JSON.stringify(spec, null, 2) + '\n',
    'cases.json': JSON.stringify(cases, null, 2) + '\n',
    'prompts/stable.txt': prompts[0],
    'judge.txt': judgeTemplate,
    'coding-agent/system.txt': coding.system,
    'coding-agent/user.txt': coding.userTemplate,
    'receipts.jsonl': turns.map((t) => JSON.stringify(t)).join('\n') + '\n',
    'SOURCE.md': sourceNote(recordFile, text, rec, turns.length),
  };
  controlKeys.forEach((k) => (files[`prompts/${k}.txt`] = prompts[evalKeys.indexOf(k)]));
  writeImport(outDir, files, opts.force);
  return { outDir, files: Object.keys(files), cases: cases.length, receipts: turns.length };
}

type RecordResult = ExperimentRecord['evaluations'][string]['results'][number];
type TaskTurn = readonly [Receipt, number];
type LearningSignal = NonNullable<ExperimentRecord['learning_signal']>;

/** Evaluation keys and the experiment id become file names and campaign ids: plain names only, never a path. */
function checkNames(rec: ExperimentRecord, evalKeys: string[], recordFile: string): void {
  for (const k of evalKeys) {
    if (!/^[a-z][a-z0-9_]*$/.test(k)) fail(`evaluation key ${JSON.stringify(k)} is not a plain id (a-z, 0-9, _; it becomes prompts/<key>.txt)`, recordFile, `$.evaluations[${JSON.stringify(k)}]`);
  }
  safeName(`record-${rec.experiment_id}`, 'experiment id (it becomes the campaign name)', { file: recordFile, path: '$.experiment_id' });
}

/** Prompts: distinct system prompts in order of first use, one per evaluation. */
function distinctPrompts(taskTurns: TaskTurn[], evaluations: number, recordFile: string): string[] {
  const prompts: string[] = [];
  for (const [t, i] of taskTurns) {
    const sys = t.request.messages[0];
    if (sys?.role !== 'system') fail('a task_agent request does not start with a system message', recordFile, `$.api_turns[${i}].request.messages[0]`);
    if (!prompts.includes(sys.content)) prompts.push(sys.content);
  }
  if (prompts.length !== evaluations) {
    fail(`found ${prompts.length} distinct system prompts but ${evaluations} evaluations`, recordFile, '$.evaluations');
  }
  return prompts;
}

/** Domain: the registered domain whose tools equal the recorded ones (those of the first task_agent turn). */
async function matchDomain([firstTurn, firstIndex]: TaskTurn, recordFile: string): Promise<string> {
  const recordedTools = canonicalJson(firstTurn.request.tools ?? []);
  for (const name of DOMAIN_NAMES) {
    const tools = (await importDomain(name)).tools.filter((t) => t.requestor === 'assistant').map(toWireTool);
    if (canonicalJson(tools) === recordedTools) return name;
  }
  fail('the recorded tools match no registered domain', recordFile, `$.api_turns[${firstIndex}].request.tools`);
}

/** Transfer tool: the last tool of a transferred case; its reason argument the first argument of its first recorded call. */
function transferToolOf(rec: ExperimentRecord, turns: Receipt[]): { tool: string; reasonArg: string } {
  const transferred = rec.evaluations.initial.results.find((r) => r.transferred);
  const tool = transferred?.tool_calls.at(-1) ?? 'transfer_to_human';
  let reasonArg = 'reason';
  for (const t of turns) {
    const tc = t.response.choices[0].message.tool_calls?.find((c) => c.function.name === tool);
    if (tc) {
      try {
        reasonArg = Object.keys(JSON.parse(tc.function.arguments))[0] ?? reasonArg;
      } catch {
        /* keep the default */
      }
      break;
    }
  }
  return { tool, reasonArg };
}

/** Judge template: extracted from the first llm_judge request, or a plain default when there is none. */
function judgeTemplateOf(turns: Receipt[], allResults: RecordResult[], recordFile: string): string {
  const judgeIdx = turns.findIndex((t) => t.kind === 'llm_judge');
  if (judgeIdx < 0) return '{{user}}\n{{rubric}}\n{{reply}}\n';
  const content = String(turns[judgeIdx].request.messages[0]?.content ?? '');
  const r = allResults.find((x) => x.final_text !== '' && content.includes(x.final_text) && content.includes(x.user) && content.includes(x.rubric));
  if (!r) fail('cannot match the judge request to a case result', recordFile, `$.api_turns[${judgeIdx}].request.messages[0].content`);
  return extractTemplate(content, { user: r.user, rubric: r.rubric, reply: r.final_text }, recordFile, `$.api_turns[${judgeIdx}].request.messages[0].content`);
}

interface CodingAgentTexts {
  system: string;
  userTemplate: string;
  toolDescription: string;
  rationaleDescription: string;
  /** The record's learning signal (checked present with the coding_agent receipt). */
  learningSignal: LearningSignal;
}

/** Coding agent: its system text, user template and apply_edits tool texts from the first coding_agent request. */
function codingAgentOf(rec: ExperimentRecord, turns: Receipt[], stablePrompt: string, recordFile: string): CodingAgentTexts {
  const codingIdx = turns.findIndex((t) => t.kind === 'coding_agent');
  if (codingIdx < 0 || !rec.learning_signal) fail('no coding_agent receipt or no learning signal', recordFile, '$.api_turns');
  const coding = turns[codingIdx].request;
  const codingWhere = `$.api_turns[${codingIdx}].request`;
  const system = String(coding.messages[0]?.content ?? '');
  const signalJson = pyDumps(rec.learning_signal, { ensureAscii: false, indent: 2 });
  const userTemplate = extractTemplate(String(coding.messages[1]?.content ?? ''), { learning_signal: signalJson, prompt: stablePrompt }, recordFile, `${codingWhere}.messages[1].content`);
  const applyFn = coding.tools?.[0]?.function;
  const rationaleDescription = (applyFn?.parameters as any)?.properties?.rationale?.description;
  if (!applyFn?.description || typeof rationaleDescription !== 'string') fail('the apply_edits tool has no description', recordFile, `${codingWhere}.tools[0]`);
  return { system, userTemplate, toolDescription: applyFn.description, rationaleDescription, learningSignal: rec.learning_signal };
}

/** Verdict notes as observed (the last result of each kind wins), defaults elsewhere. */
function verdictNotes(allResults: RecordResult[]): CampaignSpec['verdict_notes'] {
  const notes = { ...pick(DEFAULT_TEXTS, ['transferred_as_required', 'missed_transfer', 'over_transfer', 'handled', 'mishandled']) };
  for (const r of allResults) {
    const kind = r.should_transfer ? (r.transferred ? 'transferred_as_required' : 'missed_transfer') : r.transferred ? 'over_transfer' : r.handled ? 'handled' : 'mishandled';
    notes[kind] = r.note;
  }
  return notes;
}

/** Learning-signal texts as observed in the record's case reports, with the diagnoses; defaults elsewhere. */
function learningSignalTexts(initial: ExperimentRecord['evaluations'][string], signal: LearningSignal): CampaignSpec['learning_signal'] {
  const ls = { ...pick(DEFAULT_TEXTS, ['rule_pass', 'rule_fail', 'flex_not_required', 'flex_pass', 'flex_fail']) };
  for (const rep of signal.case_reports) {
    const r = initial.results.find((x) => x.id === rep.case_id);
    const d = rep.dimensions;
    ls[d.rule_compliance.verdict === 'pass' ? 'rule_pass' : 'rule_fail'] = d.rule_compliance.evidence;
    if (r?.group === 'boundary') ls[d.compliant_flexibility.verdict === 'pass' ? 'flex_pass' : 'flex_fail'] = d.compliant_flexibility.evidence;
    else ls.flex_not_required = d.compliant_flexibility.evidence;
  }
  const present = {
    over_transfer: initial.results.some((r) => !r.should_transfer && r.transferred),
    missed_transfer: initial.results.some((r) => r.should_transfer && !r.transferred),
    mishandled: initial.results.some((r) => !r.should_transfer && !r.transferred && !r.correct),
  };
  const firstPattern = (Object.keys(present) as (keyof typeof present)[]).find((k) => present[k]);
  // The record's diagnosis covers the patterns it saw: it becomes the first one's text, the other
  // patterns it saw get '' (already covered), and patterns it never saw keep servicegym defaults.
  const diagnoses = {
    over_transfer: DEFAULT_TEXTS.diag_over_transfer,
    missed_transfer: DEFAULT_TEXTS.diag_missed_transfer,
    mishandled: DEFAULT_TEXTS.diag_mishandled,
  };
  for (const k of Object.keys(present) as (keyof typeof present)[]) if (present[k]) diagnoses[k] = '';
  if (firstPattern) diagnoses[firstPattern] = signal.diagnosis;
  return { ...ls, diagnoses };
}

/** What campaignSpec takes beyond the record itself: the parts already extracted from it. */
interface SpecParts {
  domainName: string;
  transfer: { tool: string; reasonArg: string };
  coding: CodingAgentTexts;
  notes: CampaignSpec['verdict_notes'];
  learningSignal: CampaignSpec['learning_signal'];
}

/** campaign.json's content: the record's model and experiment, the extracted parts and the data file names. */
function campaignSpec(rec: ExperimentRecord, evalKeys: string[], firstReq: Receipt, parts: SpecParts): CampaignSpec {
  const initial = rec.evaluations.initial;
  const rowLabel = (i: number) => rec.rows[i]?.label ?? rec.evaluations[evalKeys[i]].label;
  return {
    schema_version: 1,
    name: `record-${rec.experiment_id}`,
    experiment: { id: rec.experiment_id, canonical_source: rec.canonical_source, evidence_mode: rec.evidence_mode, created_at: rec.created_at },
    domain: parts.domainName,
    model: {
      provider: rec.provider,
      model: rec.model,
      endpoint: rec.backend?.endpoint ?? firstReq.endpoint,
      credential_source_env: rec.backend?.credential_source_env,
      temperature: firstReq.request.temperature ?? 0,
    },
    agent: { max_steps: 10, transfer_tool: parts.transfer.tool, transfer_reason_arg: parts.transfer.reasonArg },
    cases_file: 'cases.json',
    prompts: {
      stable: { file: 'prompts/stable.txt', label: initial.label, row_label: rowLabel(0) },
      candidate: {
        label: rec.evaluations.automatic_candidate?.label ?? 'automatic candidate',
        row_label: rec.evaluations.automatic_candidate ? rowLabel(1) : 'automatic candidate',
      },
      controls: evalKeys.slice(2).map((k) => ({ id: k, file: `prompts/${k}.txt`, label: rec.evaluations[k].label, row_label: rowLabel(evalKeys.indexOf(k)) })),
    },
    judge: { template_file: 'judge.txt' },
    coding_agent: {
      system_file: 'coding-agent/system.txt',
      user_template_file: 'coding-agent/user.txt',
      tool_description: parts.coding.toolDescription,
      rationale_description: parts.coding.rationaleDescription,
      scope: rec.candidate_manifest.scope,
      target_rule: rec.candidate_manifest.target_rule,
    },
    verdict_notes: parts.notes,
    learning_signal: parts.learningSignal,
    receipts_file: 'receipts.jsonl',
  };
}

/** Writes the files (paths relative to `outDir`) after prepareOutputDir's check; an earlier import's prompts are replaced, not mixed with these. */
function writeImport(outDir: string, files: Record<string, string>, force: boolean | undefined): void {
  const { earlier } = prepareOutputDir(outDir, { marker: 'SOURCE.md', markerPrefix: SOURCE_HEAD, what: 'an earlier import (SOURCE.md)', forceFlag: '--force', force });
  if (earlier) fs.rmSync(path.join(outDir, 'prompts'), { recursive: true, force: true });
  for (const [rel, content] of Object.entries(files)) {
    const p = insideDir(outDir, rel, 'output file');
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
}

function pick<T extends Record<string, string>, K extends keyof T>(o: T, keys: K[]): Record<K, string> {
  return Object.fromEntries(keys.map((k) => [k, o[k]])) as unknown as Record<K, string>;
}

function sourceNote(file: string, text: string, rec: ExperimentRecord, turns: number): string {
  return [
    SOURCE_HEAD,
    '',
    `Imported by \`servicegym import-record\` from the experiment record \`${path.basename(file)}\``,
    `(sha256 \`${sha256Hex(text)}\`): experiment ${rec.experiment_id}, model ${rec.model} via ${rec.provider},`,
    `created ${rec.created_at ?? 'at an unrecorded time'}.`,
    '',
    `- \`cases.json\`, the prompts, \`judge.txt\` and \`coding-agent/\` were extracted from the record; each template`,
    `  was checked to reproduce the recorded request exactly.`,
    `- \`receipts.jsonl\` holds the record's ${turns} model calls (\`api_turns\`), credential-free, as a replay cassette.`,
    `- Texts the record never shows (e.g. the note for a missed transfer) are servicegym defaults.`,
    `- \`agent.max_steps\` is not in the record; 10 is servicegym's choice (the record's longest case used 3).`,
    '',
  ].join('\n');
}
