/**
 * Where the UI's data comes from: the live server's JSON API, or, in a static export opened
 * from the file system, `window.__SERVICEGYM_DATA__` set by data.js (no fetch from file://).
 * Comparisons of a static export are computed here with the server's own function.
 */
import { useCallback, useEffect, useState } from 'react';
import { compareRuns } from '../../src/viewer/compare.js';
import { indexEpisode, searchIndex, type IndexedEpisode } from '../../src/viewer/search.js';
import type { ApiError, CompareView, EpisodeChunk, EpisodeDetail, RunDetail, RunListItem, SearchResult, StaticData } from '../../src/viewer/types.js';
import type { Route } from './route.js';

declare global {
  interface Window {
    __SERVICEGYM_DATA__?: StaticData;
    __SERVICEGYM_EPISODES__?: Record<string, EpisodeChunk>;
    /** The first page's API request, started by the live server's data.js before the app loaded. */
    __SERVICEGYM_EARLY__?: { path: string; response: Promise<Response> } | null;
  }
}

/** The embedded data of a static export, or undefined when served live. */
export const staticData: StaticData | undefined = window.__SERVICEGYM_DATA__;

/** A failed load: the store cannot be read, an id is unknown, or the server is gone. */
export class LoadError extends Error {
  readonly kind: ApiError['kind'] | 'network';
  constructor(message: string, kind: LoadError['kind']) {
    super(message);
    this.kind = kind;
  }
}

/** `GET path` of the live server as JSON; `signal` cancels it (the promise then rejects with the abort). */
async function api<T>(path: string, signal?: AbortSignal): Promise<T> {
  let res: Response;
  const early = window.__SERVICEGYM_EARLY__;
  if (early) window.__SERVICEGYM_EARLY__ = null;
  try {
    res = await (early?.path === path ? early.response : fetch(path, { cache: 'no-store', signal }));
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new LoadError(`the viewer server does not answer (${(err as Error).message}); is \`servicegym view\` still running?`, 'network');
  }
  const body = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) {
    const e = body as ApiError | null;
    throw new LoadError(e?.error ?? `HTTP ${res.status} for ${path}`, e?.kind ?? 'network');
  }
  return body as T;
}

const enc = encodeURIComponent;

function fromStatic<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new LoadError(`${what} is not in this export`, 'not_found');
  return value;
}

/** Every run, newest first. */
export function loadRuns(): Promise<RunListItem[]> {
  if (staticData) return Promise.resolve(staticData.runs);
  return api('api/runs');
}

/** One run with its matrix. */
export function loadRun(id: string): Promise<RunDetail> {
  if (staticData) return Promise.resolve().then(() => fromStatic(staticData.details[id], `run '${id}'`));
  return api(`api/runs/${enc(id)}`);
}

const scripts = new Map<string, Promise<void>>();

/** Runs the classic script `file` of a static export once (script tags work from file://). */
function loadScript(file: string): Promise<void> {
  let done = scripts.get(file);
  if (!done) {
    done = new Promise<void>((resolve, reject) => {
      const tag = document.createElement('script');
      tag.src = file;
      tag.onload = () => resolve();
      tag.onerror = () => {
        scripts.delete(file);
        reject(new LoadError(`${file} of this export cannot be loaded; was it copied with the rest of the export?`, 'not_found'));
      };
      document.head.appendChild(tag);
    });
    scripts.set(file, done);
  }
  return done;
}

/** One episode page. */
export async function loadEpisode(id: string, eid: string): Promise<EpisodeDetail> {
  if (staticData) {
    const what = `episode '${eid}' of run '${id}'`;
    const file = fromStatic(staticData.episode_files[id]?.[eid], what);
    await loadScript(file);
    return fromStatic(window.__SERVICEGYM_EPISODES__?.[file]?.[eid], what);
  }
  return api(`api/runs/${enc(id)}/episodes/${enc(eid)}`);
}

/** A static export's search indexes by run id, built on the first search of each run. */
const staticIndexes = new Map<string, IndexedEpisode[]>();

