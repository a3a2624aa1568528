/**
 * Start-up (issue 17 item 2): `servicegym --help` loads no command's heavy modules — no domain,
 * no SQLite store, no surface (browsers, PDF rendering), no model client, no zod schema — because every command
 * loads them when it runs. Checked by the modules a `--help` process actually resolves (a module
 * resolve hook logs them), not by timing. The surface names in the help come from a light list
 * that must equal the surface registry.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { SURFACE_NAMES } from '../../src/surfaces/names.js';
import { surfaces } from '../../src/surfaces/index.js';
import { ROOT, tmpDir } from '../support/paths.js';

const dir = tmpDir('sg-startup-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The module URLs a `servicegym ARGS` process resolves. */
function resolvedModules(args: string[]): string[] {
  const hooks = path.join(dir, 'hooks.mjs');
  fs.writeFileSync(hooks, `import fs from 'node:fs';\nexport async function resolve(s, c, next) {\n  const r = await next(s, c);\n  fs.appendFileSync(process.env.SG_RESOLVED_LOG, r.url + '\\n');\n  return r;\n}\n`);
  const register = path.join(dir, 'register.mjs');
  fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(new URL(`file://${hooks}`).href)});\n`);
  const log = path.join(dir, `resolved-${args.join('-')}.log`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', register, path.join(ROOT, 'src', 'cli', 'bin.ts'), ...args], { cwd: ROOT, env: { ...process.env, SG_RESOLVED_LOG: log }, encoding: 'utf8', timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
  return fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

const HEAVY = [/\/src\/domains\//, /\/src\/store\/store\.ts$/, /\/src\/surfaces\/index\.ts$/, /\/src\/run\/task-run\.ts$/, /\/src\/models\/providers\.ts$/, /\/better-sqlite3\//, /\/pdf-lib\//, /\/playwright-core\//, /\/hono\//, /\/zod\//];

describe('start-up', () => {
  it('servicegym --help and validate --help resolve none of the commands\' heavy modules', () => {
    for (const args of [['--help'], ['validate', '--help'], ['prompts', '--help']]) {
      const loaded = resolvedModules(args);
      expect(loaded.some((u) => u.endsWith('/src/cli/main.ts'))).toBe(true);
      expect(loaded.filter((u) => HEAVY.some((re) => re.test(u))), args.join(' ')).toEqual([]);
    }
  }, 300_000);

  it('the surface names in the help are the surface registry\'s', () => {
    expect([...SURFACE_NAMES].sort()).toEqual(Object.keys(surfaces).sort());
  });
});
