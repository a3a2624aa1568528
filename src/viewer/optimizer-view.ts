/**
 * The optimiser page: the release history of a prompt. Two sources, chosen by the record's shape:
 *
 * - a seed-shaped campaign record (`rows`, `evaluations`, `release_gate`, `candidate_manifest`,
 *   `diff`; src/campaign/record.ts): the initial prompt is the stable release, the automatic
 *   candidate is a canary (or rejected) with the gate's checks, statistics, edits citing the
 *   source cases' episodes and the unified diff, and the hand-tuned prompt is the control;
 * - EXTENSION POINT for the optimiser's release records (issue 5): a kind `optimize` run whose
 *   record has `releases[]` is read by {@link releasesFromRecord}, the one function to adapt
 *   when the release record format changes.
 */
import type { EditView, EscalationView, EvidenceLink, GateCheckView, OptimizerView, ReleaseView } from './types.js';
import { ablationLines, type AblationReport } from '../optimizer/ablation.js';
import { gateStages, passKPairs, sprtPath, type EpisodeExists } from './release-stages.js';

type Loose = Record<string, any>;

const isPair = (v: unknown): v is [number, number] =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number';
const text = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : JSON.stringify(v));
const frac = (p: [number, number]) => `${p[0]}/${p[1]}`;

/** `{name: [passed, total]}` entries of an object, as scores. */
function scoresOf(o: Loose | undefined): ReleaseView['scores'] {
  return Object.entries(o ?? {})
    .filter(([, v]) => isPair(v))
    .map(([name, v]) => ({ name, passed: (v as [number, number])[0], total: (v as [number, number])[1] }));
}

/** Gate checks given as `{name: boolean}` or `[{name, passed, detail?}]`. */
function gateChecks(checks: unknown): GateCheckView[] {
  if (Array.isArray(checks)) return checks.map((c: Loose) => ({ name: text(c.name ?? c.id), passed: c.passed === true, detail: c.detail ?? c.evidence ?? null }));
  return Object.entries((checks ?? {}) as Loose).map(([name, v]) => ({ name, passed: v === true, detail: null }));
}

/** True when `record` is a seed-shaped campaign record the optimiser page can show. */
export function isCampaignRecord(record: unknown): record is Loose {
  const r = record as Loose | null;
  return !!r && typeof r === 'object' && Array.isArray(r.rows) && !!r.evaluations && !!r.release_gate;
}

/** True when `record` carries optimiser release records (`releases[]`). */
export function hasReleases(record: unknown): record is { releases: unknown[] } {
  return !!record && typeof record === 'object' && Array.isArray((record as Loose).releases);
}

function campaignStatistics(r: Loose): ReleaseView['statistics'] {
  const m = (r.release_gate?.metrics ?? {}) as Loose;
  const stats: ReleaseView['statistics'] = [];
  const groups = new Set(Object.keys(m).map((k) => k.replace(/_(before|after)$/, '')));
  for (const g of groups) {
    if (isPair(m[`${g}_before`]) && isPair(m[`${g}_after`])) stats.push({ name: g, value: `${frac(m[`${g}_before`])} → ${frac(m[`${g}_after`])}` });
  }
  const p = (r.prompt_metrics ?? {}) as Loose;
  if (typeof p.initial_characters === 'number') {
    const growth = p.growth_characters >= 0 ? `+${p.growth_characters}` : `${p.growth_characters}`;
    stats.push({ name: 'prompt characters', value: `${p.initial_characters} → ${p.candidate_characters} (${growth}); manual ${p.manual_characters}` });
  }
  if (Array.isArray(p.boundary_fixed_case_ids)) stats.push({ name: 'fixed cases', value: p.boundary_fixed_case_ids.join(', ') || 'none' });
  if (typeof p.introduced_regressions === 'number') stats.push({ name: 'regressions', value: `${p.introduced_regressions}${p.regression_case_ids?.length ? ` (${p.regression_case_ids.join(', ')})` : ''}` });
  if (typeof p.failure_to_candidate_seconds === 'number') stats.push({ name: 'failure → candidate', value: `${p.failure_to_candidate_seconds.toFixed(2)} s` });
  return stats;
}

