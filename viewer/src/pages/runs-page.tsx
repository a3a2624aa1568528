/**
 * The runs list: one row per run with name, tags and status, models and prompt hash, size,
 * scores, cost and date; a search box (name, id, domain, models, tags, prompt hash) and a tag
 * filter, both kept in the URL. A task run (`run` or `validate`) is labelled with its surface and
 * strict mode where it recorded them. The key columns (partial, pass^k, failed, cost, date) fit a
 * 1440 px window: models and prompt share one column, kind and domain another.
 */
import { useEffect, useMemo, useState } from 'react';
import type { RunListItem } from '../../../src/viewer/types.js';
import { loadRuns, useLoad } from '../data.js';
import { Show } from '../components/problem.js';
import { RunHaltedLine, RunModeLabels, RunStatusBadge, Tags } from '../components/run-status.js';
import { compareHref, optimizerHref, runHref, runsHref, type RunsFilters } from '../route.js';
import { cost, DASH, labelSummary, pct, runSize, score, tokens, when } from '../format.js';
import { usePageTitle } from '../title.js';

/** pass^1..k on one line: "0.60 · 0.40". */
const passLine = (run: RunListItem) => (run.pass_hat_k.length ? run.pass_hat_k.map((p) => p.value.toFixed(2)).join(' · ') : DASH);

/** True when `run` matches the search text (every word somewhere) and the tag. */
export function runMatches(run: RunListItem, f: RunsFilters): boolean {
  if (f.tag && !run.tags.includes(f.tag)) return false;
  const hay = [run.name, run.id, run.command, run.domain, run.agent_model, run.user_model, run.prompt_hash, run.surface, run.strict ? 'strict' : null, ...run.tags, ...run.tags.map((t) => `#${t}`)]
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
  return f.q.toLowerCase().split(/\s+/).filter(Boolean).every((w) => hay.includes(w));
}

function RunRow({ run, picked, onPick }: { run: RunListItem; picked: boolean; onPick: () => void }) {
  return (
    <tr data-run-id={run.id} data-status={run.status}>
      <td data-label="compare">
        <input type="checkbox" checked={picked} onChange={onPick} aria-label={`pick ${run.name} (${run.id}) to compare`} />
      </td>
      <td data-label="run" className="run-name">
        <div>
          <a href={runHref(run.id)}>{run.name}</a> <RunStatusBadge run={run} />
          <div className="sub mono">{run.id}</div>
          <RunHaltedLine run={run} />
          <Tags tags={run.tags} href={(tag) => runsHref({ tag })} />
          {run.has_optimizer ? (
            <a className="sub-link" href={optimizerHref(run.id)}>
              releases →
            </a>
          ) : null}
        </div>
      </td>
      <td data-label="domain">
        {run.domain ?? DASH}
        <div className="sub">
          {run.command}
          <RunModeLabels run={run} />
        </div>
      </td>
      <td data-label="models" className="models">
        <div className="mono" title="agent model">{run.agent_model ?? DASH}</div>
        <div className="sub mono" title="user model">user {run.user_model ?? DASH}</div>
        <div className="sub mono" title="SHA-256 of the agent's system prompt (first 12 hex digits)">prompt {run.prompt_hash ?? DASH}</div>
      </td>
      <td data-label="tasks × trials" data-col="size">
        {runSize(run)}
        {run.labels.length > 1 ? <div className="sub">{labelSummary(run)}</div> : null}
      </td>
      <td data-label="episodes" data-col="episodes">{run.episodes}</td>
      <td data-label="reward" data-col="reward">{score(run.reward_mean)}</td>
      <td data-label="partial" data-col="partial">{pct(run.partial_mean)}</td>
      <td data-label="pass^1..k" data-col="passk">{passLine(run)}</td>
      <td data-label="failed" data-col="failed">
        {run.failed}
        {run.errors ? <div className="sub">{run.errors} errors</div> : null}
      </td>
      <td data-label="cost" data-col="cost">
        {cost(run.cost_usd)}
        {run.total_tokens ? <div className="sub">{tokens(run.total_tokens)}</div> : null}
      </td>
      <td data-label="date" data-col="date" className="nowrap">{when(run.created_at)}</td>
    </tr>
  );
}

function SearchBar({ runs, filters, shown }: { runs: RunListItem[]; filters: RunsFilters; shown: number }) {
  const [text, setText] = useState(filters.q);
  useEffect(() => setText(filters.q), [filters.q]);
  const tags = useMemo(() => [...new Set(runs.flatMap((r) => r.tags))].sort(), [runs]);
  return (
    <form className="filters" role="search" aria-label="search runs" onSubmit={(ev) => ev.preventDefault()}>
      <label>
        search{' '}
        <input
          type="search"
          name="q"
          value={text}
          placeholder="name, id, model, domain, tag"
          onChange={(ev) => {
            setText(ev.target.value);
            window.location.replace(runsHref({ ...filters, q: ev.target.value }));
          }}
        />
      </label>
      <label>
        tag{' '}
        <select name="tag" value={filters.tag} onChange={(ev) => window.location.replace(runsHref({ ...filters, tag: ev.target.value }))}>
          <option value="">any</option>
          {tags.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <span className="count" data-testid="runs-count" aria-live="polite">
        {shown} of {runs.length} runs
      </span>
      {filters.q || filters.tag ? (
        <a href={runsHref()} className="clear">
          clear
        </a>
      ) : null}
    </form>
  );
}

function RunsTable({ runs, filters }: { runs: RunListItem[]; filters: RunsFilters }) {
  const [picked, setPicked] = useState<string[]>([]);
  if (runs.length === 0) {
    return <p className="hint">The store has no runs yet. Run `servicegym validate --db PATH` or `servicegym replay --db PATH` with the same --db; they show up here.</p>;
  }
  const shown = runs.filter((r) => runMatches(r, filters));
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-2)));
  // The older pick is the baseline (A).
  const order = [...picked].sort((x, y) => runs.findIndex((r) => r.id === y) - runs.findIndex((r) => r.id === x));
  return (
    <>
      <SearchBar runs={runs} filters={filters} shown={shown.length} />
      <p className="toolbar">
        {picked.length === 2 ? (
          <a className="button" href={compareHref(order[0], order[1])}>
            Compare the 2 picked runs →
          </a>
        ) : (
          <span className="hint">Pick two runs to compare them.</span>
        )}
      </p>
      <div className="table-scroll">
        <table className="runs cards" data-testid="runs">
          <caption className="visually-hidden">Runs, newest first</caption>
          <thead>
            <tr>
              <th scope="col"><span className="visually-hidden">pick</span></th>
              <th scope="col">run</th>
              <th scope="col">domain</th>
              <th scope="col">models · prompt</th>
              <th scope="col">tasks × trials (× personas)</th>
              <th scope="col">episodes</th>
              <th scope="col">tau2 reward</th>
              <th scope="col">partial</th>
              <th scope="col">pass^1..k</th>
              <th scope="col">failed</th>
              <th scope="col">cost</th>
              <th scope="col">date</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((r) => (
              <RunRow key={r.id} run={r} picked={picked.includes(r.id)} onPick={() => toggle(r.id)} />
            ))}
          </tbody>
        </table>
      </div>
      {shown.length === 0 ? <p className="hint">No run matches this search.</p> : null}
    </>
  );
}

export function RunsPage({ filters }: { filters: RunsFilters }) {
  usePageTitle('Runs');
  const state = useLoad('runs', loadRuns, 3000);
  return (
    <>
      <h1>Runs</h1>
      <Show state={state}>{(runs) => <RunsTable runs={runs} filters={filters} />}</Show>
    </>
  );
}
