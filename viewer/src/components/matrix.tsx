/**
 * The task × (label, trial) matrix of a run, one link per episode coloured by outcome. Plain
 * DOM in a CSS grid: a thousand cells render in a few milliseconds. Cells that do not match the
 * filters are dimmed, and rows with no match are hidden. After the first render it sets the
 * performance mark `servicegym:matrix` (read by bench/viewer.ts).
 */
import { useEffect, useMemo } from 'react';
import { matrixLayout } from '../../../src/viewer/matrix.js';
import type { EpisodeOutlineView } from '../../../src/viewer/types.js';
import { episodeHref } from '../route.js';
import { pct } from '../format.js';

function cellText(e: EpisodeOutlineView): string {
  if (e.outcome === 'error') return 'err';
  if (e.partial !== null) return pct(e.partial).replace('%', '');
  return e.reward === null ? '?' : String(e.reward);
}

function cellTitle(e: EpisodeOutlineView): string {
  const parts = [`${e.task_id} · ${e.label} · trial ${e.trial}`, `reward ${e.reward ?? 'not judged'}`];
  if (e.partial !== null) parts.push(`partial ${pct(e.partial)}`);
  if (e.termination) parts.push(`ended: ${e.termination}`);
  if (e.failed_checks.length) parts.push(`failed: ${e.failed_checks.join(', ')}`);
  if (e.error) parts.push(`${e.error} error`);
  return parts.join('\n');
}

/**
 * Width of the task column from the longest task id (fixed sizes keep the layout of a thousand
 * cells cheap; longer ids are cut with an ellipsis and shown in full on hover).
 */
function taskWidth(tasks: string[]): string {
  const longest = tasks.reduce((n, t) => Math.max(n, t.length), 4);
  return `${Math.min(16, Math.max(4, longest * 0.55 + 1)).toFixed(1)}rem`;
}

export function Matrix({ runId, episodes, matches }: { runId: string; episodes: EpisodeOutlineView[]; matches: (e: EpisodeOutlineView) => boolean }) {
  const layout = useMemo(() => matrixLayout(episodes), [episodes]);
  const multiLabel = new Set(layout.columns.map((c) => c.label)).size > 1;
  useEffect(() => {
    if (performance.getEntriesByName('servicegym:matrix').length === 0) performance.mark('servicegym:matrix');
  }, []);
  const visibleRows = layout.tasks.map((_, r) => layout.cells[r].some((e) => e !== null && matches(e)));
  const byId = useMemo(() => new Map(episodes.map((e) => [e.episode_id, e])), [episodes]);
  // Tooltips are written when a cell is first pointed at or focused, not for all cells up front.
  const describe = (ev: { target: EventTarget }) => {
    const cell = (ev.target as HTMLElement).closest?.('a.cell') as HTMLAnchorElement | null;
    const e = cell && !cell.title ? byId.get(cell.dataset.episode ?? '') : undefined;
    if (cell && e) cell.title = cellTitle(e);
  };
  return (
    <div className="matrix-scroll">
      <div
        className="matrix"
        data-testid="matrix"
        onPointerOver={describe}
        onFocus={describe}
        style={{ gridTemplateColumns: `${taskWidth(layout.tasks)} repeat(${layout.columns.length}, ${multiLabel ? '5.5rem' : '2.6rem'})` }}
      >
        <div className="matrix-corner">task</div>
        {layout.columns.map((c) => (
          <div key={`${c.label}\u0000${c.trial}`} className="matrix-head" title={`${c.label}, trial ${c.trial}`}>
            {multiLabel ? <span className="matrix-label">{c.label}</span> : null}
            <span>t{c.trial}</span>
          </div>
        ))}
        {layout.tasks.map((task, r) =>
          visibleRows[r] ? (
            <div key={task} className="matrix-row" role="row">
              <div className="matrix-task" title={task}>{task}</div>
              {layout.cells[r].map((e, c) =>
                e ? (
                  <a
                    key={c}
                    href={episodeHref(runId, e.episode_id)}
                    className={`cell o-${e.outcome}${matches(e) ? '' : ' dim'}`}
                    data-episode={e.episode_id}
                    data-outcome={e.outcome}
                  >
                    {cellText(e)}
                  </a>
                ) : (
                  <span key={c} className="cell empty" />
                ),
              )}
            </div>
          ) : null,
        )}
      </div>
    </div>
  );
}

/** What each cell colour means. */
export function MatrixLegend() {
  return (
    <p className="legend">
      <span className="cell o-pass">100</span> reward 1, full partial credit
      <span className="cell o-partial">45</span> reward 1, partial credit lost
      <span className="cell o-fail">0</span> reward 0
      <span className="cell o-unjudged">?</span> not judged
      <span className="cell o-error">err</span> infrastructure/evaluation error
      <span className="legend-note">(cell text: partial score %, or the reward when there is none)</span>
    </p>
  );
}