/** What the learning signal says about each source case: its failing dimensions' evidence. */
function caseNotes(r: Loose): Map<string, string> {
  const notes = new Map<string, string>();
  for (const rep of (r.learning_signal?.case_reports ?? []) as Loose[]) {
    const failing = Object.entries((rep.dimensions ?? {}) as Loose)
      .filter(([, d]) => d?.verdict === 'fail')
      .map(([name, d]) => `${name}: ${text(d.evidence)}`);
    if (failing.length) notes.set(text(rep.case_id), failing.join('; '));
  }
  return notes;
}

/** The optimiser view of a seed-shaped campaign record stored as run `runId`. */
export function campaignOptimizerView(runId: string, r: Loose, createdAt: string | null): OptimizerView {
  const evalKeys = Object.keys(r.evaluations ?? {});
  const columns = [...new Set((r.rows as Loose[]).flatMap((row) => Object.keys(row).filter((k) => isPair(row[k]))))];
  const table = {
    columns,
    rows: (r.rows as Loose[]).map((row) => ({
      label: text(row.label),
      cells: columns.map((c) => (isPair(row[c]) ? { passed: row[c][0], total: row[c][1] } : { passed: 0, total: 0 })),
    })),
  };
  const manifest = (r.candidate_manifest ?? {}) as Loose;
  const notes = caseNotes(r);
  const firstKey = evalKeys[0] ?? 'initial';
  const evidence: EvidenceLink[] = ((manifest.source_case_ids ?? []) as unknown[]).map((id) => ({
    run_id: runId,
    episode_id: `${firstKey}/${text(id)}`,
    note: notes.get(text(id)) ?? '',
  }));
  const edits: EditView[] = ((manifest.edits ?? []) as Loose[]).map((e) => ({ old_str: text(e.old_str), new_str: text(e.new_str), evidence }));
  const gate = r.release_gate as Loose;
  const candidateStatus = gate.decision === 'release_to_canary' ? 'canary' : gate.accepted ? 'candidate' : 'rejected';
  const release = (key: string, status: string, extra: Partial<ReleaseView> = {}): ReleaseView => ({
    id: key,
    label: text(r.evaluations[key]?.label ?? key),
    status,
    created_at: createdAt,
    scores: scoresOf(r.evaluations[key]),
    gate: null,
    statistics: [],
    edits: [],
    rationale: null,
    diff: null,
    episode_label: key,
    ...extra,
  });
  const [stableKey, candidateKey, ...controls] = evalKeys;
  const releases: ReleaseView[] = [];
  if (stableKey) releases.push(release(stableKey, 'stable'));
  if (candidateKey) {
    releases.push(
      release(candidateKey, candidateStatus, {
        gate: { decision: gate.decision ?? null, accepted: typeof gate.accepted === 'boolean' ? gate.accepted : null, checks: gateChecks(gate.checks) },
        statistics: campaignStatistics(r),
        edits,
        rationale: manifest.rationale ?? r.rationale ?? null,
        diff: r.diff ?? manifest.diff ?? null,
      }),
    );
  }
  for (const key of controls) releases.push(release(key, 'control'));
  return { run_id: runId, source: 'campaign', table, releases, diagnosis: r.learning_signal?.diagnosis ?? null, escalations: [] };
}

/** Finds the episode of this run with `label`, task `taskId` and `trial` (any trial when null). */
export type EpisodeFinder = (label: string, taskId: string, trial: number | null) => string | null;

/** A statistic's value on one line (objects as compact JSON, cut at 240 characters). */
/** Reads `record.not_prompt_fixable` (src/optimizer/escalation.ts) leniently. */
function escalationsOf(v: unknown): EscalationView[] {
  if (!Array.isArray(v)) return [];
  return (v as Loose[]).map((e) => {
    const f = (e.failing ?? {}) as Loose;
    const critical = Array.isArray(f.critical) ? (f.critical as unknown[]).map(text) : [];
    const dims = Array.isArray(f.dimensions) ? (f.dimensions as Loose[]).map((d) => `${text(d.dimension)} ×${text(d.failures)}`) : [];
    return {
      case_id: text(e.case_id),
      attempts: typeof e.attempts === 'number' ? e.attempts : 0,
      rollouts: typeof e.rollouts === 'number' ? e.rollouts : 0,
      failing: [...critical, ...dims].join('; '),
      recommendation: text(e.recommendation ?? ''),
    };
  });
}

/** A leave-one-edit-out report as the optimiser writes it ({@link AblationReport}). */
function isAblation(v: unknown): v is AblationReport {
  return typeof v === 'object' && v !== null && Array.isArray((v as Loose).edits);
}

