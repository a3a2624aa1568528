/**
 * How the helpdesk domain's web apps meet the episode: each app is a hono app built per episode
 * over an {@link AppBackend} — the live state for rendering, and `act` for every back-end operation
 * the app performs (so the action log records a click's write as the API domain's operation, with
 * the agent step that caused it). {@link serveApps} serves a set of apps on 127.0.0.1, one port
 * each, for an episode or a test, and closes them.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { ActionOutcome } from '../../../spec/tool.js';

/** What an app gets from the episode. */
export interface AppBackend<S> {
  /** The episode's live state (apps read it to render lists; writes go through `act`). */
  state(): S;
  /** The environment's fixed "now" (ISO-8601). */
  now: string;
  /** Performs one back-end operation (the domain tool `name`) and records it in the action log. */
  act(name: string, args: unknown): Promise<ActionOutcome>;
}

/** What an app is built from for one episode. */
export interface AppContext<S> {
  backend: AppBackend<S>;
  /** The origin (`http://127.0.0.1:port`) another app of the episode is served at, by app name. */
  originOf(app: string): string;
  /** The shared secret of the apps' internal API (integration token), per episode. */
  integrationToken: string;
}

/** One in-process web app a domain offers. */
export interface WebAppDef<S> {
  /** Registry name within the domain, e.g. `helpdesk`. */
  name: string;
  /** The product's name as the agent sees it. */
  title: string;
  /** The path the agent starts at. */
  home: string;
  create(ctx: AppContext<S>): Hono;
}

/** A started set of apps. */
export interface ServedApps {
  /** Origins by app name. */
  origins: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Serves `apps` on 127.0.0.1 (an ephemeral port each) over one backend. Resolves once all listen;
 * `close()` stops them (idempotent).
 */
export async function serveApps<S>(apps: readonly WebAppDef<S>[], backend: AppBackend<S>, integrationToken: string): Promise<ServedApps> {
  const origins: Record<string, string> = {};
  const servers: ServerType[] = [];
  const originOf = (name: string) => {
    const o = origins[name];
    if (!o) throw new Error(`no app '${name}' is served in this episode`);
    return o;
  };
  try {
    for (const def of apps) {
      const app = def.create({ backend, originOf, integrationToken });
      const server = await new Promise<ServerType>((resolve, reject) => {
        const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
        s.once('error', reject);
      });
      servers.push(server);
      origins[def.name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
  } catch (e) {
    await Promise.all(servers.map(closeServer));
    throw e;
  }
  let closed = false;
  return {
    origins,
    close: async () => {
      if (closed) return;
      closed = true;
      await Promise.all(servers.map(closeServer));
    },
  };
}

function closeServer(s: ServerType): Promise<void> {
  return new Promise((resolve) => {
    (s as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    s.close(() => resolve());
  });
}

/** A back-end read's parsed JSON result, or the error text. */
export async function readJson<T>(backend: AppBackend<unknown>, name: string, args: unknown): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  const out = await backend.act(name, args);
  if (out.error) return { ok: false, error: out.result.replace(/^Error:\s*/, '') };
  return { ok: true, value: JSON.parse(out.result) as T };
}
