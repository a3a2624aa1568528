/**
 * The helpdesk domain's web app: the shop admin (Juniper & Oak Admin) and the helpdesk
 * (Harbordesk) on one origin per episode, over the episode's state (see `app-host.ts`).
 */
import { combinedApp } from './app-host.js';
import { createHelpdeskApp } from './helpdesk-app.js';
import { createShopAdminApp } from './shop-app.js';

export { SHOP_PATHS, type AppParts } from './app-host.js';
export { ORACLE_UI_SCRIPTS, T18_FAULTY_UI_SCRIPTS, T18_CODE, type UiStep } from './ui-scripts.js';

/** The domain's `webApp` (web surface): both products, the helpdesk's inbox first. */
export const helpdeskWebApp = combinedApp(createShopAdminApp, createHelpdeskApp);
