/** Compare two runs: per-task changes (fixed, broken, unchanged, added, removed), which exceed run-to-run noise, and the prompt diff. */
import type { CompareNoise, CompareRow, CompareView, RunListItem, TaskOutcome } from '../../../src/viewer/types.js';
import { loadCompare, loadRuns, useLoad } from '../data.js';
import { Show } from '../components/problem.js';
import { Badge } from '../components/badge.js';
import { DiffView } from '../components/diff-view.js';
import { compareHref, episodeHref, runHref } from '../route.js';
import { DASH, pct, score } from '../format.js';

const ORDER: CompareRow['change'][] = ['fixed', 'broken', 'added', 'removed', 'unchanged'];

function Picker({ runs, a, b }: { runs: RunListItem[]; a: string; b: string }) {
  const option = (r: RunListItem) => (
    <option key={r.id} value={r.id}>
      {`${r.name} · ${r.id}`}
    </option>
  );
  return (
    <form className="filters" onSubmit={(ev) => ev.preventDefault()}>
      <label>
        A (baseline){' '}
        <select name="a" value={a} onChange={(ev) => (window.location.hash = compareHref(ev.target.value, b))}>
          <option value="">choose a run</option>
          {runs.map(option)}
        </select>
      </label>
      <label>
        B{' '}
        <select name="b" value={b} onChange={(ev) => (window.location.hash = compareHref(a, ev.target.value))}>
          <option value="">choose a run</option>
          {runs.map(option)}
        </select>
      </label>
      {a && b ? <a href={compareHref(b, a)}>swap</a> : null}
    </form>
  );
}

function Side({ runId, t }: { runId: string; t: TaskOutcome | null }) {
  if (!t) return <span className="hint">not run</span>;
  return (
    <span>
      <a href={episodeHref(runId, t.episode_ids[0])}>
        {t.passed}/{t.scored} passed
      </a>
      <span className="sub"> · reward {score(t.reward_mean)} · partial {pct(t.partial_mean)}</span>
    </span>
  );
}

function Delta({ d }: { d: number | null }) {
  if (d === null) return <>{DASH}</>;
  const v = Math.round(d * 1000) / 10;
  return <span className={v > 0 ? 'up' : v < 0 ? 'down' : ''}>{v > 0 ? `+${v}` : v} pts</span>;
}

/** The pass^1 difference with its interval, and whether it (or any task) exceeds run-to-run noise. */
function NoiseLine({ noise }: { noise: CompareNoise | null }) {
  if (!noise) return <p className="hint">No task was scored in both runs, so nothing can be compared against noise.</p>;
  const f = (x: number) => x.toFixed(3);
  const sign = (x: number) => (x > 0 ? `+${f(x)}` : f(x));
  return (
    <p className="meta" data-testid="compare-noise" data-beyond-noise={noise.beyond_noise ? 'yes' : 'no'}>
      pass^1 over {noise.tasks} common task{noise.tasks === 1 ? '' : 's'}: A {f(noise.a)} → B {f(noise.b)}, Δ {sign(noise.delta)} ({Math.round(noise.level * 100)}% CI [{sign(noise.low)}, {sign(noise.high)}], bootstrap over tasks):{' '}
      <b>{noise.beyond_noise ? 'beyond run-to-run noise' : 'within run-to-run noise'}</b>
      {'. '}
      {noise.tasks_beyond_noise.length
        ? `Tasks whose change exceeds noise (Fisher exact p < 0.05): ${noise.tasks_beyond_noise.join(', ')}.`
        : 'No single task changed beyond noise (Fisher exact p < 0.05).'}
    </p>
  );
}

function Comparison({ view }: { view: CompareView }) {
  const rows = [...view.rows].sort((x, y) => ORDER.indexOf(x.change) - ORDER.indexOf(y.change));
  return (
    <>
      <p className="meta">
        A <a href={runHref(view.a.id)}>{view.a.name}</a> <span className="mono">{view.a.id}</span> → B <a href={runHref(view.b.id)}>{view.b.name}</a>{' '}
        <span className="mono">{view.b.id}</span>
      </p>
      <p className="chips" data-testid="change-counts">
        {ORDER.map((c) => (
          <span key={c} className="chip" data-change={c}>
            <Badge value={c} /> {view.counts[c]}
          </span>
        ))}
      </p>
      <NoiseLine noise={view.noise} />
      <div className="table-scroll">
        <table className="compare cards" data-testid="compare">
          <thead>
            <tr>
              <th>task</th>
              <th>change</th>
              <th>A</th>
              <th>B</th>
              <th>Δ partial</th>
              <th>noise</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} data-task={r.key} data-change={r.change}>
                <td data-label="task" className="mono">{r.key}</td>
                <td data-label="change">
                  <Badge value={r.change} />
                </td>
                <td data-label="A">
                  <Side runId={view.a.id} t={r.a} />
                </td>
                <td data-label="B">
                  <Side runId={view.b.id} t={r.b} />
                </td>
                <td data-label="Δ partial">
                  <Delta d={r.partial_delta} />
                </td>
                <td data-label="noise" data-beyond-noise={r.noise?.beyond_noise ? 'yes' : 'no'}>
                  {r.noise ? `${r.noise.beyond_noise ? 'beyond' : 'within'} (p ${r.noise.p.toFixed(3)})` : DASH}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Prompt diff</h2>
      <p className="hint">
        The agent's system prompt of each run's first episode: A <span className="mono">{view.a.prompt_hash ?? DASH}</span> → B <span className="mono">{view.b.prompt_hash ?? DASH}</span>.
      </p>
      <DiffView diff={view.prompt_diff} empty="Both runs use the same system prompt (or one has none recorded)." />
    </>
  );
}

function CompareBody({ a, b }: { a: string; b: string }) {
  const state = useLoad(`compare:${a}..${b}`, () => loadCompare(a, b));
  return <Show state={state}>{(view) => <Comparison view={view} />}</Show>;
}

export function ComparePage({ a, b }: { a: string; b: string }) {
  const runs = useLoad('runs', loadRuns);
  return (
    <>
      <h1>Compare runs</h1>
      <Show state={runs}>{(list) => <Picker runs={list} a={a} b={b} />}</Show>
      {a && b ? <CompareBody key={`${a}..${b}`} a={a} b={b} /> : <p className="hint">Choose a baseline A and a run B; tasks that fail in A and pass in B are "fixed".</p>}
    </>
  );
}
