/**
 * The optimiser page of a run: its score table and the release history of its prompt (stable,
 * candidate or canary with its gate checks, statistics, edits citing episodes and the unified
 * diff, controls).
 */
import type { OptimizerView, ReleaseView, RunDetail } from '../../../src/viewer/types.js';
import { loadRun, useLoad } from '../data.js';
import { Problem, Show } from '../components/problem.js';
import { Badge } from '../components/badge.js';
import { DiffView } from '../components/diff-view.js';
import { episodeHref, runHref, runsHref } from '../route.js';
import { pValue, when } from '../format.js';
import { usePageTitle } from '../title.js';
import { GateStages, ReleaseHistory } from '../components/release-stages.js';
import { PassKPairChart, SprtChart } from '../components/release-charts.js';

function ScoreTable({ table }: { table: NonNullable<OptimizerView['table']> }) {
  return (
    <div className="table-scroll">
      <table className="scores" data-testid="campaign-table">
        <thead>
          <tr>
            <th>prompt</th>
            {table.columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((r) => (
            <tr key={r.label}>
              <td>{r.label}</td>
              {r.cells.map((c, i) => (
                <td key={i} className={`score-cell${c.passed === c.total ? ' full' : ''}`}>
                  {c.passed}/{c.total}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Release({ runId, release }: { runId: string; release: ReleaseView }) {
  return (
    <article className={`release status-${release.status}`} data-release={release.id}>
      <header>
        <Badge value={release.status} />
        {release.version ? (
          <>
            <h3 className="mono">{release.version}</h3>
            <span className="sub">{release.label}</span>
          </>
        ) : (
          <>
            <h3>{release.label}</h3>
            <span className="mono sub">{release.id}</span>
          </>
        )}
        {release.created_at ? <span className="sub">{when(release.created_at)}</span> : null}
      </header>
      {release.history && release.history.length && release.version ? <ReleaseHistory history={release.history} /> : null}
      {release.scores.length ? (
        <p className="release-scores" data-testid="release-scores">
          {release.scores.map((s) => `${s.name} ${s.passed}/${s.total}`).join(' · ')}
          {release.episode_label ? (
            <>
              {' '}
              · <a href={runHref(runId)}>episodes</a>
            </>
          ) : null}
        </p>
      ) : null}
      {release.stages?.length ? <GateStages runId={runId} stages={release.stages} /> : null}
      {release.pass_k?.length || release.sprt ? (
        <div className="release-charts">
          {release.pass_k?.length ? (
            <section>
              <h4>pass^k on the gate cases</h4>
              <PassKPairChart points={release.pass_k} />
            </section>
          ) : null}
          {release.sprt ? (
            <section>
              <h4>Canary: sequential test for a resolution drop</h4>
              <SprtChart runId={runId} sprt={release.sprt} />
            </section>
          ) : null}
        </div>
      ) : null}
      {release.gate && !release.stages?.length ? (
        <section>
          <h4>
            Gate: <span className="mono">{release.gate.decision ?? 'no decision'}</span>
          </h4>
          <ul className="gate" data-testid="gate-checks">
            {release.gate.checks.map((c) => (
              <li key={c.name} className={c.passed ? 'ok' : 'ko'}>
                <span aria-hidden="true">{c.passed ? '✓' : '✗'}</span> <span className="mono">{c.name}</span>
                {c.detail ? <span className="sub"> — {c.detail}</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {release.statistics.length ? (
        <dl className="facts">
          {release.statistics.map((s) => (
            <div key={s.name}>
              <dt>{s.name}</dt>
              <dd>{s.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {release.rationale ? <p className="rationale">{release.rationale}</p> : null}
      {release.edits.length ? (
        <section>
          <h4>Edits</h4>
          <ol className="edits">
            {release.edits.map((e, i) => (
              <li key={i} data-testid="edit">
                <div className="edit-old">
                  <span className="sub">old</span> {e.old_str}
                </div>
                <div className="edit-new">
                  <span className="sub">new</span> {e.new_str}
                </div>
                {e.evidence.length ? (
                  <details className="evidence-list">
                    <summary>cites {e.evidence.length} episodes</summary>
                    <ul>
                      {e.evidence.map((ev) => (
                        <li key={`${ev.run_id}/${ev.episode_id}`}>
                          <a href={episodeHref(ev.run_id, ev.episode_id)}>{ev.episode_id}</a>
                          {ev.note ? <span className="sub"> — {ev.note}</span> : null}
                        </li>
                      ))}
                    </ul>
                  </details>
                ) : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {release.diff ? (
        <section>
          <h4>Patch</h4>
          <DiffView diff={release.diff} />
        </section>
      ) : null}
    </article>
  );
}

/** One row per prompt version: its state, the last decision and where, the gate's p-value, critical violations. */
function VersionTable({ releases }: { releases: ReleaseView[] }) {
  return (
    <>
      <h2>Prompt versions</h2>
      <div className="table-scroll">
        <table className="versions" data-testid="versions">
          <thead>
            <tr>
              <th scope="col">version</th>
              <th scope="col">role</th>
              <th scope="col">state</th>
              <th scope="col">last decision</th>
              <th scope="col">gate p</th>
              <th scope="col">critical violations</th>
            </tr>
          </thead>
          <tbody>
            {releases.map((r) => {
              const last = r.history?.[r.history.length - 1];
              const looks = (r.stages ?? []).filter((st) => st.stage.startsWith('gate look') && st.boundary);
              const p = looks.length ? looks[looks.length - 1].boundary!.p_value : null;
              const critical = (r.stages ?? []).reduce((n, st) => n + st.critical.length, 0);
              return (
                <tr key={r.id} data-version={r.version ?? r.id}>
                  <th scope="row" className="mono">{r.version ?? r.id}</th>
                  <td>{r.label}</td>
                  <td><Badge value={r.status} /></td>
                  <td>{last?.decision ? `${last.decision.replace(/_/g, ' ')}${last.stage ? ` at ${last.stage}` : ''}` : '—'}</td>
                  <td>{looks.length ? pValue(p) : '—'}</td>
                  <td>{critical}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

function OptimizerBody({ detail }: { detail: RunDetail }) {
  const view = detail.optimizer;
  const crumbs = (
    <p className="crumbs">
      <a href={runsHref()}>Runs</a> › <a href={runHref(detail.run.id)}>{detail.run.name}</a> › releases
    </p>
  );
  if (!view) return <>{crumbs}<Problem title="No prompt releases" message={`Run '${detail.run.id}' has no campaign record or release records.`} /></>;
  return (
    <>
      {crumbs}
      <h1>Prompt releases · {detail.run.name}</h1>
      {view.diagnosis ? (
        <p className="diagnosis">
          <b>Diagnosis:</b> {view.diagnosis}
        </p>
      ) : null}
      {view.table ? (
        <>
          <h2>Scores by prompt</h2>
          <ScoreTable table={view.table} />
        </>
      ) : null}
      {view.escalations.length ? (
        <section data-testid="escalations">
          <h2>Not prompt-fixable</h2>
          <p className="hint">Feedback cases that kept failing under every candidate tried on them. Advice only: nothing was applied and the decision is unchanged.</p>
          <ul className="escalations">
            {view.escalations.map((e) => (
              <li key={e.case_id} data-case={e.case_id}>
                <b className="mono">{e.case_id}</b> <span className="sub">— {e.attempts} attempts, {e.rollouts} rollouts, all failed</span>
                {e.failing ? <div className="sub">failing: {e.failing}</div> : null}
                <div className="recommendation">{e.recommendation}</div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {view.source === 'releases' && view.releases.some((r) => r.version) ? <VersionTable releases={view.releases} /> : null}
      <h2>Release history</h2>
      <div className="releases">
        {view.releases.map((r) => (
          <Release key={r.id} runId={view.run_id} release={r} />
        ))}
      </div>
    </>
  );
}

export function OptimizerPage({ id }: { id: string }) {
  usePageTitle(`Prompt releases ${id}`);
  const state = useLoad(`run:${id}`, () => loadRun(id));
  return <Show state={state}>{(detail) => <OptimizerBody detail={detail} />}</Show>;
}
