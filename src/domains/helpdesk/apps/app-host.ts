/**
 * How the helpdesk domain's apps meet the web surface (`src/surfaces/web-app.ts`): the shop admin
 * and the Harbordesk helpdesk are two hono apps built per episode over the episode's
 * {@link WebBackend} — pages read `backend.state`; every back-end operation goes through
 * `backend.act`, so a click's write is recorded as the API domain's operation with the browser
 * action that caused it. The web surface serves one origin per episode, so both products share
 * it, each under its own paths (the shop: `/orders`, `/discounts`, `/internal/api`; the helpdesk:
 * everything else), with an app switcher in each top bar. The helpdesk reaches the shop only
 * through the shop's internal API: HTTP requests with the integration token, handed in-process
 * to the shop app's handler (the browser has no token, so the agent cannot call that API).
 */
import { randomUUID } from 'node:crypto';
import type { WebAppDef, WebBackend, WebFetch } from '../../../surfaces/web-app.js';
import type { HelpdeskDb } from '../tools-common.js';

export type { WebBackend } from '../../../surfaces/web-app.js';

/** What a product app is built from for one episode. */
export interface AppParts {
  backend: WebBackend<HelpdeskDb>;
  /** The shop app's handler (the helpdesk's integration calls it with the token). */
  shopFetch: WebFetch;
  /** The shared secret of the shop's internal API for this episode. */
  integrationToken: string;
}

/** The shop admin's paths; every other path is the helpdesk's. */
export const SHOP_PATHS = /^\/(orders|discounts|internal\/api)(\/|$|\?)/;

/** A back-end read's parsed JSON result, or the error text. */
export async function readJson<T>(backend: WebBackend<unknown>, name: string, args: unknown): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  const out = await backend.act(name, args);
  if (out.error) return { ok: false, error: out.result.replace(/^Error:\s*/, '') };
  return { ok: true, value: JSON.parse(out.result) as T };
}

/**
 * The domain's web app: both products on one origin. `createShop` and `createDesk` build the
 * products' handlers; the integration token is random per episode (it never reaches a log or
 * the state).
 */
export function combinedApp(createShop: (p: Omit<AppParts, 'shopFetch'>) => WebFetch, createDesk: (p: AppParts) => WebFetch): WebAppDef<HelpdeskDb> {
  return {
    name: 'Harbordesk + Juniper & Oak Admin',
    startPath: '/views/open',
    create: (backend) => {
      const integrationToken = randomUUID();
      const shopFetch = createShop({ backend, integrationToken });
      const deskFetch = createDesk({ backend, shopFetch, integrationToken });
      return (req) => (SHOP_PATHS.test(new URL(req.url).pathname) ? shopFetch(req) : deskFetch(req));
    },
  };
}
