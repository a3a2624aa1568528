/**
 * `servicegym view`'s HTTP server: a read-only JSON API over the run store and the built UI.
 *
 * The store is opened read-only for each API request and closed after it, so runs written by
 * other commands while the viewer is open show up on the next request, and the viewer never
 * holds a lock. When the store cannot be read (missing, locked, not a store, another schema)
 * every API route answers 503 with `{error, kind: 'store'}` and the UI shows that message.
 *
 * Routes: `GET /api/runs`, `/api/runs/:id`, `/api/runs/:id/search?q=`, `/api/runs/:id/episodes/:eid`, `/api/compare?a=&b=`,
 * `/api/status`; `/`, `/index.html`, `/assets/*`, `/data.js` (the UI).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Hono, type Context } from 'hono';
import { serve } from '@hono/node-server';
import { RunStore } from '../store/store.js';
import { BadInputError } from '../spec/errors.js';
import { SearchIndexCache } from './search-index.js';
import { comparePayload, episodePayload, listRunItems, runDetail, searchRun, type ReadOptions } from './queries.js';
import { runLockHeld } from './run-status.js';
import { defaultUiDir, missingUiMessage } from './ui-dir.js';
import type { ApiError, EpisodeDetail, TaskInfoResolver } from './types.js';
import { DEFAULT_VIEWER_HOST, DEFAULT_VIEWER_PORT } from './defaults.js';
import { withTask } from './episode-view.js';

export { withTask };

export { DEFAULT_VIEWER_HOST, DEFAULT_VIEWER_PORT };

export interface ViewerOptions {
  /** Path of the SQLite run store. */
  dbPath: string;
  /** Folder of the built UI; default {@link defaultUiDir}. */
  uiDir?: string;
  /** How long a request waits for a writer's lock before reporting it, in ms; default 2000. */
  busyTimeoutMs?: number;
  /** Host names (without port) accepted in `Host` besides loopback ones (`--allow-host`, a non-loopback `--host`). */
  allowHosts?: string[];
  /** Finds an episode's task for its page (scenario, gold actions, assertions); default none. */
  taskInfo?: TaskInfoResolver;
}

