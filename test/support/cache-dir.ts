/**
 * A private disk cache for the tests of one `describe`: a temp folder made before them, whose
 * `cache/` subfolder is `SERVICEGYM_CACHE_DIR` while they run; the variable is restored and the
 * folder removed after them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { tmpDir } from './paths.js';

/** Registers the hooks (call it inside a `describe`); returns a getter of the temp folder (the cache is `<folder>/cache`). */
export function useTempCacheDir(prefix: string): () => string {
  const saved = process.env.SERVICEGYM_CACHE_DIR;
  let dir = '';
  beforeAll(() => {
    dir = tmpDir(prefix);
    process.env.SERVICEGYM_CACHE_DIR = path.join(dir, 'cache');
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.SERVICEGYM_CACHE_DIR;
    else process.env.SERVICEGYM_CACHE_DIR = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => dir;
}
