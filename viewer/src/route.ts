/**
 * Hash routes, so links can be shared and the same bundle works from file://:
 * `#/[?q=&tag=]` runs, `#/runs/ID[?filters]`, `#/runs/ID/episodes/EID[?turn=N]`,
 * `#/compare/A..B[?force=1]`, `#/optimizer/ID`. Every filter, sort and page lives in the hash
 * query, so any view can be shared. Ids are URI-component encoded (episode ids hold `/` and `#`).
 */

/** Columns the run page's episode list sorts by. */
export const SORT_KEYS = ['task', 'trial', 'label', 'outcome', 'reward', 'partial', 'termination'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** Filters, sort and page of the run page, kept in the hash query so a view can be shared. */
export interface RunFilters {
  failedOnly: boolean;
  termination: string;
  check: string;
  /** Text search over transcripts, tasks and checks. */
  q: string;
  /** Task id substring. */
  task: string;
  /** Label (persona, prompt version, mode). */
  label: string;
  /** Outcome (pass, partial, fail, unjudged, error). */
  outcome: string;
  sort: SortKey;
  desc: boolean;
  /** Page of the episode list, from 1. */
  page: number;
}

/** Filters of the runs list. */
export interface RunsFilters {
  q: string;
  tag: string;
}

export const NO_FILTERS: RunFilters = { failedOnly: false, termination: '', check: '', q: '', task: '', label: '', outcome: '', sort: 'task', desc: false, page: 1 };

export type Route =
  | { page: 'runs'; filters: RunsFilters }
  | { page: 'run'; id: string; filters: RunFilters }
  | { page: 'episode'; id: string; eid: string; turn: number | null }
  | { page: 'compare'; a: string; b: string; force: boolean }
  | { page: 'optimizer'; id: string }
  | { page: 'unknown'; hash: string };

const enc = encodeURIComponent;

function dec(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function runFilters(q: URLSearchParams): RunFilters {
  const sort = q.get('sort') ?? '';
  const page = Number(q.get('page'));
  return {
    failedOnly: q.get('failed') === '1',
    termination: q.get('termination') ?? '',
    check: q.get('check') ?? '',
    q: q.get('q') ?? '',
    task: q.get('task') ?? '',
    label: q.get('label') ?? '',
    outcome: q.get('outcome') ?? '',
    sort: (SORT_KEYS as readonly string[]).includes(sort) ? (sort as SortKey) : 'task',
    desc: q.get('desc') === '1',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The route of a location hash such as `#/runs/abc`. */
export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const cut = raw.indexOf('?');
  const pathPart = cut < 0 ? raw : raw.slice(0, cut);
  const q = new URLSearchParams(cut < 0 ? '' : raw.slice(cut + 1));
  const parts = pathPart.split('/').filter(Boolean);
  const runs = (): Route => ({ page: 'runs', filters: { q: q.get('q') ?? '', tag: q.get('tag') ?? '' } });
  if (parts.length === 0) return runs();
  if (parts[0] === 'runs' && parts.length === 1) return runs();
  if (parts[0] === 'runs' && parts.length === 2) return { page: 'run', id: dec(parts[1]), filters: runFilters(q) };
  if (parts[0] === 'runs' && parts.length === 4 && parts[2] === 'episodes') {
    const turn = Number(q.get('turn'));
    return { page: 'episode', id: dec(parts[1]), eid: dec(parts[3]), turn: q.has('turn') && Number.isInteger(turn) && turn >= 0 ? turn : null };
  }
  if (parts[0] === 'compare') {
    const pair = parts[1] ?? '';
    const at = pair.indexOf('..');
    const force = q.get('force') === '1';
    return at < 0 ? { page: 'compare', a: dec(pair), b: '', force } : { page: 'compare', a: dec(pair.slice(0, at)), b: dec(pair.slice(at + 2)), force };
  }
  if (parts[0] === 'optimizer' && parts.length === 2) return { page: 'optimizer', id: dec(parts[1]) };
  return { page: 'unknown', hash };
}

/** Link to the runs list, with optional search and tag filter. */
export function runsHref(filters?: Partial<RunsFilters>): string {
  const q = new URLSearchParams();
  if (filters?.q) q.set('q', filters.q);
  if (filters?.tag) q.set('tag', filters.tag);
  const qs = q.toString();
  return `#/${qs ? `?${qs}` : ''}`;
}

/** Link to a run page, with optional filters (defaults left out of the URL). */
export function runHref(id: string, filters?: Partial<RunFilters>): string {
  const f = { ...NO_FILTERS, ...filters };
  const q = new URLSearchParams();
  if (f.failedOnly) q.set('failed', '1');
  for (const key of ['termination', 'check', 'q', 'task', 'label', 'outcome'] as const) if (f[key]) q.set(key, f[key]);
  if (f.sort !== 'task') q.set('sort', f.sort);
  if (f.desc) q.set('desc', '1');
  if (f.page > 1) q.set('page', String(f.page));
  const qs = q.toString();
  return `#/runs/${enc(id)}${qs ? `?${qs}` : ''}`;
}

/** Link to an episode page, optionally pointing at turn `turn` (highlighted and scrolled to). */
export const episodeHref = (id: string, eid: string, turn?: number): string =>
  `#/runs/${enc(id)}/episodes/${enc(eid)}${turn === undefined ? '' : `?turn=${turn}`}`;

/** Link to the comparison of run A (baseline) with run B; `force` compares different task sets. */
export const compareHref = (a = '', b = '', force = false): string =>
  a || b ? `#/compare/${enc(a)}..${enc(b)}${force ? '?force=1' : ''}` : '#/compare';

/** Link to the optimiser page of a run. */
export const optimizerHref = (id: string): string => `#/optimizer/${enc(id)}`;
