/**
 * A run: honest headline notes, scores (overall and per label), usage by role, the pass^k curve,
 * filters (text search, task, label, score, termination, failed check), the task × trial matrix
 * and the sorted, paged episode list. Every filter, the sort and the page are in the URL.
 */
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { EpisodeOutlineView, RunDetail, SearchHit } from '../../../src/viewer/types.js';
import { loadRun, loadSearch, useLoad } from '../data.js';
import { SEARCH_DEBOUNCE_MS } from '../../../src/viewer/search.js';
import { Show } from '../components/problem.js';
import { Matrix, MatrixLegend } from '../components/matrix.js';
import { PassKChart } from '../components/pass-k-chart.js';
import { RunFiltersForm, countBy } from '../components/run-filters.js';
import { EpisodeTable } from '../components/episode-table.js';
import { RunNotes } from '../components/run-notes.js';
import { Downloads, LabelTable } from '../components/run-extras.js';
import { UsageTable } from '../components/usage-table.js';
import { RunModeLabels, RunStatusBadge, Tags } from '../components/run-status.js';
import { compareHref, NO_FILTERS, optimizerHref, runHref, runsHref, type RunFilters } from '../route.js';
import { cost, DASH, labelSummary, pct, runSize, score, tokens, when } from '../format.js';
import { usePageTitle } from '../title.js';

/** Whether an episode passes the run page's filters (the text search is applied separately). "Failed" means anything but a clean pass or not judged. */
function matcher(f: RunFilters, hits: Map<string, SearchHit> | null): (e: EpisodeOutlineView) => boolean {
  const task = f.task.toLowerCase();
  return (e) =>
    (!f.failedOnly || (e.outcome !== 'pass' && e.outcome !== 'unjudged')) &&
    (!f.termination || e.termination === f.termination) &&
    (!f.check || e.failed_checks.includes(f.check)) &&
    (!task || e.task_id.toLowerCase().includes(task)) &&
    (!f.label || e.label === f.label) &&
    (!f.outcome || e.outcome === f.outcome) &&
    (!hits || hits.has(e.episode_id));
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

function Stats({ run }: { run: RunDetail['run'] }) {
  return (
    <div className="stats">
      <Stat name="tau2 reward" value={score(run.reward_mean)} sub={run.status !== 'complete' ? 'so far' : undefined} />
      <Stat name="partial score" value={pct(run.partial_mean)} />
      <Stat name={run.personas ? 'tasks × trials × personas' : 'tasks × trials'} value={runSize(run)} sub={run.labels.length > 1 ? labelSummary(run) : undefined} />
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
  );
}

/** `value`, once it has stayed the same for `ms` (at once when `ms` is 0). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (ms <= 0) {
      setSettled(value);
      return undefined;
    }
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return ms <= 0 ? value : settled;
}

/**
 * The text search: the hits by episode id (null when there is no search), whether a search is on
 * its way, and why one failed. The query is asked once typing pauses ({@link SEARCH_DEBOUNCE_MS});
 * a request typed past is cancelled (useLoad). Until the answer comes the last answer stays on
 * screen, so the matrix and list do not blank at every keystroke; clearing the box shows every
 * episode at once.
 */
function useSearch(id: string, q: string) {
  const typed = q.trim() ? q : '';
  const settled = useSettled(typed, typed ? SEARCH_DEBOUNCE_MS : 0);
  const state = useLoad(`search:${id}:${settled}`, (signal) => (settled ? loadSearch(id, settled, signal) : Promise.resolve(null)));
  const answer = state.status === 'ok' && settled === typed ? state.data : undefined;
  const fresh = useMemo(() => (answer ? new Map(answer.hits.map((h) => [h.episode_id, h])) : null), [answer]);
  const last = useRef<Map<string, SearchHit> | null>(null);
  if (!typed) last.current = null;
  else if (fresh) last.current = fresh;
  const searching = !!typed && (settled !== typed || state.status === 'loading');
  return { hits: typed ? (fresh ?? last.current) : null, searching, failed: state.status === 'error' && settled === typed ? state.error.message : null };
}

function RunView({ detail, filters }: { detail: RunDetail; filters: RunFilters }) {
  const { run, episodes } = detail;
  usePageTitle(`Run ${run.name}`);
  const search = useSearch(run.id, filters.q);
  // Keyed by the filters' values, not the route's object: a keystroke in the search box alone re-renders neither the matrix nor the list.
  const { failedOnly, termination, check, task, label, outcome } = filters;
  const matches = useMemo(
    () => matcher({ ...NO_FILTERS, failedOnly, termination, check, task, label, outcome }, search.hits),
    [failedOnly, termination, check, task, label, outcome, search.hits],
  );
  const shown = useMemo(() => episodes.filter(matches), [episodes, matches]);
  // The list renders after the matrix is on screen (first render with an empty list).
  const listed = useDeferredValue(shown, []);
  const terminations = useMemo(() => countBy(episodes, (e) => (e.termination ? [e.termination] : [])), [episodes]);
  return (
    <>
      <nav aria-label="breadcrumb" className="crumbs">
        <a href={runsHref()}>Runs</a> › <span className="mono">{run.id}</span>
      </nav>
      <h1>
        {run.name} <RunStatusBadge run={run} />
      </h1>
      <p className="meta">
        <span className="tag">{run.command}</span> {run.domain ?? 'no domain'}
        <RunModeLabels run={run} /> · agent <b className="mono">{run.agent_model ?? DASH}</b> · user <b className="mono">{run.user_model ?? DASH}</b> · prompt{' '}
        <span className="mono">{run.prompt_hash ?? DASH}</span> · {when(run.created_at)} <Tags tags={run.tags} href={(tag) => runsHref({ tag })} />
      </p>
      <RunNotes detail={detail} />
      <p className="actions">
        {detail.optimizer ? (
          <a className="button" href={optimizerHref(run.id)}>
            Prompt releases →
          </a>
        ) : null}
        <a className="button secondary" href={compareHref(run.id, '')}>
          Compare with another run…
        </a>
        <Downloads detail={detail} />
      </p>
      <Stats run={run} />
      <LabelTable rows={detail.by_label} kind={run.kind} />
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
      {detail.usage_by_role.length ? (
        <section>
          <h2>Cost and time by role</h2>
          <UsageTable rows={detail.usage_by_role} caption="Model calls of the whole run, by role" />
        </section>
      ) : null}
      <h2>Episodes</h2>
      <RunFiltersForm id={run.id} filters={filters} episodes={episodes} shown={shown.length} searching={search.searching} />
      {search.failed ? <p className="problem inline" role="alert">The search failed: {search.failed}</p> : null}
      {episodes.length ? <Matrix runId={run.id} episodes={episodes} matches={matches} /> : <p className="hint">This run has no episodes yet.</p>}
      <MatrixLegend />
      <EpisodeTable id={run.id} episodes={listed} filters={filters} hits={search.hits} pending={listed !== shown && listed.length === 0} />
    </>
  );
}

export function RunPage({ id, filters }: { id: string; filters: RunFilters }) {
  usePageTitle(`Run ${id}`);
  const state = useLoad(`run:${id}`, () => loadRun(id));
  return <Show state={state}>{(detail) => <RunView detail={detail} filters={filters} />}</Show>;
}
