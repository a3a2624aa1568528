/**
 * Run-page sections: scores per label (prompt version, persona) instead of one pooled number,
 * and the download of a run's episode results (JSON Lines or CSV, built in the browser from the
 * run's matrix, so the static export offers it too).
 */
import { useMemo } from 'react';
import type { LabelBreakdown, RunDetail } from '../../../src/viewer/types.js';
import { pct, score } from '../format.js';

export function LabelTable({ rows, kind }: { rows: LabelBreakdown[]; kind: string }) {
  if (!rows.length) return null;
  return (
    <section>
      <h2>{kind === 'run' ? 'By label' : 'By prompt version'}</h2>
      <div className="table-scroll">
        <table className="by-label" data-testid="by-label">
          <caption className="visually-hidden">Scores per label</caption>
          <thead>
            <tr>
              <th scope="col">label</th>
              <th scope="col" className="num">tasks</th>
              <th scope="col" className="num">passed / scored</th>
              <th scope="col" className="num">tau2 reward</th>
              <th scope="col" className="num">partial</th>
              <th scope="col">pass^1..k</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.label} data-label-row={r.label}>
                <th scope="row">{r.label}</th>
                <td className="num">{r.tasks}</td>
                <td className="num">
                  {r.passed} / {r.scored}
                </td>
                <td className="num">{score(r.reward_mean)}</td>
                <td className="num">{pct(r.partial_mean)}</td>
                <td>{r.pass_hat_k.map((p) => p.value.toFixed(2)).join(' · ') || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

const COLUMNS = ['run_id', 'episode_id', 'task_id', 'label', 'trial', 'outcome', 'reward', 'partial', 'termination', 'failed_checks', 'error'] as const;

/** One record per episode, snake_case keys. */
function records(d: RunDetail): Record<(typeof COLUMNS)[number], unknown>[] {
  return d.episodes.map((e) => ({
    run_id: d.run.id,
    episode_id: e.episode_id,
    task_id: e.task_id,
    label: e.label,
    trial: e.trial,
    outcome: e.outcome,
    reward: e.reward,
    partial: e.partial,
    termination: e.termination,
    failed_checks: e.failed_checks,
    error: e.error,
  }));
}

const csvCell = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : Array.isArray(v) ? v.join(';') : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** The run's episodes as JSON Lines. */
export const resultsJsonl = (d: RunDetail): string => records(d).map((r) => JSON.stringify(r)).join('\n') + '\n';

/** The run's episodes as CSV (RFC 4180 quoting; failed checks joined with `;`). */
export const resultsCsv = (d: RunDetail): string => [COLUMNS.join(','), ...records(d).map((r) => COLUMNS.map((c) => csvCell(r[c])).join(','))].join('\r\n') + '\r\n';

function href(text: string, type: string): string {
  return `data:${type};charset=utf-8,${encodeURIComponent(text)}`;
}

const safe = (id: string) => id.replace(/[^A-Za-z0-9._-]+/g, '_');

export function Downloads({ detail }: { detail: RunDetail }) {
  // Built once per run: the files of a few thousand episodes are not rebuilt at each keystroke of a filter box.
  const jsonl = useMemo(() => href(resultsJsonl(detail), 'application/x-ndjson'), [detail]);
  const csv = useMemo(() => href(resultsCsv(detail), 'text/csv'), [detail]);
  return (
    <span className="downloads" data-testid="downloads">
      <a className="button secondary" download={`${safe(detail.run.id)}.jsonl`} href={jsonl} data-format="jsonl">
        Download results (JSONL)
      </a>
      <a className="button secondary" download={`${safe(detail.run.id)}.csv`} href={csv} data-format="csv">
        Download results (CSV)
      </a>
    </span>
  );
}
