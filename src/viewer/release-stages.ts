/**
 * The release page's structured parts, read from an optimise run's hashed release records
 * (src/release/record.ts; statistics written by src/optimizer/decide.ts and the canaries):
 *
 * - the gate's stages as table rows: static edit checks, the screen, each gate look, the sealed
 *   confirmation and the canary, each with its verdict, paired-rollout numbers and checks;
 * - critical violations (`case#trial` ids, canary episode ids) linked to the run's stored
 *   episodes: an optimise run stores each rollout as `<version>/<case>#<trial>#<stream>` with
 *   stream `trial` (screen, gate), `sealed` (confirmation) or `canary` (simulated canary);
 * - pass^k of parent and candidate on the gate cases;
 * - the canary's SPRT path: Wald's log-likelihood ratio and the restarted (CUSUM) statistic after
 *   each valid episode, with the boundaries ln((1−β)/α) and ln(β/(1−α)) (src/release/canary.ts).
 *
 * Reading is lenient: a section the record lacks is left out, never invented.
 */
import type { CriticalLink, GateStageView, PassKPairView, SprtStepView, SprtView } from './types.js';

type Loose = Record<string, any>;

/** True when the run stored an episode with this id. */
export type EpisodeExists = (episodeId: string) => boolean;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const text = (v: unknown): string => (typeof v === 'string' ? v : v == null ? '' : JSON.stringify(v));
const list = (v: unknown): Loose[] => (Array.isArray(v) ? (v as Loose[]) : []);

/** The stored episode of a rollout of `version` on `id` (`case#trial`) in `stream`, or null. */
function episodeOf(version: string, id: string, stream: string, exists: EpisodeExists): string | null {
  const episode = `${version}/${id}#${stream}`;
  return exists(episode) ? episode : null;
}

/** The critical violations named on paired rows (`outcomes.*`), by `case#trial`. */
function violationsByRow(rows: Loose[]): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const r of rows) {
    const names = list(r.candidate?.critical).map(text);
    if (names.length) m.set(`${text(r.case_id)}#${text(r.trial)}`, names);
  }
  return m;
}

/** New critical violations of the candidate on paired rows: it violated, the parent did not. */
function newCriticalIds(rows: Loose[]): string[] {
  return rows
    .filter((r) => r.candidate?.valid !== false && list(r.candidate?.critical).length > 0 && !(r.parent?.valid !== false && list(r.parent?.critical).length > 0))
    .map((r) => `${text(r.case_id)}#${text(r.trial)}`);
}

function links(ids: string[], rows: Loose[], version: string, stream: string, exists: EpisodeExists): CriticalLink[] {
  const names = violationsByRow(rows);
  return [...new Set(ids)].map((id) => ({ id, episode_id: episodeOf(version, id, stream, exists), violations: names.get(id) ?? [] }));
}

function checksOf(v: unknown): GateStageView['checks'] {
  return list(v).map((c) => ({ name: text(c.name), passed: c.passed === true ? true : c.passed === false ? false : null, detail: text(c.detail) }));
}

/** A gate look's or the confirmation's numbers (GateStats of src/optimizer/gate.ts). */
function statsParts(s: Loose | undefined): Pick<GateStageView, 'pairs' | 'boundary' | 'holdout'> {
  if (!s || typeof s !== 'object') return { pairs: null, boundary: null, holdout: null };
  const b = s.boundary as Loose | undefined;
  const h = s.holdout as Loose | undefined;
  return {
    pairs: num(s.pairs) !== null ? { valid: num(s.valid_pairs) ?? 0, total: num(s.pairs)! } : null,
    boundary: b
      ? { pairs: num(b.pairs) ?? 0, improved: num(b.improved) ?? 0, worsened: num(b.worsened) ?? 0, p_value: num(b.p_value), alpha: num(b.alpha), parent_rate: num(b.parent_rate), candidate_rate: num(b.candidate_rate) }
      : null,
    holdout: h && num(h.pairs) ? { pairs: num(h.pairs)!, net: num(h.net) ?? 0, bound: num(h.bound) ?? 0 } : null,
  };
}

const pairsOf = (rows: Loose[]) => (rows.length ? { valid: rows.filter((r) => r.parent?.valid !== false && r.candidate?.valid !== false).length, total: rows.length } : null);

/**
 * The stages a candidate's release record went through, in order. `version` is the candidate's
 * 12-hex version (its rollouts' episode label); `canary` is its canary record, if one decided.
 */
