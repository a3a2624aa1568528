/**
 * The helpdesk domain's web apps: the shop admin (Juniper & Oak Admin) and the helpdesk
 * (Harbordesk), served per episode over the episode's state (see `app-host.ts`).
 */
import type { HelpdeskDb } from '../tools-common.js';
import type { WebAppDef } from './app-host.js';
import { helpdeskApp } from './helpdesk-app.js';
import { shopAdminApp } from './shop-app.js';

export { serveApps, type AppBackend, type AppContext, type ServedApps, type WebAppDef } from './app-host.js';
export { helpdeskApp } from './helpdesk-app.js';
export { shopAdminApp } from './shop-app.js';

/** The apps, the shop first (the helpdesk's sidebar calls the shop's internal API). */
export const HELPDESK_WEB_APPS: readonly WebAppDef<HelpdeskDb>[] = [shopAdminApp, helpdeskApp];