function statValue(v: unknown): string {
  const t = text(v);
  return t.length > 240 ? `${t.slice(0, 239)}…` : t;
}

/**
 * EXTENSION POINT (issue 5): the optimiser's release records. Reads `record.releases[]`
 * leniently, one {@link ReleaseView} per prompt version (entries with the same `sha256`, or else
 * the same `id`, fold into one, its `history`; the last entry gives its status, so a canary that
 * was rolled back shows as `rolled_back`). Each entry may be self-contained (`id`, `label`,
 * `status`, `created_at`, `scores` as `{group: [passed, total]}`, `gate` as `{decision, accepted,
 * checks: {name: bool} | [{name, passed, detail}]}`, `statistics` as `{name: value}`, `edits` as
 * `[{old_str, new_str, evidence: [{run_id, episode_id, note}]}]`, `rationale`, `diff`,
 * `episode_label`), or a lifecycle entry of src/release/lifecycle.ts (`version`, `state`,
 * `decided_at`, `decision`, `release_sha256`) whose hashed release record is found in
 * `record.release_records[]` by sha256 (src/release/record.ts: `decision`, `stage`, `reasons`,
 * `parent`, `edits` with `evidence: [{case_id, trial, quote}]`, `edit_checks`, `rationale`,
 * `statistics`, `diff`). Edit evidence given by case and trial is linked, through `find`, to the
 * parent prompt's episode of that case in this run. Evidence without a `run_id` points into run
 * `runId`. A lifecycle version is named by its 12-hex version and its role (stable prompt,
 * candidate of round R), never by the file path its text came from; its gate stages, pass^k and
 * canary SPRT path come from src/viewer/release-stages.ts, critical violations linked to the
 * episodes `exists` says the run stored.
 */
export function releasesFromRecord(runId: string, record: { releases: unknown[] } & Loose, find: EpisodeFinder = () => null, exists: EpisodeExists = () => false): OptimizerView {
  const bySha = new Map<string, Loose>(((record.release_records ?? []) as Loose[]).map((r) => [text(r.sha256), r]));
  // One card per prompt version: its lifecycle entries (candidate → canary → rolled back ...) fold together.
  const groups = new Map<string, Loose[]>();
  record.releases.forEach((raw, i) => {
    const x = (raw ?? {}) as Loose;
    const key = text(x.sha256 ?? x.id ?? x.version ?? `release-${i + 1}`);
    groups.set(key, [...(groups.get(key) ?? []), x]);
  });
  const releases = [...groups.values()].map((entries, i) => releaseOf(runId, entries, bySha, find, exists, i));
  return { run_id: runId, source: 'releases', table: null, releases, diagnosis: record.diagnosis ?? null, escalations: escalationsOf(record.not_prompt_fixable) };
}

/** The records of a version's entries that decided this version (not, e.g., a promotion that retired it). */
function ownRecords(entries: Loose[], bySha: Map<string, Loose>): Loose[] {
  const sha = entries[0].sha256;
  return entries
    .map((x) => (x.release_sha256 ? bySha.get(text(x.release_sha256)) : undefined))
    .filter((r): r is Loose => !!r && (!sha || !r.candidate?.sha256 || r.candidate.sha256 === sha));
}

/** A version's name: the stable prompt, or the candidate of round R, proposal P (never a file path). */
function versionLabel(first: Loose, rec: Loose | undefined, id: string): string {
  if (first.label) return text(first.label);
  if (first.version === undefined) return text(first.source ?? id);
  if (first.parent_sha256 == null && first.decision == null) return 'stable prompt at the start of the run';
  const c = (rec?.candidate ?? {}) as Loose;
  return typeof c.round === 'number' ? `candidate of round ${c.round}${typeof c.proposal === 'number' ? `, proposal ${c.proposal}` : ''}` : 'candidate';
}

