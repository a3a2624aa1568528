/**
 * Store schema v1 → v2: every episode's `result` becomes a run-log record
 * (src/spec/run-log.ts). Schema v1 stored three shapes, told apart by the run's `kind`:
 *
 * - `run` (src/run/task-run.ts of v1): `{persona?, messages, tool_log, evaluation,
 *   evaluation_error, infra_error, failure?, harness_error?, action_log?, usage}` (the action log
 *   is derived from the tool log when the row has none);
 * - `campaign` (src/campaign/persist.ts of v1): `{result, messages, tool_log}`;
 * - `optimize` (src/optimizer/run-record.ts of v1): `{messages, dimensions, critical, valid,
 *   infra_error, seed}`.
 *
 * What v1 never kept (task hash, initial and final state hashes, the final-state diff, model pins,
 * the dataset folder) is null in the migrated record, which is marked `migrated_from: 'store-v1'`.
 * `rescore` still re-scores a migrated task-run episode: it replays the derived action log from
 * the task's start state (give `--data-dir` for a tau2 dataset). A row that fits none of the
 * shapes keeps its messages (when it has any), and its original JSON in `legacy`.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { ActionLogEntrySchema, type ActionLogEntry } from '../spec/action-log.js';
import {
  RUN_LOG_SCHEMA,
  actionLogFromToolCalls,
  EpisodeRunLogSchema,
  RunLogMessageSchema,
  ToolCallRecordSchema,
  type EpisodeRunLog,
  type EvaluationRecord,
  type RunLogMessage,
  type ToolCallRecord,
} from '../spec/run-log.js';

type Loose = Record<string, any>;

interface V1Row {
  rowid: number;
  episode_id: string;
  task_id: string;
  trial: number;
  label: string;
  termination: string | null;
  result: string;
  kind: string | null;
  domain: string | null;
}

const isObj = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);

function messagesOf(v: unknown): RunLogMessage[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((m) => {
    const p = RunLogMessageSchema.safeParse(m);
    return p.success ? [p.data] : [];
  });
}

function toolCallsOf(v: unknown): ToolCallRecord[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((t) => {
    const p = ToolCallRecordSchema.safeParse(isObj(t) ? { step: t.step, requestor: t.requestor, name: t.name, arguments: t.arguments, output: t.output, error: t.error, mutating: t.mutating } : t);
    return p.success ? [p.data] : [];
  });
}

/** The action log a late v1 row kept (`action_log`), when it is one. */
function actionLogOf(v: unknown): ActionLogEntry[] | null {
  const p = z.array(ActionLogEntrySchema).safeParse(v);
  return p.success ? p.data : null;
}

function evaluationOf(kind: string | null, r: Loose): EvaluationRecord | null {
  if (kind === 'run' && isObj(r.evaluation)) {
    const { receipts: _r, ...ev } = r.evaluation;
    return { kind: 'task', ...ev } as EvaluationRecord;
  }
  if (kind === 'campaign' && isObj(r.result)) return { kind: 'case', result: r.result } as EvaluationRecord;
  if (kind === 'optimize' && isObj(r.dimensions)) {
    const valid = r.valid !== false;
    const success = valid && r.dimensions.task_resolution?.verdict === 'pass' && Array.isArray(r.critical) && r.critical.length === 0;
    return { kind: 'rollout', success, valid, critical: Array.isArray(r.critical) ? r.critical : [], dimensions: r.dimensions } as EvaluationRecord;
  }
  return null;
}

