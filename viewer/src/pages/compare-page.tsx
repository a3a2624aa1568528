/**
 * Compare two runs so the numbers cannot mislead: per-task success rates and their deltas
 * (1/4 → 3/4 is an improvement), the overall pass^1 delta with its 95% interval and whether it
 * exceeds run-to-run noise, pass^k of both runs side by side, the whole configuration diffed (not
 * only the prompt), and a refusal to compare different task sets unless asked to (`?force=1`).
 */
import type { CompareRow, CompareView, RunListItem, TaskOutcome } from '../../../src/viewer/types.js';
import type { ConfigDifference, RunComparison } from '../../../src/evaluation/run-comparison.js';
import { loadCompare, loadRuns, useLoad } from '../data.js';
import { Show } from '../components/problem.js';
import { Badge } from '../components/badge.js';
import { DiffView } from '../components/diff-view.js';
import { PassKCompare } from '../components/pass-k-compare.js';
import { compareHref, episodeHref, runHref } from '../route.js';
import { DASH, pct, score } from '../format.js';
import { usePageTitle } from '../title.js';

const ORDER: CompareRow['change'][] = ['regressed', 'improved', 'added', 'removed', 'unscored', 'same'];
const GLYPH: Record<CompareRow['change'], string> = { improved: '▲', regressed: '▼', same: '=', added: '+', removed: '−', unscored: '?' };