/**
 * The episodes of run `id` whose transcript, task or checks contain `q`; `signal` cancels the
 * request (a search the user has typed past). A static export loads the run's episode scripts once
 * and searches them here with the server's own functions (src/viewer/search.ts).
 */
export async function loadSearch(id: string, q: string, signal?: AbortSignal): Promise<SearchResult> {
  if (!staticData) return api(`api/runs/${enc(id)}/search?q=${enc(q)}`, signal);
  let index = staticIndexes.get(id);
  if (!index) {
    const detail = fromStatic(staticData.details[id], `run '${id}'`);
    const files = staticData.episode_files[id] ?? {};
    await Promise.all([...new Set(Object.values(files))].map(loadScript));
    index = detail.episodes.flatMap((e) => {
      const page = window.__SERVICEGYM_EPISODES__?.[files[e.episode_id]]?.[e.episode_id];
      return page ? [indexEpisode(e.episode_id, page)] : [];
    });
    staticIndexes.set(id, index);
  }
  return { q, hits: searchIndex(index, q) };
}

/**
 * Gets run `id` ready to search (the server builds its index; a static export loads its episode
 * scripts), so the first query typed is answered as fast as the next ones. For the search box's
 * focus; failures are left to the search itself to report.
 */
export function warmSearch(id: string): void {
  loadSearch(id, '').catch(() => undefined);
}

/** The comparison of run A with run B. */
export function loadCompare(a: string, b: string): Promise<CompareView> {
  if (staticData) {
    return Promise.resolve().then(() => compareRuns(fromStatic(staticData.details[a], `run '${a}'`), fromStatic(staticData.details[b], `run '${b}'`)));
  }
  return api(`api/compare?a=${enc(a)}&b=${enc(b)}`);
}

const primed = new Map<string, Promise<unknown>>();

/** The {@link useLoad} key and loader of the page at `route`, if it loads something. */
function pageLoad(route: Route): [string, () => Promise<unknown>] | null {
  switch (route.page) {
    case 'runs':
      return ['runs', loadRuns];
    case 'run':
    case 'optimizer':
      return [`run:${route.id}`, () => loadRun(route.id)];
    case 'episode':
      return [`episode:${route.id}:${route.eid}`, () => loadEpisode(route.id, route.eid)];
    default:
      return null;
  }
}

/** Starts loading the first page's data before React mounts; its {@link useLoad} picks it up. */
export function prime(route: Route): void {
  const load = pageLoad(route);
  if (!load) return;
  const early = load[1]();
  early.catch(() => undefined); // reported when the page takes it, not as an unhandled rejection
  primed.set(load[0], early);
}

/** State of an async load. */
export type Loaded<T> = { status: 'loading' } | { status: 'ok'; data: T } | { status: 'error'; error: LoadError };

/**
 * Runs `load` whenever `key` changes; with `refreshMs` (live mode only) loads again on that
 * interval, keeping the last data on screen, so new runs and a freed store show up by themselves.
 * `load` gets a signal that aborts once its result is no longer wanted (the key changed, the page
 * left), so a request typed past is cancelled rather than answered for nothing.
 */
export function useLoad<T>(key: string, load: (signal: AbortSignal) => Promise<T>, refreshMs?: number): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const run = useCallback(load, [key]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    let alive = true;
    const abort = new AbortController();
    const once = () => {
      const early = primed.get(key) as Promise<T> | undefined;
      primed.delete(key);
      return (early ?? run(abort.signal)).then(
        (data) => alive && setState({ status: 'ok', data }),
        (err: unknown) => alive && setState({ status: 'error', error: err instanceof LoadError ? err : new LoadError(String(err), 'network') }),
      );
    };
    setState({ status: 'loading' });
    void once();
    const timer = refreshMs && !staticData ? window.setInterval(once, refreshMs) : undefined;
    return () => {
      alive = false;
      abort.abort();
      if (timer) window.clearInterval(timer);
    };
  }, [run, refreshMs, key]);
  return state;
}
