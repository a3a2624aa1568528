/**
 * The task × (label, trial) matrix of a run, one link per episode coloured by outcome and marked
 * by a glyph (✓ pass, ◐ partial credit lost, ✗ reward below 1, ? not judged, ! error), so no
 * outcome is told by colour alone. ARIA grid semantics (rows, column and row headers, cells) with
 * one tab stop: the arrow keys, Home and End move between cells, Enter opens the episode. Tasks
 * are in natural order. A run with one column and many tasks is drawn compact: tasks flow in
 * tiles instead of a long strip. Plain DOM in a CSS grid: a thousand cells render in a few
 * milliseconds. Cells that do not match the filters are dimmed, and rows with no match hidden.
 * After the first render it sets the performance mark `servicegym:matrix` (read by bench/viewer.ts).
 */
import { memo, useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { matrixLayout } from '../../../src/viewer/matrix.js';
import type { EpisodeOutlineView, Outcome } from '../../../src/viewer/types.js';
import { episodeHref } from '../route.js';
import { pct, rewardText } from '../format.js';

/** Tasks above which a one-column run is drawn compact. */
const COMPACT_FROM = 24;

/** The glyph of each outcome (what tells outcomes apart besides colour). */
export const OUTCOME_GLYPH: Record<Outcome, string> = { pass: '✓', partial: '◐', fail: '✗', unjudged: '?', error: '!' };

/** Outcomes in words, for screen readers and tooltips. */
export const OUTCOME_WORDS: Record<Outcome, string> = {
  pass: 'passed',
  partial: 'reward 1, partial credit lost',
  fail: 'failed (reward below 1)',
  unjudged: 'not judged',
  error: 'infrastructure, harness or evaluation error',
};

function cellText(e: EpisodeOutlineView): string {
  const glyph = OUTCOME_GLYPH[e.outcome];
  if (e.outcome === 'error' || e.outcome === 'unjudged') return glyph;
  if (e.partial !== null && e.partial < 1 - 1e-9) return `${glyph}${pct(e.partial).replace('%', '')}`;
  return glyph;
}

function cellLabel(e: EpisodeOutlineView): string {
  const parts = [`${e.task_id}, ${e.label}, trial ${e.trial}: ${OUTCOME_WORDS[e.outcome]}`, `reward ${rewardText(e)}`];
  if (e.partial !== null) parts.push(`partial ${pct(e.partial)}`);
  if (e.termination) parts.push(`ended ${e.termination}`);
  if (e.failed_checks.length) parts.push(`failed checks ${e.failed_checks.join(', ')}`);
  return parts.join('; ');
}

/**
 * Width of the task column from the longest task id (fixed sizes keep the layout of a thousand
 * cells cheap; longer ids are cut with an ellipsis and shown in full on hover).
 */
function taskWidth(tasks: string[]): string {
  const longest = tasks.reduce((n, t) => Math.max(n, t.length), 4);
  return `${Math.min(16, Math.max(4, longest * 0.55 + 1)).toFixed(1)}rem`;
}

/** Arrow-key movement between the grid's cells (one tab stop, roving tabindex). */
function useGridKeys() {
  const ref = useRef<HTMLDivElement>(null);
  const onKeyDown = (ev: KeyboardEvent<HTMLDivElement>) => {
    const grid = ref.current;
    const from = (ev.target as HTMLElement).closest?.('a.cell') as HTMLAnchorElement | null;
    if (!grid || !from) return;
    const cells = [...grid.querySelectorAll<HTMLAnchorElement>('a.cell')];
    const at = cells.indexOf(from);
    const row = Number(from.dataset.row);
    const col = Number(from.dataset.col);
    const inRow = (r: number) => cells.filter((c) => Number(c.dataset.row) === r);
    const rows = [...new Set(cells.map((c) => Number(c.dataset.row)))];
    const nearest = (list: HTMLAnchorElement[]) => list.reduce<HTMLAnchorElement | undefined>((best, c) => (!best || Math.abs(Number(c.dataset.col) - col) < Math.abs(Number(best.dataset.col) - col) ? c : best), undefined);
    let to: HTMLAnchorElement | undefined;
    if (ev.key === 'ArrowRight') to = cells[at + 1];
    else if (ev.key === 'ArrowLeft') to = cells[at - 1];
    else if (ev.key === 'ArrowDown') to = nearest(inRow(rows[rows.indexOf(row) + 1] ?? -1));
    else if (ev.key === 'ArrowUp') to = nearest(inRow(rows[rows.indexOf(row) - 1] ?? -1));
    else if (ev.key === 'Home') to = ev.ctrlKey ? cells[0] : inRow(row)[0];
    else if (ev.key === 'End') to = ev.ctrlKey ? cells[cells.length - 1] : inRow(row).at(-1);
    else return;
    ev.preventDefault();
    ev.stopPropagation();
    if (!to) return;
    from.tabIndex = -1;
    to.tabIndex = 0;
    to.focus();
  };
  return { ref, onKeyDown };
}

/**
 * The matrix. Memoised: it renders again only when the run's episodes or the filter change (not
 * at each keystroke in the search box), and each cell's label is computed once per run.
 */
export const Matrix = memo(function Matrix({ runId, episodes, matches }: { runId: string; episodes: EpisodeOutlineView[]; matches: (e: EpisodeOutlineView) => boolean }) {
  const layout = useMemo(() => matrixLayout(episodes), [episodes]);
  const labels = useMemo(() => new Map(episodes.map((e) => [e, cellLabel(e)])), [episodes]);
  const multiLabel = new Set(layout.columns.map((c) => c.label)).size > 1;
  const compact = layout.columns.length === 1 && layout.tasks.length > COMPACT_FROM;
  const keys = useGridKeys();
  useEffect(() => {
    if (performance.getEntriesByName('servicegym:matrix').length === 0) performance.mark('servicegym:matrix');
  }, []);
  const visibleRows = layout.tasks.map((_, r) => layout.cells[r].some((e) => e !== null && matches(e)));
  const firstVisible = visibleRows.indexOf(true);
  const cell = (e: EpisodeOutlineView | null, r: number, c: number) =>
    e ? (
      <div key={c} role="gridcell">
        <a
          href={episodeHref(runId, e.episode_id)}
          className={`cell o-${e.outcome}${matches(e) ? '' : ' dim'}`}
          data-episode={e.episode_id}
          data-outcome={e.outcome}
          data-row={r}
          data-col={c}
          tabIndex={r === firstVisible && c === layout.cells[r].findIndex((x) => x !== null) ? 0 : -1}
          aria-label={labels.get(e)}
          title={labels.get(e)}
        >
          {cellText(e)}
        </a>
      </div>
    ) : (
      <div key={c} role="gridcell" className="cell empty" aria-label="not run" />
    );
  const columns = compact ? undefined : `${taskWidth(layout.tasks)} repeat(${layout.columns.length}, ${multiLabel ? '5.5rem' : '2.8rem'})`;
  return (
    <div className={`matrix-scroll${compact ? ' compact' : ''}`}>
      <div
        ref={keys.ref}
        className={`matrix${compact ? ' compact' : ''}`}
        data-testid="matrix"
        data-compact={compact ? 'yes' : 'no'}
        role="grid"
        aria-label={`episodes by task and trial: ${layout.tasks.length} tasks, ${layout.columns.length} columns; arrow keys move, Enter opens`}
        aria-rowcount={layout.tasks.length + 1}
        onKeyDown={keys.onKeyDown}
        style={columns ? { gridTemplateColumns: columns } : undefined}
      >
        {compact ? null : (
          <div role="row" className="matrix-row">
            <div role="columnheader" className="matrix-corner">task</div>
            {layout.columns.map((c) => (
              <div role="columnheader" key={`${c.label}\u0000${c.trial}`} className="matrix-head" title={`${c.label}, trial ${c.trial}`}>
                {multiLabel ? <span className="matrix-label">{c.label}</span> : null}
                <span>t{c.trial}</span>
              </div>
            ))}
          </div>
        )}
        {layout.tasks.map((task, r) =>
          visibleRows[r] ? (
            <div key={task} className={compact ? 'matrix-tile' : 'matrix-row'} role="row" aria-rowindex={r + 2}>
              <div role="rowheader" className="matrix-task" title={task}>{task}</div>
              {layout.cells[r].map((e, c) => cell(e, r, c))}
            </div>
          ) : null,
        )}
      </div>
    </div>
  );
});

/** What each cell's glyph and colour mean. */
export function MatrixLegend() {
  return (
    <p className="legend">
      <span className="cell o-pass">✓</span> reward 1, full partial credit
      <span className="cell o-partial">◐45</span> reward 1, partial credit lost
      <span className="cell o-fail">✗60</span> reward below 1
      <span className="cell o-unjudged">?</span> not judged (not a failure)
      <span className="cell o-error">!</span> infrastructure/evaluation error
      <span className="legend-note">(the number: partial score %, shown when below 100)</span>
    </p>
  );
}
