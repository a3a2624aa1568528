/**
 * The server's text search over a run (`GET /api/runs/:id/search?q=`), fast enough to search as
 * one types over thousands of episodes. Each episode's searchable fields (src/viewer/search.ts:
 * the same fields, order, white-space and case rules as the static export's search) are derived
 * once from its stored record and kept with their lower-case text, in matrix order; a search then
 * scans that text. {@link SearchIndexCache} keeps the indexes of the last few runs searched and
 * rebuilds one when the run's stored episodes changed ({@link RunStore.episodeStamp}), so a run in
 * progress is searched as it is now.
 */
import type { EpisodeRow, RunStore } from '../store/store.js';
import { parseEpisodeLog } from '../store/run-log.js';
import { searchableOf } from './episode-view.js';
import { matrixOrder } from './matrix.js';
import { indexEpisode, type IndexedEpisode } from './search.js';

export { searchIndex, type IndexedEpisode } from './search.js';

/**
 * The searchable fields of run `runId`'s stored episodes in matrix order (task, then label, then
 * trial, as `GET /api/runs/:id` lists them); `[]` for an unknown run.
 * @throws BadInputError when a stored episode is not a run-log record.
 */
export function buildSearchIndex(store: RunStore, runId: string): IndexedEpisode[] {
  const out: (IndexedEpisode & Pick<EpisodeRow, 'task_id' | 'label' | 'trial'>)[] = [];
  // One record at a time: holding a large run's records all at once costs more in garbage collection than reading them.
  store.forEachEpisode(runId, (row) => {
    const record = parseEpisodeLog(row.result, { runId, episodeId: row.episode_id });
    const searchable = searchableOf({ runId, episodeId: row.episode_id, reward: row.reward, partial: row.partial, record }, row);
    out.push({ ...indexEpisode(row.episode_id, searchable), task_id: row.task_id, label: row.label, trial: row.trial });
  });
  return matrixOrder(out).map(({ episode_id, fields, lower }) => ({ episode_id, fields, lower }));
}

/** How many runs' indexes a {@link SearchIndexCache} keeps by default. */
export const CACHED_RUNS = 4;

/**
 * The search indexes of the last {@link CACHED_RUNS} runs searched in one store, each kept while
 * the run's {@link RunStore.episodeStamp} is unchanged. One per store file (a viewer server has one).
 */
export class SearchIndexCache {
  private readonly runs = new Map<string, { stamp: string; index: IndexedEpisode[] }>();

  constructor(private readonly maxRuns = CACHED_RUNS) {}

  /**
   * The index of run `runId` in `store`, built now when it is not kept or the run's episodes changed.
   * @throws BadInputError as {@link buildSearchIndex} does.
   */
  index(store: RunStore, runId: string): IndexedEpisode[] {
    // The stamp is read before the episodes: a write in between makes the next search rebuild, never keeps stale text.
    const stamp = JSON.stringify(store.episodeStamp(runId));
    const kept = this.runs.get(runId);
    this.runs.delete(runId);
    const entry = kept?.stamp === stamp ? kept : { stamp, index: buildSearchIndex(store, runId) };
    this.runs.set(runId, entry);
    if (this.runs.size > this.maxRuns) this.runs.delete(this.runs.keys().next().value!);
    return entry.index;
  }
}