function releaseOf(runId: string, entries: Loose[], bySha: Map<string, Loose>, find: EpisodeFinder, exists: EpisodeExists, i: number): ReleaseView {
  const first = entries[0];
  const x = entries[entries.length - 1];
  const own = ownRecords(entries, bySha);
  const rec = own.find((r) => r.stage !== 'canary') ?? own[0];
  const canaryRec = [...own].reverse().find((r) => r.stage === 'canary');
  const id = text(first.id ?? first.version ?? `release-${i + 1}`);
  const parentLabel = rec?.parent?.sha256 ? text(rec.parent.sha256).slice(0, 12) : id;
  const evidenceOf = (e: Loose): EvidenceLink[] =>
    ((e.evidence ?? []) as Loose[]).map((ev) => {
      if (ev.episode_id) return { run_id: text(ev.run_id ?? runId), episode_id: text(ev.episode_id), note: text(ev.note ?? ev.quote) };
      const caseId = text(ev.case_id);
      const trial = typeof ev.trial === 'number' ? ev.trial : null;
      const episode = find(parentLabel, caseId, trial) ?? find(parentLabel, caseId, null);
      return { run_id: runId, episode_id: episode ?? `${parentLabel}/${caseId}`, note: text(ev.quote ?? ev.note) };
    });
  const edits: EditView[] = ((x.edits ?? rec?.edits ?? []) as Loose[]).map((e) => ({ old_str: text(e.old_str), new_str: text(e.new_str), evidence: evidenceOf(e) }));
  const version = typeof first.version === 'string' ? first.version : null;
  const lifecycle = version !== null && rec !== undefined;
  return {
    id,
    label: versionLabel(first, rec, id),
    status: text(x.status ?? x.state ?? 'candidate'),
    created_at: first.created_at ?? first.decided_at ?? null,
    scores: scoresOf(x.scores),
    gate: gateOf(x, rec),
    statistics: statisticsOf(x.statistics ?? rec?.statistics, lifecycle),
    edits,
    rationale: x.rationale ?? rec?.rationale ?? null,
    diff: x.diff ?? rec?.diff ?? null,
    episode_label: x.episode_label ?? x.version ?? null,
    version,
    history: entries.map((e) => {
      const r = e.release_sha256 ? bySha.get(text(e.release_sha256)) : undefined;
      return { state: text(e.state ?? e.status), decision: e.decision ?? null, stage: r?.stage ?? null, decided_at: e.decided_at ?? e.created_at ?? null, reason: r ? text((r.reasons ?? [])[0] ?? '') || null : null };
    }),
    stages: lifecycle ? gateStages(rec, version, exists, canaryRec) : [],
    pass_k: rec ? passKPairs(rec) : [],
    sprt: canaryRec && version !== null ? sprtPath(canaryRec, version, exists) : null,
  };
}

function gateOf(x: Loose, rec: Loose | undefined): ReleaseView['gate'] {
  if (x.gate) return { decision: x.gate.decision ?? null, accepted: x.gate.accepted ?? null, checks: gateChecks(x.gate.checks) };
  if (!rec) return null;
  const checks: GateCheckView[] = ((rec.edit_checks ?? []) as Loose[]).map((c, k) => ({
    name: `edit ${typeof c.index === 'number' ? c.index + 1 : k + 1} checks`,
    passed: c.ok === true,
    detail: Array.isArray(c.reasons) && c.reasons.length ? c.reasons.map(text).join('; ') : null,
  }));
  for (const reason of (rec.reasons ?? []) as unknown[]) checks.push({ name: `${text(rec.stage ?? 'decision')}`, passed: rec.decision === 'release_to_canary' || rec.decision === 'promote', detail: text(reason) });
  return { decision: rec.decision ?? null, accepted: rec.decision === 'release_to_canary' || rec.decision === 'promote', checks };
}

/** Structured sections (shown as tables and charts) are left out of the one-line statistics of a lifecycle release. */
const STRUCTURED = new Set(['screen', 'gate', 'confirmation', 'pass_k']);

function statisticsOf(raw: unknown, lifecycle: boolean): ReleaseView['statistics'] {
  return Object.entries((raw ?? {}) as Loose)
    .filter(([name, v]) => v !== null && v !== undefined && !(lifecycle && STRUCTURED.has(name)))
    .map(([name, v]) => ({ name, value: name === 'ablation' && isAblation(v) ? ablationLines(v).join('; ') : name === 'aa_noise_floor' && typeof v === 'number' ? v.toFixed(3) : statValue(v) }));
}

/** The optimiser view of a stored run's record, or null when it has none. */
export function optimizerView(runId: string, record: unknown, createdAt: string | null, find?: EpisodeFinder, exists?: EpisodeExists): OptimizerView | null {
  if (hasReleases(record)) return releasesFromRecord(runId, record as { releases: unknown[] } & Loose, find, exists);
  if (isCampaignRecord(record)) return campaignOptimizerView(runId, record, createdAt);
  return null;
}
