/** Calls, tokens, latency and provider-reported cost by role (agent, user, judge, ...), with a total row. */
import type { RoleUsageView } from '../../../src/viewer/types.js';
import { usageTotal } from '../../../src/viewer/usage.js';
import { cost, DASH } from '../format.js';

const n = (x: number) => x.toLocaleString('en-US');
const secs = (x: number | null) => (x === null ? DASH : `${x.toFixed(x < 10 ? 2 : 1)} s`);

export function UsageTable({ rows, caption }: { rows: RoleUsageView[]; caption: string }) {
  if (!rows.length) return <p className="hint">No model usage was recorded.</p>;
  const all = rows.length > 1 ? [...rows, usageTotal(rows)] : rows;
  return (
    <div className="table-scroll">
      <table className="usage" data-testid="usage">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">role</th>
            <th scope="col" className="num">calls</th>
            <th scope="col" className="num">prompt tokens</th>
            <th scope="col" className="num">completion tokens</th>
            <th scope="col" className="num">total tokens</th>
            <th scope="col" className="num">latency</th>
            <th scope="col" className="num">cost</th>
          </tr>
        </thead>
        <tbody>
          {all.map((r) => (
            <tr key={r.role} data-role={r.role} className={r.role === 'total' ? 'total' : undefined}>
              <th scope="row">{r.role}</th>
              <td className="num">{n(r.calls)}</td>
              <td className="num">{n(r.prompt_tokens)}</td>
              <td className="num">{n(r.completion_tokens)}</td>
              <td className="num">{n(r.total_tokens)}</td>
              <td className="num">{secs(r.latency_seconds)}</td>
              <td className="num">{cost(r.cost_usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
