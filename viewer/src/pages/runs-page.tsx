/** The runs list: one row per run with models, prompt hash, size, scores, cost and date. */
import { useState } from 'react';
import type { RunListItem } from '../../../src/viewer/types.js';
import { loadRuns, useLoad } from '../data.js';
import { Show } from '../components/problem.js';
import { Badge } from '../components/badge.js';
import { compareHref, optimizerHref, runHref } from '../route.js';
import { cost, DASH, labelSummary, pct, score, tokens, when } from '../format.js';

/** pass^1..k on one line: "0.60 · 0.40". */
const passLine = (run: RunListItem) => (run.pass_hat_k.length ? run.pass_hat_k.map((p) => p.value.toFixed(2)).join(' · ') : DASH);

function RunRow({ run, picked, onPick }: { run: RunListItem; picked: boolean; onPick: () => void }) {
  return (
    <tr data-run-id={run.id}>
      <td data-label="compare">
        <input type="checkbox" checked={picked} onChange={onPick} aria-label={`pick ${run.id} to compare`} />
      </td>
      <td data-label="run" className="run-name">
        <div>
          <a href={runHref(run.id)}>{run.name}</a>
          <div className="sub mono">{run.id}</div>
          {run.has_optimizer ? (
            <a className="sub-link" href={optimizerHref(run.id)}>
              releases →
            </a>
          ) : null}
        </div>
      </td>
      <td data-label="kind">
        <span className="tag">{run.kind}</span>
      </td>
      <td data-label="domain">{run.domain ?? DASH}</td>
      <td data-label="agent" className="mono">{run.agent_model ?? DASH}</td>
      <td data-label="user" className="mono">{run.user_model ?? DASH}</td>
      <td data-label="prompt" className="mono" title="SHA-256 of the agent's system prompt (first 12 hex digits)">{run.prompt_hash ?? DASH}</td>
      <td data-label="tasks × trials" data-col="size">
        {run.tasks} × {run.trials}
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
      <td data-label="cost">
        {cost(run.cost_usd)}
        {run.total_tokens ? <div className="sub">{tokens(run.total_tokens)}</div> : null}
      </td>
      <td data-label="date" className="nowrap">{when(run.created_at)}</td>
    </tr>
  );
}

function RunsTable({ runs }: { runs: RunListItem[] }) {
  const [picked, setPicked] = useState<string[]>([]);
  if (runs.length === 0) {
    return <p className="hint">The store has no runs yet. Run `servicegym validate --db PATH` or `servicegym replay --db PATH` with the same --db; they show up here.</p>;
  }
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id].slice(-2)));
  // The older pick is the baseline (A).
  const order = [...picked].sort((x, y) => runs.findIndex((r) => r.id === y) - runs.findIndex((r) => r.id === x));
  return (
    <>
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
          <thead>
            <tr>
              <th />
              <th>run</th>
              <th>kind</th>
              <th>domain</th>
              <th>agent model</th>
              <th>user model</th>
              <th>prompt</th>
              <th>tasks × trials</th>
              <th>episodes</th>
              <th>tau2 reward</th>
              <th>partial</th>
              <th>pass^1..k</th>
              <th>failed</th>
              <th>cost</th>
              <th>date</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <RunRow key={r.id} run={r} picked={picked.includes(r.id)} onPick={() => toggle(r.id)} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function RunsPage() {
  const state = useLoad('runs', loadRuns, 3000);
  return (
    <>
      <h1>Runs</h1>
      <Show state={state}>{(runs) => <RunsTable runs={runs} />}</Show>
    </>
  );
}
