/** The pass^k curve of a run as a small SVG line chart (k on x, pass^k from 0 to 1 on y), with its bootstrap intervals when known. */
import type { PassPoint } from '../../../src/viewer/types.js';

const W = 360;
const H = 180;
const PAD = { left: 40, right: 14, top: 16, bottom: 32 };
/** Space between the axis and the first and last points. */
const INSET = 22;

const ci = (p: PassPoint) => (p.low !== undefined && p.high !== undefined ? ` [${p.low.toFixed(2)}, ${p.high.toFixed(2)}]` : '');

export function PassKChart({ points }: { points: PassPoint[] }) {
  if (points.length === 0) return <p className="hint">No scored episodes, so no pass^k.</p>;
  const maxK = points[points.length - 1].k;
  const span = W - PAD.left - PAD.right - 2 * INSET;
  const x = (k: number) => PAD.left + INSET + (maxK === 1 ? span / 2 : ((k - 1) / (maxK - 1)) * span);
  const y = (v: number) => PAD.top + (1 - v) * (H - PAD.top - PAD.bottom);
  const line = points.map((p) => `${x(p.k)},${y(p.value)}`).join(' ');
  return (
    <figure className="chart" data-testid="pass-k-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`pass^k: ${points.map((p) => `pass^${p.k} ${p.value.toFixed(3)}`).join(', ')}`}>
        {[0, 0.25, 0.5, 0.75, 1].map((v) => (
          <g key={v}>
            <line className="grid" x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} />
            <text className="axis" x={PAD.left - 6} y={y(v) + 4} textAnchor="end">{v.toFixed(2)}</text>
          </g>
        ))}
        {points.map((p) => (
          <text key={p.k} className="axis" x={x(p.k)} y={H - PAD.bottom + 16} textAnchor="middle">{p.k}</text>
        ))}
        <text className="axis" x={(W + PAD.left) / 2} y={H - 2} textAnchor="middle">k (trials that must all pass)</text>
        {points.map((p) =>
          p.low !== undefined && p.high !== undefined ? (
            <line key={`ci${p.k}`} className="ci" data-testid="pass-k-ci" x1={x(p.k)} x2={x(p.k)} y1={y(p.low)} y2={y(p.high)} stroke="currentColor" strokeOpacity={0.35} strokeWidth={6} strokeLinecap="round" />
          ) : null,
        )}
        <polyline className="curve" points={line} />
        {points.map((p) => (
          <g key={p.k}>
            <circle className="dot" cx={x(p.k)} cy={y(p.value)} r={4}>
              <title>{`pass^${p.k} = ${p.value.toFixed(3)}${ci(p)}`}</title>
            </circle>
            <text className="value" x={x(p.k)} y={y(p.value) - 8} textAnchor="middle">{p.value.toFixed(2)}</text>
          </g>
        ))}
      </svg>
      <figcaption>
        pass^k: the chance that k trials of a task all succeed, averaged over tasks.
        {points.some((p) => p.low !== undefined) ? (
          <span data-testid="pass-k-intervals">
            {' '}Bars: 95% bootstrap interval over tasks (run-to-run noise):{' '}
            {points.map((p) => `pass^${p.k} ${p.value.toFixed(2)}${ci(p)}`).join(' · ')}
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}