/** Usage per role of a v1 evaluation's judge receipts (kept inside the v1 row), for receipt accounting. */
function evaluationUsageOf(r: Loose): Record<string, Loose> | undefined {
  const receipts = isObj(r.evaluation) && Array.isArray(r.evaluation.receipts) ? (r.evaluation.receipts as Loose[]) : [];
  if (!receipts.length) return undefined;
  const out: Record<string, Loose> = {};
  for (const rc of receipts) {
    const u = isObj(rc.response) && isObj(rc.response.usage) ? rc.response.usage : {};
    const role = (out[String(rc.kind)] ??= { calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, latency_seconds: 0, provider_reported_cost_usd: null, provider_reported_cost_observations: 0 });
    role.calls += 1;
    role.prompt_tokens += Number(u.prompt_tokens) || 0;
    role.completion_tokens += Number(u.completion_tokens) || 0;
    role.total_tokens += Number(u.total_tokens) || (Number(u.prompt_tokens) || 0) + (Number(u.completion_tokens) || 0);
    role.latency_seconds += Number(rc.elapsed_seconds) || 0;
    if (typeof u.cost === 'number') {
      role.provider_reported_cost_usd = (role.provider_reported_cost_usd ?? 0) + u.cost;
      role.provider_reported_cost_observations += 1;
    }
  }
  return out;
}

/** The v2 record of one v1 episode row; falls back to a minimal record keeping the old JSON in `legacy`. */
export function recordOfV1(row: V1Row): EpisodeRunLog {
  const r = JSON.parse(row.result) as unknown;
  const o: Loose = isObj(r) ? r : {};
  const messages = messagesOf(o.messages);
  const toolCalls = toolCallsOf(o.tool_log);
  const usage = isObj(o.usage) ? o.usage : {};
  const modelSeconds = Object.values(usage).reduce((s: number, u: any) => s + (Number(u?.latency_seconds) || 0), 0);
  const evaluation = evaluationOf(row.kind, o);
  const base = {
    schema: RUN_LOG_SCHEMA,
    migrated_from: 'store-v1',
    episode_id: row.episode_id,
    trial: row.trial,
    label: row.label,
    persona: typeof o.persona === 'string' ? o.persona : null,
    task: { id: row.task_id, sha256: null },
    domain: row.domain ?? 'unknown',
    dataset: { kind: row.kind === 'campaign' ? 'campaign' : 'servicegym', source: 'store-v1' },
    surface: 'api',
    agent: null,
    user: null,
    judge: null,
    seeds: { episode: typeof o.seed === 'number' ? o.seed : null, now: null, id_seed: '' },
    messages,
    tool_calls: toolCalls,
    action_log: actionLogOf(o.action_log) ?? actionLogFromToolCalls(toolCalls, messages),
    initial_state: { ref: { kind: 'task', task_id: row.task_id }, hash: null },
    final_state: null,
    termination: {
      reason: row.termination ?? 'unknown',
      user_signal: null,
      failure: isObj(o.failure) && (o.failure.by === 'agent' || o.failure.by === 'user') ? { by: o.failure.by, kind: String(o.failure.kind), message: String(o.failure.message), ...(Array.isArray(o.failure.raw) ? { raw: o.failure.raw } : {}) } : null,
      transfer: null,
      infra_error: typeof o.infra_error === 'string' ? o.infra_error : null,
      harness_error: typeof o.harness_error === 'string' ? o.harness_error : null,
    },
    evaluation,
    evaluation_error: typeof o.evaluation_error === 'string' ? o.evaluation_error : null,
    usage,
    ...(evaluationUsageOf(o) ? { evaluation_usage: evaluationUsageOf(o) } : {}),
    timings: { model_seconds: Math.round(modelSeconds * 1e6) / 1e6, elapsed_seconds: null },
  };
  const parsed = EpisodeRunLogSchema.safeParse(base);
  if (parsed.success) return parsed.data;
  // Keep what cannot be typed rather than lose it.
  return EpisodeRunLogSchema.parse({ ...base, messages, tool_calls: [], action_log: [], evaluation: null, usage: {}, legacy: r });
}

/** Rewrites every episode row of a v1 store as a run-log record (runs inside the migration transaction). */
export function migrateV1ToV2(db: Database.Database): void {
  const rows = db
    .prepare(
      `SELECT e.rowid AS rowid, e.episode_id, e.task_id, e.trial, e.label, e.termination, e.result, r.kind, r.domain
       FROM episodes e LEFT JOIN runs r ON r.id = e.run_id ORDER BY e.rowid`,
    )
    .all() as V1Row[];
  const update = db.prepare('UPDATE episodes SET result = ? WHERE rowid = ?');
  for (const row of rows) update.run(JSON.stringify(recordOfV1(row)), row.rowid);
}
