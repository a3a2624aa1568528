/**
 * Hash routes, so links can be shared and the same bundle works from file://:
 * `#/` runs, `#/runs/ID[?filters]`, `#/runs/ID/episodes/EID`, `#/compare/A..B`, `#/optimizer/ID`.
 * Ids are URI-component encoded (episode ids hold `/` and `#`).
 */

/** Filters of the run page, kept in the hash query so a filtered view can be shared. */
export interface RunFilters {
  failedOnly: boolean;
  termination: string;
  check: string;
}

export type Route =
  | { page: 'runs' }
  | { page: 'run'; id: string; filters: RunFilters }
  | { page: 'episode'; id: string; eid: string }
  | { page: 'compare'; a: string; b: string }
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

/** The route of a location hash such as `#/runs/abc`. */
export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const [pathPart, query = ''] = raw.split('?');
  const parts = pathPart.split('/').filter(Boolean);
  const q = new URLSearchParams(query);
  if (parts.length === 0) return { page: 'runs' };
  if (parts[0] === 'runs' && parts.length === 1) return { page: 'runs' };
  if (parts[0] === 'runs' && parts.length === 2) {
    return { page: 'run', id: dec(parts[1]), filters: { failedOnly: q.get('failed') === '1', termination: q.get('termination') ?? '', check: q.get('check') ?? '' } };
  }
  if (parts[0] === 'runs' && parts.length === 4 && parts[2] === 'episodes') return { page: 'episode', id: dec(parts[1]), eid: dec(parts[3]) };
  if (parts[0] === 'compare') {
    const pair = parts[1] ?? '';
    const cut = pair.indexOf('..');
    return cut < 0 ? { page: 'compare', a: dec(pair), b: '' } : { page: 'compare', a: dec(pair.slice(0, cut)), b: dec(pair.slice(cut + 2)) };
  }
  if (parts[0] === 'optimizer' && parts.length === 2) return { page: 'optimizer', id: dec(parts[1]) };
  return { page: 'unknown', hash };
}

/** Link to the runs list. */
export const runsHref = (): string => '#/';

/** Link to a run page, with optional filters. */
export function runHref(id: string, filters?: Partial<RunFilters>): string {
  const q = new URLSearchParams();
  if (filters?.failedOnly) q.set('failed', '1');
  if (filters?.termination) q.set('termination', filters.termination);
  if (filters?.check) q.set('check', filters.check);
  const qs = q.toString();
  return `#/runs/${enc(id)}${qs ? `?${qs}` : ''}`;
}

/** Link to an episode page. */
export const episodeHref = (id: string, eid: string): string => `#/runs/${enc(id)}/episodes/${enc(eid)}`;

/** Link to the comparison of run A (baseline) with run B. */
export const compareHref = (a = '', b = ''): string => (a || b ? `#/compare/${enc(a)}..${enc(b)}` : '#/compare');

/** Link to the optimiser page of a run. */
export const optimizerHref = (id: string): string => `#/optimizer/${enc(id)}`;
