/**
 * Text search over a run's episodes: transcripts (customer and agent text, tool calls with their
 * arguments, tool outputs), the task id and label, and the checks (ids and evidence). Pure, so
 * the server answers `/api/runs/:id/search` with it (through the per-run index of
 * src/viewer/search-index.ts) and a static export searches in the browser.
 * Matching is case-insensitive on the whole query, after collapsing runs of white space.
 */
import type { EpisodeDetail, SearchHit } from './types.js';

/** How long the viewer's search box waits after a keystroke before it asks (ms): typing "refund" asks once, not six times. */
export const SEARCH_DEBOUNCE_MS = 150;

/** Characters of context on each side of a match in a snippet. */
const CONTEXT = 50;

/** The query as matched: white space collapsed to one space, lower case, trimmed; '' matches nothing. */
export const normQuery = (query: string): string => query.replace(/\s+/g, ' ').toLowerCase().trim();

/** One searchable field: where it is (e.g. `turn 3 (agent)`) and its text with white space collapsed to single spaces. */
export type SearchField = [where: string, flat: string];

/** The parts of an episode the search reads (an {@link EpisodeDetail} has them). */
export interface Searchable {
  episode: Pick<EpisodeDetail['episode'], 'task_id' | 'label'>;
  transcript: EpisodeDetail['transcript'];
  checks: readonly Pick<EpisodeDetail['checks'][number], 'id' | 'evidence'>[];
}

/** The searchable fields of an episode, in the order they are tried. */
export function searchFields(d: Searchable): SearchField[] {
  const out: [string, string][] = [
    ['task', d.episode.task_id],
    ['label', d.episode.label],
  ];
  d.transcript.forEach((t, i) => {
    if (t.kind === 'system') return;
    if (t.kind === 'agent') out.push([`turn ${i} (agent)`, [t.text, ...t.tool_calls.map((c) => `${c.name} ${JSON.stringify(c.arguments)}`)].join(' ')]);
    else if (t.kind === 'tool') out.push([`turn ${i} (tool ${t.name})`, t.output]);
    else out.push([`turn ${i} (${t.kind})`, t.text]);
  });
  for (const c of d.checks) out.push([`check ${c.id}`, `${c.id} ${c.evidence}`]);
  return out.map(([where, text]) => [where, text.replace(/\s+/g, ' ')]);
}

/**
 * The offset in `flat` of what starts at offset `at` of `lower` (`flat.toLowerCase()`): the same
 * offset, unless a character lower-cases to more code units than it has ('İ', U+0130, to 'i̇'),
 * when each one before `at` shifts it. An offset inside such a character's lower case gives the
 * offset after the character.
 */
function offsetIn(flat: string, lower: string, at: number): number {
  if (lower.length === flat.length) return at;
  let i = 0;
  for (let j = 0; j < at && i < flat.length; ) {
    const ch = String.fromCodePoint(flat.codePointAt(i)!);
    i += ch.length;
    j += ch.toLowerCase().length;
  }
  return i;
}

/**
 * The first of `fields` whose text contains `q` (already {@link normQuery normalised}, not
 * blank), as a hit of episode `episodeId` with a snippet around the match; null when none does.
 */
export function matchFields(episodeId: string, fields: readonly SearchField[], q: string): SearchHit | null {
  for (const [where, flat] of fields) {
    const lower = flat.toLowerCase();
    const at = lower.indexOf(q);
    if (at < 0) continue;
    const start = Math.max(0, offsetIn(flat, lower, at) - CONTEXT);
    const end = Math.min(flat.length, offsetIn(flat, lower, at + q.length) + CONTEXT);
    const snippet = `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
    return { episode_id: episodeId, where, snippet };
  }
  return null;
}

/** The first field of `detail` that contains `query`, with a snippet around the match; null when none does or the query is blank. */
export function searchEpisode(detail: EpisodeDetail, query: string): SearchHit | null {
  const q = normQuery(query);
  return q ? matchFields(detail.episode.episode_id, searchFields(detail), q) : null;
}

/** One episode as an index of searches reads it: its fields, and their lower-case texts joined by '\n' (a normalised query holds no '\n', so it cannot match across two fields). */
export interface IndexedEpisode {
  episode_id: string;
  fields: SearchField[];
  lower: string;
}

/** Episode `episodeId` (whose searchable parts are `d`) for an index: its fields derived once, for any number of searches. */
export function indexEpisode(episodeId: string, d: Searchable): IndexedEpisode {
  const fields = searchFields(d);
  return { episode_id: episodeId, fields, lower: fields.map(([, flat]) => flat.toLowerCase()).join('\n') };
}

/** Every episode of `index` that matches `query` (as {@link searchEpisode} matches), in the index's order; `[]` for a blank query. */
export function searchIndex(index: readonly IndexedEpisode[], query: string): SearchHit[] {
  const q = normQuery(query);
  if (!q) return [];
  const hits: SearchHit[] = [];
  for (const e of index) {
    if (!e.lower.includes(q)) continue;
    const hit = matchFields(e.episode_id, e.fields, q);
    if (hit) hits.push(hit);
  }
  return hits;
}

/** Every episode of `details` that matches `query`, in the given order. */
export function searchEpisodes(details: Iterable<EpisodeDetail>, query: string): SearchHit[] {
  const hits: SearchHit[] = [];
  for (const d of details) {
    const hit = searchEpisode(d, query);
    if (hit) hits.push(hit);
  }
  return hits;
}
