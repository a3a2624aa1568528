/**
 * The release page's charts, inline SVG with the numbers beside them (for screen readers and
 * exact reading):
 * - pass^k of the stable prompt (dashed, round markers) and the candidate (solid, square markers)
 *   on the gate's cases — told apart by line style and marker shape, not colour alone;
 * - the canary's sequential test: Wald's log-likelihood ratio after each episode (solid), the
 *   restarted statistic the drop alarm reads (CUSUM, dashed), the alarm boundary ln((1−β)/α) and
 *   the no-drop boundary ln(β/(1−α)); failures and critical violations are marked.
 */
import type { PassKPairView, SprtView } from '../../../src/viewer/types.js';
import { episodeHref } from '../route.js';
import { DASH, level } from '../format.js';

const fix3 = (x: number | null) => (x === null ? DASH : x.toFixed(3));

/** pass^k of parent and candidate (see the module doc). */
export function PassKPairChart({ points }: { points: PassKPairView[] }) {
  const W = 420;
  const H = 190;
  const P = { left: 40, right: 14, top: 14, bottom: 34 };
  const span = W - P.left - P.right - 40;
  const x = (i: number, shift: number) => P.left + 20 + (points.length === 1 ? span / 2 : (i / (points.length - 1)) * span) + shift;
  const y = (v: number) => P.top + (1 - v) * (H - P.top - P.bottom);
  const series = [
    { key: 'parent' as const, cls: 'series-a', shift: -4 },
    { key: 'candidate' as const, cls: 'series-b', shift: 4 },
  ];
  return (
    <figure className="chart pass-k-compare release-pass-k" data-testid="release-pass-k">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`pass^k on the gate cases: ${points.map((p) => `k ${p.k}: stable ${fix3(p.parent)}, candidate ${fix3(p.candidate)}`).join('; ')}`}>
        {[0, 0.25, 0.5, 0.75, 1].map((v) => (
          <g key={v}>
            <line className="grid" x1={P.left} x2={W - P.right} y1={y(v)} y2={y(v)} />
            <text className="axis" x={P.left - 6} y={y(v) + 4} textAnchor="end">{v.toFixed(2)}</text>
          </g>
        ))}
        {points.map((p, i) => (
          <text key={p.k} className="axis" x={x(i, 0)} y={H - P.bottom + 16} textAnchor="middle">{p.k}</text>
        ))}
        <text className="axis" x={(W + P.left) / 2} y={H - 2} textAnchor="middle">k (trials that must all pass)</text>
        {series.map((s) => {
          const pts = points.map((p, i) => ({ i, v: p[s.key] })).filter((p): p is { i: number; v: number } => p.v !== null);
          return (
            <g key={s.key} className={s.cls}>
              <polyline className="curve" points={pts.map((p) => `${x(p.i, s.shift)},${y(p.v)}`).join(' ')} />
              {pts.map((p) =>
                s.key === 'parent' ? <circle key={p.i} className="dot" cx={x(p.i, s.shift)} cy={y(p.v)} r={4} /> : <rect key={p.i} className="dot" x={x(p.i, s.shift) - 4} y={y(p.v) - 4} width={8} height={8} />,
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <span>- - ● stable (parent)</span> <span>—■ candidate</span>, on the same gate cases and trial seeds.
      </figcaption>
      <table className="pass-k-values" data-testid="release-pass-k-values">
        <caption className="visually-hidden">pass^k of the stable prompt and the candidate</caption>
        <thead>
          <tr>
            <th scope="col">k</th>
            <th scope="col">stable</th>
            <th scope="col">candidate</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.k} data-k={p.k}>
              <th scope="row">pass^{p.k}</th>
              <td>{fix3(p.parent)}</td>
              <td>{fix3(p.candidate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** The canary's SPRT path (see the module doc). */
export function SprtChart({ runId, sprt }: { runId: string; sprt: SprtView }) {
  const W = 560;
  const H = 230;
  const P = { left: 44, right: 100, top: 14, bottom: 34 };
  const steps = sprt.steps;
  const n = Math.max(1, steps.length);
  const values = [sprt.upper, sprt.lower, 0, ...steps.flatMap((s) => [s.llr, s.cusum])];
  const top = Math.ceil(Math.max(...values) + 0.25);
  const bottom = Math.floor(Math.min(...values) - 0.25);
  const x = (i: number) => P.left + (n === 1 ? 0 : (i / n) * (W - P.left - P.right));
  const y = (v: number) => P.top + ((top - v) / (top - bottom)) * (H - P.top - P.bottom);
  const path = (key: 'llr' | 'cusum') => [`${x(0)},${y(0)}`, ...steps.map((s) => `${x(s.n)},${y(s[key])}`)].join(' ');
  const ticks = Array.from({ length: top - bottom + 1 }, (_, i) => bottom + i).filter((v) => (top - bottom > 8 ? v % 2 === 0 : true));
  const last = steps[steps.length - 1];
  const critical = steps.filter((s) => s.critical);
  const resolved = steps.filter((s) => s.valid && s.success).length;
  const summary = `After ${steps.length} episode(s), ${resolved} resolved: log-likelihood ratio ${last ? last.llr.toFixed(3) : '0'}, restarted statistic ${last ? last.cusum.toFixed(3) : '0'}; drop alarm at ${sprt.upper.toFixed(3)}, no-drop boundary ${sprt.lower.toFixed(3)}; H0 p = ${level(sprt.p0)} (stable), H1 p = ${level(sprt.p1)}.`;
  return (
    <figure className="chart sprt-chart" data-testid="sprt-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Canary sequential test. ${summary} Decision: ${sprt.decision}.`}>
        {ticks.map((v) => (
          <g key={v}>
            <line className="grid" x1={P.left} x2={W - P.right} y1={y(v)} y2={y(v)} />
            <text className="axis" x={P.left - 6} y={y(v) + 4} textAnchor="end">{v}</text>
          </g>
        ))}
        <line className="bound" x1={P.left} x2={W - P.right} y1={y(sprt.upper)} y2={y(sprt.upper)} />
        <text className="axis" x={W - P.right + 4} y={y(sprt.upper) + 4}>drop alarm {sprt.upper.toFixed(2)}</text>
        <line className="bound" x1={P.left} x2={W - P.right} y1={y(sprt.lower)} y2={y(sprt.lower)} />
        <text className="axis" x={W - P.right + 4} y={y(sprt.lower) + 4}>no drop {sprt.lower.toFixed(2)}</text>
        <polyline className="curve llr" points={path('llr')} />
        <polyline className="curve cusum" points={path('cusum')} />
        {steps.filter((s) => s.valid && !s.success && !s.critical).map((s) => (
          <circle key={s.n} className="miss" cx={x(s.n)} cy={y(s.llr)} r={3} />
        ))}
        {critical.map((s) => (
          <path key={s.n} className="critical-mark" d={`M ${x(s.n)} ${y(s.llr) - 7} l 7 7 l -7 7 l -7 -7 z`} />
        ))}
        <text className="axis" x={(W - P.right + P.left) / 2} y={H - 2} textAnchor="middle">canary episodes in serving order</text>
        <text className="axis" x={P.left} y={H - P.bottom + 16} textAnchor="middle">0</text>
        <text className="axis" x={x(n)} y={H - P.bottom + 16} textAnchor="middle">{n}</text>
      </svg>
      <figcaption>
        — log-likelihood ratio of a drop (Wald); - - restarted statistic the alarm reads (CUSUM); ○ unresolved episode; ◆ critical violation. {summary}
        {sprt.min_episodes !== null ? ` Promotion needs at least ${sprt.min_episodes} episodes.` : ''}
      </figcaption>
      <SprtSteps runId={runId} steps={steps} />
    </figure>
  );
}

/** The canary's episodes in serving order, each linked to its episode when stored, with both statistics after it. */
function SprtSteps({ runId, steps }: { runId: string; steps: SprtView['steps'] }) {
  return (
    <details className="sprt-steps">
      <summary>Canary episodes ({steps.length})</summary>
      <div className="table-scroll">
        <table data-testid="sprt-steps">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">episode</th>
              <th scope="col">outcome</th>
              <th scope="col">LLR</th>
              <th scope="col">CUSUM</th>
            </tr>
          </thead>
          <tbody>
            {steps.map((s) => (
              <tr key={s.n} data-step={s.n}>
                <td>{s.n}</td>
                <td>{s.episode_id ? <a href={episodeHref(runId, s.episode_id)}>{s.id}</a> : <span className="mono">{s.id}</span>}</td>
                <td>{!s.valid ? 'invalid (not scored)' : `${s.success ? '✓ resolved' : '✗ unresolved'}${s.critical ? ' · ◆ critical violation' : ''}`}</td>
                <td>{s.llr.toFixed(3)}</td>
                <td>{s.cusum.toFixed(3)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
