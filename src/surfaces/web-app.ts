/**
 * Web apps in front of a domain: the contract between a domain that is reached through a browser
 * and the web surface (`web.ts`), and the per-episode HTTP server.
 *
 * A domain fronted by a web app is a {@link WebDomain}: an ordinary domain (its `tools` are the
 * back-end operations, as on the API surface) plus `webApp`, which builds the app for one episode
 * over a {@link WebBackend}. The app's pages and XHR endpoints read the episode's state and reach
 * the back-end through `backend.act(operation, args)` — the same operations, validated the same
 * way and recorded in the action log with the browser action that caused them — so ordering,
 * confirmation and forbidden-write checks see a form submit as they see an API call.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Domain } from '../spec/domain.js';
import type { ActionOutcome } from '../spec/tool.js';

/** What an episode's app gets: the live state, the fixed "now", and the back-end. */
export interface WebBackend<S> {
  /** The episode's live state (read it for pages; write only through {@link act}). */
  readonly state: S;
  /** The environment's fixed "now" (ISO-8601). */
  readonly now: string;
  /**
   * Performs one back-end operation (a tool of the domain, e.g. `create_return_order`) on behalf
   * of the browser action in progress, recorded in the action log; resolves to the back-end's
   * answer (`error: true` for a refusal), never rejects for a refusal.
   */
  act(name: string, args: unknown): Promise<ActionOutcome>;
}

/** An app's request handler (a hono app's `fetch`). */
export type WebFetch = (req: Request) => Response | Promise<Response>;

/** A domain's web app. */
export interface WebAppDef<S> {
  /** The app's name as its pages show it (e.g. `Northwind Service Console`). */
  name: string;
  /** Builds the app for one episode. */
  create(backend: WebBackend<S>): WebFetch;
  /** The path the episode's page opens at (default `/`). */
  startPath?: string;
  /** The browser viewport in CSS pixels (default 1280 x 800). */
  viewport?: { width: number; height: number };
}

/** A domain with a web app in front of it (see the module doc). */
export interface WebDomain<S> extends Domain<S> {
  webApp: WebAppDef<S>;
}

/** The domain's web app, or null when it has none. */
export function webAppOf<S>(domain: Domain<S>): WebAppDef<S> | null {
  const app = (domain as Partial<WebDomain<S>>).webApp;
  return app && typeof app.create === 'function' ? app : null;
}

/** A running app server: its origin (`http://127.0.0.1:PORT`) and how to stop it. */
export interface AppServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves `fetch` on 127.0.0.1 at an ephemeral port; resolves once it listens. */
export async function serveApp(fetch: WebFetch): Promise<AppServer> {
  const { createAdaptorServer } = await import('@hono/node-server');
  const server = createAdaptorServer({ fetch, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  };
}