export function gateStages(rec: Loose, version: string, exists: EpisodeExists, canary?: Loose): GateStageView[] {
  const st = (rec.statistics ?? {}) as Loose;
  const out = (rec.outcomes ?? {}) as Loose;
  const stages: GateStageView[] = [];
  const editChecks = list(rec.edit_checks);
  if (editChecks.length || rec.stage === 'static') {
    stages.push({
      stage: 'static',
      verdict: rec.stage === 'static' ? text(rec.decision) : 'pass',
      pairs: null,
      boundary: null,
      holdout: null,
      checks: editChecks.map((c, k) => ({ name: `edit ${num(c.index) !== null ? c.index + 1 : k + 1}`, passed: c.ok === true, detail: list(c.reasons).map(text).join('; ') || 'unique old_str, evidence found, no copied case token' })),
      critical: [],
    });
  }
  const screenRows = list(out.screen);
  if (st.screen && typeof st.screen === 'object') {
    const s = st.screen as Loose;
    const critical = links(newCriticalIds(screenRows), screenRows, version, 'trial', exists);
    stages.push({
      stage: 'screen',
      verdict: text(s.verdict),
      pairs: pairsOf(screenRows),
      boundary: null,
      holdout: null,
      checks: [
        { name: 'zero_new_critical_violations', passed: critical.length === 0, detail: critical.length ? `${critical.length} new critical violation(s) on feedback cases` : 'no new critical violation on feedback cases' },
        { name: 'net_new_successes', passed: s.verdict === 'pass' ? true : critical.length ? null : s.verdict === 'reject' ? false : null, detail: list(s.reasons).map(text).join('; ') || `${text(s.net_new_successes)} net new successes` },
      ],
      critical,
    });
  }
  const gateRows = list(out.gate);
  for (const look of list(st.gate)) {
    const stats = look.stats as Loose | undefined;
    stages.push({
      stage: `gate look ${text(look.look)}`,
      verdict: text(look.verdict),
      ...statsParts(stats),
      checks: checksOf(look.checks),
      critical: links(list(stats?.new_critical).map(text), gateRows, version, 'trial', exists),
    });
  }
  const c = st.confirmation as Loose | null | undefined;
  if (c && typeof c === 'object') {
    const sealedRows = list(out.sealed);
    stages.push({
      stage: 'sealed confirmation',
      verdict: text(c.verdict),
      ...statsParts(c.stats),
      checks: checksOf(c.checks),
      critical: links(list(c.stats?.new_critical).map(text), sealedRows, version, 'sealed', exists),
    });
  }
  if (canary) stages.push(canaryStage(canary, version, exists));
  return stages;
}

function canaryStage(rec: Loose, version: string, exists: EpisodeExists): GateStageView {
  const episodes = list(rec.outcomes?.canary);
  const critical = episodes.filter((e) => e.critical === true).map((e) => ({ id: text(e.id), episode_id: episodeOf(version, text(e.id), 'canary', exists), violations: [] as string[] }));
  const st = (rec.statistics ?? {}) as Loose;
  const valid = episodes.filter((e) => e.valid !== false);
  const reason = list(rec.reasons).map(text).join('; ');
  const drop = rec.decision === 'rollback' && critical.length === 0;
  return {
    stage: 'canary',
    verdict: text(rec.decision),
    pairs: null,
    boundary: null,
    holdout: null,
    checks: [
      { name: 'zero_critical_violations', passed: critical.length === 0, detail: critical.length ? reason : `no critical violation in ${episodes.length} canary episode(s)` },
      {
        name: 'no_resolution_drop',
        passed: drop ? false : rec.decision === 'promote' ? true : null,
        detail: drop || rec.decision === 'promote' ? reason : `not decided: ${valid.filter((e) => e.success === true).length} of ${valid.length} valid episode(s) resolved against stable's ${num(st.p0)?.toFixed(3) ?? '?'}`,
      },
    ],
    critical,
  };
}

/** pass^k of parent and candidate (`statistics.pass_k`), k ascending; empty when absent. */
export function passKPairs(rec: Loose): PassKPairView[] {
  const pk = rec.statistics?.pass_k as Loose | null | undefined;
  if (!pk || typeof pk !== 'object') return [];
  const ks = new Set<number>();
  for (const side of [pk.parent, pk.candidate]) for (const key of Object.keys((side ?? {}) as Loose)) if (/^pass\^\d+$/.test(key)) ks.add(Number(key.slice(5)));
  return [...ks]
    .sort((a, b) => a - b)
    .map((k) => ({ k, parent: num(pk.parent?.[`pass^${k}`]), candidate: num(pk.candidate?.[`pass^${k}`]) }))
    .filter((p) => p.parent !== null || p.candidate !== null);
}

/**
 * The canary's SPRT path from its record (`statistics.p0`, `p1`, `sprt`, `rules`;
 * `outcomes.canary` in serving order). Each success adds ln(p1/p0), each failure
 * ln((1−p1)/(1−p0)); invalid episodes add nothing. Null without p0/p1 or episodes.
 */
export function sprtPath(rec: Loose, version: string, exists: EpisodeExists): SprtView | null {
  const st = (rec.statistics ?? {}) as Loose;
  const p0 = num(st.p0);
  const p1 = num(st.p1);
  const episodes = list(rec.outcomes?.canary);
  if (p0 === null || p1 === null || !(p0 > 0 && p0 < 1 && p1 > 0 && p1 < 1) || episodes.length === 0) return null;
  const rules = (st.rules ?? {}) as Loose;
  const alpha = num(rules.alpha);
  const beta = num(rules.beta);
  const upper = num(st.sprt?.upper) ?? (alpha !== null && beta !== null ? Math.log((1 - beta) / alpha) : Math.log(19));
  const lower = num(st.sprt?.lower) ?? (alpha !== null && beta !== null ? Math.log(beta / (1 - alpha)) : -Math.log(19));
  let llr = 0;
  let cusum = 0;
  const steps: SprtStepView[] = episodes.map((e, i) => {
    const valid = e.valid !== false;
    const success = e.success === true;
    if (valid) {
      const step = success ? Math.log(p1 / p0) : Math.log((1 - p1) / (1 - p0));
      llr += step;
      cusum = Math.max(0, cusum + step);
    }
    const id = text(e.id);
    return { n: i + 1, id, episode_id: episodeOf(version, id, 'canary', exists), valid, success, critical: e.critical === true, llr, cusum };
  });
  return { decision: text(rec.decision), reason: list(rec.reasons).map(text).join('; '), p0, p1, alpha, beta, upper, lower, min_episodes: num(rules.minEpisodes ?? rules.min_episodes), steps };
}
