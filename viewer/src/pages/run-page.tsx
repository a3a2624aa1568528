/** A run: scores, the pass^k curve, filters, the task × trial matrix and the filtered episode list. */
import { useDeferredValue, useMemo } from 'react';
import type { EpisodeOutlineView, RunDetail } from '../../../src/viewer/types.js';
import { loadRun, useLoad } from '../data.js';
import { Show } from '../components/problem.js';
import { Matrix, MatrixLegend } from '../components/matrix.js';
import { PassKChart } from '../components/pass-k-chart.js';
import { Badge } from '../components/badge.js';
import { compareHref, episodeHref, optimizerHref, runHref, runsHref, type RunFilters } from '../route.js';
import { cost, DASH, labelSummary, pct, score, tokens, when } from '../format.js';

const LIST_LIMIT = 100;

/** Whether an episode passes the run page's filters. "Failed" means anything but a clean pass. */
function matcher(f: RunFilters): (e: EpisodeOutlineView) => boolean {
  return (e) =>
    (!f.failedOnly || e.outcome !== 'pass') &&
    (!f.termination || e.termination === f.termination) &&
    (!f.check || e.failed_checks.includes(f.check));
}

function count<T>(items: T[], key: (t: T) => string[]): [string, number][] {
  const m = new Map<string, number>();
  for (const it of items) for (const k of key(it)) m.set(k, (m.get(k) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function Filters({ id, filters, episodes, shown }: { id: string; filters: RunFilters; episodes: EpisodeOutlineView[]; shown: number }) {
  const terminations = useMemo(() => count(episodes, (e) => (e.termination ? [e.termination] : [])), [episodes]);
  const checks = useMemo(() => count(episodes, (e) => e.failed_checks), [episodes]);
  const go = (change: Partial<RunFilters>) => window.location.replace(runHref(id, { ...filters, ...change }));
  const active = filters.failedOnly || filters.termination || filters.check;
  return (
    <form className="filters" onSubmit={(ev) => ev.preventDefault()} aria-label="filters">
      <label>
        <input type="checkbox" name="failed" checked={filters.failedOnly} onChange={(ev) => go({ failedOnly: ev.target.checked })} /> failed only
      </label>
      <label>
        termination{' '}
        <select name="termination" value={filters.termination} onChange={(ev) => go({ termination: ev.target.value })}>
          <option value="">any</option>
          {terminations.map(([t, n]) => (
            <option key={t} value={t}>{`${t} (${n})`}</option>
          ))}
        </select>
      </label>
      <label>
        failed check{' '}
        <select name="check" value={filters.check} onChange={(ev) => go({ check: ev.target.value })}>
          <option value="">any</option>
          {checks.map(([c, n]) => (
            <option key={c} value={c}>{`${c} (${n})`}</option>
          ))}
        </select>
      </label>
      <span className="count" data-testid="filter-count">
        {shown} of {episodes.length} episodes
      </span>
      {active ? (
        <a href={runHref(id)} className="clear">
          clear filters
        </a>
      ) : null}
    </form>
  );
}

function EpisodeList({ id, episodes, pending }: { id: string; episodes: EpisodeOutlineView[]; pending: boolean }) {
  if (pending) return <p className="loading">Listing episodes…</p>;
  if (episodes.length === 0) return <p className="hint">No episode matches these filters.</p>;
  const multiLabel = new Set(episodes.map((e) => e.label)).size > 1;
  return (
    <div className="table-scroll">
      <table className="episodes cards" data-testid="episode-list">
        <thead>
          <tr>
            <th>episode</th>
            <th>task</th>
            {multiLabel ? <th>label</th> : null}
            <th>trial</th>
            <th>outcome</th>
            <th>reward</th>
            <th>partial</th>
            <th>termination</th>
            <th>failed checks</th>
          </tr>
        </thead>
        <tbody>
          {episodes.slice(0, LIST_LIMIT).map((e) => (
            <tr key={e.episode_id} data-episode={e.episode_id}>
              <td data-label="episode" className="mono">
                <a href={episodeHref(id, e.episode_id)}>{e.episode_id}</a>
              </td>
              <td data-label="task">{e.task_id}</td>
              {multiLabel ? <td data-label="label">{e.label}</td> : null}
              <td data-label="trial">{e.trial}</td>
              <td data-label="outcome">
                <Badge value={e.outcome} />
              </td>
              <td data-label="reward">{e.reward ?? DASH}</td>
              <td data-label="partial">{pct(e.partial)}</td>
              <td data-label="termination">{e.termination ?? DASH}</td>
              <td data-label="failed checks" className="mono">{e.failed_checks.join(', ') || DASH}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {episodes.length > LIST_LIMIT ? <p className="hint">Showing the first {LIST_LIMIT} of {episodes.length}; narrow the filters to see the rest.</p> : null}
    </div>
  );
}

function Stat({ name, value, sub }: { name: string; value: string; sub?: string }) {
  return (
    <div className="stat" data-stat={name}>
      <div className="stat-name">{name}</div>
      <div className="stat-value">{value}</div>
      {sub ? <div className="sub">{sub}</div> : null}
    </div>
  );
}

function RunView({ detail, filters }: { detail: RunDetail; filters: RunFilters }) {
  const { run, episodes } = detail;
  const matches = useMemo(() => matcher(filters), [filters]);
  const shown = useMemo(() => episodes.filter(matches), [episodes, matches]);
  // The list renders after the matrix is on screen (first render with an empty list).
  const listed = useDeferredValue(shown, []);
  const terminations = count(episodes, (e) => (e.termination ? [e.termination] : []));
  return (
    <>
      <p className="crumbs">
        <a href={runsHref()}>Runs</a> › <span className="mono">{run.id}</span>
      </p>
      <h1>{run.name}</h1>
      <p className="meta">
        <span className="tag">{run.kind}</span> {run.domain ?? 'no domain'} · agent <b className="mono">{run.agent_model ?? DASH}</b> · user <b className="mono">{run.user_model ?? DASH}</b> · prompt{' '}
        <span className="mono">{run.prompt_hash ?? DASH}</span> · {when(run.created_at)}
      </p>
      <p className="actions">
        {detail.optimizer ? (
          <a className="button" href={optimizerHref(run.id)}>
            Prompt releases →
          </a>
        ) : null}
        <a className="button secondary" href={compareHref(run.id, '')}>
          Compare with another run…
        </a>
      </p>
      <div className="stats">
        <Stat name="tau2 reward" value={score(run.reward_mean)} />
        <Stat name="partial score" value={pct(run.partial_mean)} />
        <Stat name="tasks × trials" value={`${run.tasks} × ${run.trials}`} sub={run.labels.length > 1 ? labelSummary(run) : undefined} />
        <Stat name="episodes" value={String(run.episodes)} sub={`${run.failed} failed${run.errors ? `, ${run.errors} errors` : ''}`} />
        <Stat name="cost" value={cost(run.cost_usd)} sub={run.total_tokens ? tokens(run.total_tokens) : undefined} />
        {run.retries ? (
          <Stat
            name="retried calls"
            value={String(run.retries.retried_calls)}
            sub={`${run.retries.extra_attempts} extra attempts, ${run.retries.waited_seconds.toFixed(1)} s waited · ${Object.entries(run.retries.faults).map(([k, n]) => `${k} ${n}`).join(', ')}`}
          />
        ) : null}
      </div>
      <div className="split">
        <section>
          <h2>pass^k</h2>
          <PassKChart points={run.pass_hat_k} />
        </section>
        <section>
          <h2>Terminations</h2>
          <ul className="plain">
            {terminations.map(([t, n]) => (
              <li key={t}>
                <a href={runHref(run.id, { termination: t })}>{t}</a> <b>{n}</b>
              </li>
            ))}
          </ul>
        </section>
      </div>
      <h2>Episodes</h2>
      <Filters id={run.id} filters={filters} episodes={episodes} shown={shown.length} />
      {episodes.length ? <Matrix runId={run.id} episodes={episodes} matches={matches} /> : <p className="hint">This run has no episodes yet.</p>}
      <MatrixLegend />
      <EpisodeList id={run.id} episodes={listed} pending={listed !== shown && listed.length === 0} />
    </>
  );
}

export function RunPage({ id, filters }: { id: string; filters: RunFilters }) {
  const state = useLoad(`run:${id}`, () => loadRun(id));
  return <Show state={state}>{(detail) => <RunView detail={detail} filters={filters} />}</Show>;
}