/** Loopback names a browser on this machine sends as `Host`; anything else may be a DNS-rebinding page. */
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** The host name of a `Host` header value or an origin URL, lower-case, without port. */
export function hostName(value: string): string | null {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** True when `host` (a `Host` header or URL host) is loopback or one of `allow` (case-insensitive). */
export function hostAllowed(host: string | undefined, allow: readonly string[] = []): boolean {
  const name = host ? hostName(host) : null;
  if (!name) return false;
  return LOOPBACK_HOST.test(name) || allow.some((a) => (hostName(a) ?? a.toLowerCase()) === name);
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/**
 * In live mode the UI's `data.js` defines no data, so the UI reads the API; it starts the first
 * page's API request (`window.__SERVICEGYM_EARLY__`) so that it overlaps loading the app.
 */
const LIVE_DATA_JS = `/* servicegym view (live): the data comes from /api; the first page's request starts here. */
window.__SERVICEGYM_EARLY__ = (function (h) {
  var m = /^#\\/(?:runs|optimizer)\\/([^/?]+)(\\/episodes\\/([^/?]+))?/.exec(h);
  var path = m ? (m[3] ? 'api/runs/' + m[1] + '/episodes/' + m[3] : 'api/runs/' + m[1]) : /^(#\\/?(runs\\/?)?)?$/.test(h) ? 'api/runs' : null;
  if (!path) return null;
  var response = fetch(path, { cache: 'no-store' });
  response.catch(function () {});
  return { path: path, response: response };
})(location.hash);
`;

function apiError(c: Context, status: 400 | 404 | 503, body: ApiError) {
  c.header('Cache-Control', 'no-store');
  return c.json(body, status);
}

/** Answers `value` as JSON, not to be cached. */
function json(c: Context, value: unknown) {
  c.header('Cache-Control', 'no-store');
  return c.json(value as object);
}

/**
 * The viewer as a Hono app (usable in-process with `app.request(path)`). Opens nothing at
 * creation: every API request opens the store read-only.
 */
export function createViewerApp(opts: ViewerOptions): Hono {
  const uiDir = opts.uiDir ?? defaultUiDir();
  const app = new Hono();
  guardHosts(app, opts.allowHosts ?? []);
  addApiRoutes(app, opts);
  addUiRoutes(app, uiDir);
  return app;
}

/**
 * DNS rebinding: a page on another site that resolves its name to 127.0.0.1 sends its own Host.
 * Only loopback (or `allow`ed) hosts are served (403 otherwise); anything but a plain GET/HEAD
 * must also come from an allowed Origin.
 */
function guardHosts(app: Hono, allow: readonly string[]): void {
  app.use('*', async (c, next) => {
    const host = c.req.header('host') ?? new URL(c.req.url).host;
    if (!hostAllowed(host, allow)) return c.text(`host '${host}' is not allowed (loopback only; servicegym view --allow-host NAME adds one)`, 403);
    const method = c.req.method.toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') {
      const origin = c.req.header('origin');
      if (!origin || !hostAllowed(origin, allow)) return c.text(`origin '${origin ?? '(none)'}' is not allowed`, 403);
    }
    await next();
  });
}

/** The `/api/*` routes, each reading the store opened read-only for that request (503 when it cannot be read), then a 404 for any other API path. */
function addApiRoutes(app: Hono, opts: ViewerOptions): void {
  const busyTimeoutMs = opts.busyTimeoutMs ?? 2000;
  const read: ReadOptions = { isWriting: (runId) => runLockHeld(opts.dbPath, runId) };
  const searches = new SearchIndexCache();
  const withStore = <T>(c: Context, read: (store: RunStore) => T, respond: (value: T) => Response) => {
    let store: RunStore | undefined;
    try {
      store = RunStore.open(opts.dbPath, { readonly: true, busyTimeoutMs });
      const value = read(store);
      return respond(value);
    } catch (err) {
      if (err instanceof BadInputError) return apiError(c, 503, { error: err.message, kind: 'store' });
      throw err;
    } finally {
      store?.close();
    }
  };
  const noRun = (c: Context, id: string) => apiError(c, 404, { error: `no run '${id}' in the store`, kind: 'not_found' });

  // The store's file name only: an absolute path would tell any reader the user's folders.
  app.get('/api/status', (c) => withStore(c, () => ({ ok: true, db: path.basename(opts.dbPath) }), (v) => json(c, v)));
  app.get('/api/runs', (c) => withStore(c, (s) => listRunItems(s, read), (v) => json(c, v)));
  app.get('/api/runs/:id', (c) => {
    const id = c.req.param('id');
    return withStore(c, (s) => runDetail(s, id, read), (v) => (v ? json(c, v) : noRun(c, id)));
  });
  app.get('/api/runs/:id/search', (c) => {
    const id = c.req.param('id');
    const q = c.req.query('q') ?? '';
    return withStore(c, (s) => searchRun(s, id, q, searches), (v) => (v ? json(c, v) : noRun(c, id)));
  });
  app.get('/api/runs/:id/episodes/:eid', (c) => {
    const { id, eid } = c.req.param();
    return withStore(
      c,
      (s) => {
        const page = episodePayload(s, id, eid);
        return page && withTask(page, opts.taskInfo);
      },
      (v) => (v ? json(c, v) : apiError(c, 404, { error: `no episode '${eid}' in run '${id}'`, kind: 'not_found' })),
    );
  });
  app.get('/api/compare', (c) => {
    const a = c.req.query('a');
    const b = c.req.query('b');
    if (!a || !b) return apiError(c, 400, { error: 'compare needs two run ids: /api/compare?a=RUN&b=RUN', kind: 'bad_request' });
    return withStore(c, (s) => comparePayload(s, a, b, read), (v) => ('missing' in v ? noRun(c, v.missing) : json(c, v)));
  });
  app.all('/api/*', (c) => apiError(c, 404, { error: `no API route ${c.req.path}`, kind: 'not_found' }));
}

/** The UI: `/` and `/index.html` (500 naming the missing build when there is none), `/data.js` (live mode) and `/assets/:name` from `uiDir`. */
function addUiRoutes(app: Hono, uiDir: string): void {
  const sendFile = (c: Context, file: string) => {
    if (!fs.existsSync(file)) return c.text('not found', 404);
    c.header('Content-Type', CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream');
    return c.body(fs.readFileSync(file));
  };
  const index = (c: Context) => {
    const file = path.join(uiDir, 'index.html');
    if (!fs.existsSync(file)) return c.html(`<!doctype html><meta charset="utf-8"><title>servicegym view</title><p>servicegym view: ${missingUiMessage(uiDir)}</p>`, 500);
    return sendFile(c, file);
  };
  app.get('/', index);
  app.get('/index.html', index);
  app.get('/data.js', (c) => {
    c.header('Content-Type', CONTENT_TYPES['.js']);
    return c.body(LIVE_DATA_JS);
  });
  app.get('/assets/:name', (c) => {
    const name = c.req.param('name');
    if (name !== path.basename(name) || name.startsWith('.')) return c.text('not found', 404);
    return sendFile(c, path.join(uiDir, 'assets', name));
  });
}

/** A running viewer server. */
export interface RunningViewer {
  /** Base URL, e.g. `http://127.0.0.1:8765/`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves {@link createViewerApp} on `host:port` (default 127.0.0.1 and {@link DEFAULT_VIEWER_PORT};
 * port 0 picks a free one).
 *
 * @throws BadInputError when the port is taken or the address cannot be bound.
 */
export function startViewer(opts: ViewerOptions & { host?: string; port?: number }): Promise<RunningViewer> {
  const host = opts.host ?? DEFAULT_VIEWER_HOST;
  const app = createViewerApp(opts);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: opts.port ?? DEFAULT_VIEWER_PORT, hostname: host, overrideGlobalObjects: false }, (info: AddressInfo) => {
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${info.port}/`,
        port: info.port,
        close: () => new Promise<void>((done) => {
          if ('closeAllConnections' in server) server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'is already in use; pick another with --port N (0 picks a free one)' : `cannot be bound (${err.code ?? err.message})`;
      reject(new BadInputError(`address ${host}:${opts.port ?? DEFAULT_VIEWER_PORT} ${why}`));
    });
  });
}
