/**
 * The server's text search over a run (`GET /api/runs/:id/search?q=`), fast enough to search as
 * one types over thousands of episodes. Each episode's searchable fields (src/viewer/search.ts:
 * the same fields, order, white-space and case rules as the static export's search) are derived
 * once from its stored record and kept with their lower-case text, in matrix order; a search then
 * scans that text. {@link SearchIndexCache} keeps the indexes of the last few runs searched and
 * brings one up to date when the run's stored episodes changed ({@link RunStore.episodeStamp}):
 * a run in progress is searched as it is now, reading only the episodes stored since.
 */
import type { EpisodeRow, RunStore } from '../store/store.js';
import { parseEpisodeLog } from '../store/run-log.js';
import { searchableOf } from './episode-view.js';
import { matrixOrder } from './matrix.js';
import { indexEpisode, type IndexedEpisode } from './search.js';

export { searchIndex, type IndexedEpisode } from './search.js';

/** The terms of {@link RunStore.episodeStamp}. */
type Stamp = ReturnType<RunStore['episodeStamp']>;

/** An indexed episode with what orders it (matrix order) and what stamps it (its row). */
type Entry = IndexedEpisode & Pick<EpisodeRow, 'task_id' | 'label' | 'trial'> & { rowid: number; bytes: number };

/** A run's entries by episode id, in rowid order (an episode replaced moves to the end, as its new row does). */
type Entries = Map<string, Entry>;

/**
 * Adds to `entries` run `runId`'s episodes stored after rowid `after` (all for 0), each replacing
 * the entry of the same episode id.
 * @throws BadInputError when a stored episode is not a run-log record.
 */
function readEntries(store: RunStore, runId: string, entries: Entries, after = 0): void {
  // One record at a time: holding a large run's records all at once costs more in garbage collection than reading them.
  store.forEachEpisode(
    runId,
    (row, at) => {
      const record = parseEpisodeLog(row.result, { runId, episodeId: row.episode_id });
      const searchable = searchableOf({ runId, episodeId: row.episode_id, reward: row.reward, partial: row.partial, record }, row);
      entries.delete(row.episode_id);
      entries.set(row.episode_id, { ...indexEpisode(row.episode_id, searchable), task_id: row.task_id, label: row.label, trial: row.trial, ...at });
    },
    after,
  );
}

/** The stamp of the rows `entries` were read from: equal to the store's when they are the run's episodes as stored now. */
function stampOf(entries: Entries): Stamp {
  let last = 0;
  let bytes = 0;
  for (const e of entries.values()) {
    last = Math.max(last, e.rowid);
    bytes += e.bytes;
  }
  return { count: entries.size, last, bytes };
}

const charsOf = (entries: Entries) => [...entries.values()].reduce((n, e) => n + e.lower.length, 0);

const ordered = (entries: Entries): IndexedEpisode[] => matrixOrder([...entries.values()]).map(({ episode_id, fields, lower }) => ({ episode_id, fields, lower }));

/**
 * The searchable fields of run `runId`'s stored episodes in matrix order (task, then label, then
 * trial, as `GET /api/runs/:id` lists them); `[]` for an unknown run.
 * @throws BadInputError when a stored episode is not a run-log record.
 */
export function buildSearchIndex(store: RunStore, runId: string): IndexedEpisode[] {
  const entries: Entries = new Map();
  readEntries(store, runId, entries);
  return ordered(entries);
}

const sameStamp = (a: Stamp, b: Stamp) => a.count === b.count && a.last === b.last && a.bytes === b.bytes;

/** How many runs' indexes a {@link SearchIndexCache} keeps at most by default. */
export const CACHED_RUNS = 4;

/**
 * How much searchable text (characters, summed over the kept runs) a {@link SearchIndexCache}
 * keeps by default, the run searched last always kept. An index holds its text twice (as shown and
 * lower-case): measured 54 MB of heap for 2,285 airline episodes of 13 M characters, so this
 * keeps about 100 MB.
 */
export const CACHED_CHARS = 25_000_000;

/**
 * The search indexes of the last runs searched in one store (at most {@link CACHED_RUNS} runs and
 * {@link CACHED_CHARS} characters of text, the last run searched always kept). A kept index is
 * used while the run's {@link RunStore.episodeStamp} equals the stamp of the rows it was read from;
 * when episodes were added or replaced since, only those are read; anything else (an episode
 * deleted, rowids renumbered by a VACUUM) reads the run again. One per store file (a viewer server has one).
 */
export class SearchIndexCache {
  private readonly runs = new Map<string, { entries: Entries; stamp: Stamp; index: IndexedEpisode[]; chars: number }>();
  /** Runs read whole, and runs brought up to date by reading only their new episodes (for tests and benchmarks). */
  readonly reads = { whole: 0, newer: 0 };

  constructor(
    private readonly maxRuns = CACHED_RUNS,
    private readonly maxChars = CACHED_CHARS,
  ) {}

  /** The ids of the runs whose indexes are kept, least recently searched first. */
  keptRuns(): string[] {
    return [...this.runs.keys()];
  }

  /**
   * The index of run `runId` in `store`, read or brought up to date now when the run's episodes changed.
   * @throws BadInputError as {@link buildSearchIndex} does.
   */
  index(store: RunStore, runId: string): IndexedEpisode[] {
    // One snapshot: the stamp and the rows read agree whatever a run commits meanwhile (else a
    // commit between them made the episodes stored since read as a changed run, read whole again).
    return store.snapshot(() => this.indexNow(store, runId));
  }

  /** {@link index}, inside its snapshot. */
  private indexNow(store: RunStore, runId: string): IndexedEpisode[] {
    const now = store.episodeStamp(runId);
    let kept = this.runs.get(runId);
    this.runs.delete(runId);
    if (kept && !sameStamp(kept.stamp, now)) kept = now.last > kept.stamp.last && now.count >= kept.stamp.count ? this.newer(store, runId, kept.entries) : undefined;
    if (!kept) {
      const entries: Entries = new Map();
      readEntries(store, runId, entries);
      this.reads.whole++;
      kept = { entries, stamp: stampOf(entries), index: ordered(entries), chars: charsOf(entries) };
    }
    this.runs.set(runId, kept);
    let chars = [...this.runs.values()].reduce((n, r) => n + r.chars, 0);
    for (const [id, r] of this.runs) {
      if (id === runId || (this.runs.size <= this.maxRuns && chars <= this.maxChars)) break;
      this.runs.delete(id);
      chars -= r.chars;
    }
    return kept.index;
  }

  /** `entries` (not changed) with the episodes stored since, when that makes the run as stored now; undefined otherwise. */
  private newer(store: RunStore, runId: string, entries: Entries) {
    const next: Entries = new Map(entries);
    readEntries(store, runId, next, stampOf(entries).last);
    const stamp = stampOf(next);
    if (!sameStamp(stamp, store.episodeStamp(runId))) return undefined;
    this.reads.newer++;
    return { entries: next, stamp, index: ordered(next), chars: charsOf(next) };
  }
}
