/**
 * pass^k of two runs side by side over their common tasks in one chart: A dashed with round
 * markers, B solid with square markers (told apart by line style and marker shape, not colour
 * alone), each with its 95% bootstrap interval, and the values with B − A and its paired interval
 * in a table for screen readers and exact reading.
 */
import type { PassHatKPair } from '../../../src/evaluation/run-comparison.js';
import type { PassPoint } from '../../../src/viewer/types.js';

const W = 420;
const H = 200;
const PAD = { left: 40, right: 14, top: 16, bottom: 34 };

export function PassKCompare({ pairs }: { pairs: PassHatKPair[] }) {
  if (!pairs.length) return <p className="hint">The runs share no scored task, so no pass^k to compare.</p>;
  const a: PassPoint[] = pairs.map((p) => ({ k: p.k, ...p.a }));
  const b: PassPoint[] = pairs.map((p) => ({ k: p.k, ...p.b }));
  const signed = (x: number) => (x > 0 ? `+${x.toFixed(3)}` : x.toFixed(3));
  const maxK = Math.max(1, ...a.map((p) => p.k), ...b.map((p) => p.k));
  const span = W - PAD.left - PAD.right - 40;
  const x = (k: number, shift: number) => PAD.left + 20 + (maxK === 1 ? span / 2 : ((k - 1) / (maxK - 1)) * span) + shift;
  const y = (v: number) => PAD.top + (1 - v) * (H - PAD.top - PAD.bottom);
  const series = [
    { name: 'A', points: a, shift: -4, cls: 'series-a' },
    { name: 'B', points: b, shift: 4, cls: 'series-b' },
  ];
  const ks = Array.from({ length: maxK }, (_, i) => i + 1);
  const at = (points: PassPoint[], k: number) => points.find((p) => p.k === k);
  const fmt = (p: PassPoint | undefined) => (p ? `${p.value.toFixed(3)}${p.low !== undefined && p.high !== undefined ? ` [${p.low.toFixed(2)}, ${p.high.toFixed(2)}]` : ''}` : '—');
  return (
    <figure className="chart pass-k-compare" data-testid="pass-k-compare">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`pass^k of A and B: ${ks.map((k) => `k ${k}: A ${fmt(at(a, k))}, B ${fmt(at(b, k))}`).join('; ')}`}>
        {[0, 0.25, 0.5, 0.75, 1].map((v) => (
          <g key={v}>
            <line className="grid" x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} />
            <text className="axis" x={PAD.left - 6} y={y(v) + 4} textAnchor="end">{v.toFixed(2)}</text>
          </g>
        ))}
        {ks.map((k) => (
          <text key={k} className="axis" x={x(k, 0)} y={H - PAD.bottom + 16} textAnchor="middle">{k}</text>
        ))}
        <text className="axis" x={(W + PAD.left) / 2} y={H - 2} textAnchor="middle">k (trials that must all pass)</text>
        {series.map((s) => (
          <g key={s.name} className={s.cls}>
            {s.points.map((p) =>
              p.low !== undefined && p.high !== undefined ? <line key={`ci${p.k}`} className="ci" x1={x(p.k, s.shift)} x2={x(p.k, s.shift)} y1={y(p.low)} y2={y(p.high)} /> : null,
            )}
            <polyline className="curve" points={s.points.map((p) => `${x(p.k, s.shift)},${y(p.value)}`).join(' ')} />
            {s.points.map((p) =>
              s.name === 'A' ? <circle key={p.k} className="dot" cx={x(p.k, s.shift)} cy={y(p.value)} r={4} /> : <rect key={p.k} className="dot" x={x(p.k, s.shift) - 4} y={y(p.value) - 4} width={8} height={8} />,
            )}
          </g>
        ))}
      </svg>
      <figcaption>
        <span className="key-a">- - ● A (baseline)</span> <span className="key-b">—■ B</span>; bars: 95% bootstrap interval over tasks.
      </figcaption>
      <table className="pass-k-values" data-testid="pass-k-values">
        <caption className="visually-hidden">pass^k values of A and B</caption>
        <thead>
          <tr>
            <th scope="col">k</th>
            <th scope="col">A</th>
            <th scope="col">B</th>
            <th scope="col">B − A [95% CI]</th>
          </tr>
        </thead>
        <tbody>
          {ks.map((k) => (
            <tr key={k} data-k={k}>
              <th scope="row">pass^{k}</th>
              <td>{fmt(at(a, k))}</td>
              <td>{fmt(at(b, k))}</td>
              <td>
                {(() => {
                  const d = pairs.find((p) => p.k === k)!.delta;
                  return `${signed(d.value)} [${signed(d.low)}, ${signed(d.high)}] ${d.verdict === 'too_few_tasks' ? 'too few tasks to tell' : `${d.verdict} noise`}`;
                })()}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
