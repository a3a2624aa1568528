/**
 * A prompt version's release gate as tables: one row per stage (static checks, screen, gate
 * looks, sealed confirmation, canary) with its paired-rollout numbers and rounded p-value, then
 * every check of every stage; critical violations link to the episodes the run stored.
 */
import type { CriticalLink, GateStageView, ReleaseHistoryItem } from '../../../src/viewer/types.js';
import { Badge } from './badge.js';
import { episodeHref } from '../route.js';
import { DASH, level, pValue, roundPInText, when } from '../format.js';

const VERDICT_TONE: Record<string, string> = { pass: 'pass', reject: 'fail', insufficient_evidence: 'partial', continue: 'candidate', rollback: 'rolled_back', promote: 'promoted' };

function Verdict({ verdict }: { verdict: string }) {
  return <Badge value={VERDICT_TONE[verdict] ?? verdict} text={verdict.replace(/_/g, ' ')} />;
}

/** A critical violation's id, a link to its episode when the run stored it. */
export function CriticalId({ runId, link }: { runId: string; link: CriticalLink }) {
  return link.episode_id ? (
    <a href={episodeHref(runId, link.episode_id)} data-critical={link.id}>
      {link.id}
    </a>
  ) : (
    <span className="mono" data-critical={link.id} title="not an episode of this run (e.g. a served conversation)">
      {link.id}
    </span>
  );
}

const rate = (x: number | null) => (x === null ? DASH : x.toFixed(3));

/** The stages of one version's gate, as a table and a checks table. */
export function GateStages({ runId, stages }: { runId: string; stages: GateStageView[] }) {
  const criticals = stages.flatMap((s) => s.critical.map((c) => ({ stage: s.stage, ...c })));
  return (
    <section className="gate-stages">
      <h4>Gate stages</h4>
      <div className="table-scroll">
        <table className="stages" data-testid="gate-stages">
          <thead>
            <tr>
              <th scope="col">stage</th>
              <th scope="col">verdict</th>
              <th scope="col">valid pairs</th>
              <th scope="col">boundary +/−</th>
              <th scope="col">p (sign test)</th>
              <th scope="col" className="as-written">α</th>
              <th scope="col">boundary success stable → candidate</th>
              <th scope="col">holdout net new failures (bound)</th>
              <th scope="col">new critical violations</th>
            </tr>
          </thead>
          <tbody>
            {stages.map((s) => (
              <tr key={s.stage} data-stage={s.stage}>
                <th scope="row">{s.stage}</th>
                <td>
                  <Verdict verdict={s.verdict} />
                </td>
                <td data-col="pairs">{s.pairs ? `${s.pairs.valid}/${s.pairs.total}` : DASH}</td>
                <td data-col="boundary">{s.boundary ? `+${s.boundary.improved} / −${s.boundary.worsened} of ${s.boundary.pairs}` : DASH}</td>
                <td data-col="p">{s.boundary ? pValue(s.boundary.p_value) : DASH}</td>
                <td data-col="alpha">{s.boundary ? level(s.boundary.alpha) : DASH}</td>
                <td data-col="rates">{s.boundary ? `${rate(s.boundary.parent_rate)} → ${rate(s.boundary.candidate_rate)}` : DASH}</td>
                <td data-col="holdout">{s.holdout ? `${s.holdout.net} (≤ ${s.holdout.bound})` : DASH}</td>
                <td data-col="critical">{s.critical.length ? s.critical.length : 'none'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <StageChecks stages={stages} />
      {criticals.length ? (
        <div className="criticals" data-testid="critical-violations">
          <h4>Critical violations</h4>
          <ul>
            {criticals.map((c) => (
              <li key={`${c.stage}/${c.id}`}>
                <span className="sub">{c.stage}:</span> <CriticalId runId={runId} link={c} />
                {c.violations.length ? <span className="sub"> — {c.violations.join('; ')}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

/** A version's lifecycle: each state a decision put it in, with where and why. */
export function ReleaseHistory({ history }: { history: ReleaseHistoryItem[] }) {
  return (
    <ol className="release-history" data-testid="release-history">
      {history.map((h, i) => (
        <li key={i} data-state={h.state}>
          <Badge value={h.state} />
          {h.decision ? (
            <>
              {' '}
              by <span className="mono">{h.decision}</span>
              {h.stage ? <> at {h.stage}</> : null}
            </>
          ) : (
            ' at the start of the run'
          )}
          {h.decided_at ? <span className="sub"> · {when(h.decided_at)}</span> : null}
          {h.reason ? <div className="sub">{roundPInText(h.reason)}</div> : null}
        </li>
      ))}
    </ol>
  );
}

/** Every check of every stage, behind a disclosure: passed, failed or not decidable, with its detail (p-values rounded). */
function StageChecks({ stages }: { stages: GateStageView[] }) {
  return (
    <details className="stage-checks">
      <summary>Checks of each stage ({stages.reduce((n, s) => n + s.checks.length, 0)})</summary>
      <div className="table-scroll">
        <table className="checks-table" data-testid="stage-checks">
          <thead>
            <tr>
              <th scope="col">stage</th>
              <th scope="col">check</th>
              <th scope="col">result</th>
              <th scope="col">detail</th>
            </tr>
          </thead>
          <tbody>
            {stages.flatMap((s) =>
              s.checks.map((c) => (
                <tr key={`${s.stage}/${c.name}`} data-check={c.name}>
                  <td>{s.stage}</td>
                  <td>{c.name.replace(/_/g, ' ')}</td>
                  <td>{c.passed === null ? <Badge value="unjudged" text="— not decidable" /> : c.passed ? <Badge value="pass" text="✓ passed" /> : <Badge value="fail" text="✗ failed" />}</td>
                  <td className="detail">{roundPInText(c.detail)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </div>
    </details>
  );
}
