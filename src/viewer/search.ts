/**
 * Text search over a run's episodes: transcripts (customer and agent text, tool calls with their
 * arguments, tool outputs), the task id and label, and the checks (ids and evidence). Pure, so
 * the server answers `/api/runs/:id/search` with it and a static export searches in the browser.
 * Matching is case-insensitive on the whole query, after collapsing runs of white space.
 */
import type { EpisodeDetail, SearchHit } from './types.js';

/** Characters of context on each side of a match in a snippet. */
const CONTEXT = 50;

const norm = (s: string) => s.replace(/\s+/g, ' ').toLowerCase();

/** The searchable fields of an episode as `[where, text]`, where is e.g. `turn 3 (agent)`. */
function fields(d: EpisodeDetail): [string, string][] {
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
  return out;
}

/** The first field of `detail` that contains `query`, with a snippet around the match; null when none does or the query is blank. */
export function searchEpisode(detail: EpisodeDetail, query: string): SearchHit | null {
  const q = norm(query).trim();
  if (!q) return null;
  for (const [where, text] of fields(detail)) {
    const flat = text.replace(/\s+/g, ' ');
    const at = flat.toLowerCase().indexOf(q);
    if (at < 0) continue;
    const start = Math.max(0, at - CONTEXT);
    const end = Math.min(flat.length, at + q.length + CONTEXT);
    const snippet = `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
    return { episode_id: detail.episode.episode_id, where, snippet };
  }
  return null;
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
