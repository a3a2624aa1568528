/**
 * The run page's episode list: sortable columns (task in natural order by default; the header
 * buttons sort and say so with aria-sort), pages of {@link PAGE_SIZE}, and for a text search the
 * snippet that matched. Sort and page live in the URL.
 */
import { useMemo } from 'react';
import { naturalCompare } from '../../../src/viewer/matrix.js';
import type { EpisodeOutlineView, Outcome, SearchHit } from '../../../src/viewer/types.js';
import { episodeHref, runHref, type RunFilters, type SortKey } from '../route.js';
import { DASH, pct } from '../format.js';
import { Badge } from './badge.js';
import { OUTCOME_GLYPH } from './matrix.js';

/** Episodes per page. */
export const PAGE_SIZE = 50;

const OUTCOME_ORDER: Outcome[] = ['fail', 'partial', 'error', 'unjudged', 'pass'];
const num = (x: number | null) => (x === null ? Number.POSITIVE_INFINITY : x);

const COMPARE: Record<SortKey, (a: EpisodeOutlineView, b: EpisodeOutlineView) => number> = {
  task: (a, b) => naturalCompare(a.task_id, b.task_id) || a.trial - b.trial,
  trial: (a, b) => a.trial - b.trial || naturalCompare(a.task_id, b.task_id),
  label: (a, b) => a.label.localeCompare(b.label) || naturalCompare(a.task_id, b.task_id),
  outcome: (a, b) => OUTCOME_ORDER.indexOf(a.outcome) - OUTCOME_ORDER.indexOf(b.outcome) || naturalCompare(a.task_id, b.task_id),
  reward: (a, b) => num(a.reward) - num(b.reward) || naturalCompare(a.task_id, b.task_id),
  partial: (a, b) => num(a.partial) - num(b.partial) || naturalCompare(a.task_id, b.task_id),
  termination: (a, b) => (a.termination ?? '').localeCompare(b.termination ?? '') || naturalCompare(a.task_id, b.task_id),
};

/** `episodes` sorted by the filters' column and direction (stable). */
export function sortEpisodes(episodes: readonly EpisodeOutlineView[], f: Pick<RunFilters, 'sort' | 'desc'>): EpisodeOutlineView[] {
  const cmp = COMPARE[f.sort];
  return [...episodes].sort((a, b) => (f.desc ? -cmp(a, b) : cmp(a, b)));
}

function SortHeader({ id, filters, column, label }: { id: string; filters: RunFilters; column: SortKey; label: string }) {
  const active = filters.sort === column;
  const next = active ? { sort: column, desc: !filters.desc } : { sort: column, desc: false };
  return (
    <th scope="col" aria-sort={active ? (filters.desc ? 'descending' : 'ascending') : 'none'}>
      <a className="sort" href={runHref(id, { ...filters, ...next, page: 1 })} data-sort={column}>
        {label}
        <span aria-hidden="true">{active ? (filters.desc ? ' ▼' : ' ▲') : ''}</span>
      </a>
    </th>
  );
}

function Pager({ id, filters, pages, total }: { id: string; filters: RunFilters; pages: number; total: number }) {
  if (pages <= 1) return null;
  const page = Math.min(filters.page, pages);
  const first = (page - 1) * PAGE_SIZE + 1;
  return (
    <nav className="pager list-pager" aria-label="episode pages" data-testid="episode-pager">
      {page > 1 ? <a href={runHref(id, { ...filters, page: page - 1 })} rel="prev">← previous</a> : <span className="disabled">← previous</span>}
      <span className="count">
        page {page} of {pages} · episodes {first}–{Math.min(total, page * PAGE_SIZE)} of {total}
      </span>
      {page < pages ? <a href={runHref(id, { ...filters, page: page + 1 })} rel="next">next →</a> : <span className="disabled">next →</span>}
    </nav>
  );
}

export function EpisodeTable({ id, episodes, filters, hits, pending }: { id: string; episodes: EpisodeOutlineView[]; filters: RunFilters; hits: Map<string, SearchHit> | null; pending: boolean }) {
  // Sorted once per list and order, not at each keystroke of a filter box.
  const sorted = useMemo(() => sortEpisodes(episodes, { sort: filters.sort, desc: filters.desc }), [episodes, filters.sort, filters.desc]);
  if (pending) return <p className="loading">Listing episodes…</p>;
  if (episodes.length === 0) return <p className="hint">No episode matches these filters.</p>;
  const multiLabel = new Set(episodes.map((e) => e.label)).size > 1;
  const pages = Math.ceil(sorted.length / PAGE_SIZE);
  const page = Math.min(filters.page, pages);
  const rows = sorted.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const head = (column: SortKey, label: string) => <SortHeader id={id} filters={filters} column={column} label={label} />;
  return (
    <>
      <Pager id={id} filters={filters} pages={pages} total={sorted.length} />
      <div className="table-scroll">
        <table className="episodes cards" data-testid="episode-list">
          <caption className="visually-hidden">Episodes, sorted by {filters.sort}{filters.desc ? ' descending' : ''}</caption>
          <thead>
            <tr>
              <th scope="col">episode</th>
              {head('task', 'task')}
              {multiLabel ? head('label', 'label') : null}
              {head('trial', 'trial')}
              {head('outcome', 'outcome')}
              {head('reward', 'reward')}
              {head('partial', 'partial')}
              {head('termination', 'termination')}
              <th scope="col">{hits ? 'match' : 'failed checks'}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => {
              const hit = hits?.get(e.episode_id);
              return (
                <tr key={e.episode_id} data-episode={e.episode_id}>
                  <td data-label="episode" className="mono">
                    <a href={episodeHref(id, e.episode_id)}>{e.episode_id}</a>
                  </td>
                  <td data-label="task">{e.task_id}</td>
                  {multiLabel ? <td data-label="label">{e.label}</td> : null}
                  <td data-label="trial">{e.trial}</td>
                  <td data-label="outcome">
                    <Badge value={e.outcome} text={`${OUTCOME_GLYPH[e.outcome]} ${e.outcome === 'unjudged' ? 'not judged' : e.outcome}`} />
                  </td>
                  <td data-label="reward">{e.reward ?? DASH}</td>
                  <td data-label="partial">{pct(e.partial)}</td>
                  <td data-label="termination">{e.termination ?? DASH}</td>
                  {hit ? (
                    <td data-label="match" className="snippet" data-testid="search-snippet">
                      <span className="sub">{hit.where}:</span> {hit.snippet}
                    </td>
                  ) : (
                    <td data-label="failed checks" className="mono">{e.failed_checks.join(', ') || DASH}</td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pager id={id} filters={filters} pages={pages} total={sorted.length} />
    </>
  );
}
