/** Defaults of `servicegym view`, in a module of their own so the CLI reads them without loading the server. */

/** Default port (promptfoo's viewer uses 15500, inspect's 7575). */
export const DEFAULT_VIEWER_PORT = 8765;

/** Default address: loopback only; the viewer has no authentication. */
export const DEFAULT_VIEWER_HOST = '127.0.0.1';
