/**
 * Isolates a test file's model environment: before each test the named variables are removed and
 * `values` set; after it every named variable gets back what it had (or is removed again).
 */
import { afterEach, beforeEach } from 'vitest';

/** The variables that choose a model endpoint, its key and provider label, and the output's colour. */
export const MODEL_ENV = ['SERVICEGYM_API_KEY', 'OPENAI_API_KEY', 'SERVICEGYM_BASE_URL', 'OPENAI_BASE_URL', 'SERVICEGYM_PROVIDER', 'NO_COLOR'] as const;

/**
 * Registers the `beforeEach`/`afterEach` hooks that clear `names` and set `values` for each test
 * of the calling file (or describe block), then restore them. Call at the top level of the file.
 */
export function isolatedModelEnv(values: Record<string, string>, names: readonly string[] = MODEL_ENV): void {
  let saved: Record<string, string | undefined> = {};
  const all = [...new Set([...names, ...Object.keys(values)])];
  beforeEach(() => {
    saved = Object.fromEntries(all.map((k) => [k, process.env[k]]));
    for (const k of all) delete process.env[k];
    Object.assign(process.env, values);
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
}
