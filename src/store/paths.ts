/** Where the run store lives by default (kept apart from store.ts so that commands can name it without loading SQLite). */

/** Store location used when no `--db PATH` is given, relative to the working directory. */
export const DEFAULT_STORE_PATH = '.servicegym/servicegym.db';