function Picker({ runs, a, b }: { runs: RunListItem[]; a: string; b: string }) {
  const option = (r: RunListItem) => (
    <option key={r.id} value={r.id}>
      {`${r.name} · ${r.id}`}
    </option>
  );
  return (
    <form className="filters" onSubmit={(ev) => ev.preventDefault()} aria-label="runs to compare">
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

function Delta({ d, unit = 'pts' }: { d: number | null; unit?: string }) {
  if (d === null) return <>{DASH}</>;
  const v = Math.round(d * 1000) / 10;
  return <span className={v > 0 ? 'up' : v < 0 ? 'down' : ''}>{v > 0 ? `▲ +${v}` : v < 0 ? `▼ ${v}` : '= 0'} {unit}</span>;
}

/** The pass^1 difference with its interval, whether it exceeds run-to-run noise, and what that means. */
function NoiseLine({ noise, beyond }: { noise: RunComparison['overall']; beyond: string[] }) {
  if (!noise) return <p className="hint">No task was scored in both runs, so nothing can be compared against noise.</p>;
  const f = (x: number) => x.toFixed(3);
  const sign = (x: number) => (x > 0 ? `+${f(x)}` : f(x));
  const few = noise.verdict === 'too_few_tasks';
  const words = few
    ? `too few tasks to tell noise from a difference (${noise.tasks} common task${noise.tasks === 1 ? '' : 's'}; a bootstrap over tasks needs at least ${noise.min_tasks})`
    : `${noise.verdict} run-to-run noise`;
  return (
    <section className={`overall ${noise.verdict === 'beyond' ? 'beyond' : 'within'}`} data-testid="compare-noise" data-beyond-noise={noise.beyond_noise ? 'yes' : 'no'} data-verdict={noise.verdict} aria-label="overall delta">
      <p className="overall-delta">
        Overall success (pass^1) over {noise.tasks} common task{noise.tasks === 1 ? '' : 's'}: A {f(noise.a)} → B {f(noise.b)}, <b>Δ {sign(noise.delta)}</b> ({Math.round(noise.level * 100)}% CI [
        {sign(noise.low)}, {sign(noise.high)}]): <b>{words}</b>.
      </p>
      <p className="hint" data-testid="noise-note">
        Noise note: rerunning the same configuration changes results by chance. The interval is a paired bootstrap over tasks;{' '}
        {few
          ? `with fewer than ${noise.min_tasks} common tasks it cannot tell chance from a difference, even when every task moved the same way: compare more tasks.`
          : noise.beyond_noise
            ? 'it excludes 0, so the difference is unlikely to be chance alone.'
            : 'it includes 0, so this difference may be chance: do not read it as better or worse without more trials.'}{' '}
        {beyond.length
          ? `Tasks whose own change exceeds noise (Fisher exact p < 0.05): ${beyond.join(', ')}.`
          : 'No single task changed beyond noise (Fisher exact p < 0.05).'}
      </p>
    </section>
  );
}

const shown = (v: unknown) => (v === null || v === undefined ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v));

function ConfigTable({ rows }: { rows: ConfigDifference[] }) {
  const differ = rows.length;
  return (
    <>
      <p className="hint" data-testid="config-summary">
        {differ ? `${differ} setting${differ === 1 ? '' : 's'} differ${differ === 1 ? 's' : ''}` : 'The configurations are the same'} (models, prompt hash, temperature, trials, personas, dataset and every other stored setting).
      </p>
      <div className="table-scroll">
        <table className="config-diff" data-testid="config-diff">
          <caption className="visually-hidden">Configuration of A and B</caption>
          <thead>
            <tr>
              <th scope="col">setting</th>
              <th scope="col">A</th>
              <th scope="col">B</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} data-key={r.key} className="differs">
                <th scope="row">{r.key}</th>
                <td className="mono">{shown(r.a)}</td>
                <td className="mono">{shown(r.b)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Refusal({ view }: { view: CompareView }) {
  const t = view.comparison.task_sets;
  return (
    <section className="problem" role="alert" data-testid="compare-refused">
      <h2>These runs are not comparable: {t.reason}</h2>
      <p>
        They share {t.common} task{t.common === 1 ? '' : 's'}; {t.only_a.length} only in A{t.only_a.length ? ` (${t.only_a.slice(0, 8).join(', ')}${t.only_a.length > 8 ? ', …' : ''})` : ''} and {t.only_b.length} only in B
        {t.only_b.length ? ` (${t.only_b.slice(0, 8).join(', ')}${t.only_b.length > 8 ? ', …' : ''})` : ''}. Counts of improved and regressed tasks, and the overall delta, would mislead.
      </p>
      <p>
        <a className="button secondary" href={compareHref(view.a.id, view.b.id, true)}>
          Compare anyway
        </a>
      </p>
    </section>
  );
}

function Comparison({ view, force }: { view: CompareView; force: boolean }) {
  const rows = [...view.rows].sort((x, y) => ORDER.indexOf(x.change) - ORDER.indexOf(y.change));
  const head = (
    <p className="meta">
      A <a href={runHref(view.a.id)}>{view.a.name}</a> <span className="mono">{view.a.id}</span> → B <a href={runHref(view.b.id)}>{view.b.name}</a> <span className="mono">{view.b.id}</span>
    </p>
  );
  const c = view.comparison;
  if (!c.task_sets.same && !force) {
    return (
      <>
        {head}
        <Refusal view={view} />
        <h2>Configuration</h2>
        <ConfigTable rows={c.config_diff} />
      </>
    );
  }
  return (
    <>
      {head}
      {!c.task_sets.same ? (
        <p className="note tone-warn" data-testid="compare-forced">
          Compared although {c.task_sets.reason}: only the {c.task_sets.common} common tasks enter the overall difference and pass^k.
        </p>
      ) : null}
      <NoiseLine noise={c.overall} beyond={view.rows.filter((r) => r.noise?.beyond_noise).map((r) => r.key)} />
      <p className="chips" data-testid="change-counts">
        {ORDER.map((k) => (
          <span key={k} className="chip" data-change={k}>
            <Badge value={k} text={`${GLYPH[k]} ${k}`} /> {c.counts[k]}
          </span>
        ))}
      </p>
      <div className="table-scroll">
        <table className="compare cards" data-testid="compare">
          <caption className="visually-hidden">Per-task success rates of A and B</caption>
          <thead>
            <tr>
              <th scope="col">task</th>
              <th scope="col">change</th>
              <th scope="col">A</th>
              <th scope="col">B</th>
              <th scope="col">Δ success rate</th>
              <th scope="col">Δ partial</th>
              <th scope="col">noise</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} data-task={r.key} data-change={r.change}>
                <td data-label="task" className="mono">{r.key}</td>
                <td data-label="change">
                  <Badge value={r.change} text={`${GLYPH[r.change]} ${r.change}`} />
                </td>
                <td data-label="A">
                  <Side runId={view.a.id} t={r.a} />
                </td>
                <td data-label="B">
                  <Side runId={view.b.id} t={r.b} />
                </td>
                <td data-label="Δ success rate" data-testid="rate-delta">
                  <Delta d={r.rate_delta} />
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
      <h2>pass^k side by side</h2>
      <PassKCompare pairs={c.pass_hat_k} />
      <h2>Configuration</h2>
      <ConfigTable rows={c.config_diff} />
      <h2>Prompt diff</h2>
      <p className="hint">
        The agent's system prompt of each run's first episode: A <span className="mono">{view.a.prompt_hash ?? DASH}</span> → B <span className="mono">{view.b.prompt_hash ?? DASH}</span>.
      </p>
      <DiffView diff={c.prompt_diff} empty={c.prompt_note ? `Prompts ${c.prompt_note}.` : 'Both runs use the same system prompt (or one has none recorded); see the configuration above for other differences.'} />
    </>
  );
}

function CompareBody({ a, b, force }: { a: string; b: string; force: boolean }) {
  const state = useLoad(`compare:${a}..${b}`, () => loadCompare(a, b));
  return <Show state={state}>{(view) => <Comparison view={view} force={force} />}</Show>;
}

export function ComparePage({ a, b, force }: { a: string; b: string; force: boolean }) {
  usePageTitle(a && b ? `Compare ${a} → ${b}` : 'Compare runs');
  const runs = useLoad('runs', loadRuns);
  return (
    <>
      <h1>Compare runs</h1>
      <Show state={runs}>{(list) => <Picker runs={list} a={a} b={b} />}</Show>
      {a && b ? <CompareBody key={`${a}..${b}`} a={a} b={b} force={force} /> : <p className="hint">Choose a baseline A and a run B; a task "improved" when its success rate is higher in B.</p>}
    </>
  );
}
