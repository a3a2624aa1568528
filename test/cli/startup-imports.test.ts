/**
 * Start-up (issue 17 item 2): `servicegym --help` loads no command's heavy modules — no domain,
 * no SQLite store, no surface (browsers, PDF rendering), no model client, no zod schema — because every command
 * loads them when it runs; and `validate --domain D` loads domain D alone on the API surface — no
 * other domain, no eager registry, no browser, pixel or terminal surface, no GUI app server — through
 * the lazy registries (`src/domains/catalog.ts`, `src/surfaces/catalog.ts`). Checked by the modules a
 * process actually resolves (a module resolve hook logs them), not by timing. The surface names in the
 * help come from a light list that must equal the surface registry.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { SURFACE_NAMES } from '../../src/surfaces/names.js';
import { surfaces } from '../../src/surfaces/index.js';
import { DOMAIN_NAMES, DOMAIN_PACKAGE_NAMES } from '../../src/domains/catalog.js';
import { HAS_SHARED, ROOT, SHARED, tmpDir } from '../support/paths.js';

const dir = tmpDir('sg-startup-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The module URLs a `servicegym ARGS` process resolves. */
function resolvedModules(args: string[]): string[] {
  const hooks = path.join(dir, 'hooks.mjs');
  fs.writeFileSync(hooks, `import fs from 'node:fs';\nexport async function resolve(s, c, next) {\n  const r = await next(s, c);\n  fs.appendFileSync(process.env.SG_RESOLVED_LOG, r.url + '\\n');\n  return r;\n}\n`);
  const register = path.join(dir, 'register.mjs');
  fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(new URL(`file://${hooks}`).href)});\n`);
  const log = path.join(dir, `resolved-${args.join('-').replace(/[^\w.-]+/g, '_')}.log`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', register, path.join(ROOT, 'src', 'cli', 'bin.ts'), ...args], { cwd: ROOT, env: { ...process.env, SG_RESOLVED_LOG: log, SERVICEGYM_CACHE_DIR: path.join(dir, 'cache') }, encoding: 'utf8', timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
  return fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
}

/** The modules of the commands other than validate (`COMMANDS` in src/cli/main.ts): a run of validate loads none. */
const OTHER_COMMANDS = ['replay', 'campaign', 'import-record', 'run', 'conformance', 'lint', 'optimize', 'canary', 'prompts', 'view', 'compare', 'compare-surfaces', 'terminal', 'rescore', 'evaluate', 'import-tau2', 'worker', 'merge-shards'].map((m) => new RegExp(`/src/cli/${m}\\.ts$`));

const HEAVY = [/\/src\/domains\//, /\/src\/store\/store\.ts$/, /\/src\/surfaces\/index\.ts$/, /\/src\/run\/task-run\.ts$/, /\/src\/models\/providers\.ts$/, /\/better-sqlite3\//, /\/pdf-lib\//, /\/playwright-core\//, /\/hono\//, /\/zod\//];

describe('start-up', () => {
  it('servicegym --help and validate --help resolve none of the commands\' heavy modules', () => {
    for (const args of [['--help'], ['validate', '--help'], ['prompts', '--help']]) {
      const loaded = resolvedModules(args);
      expect(loaded.some((u) => u.endsWith('/src/cli/main.ts'))).toBe(true);
      expect(loaded.filter((u) => HEAVY.some((re) => re.test(u))), args.join(' ')).toEqual([]);
    }
  }, 300_000);

  it("servicegym --help lists the commands from their summaries: it resolves no command's module", () => {
    const loaded = resolvedModules(['--help']);
    expect(loaded.filter((u) => [...OTHER_COMMANDS, /\/src\/cli\/validate\.ts$/].some((re) => re.test(u)))).toEqual([]);
  }, 300_000);

  /** What `validate` on domain `name` must not resolve: other domains, the eager registries, the non-API surfaces and their libraries. */
  const foreignTo = (name: string): RegExp[] => [
    ...[...DOMAIN_PACKAGE_NAMES, ...DOMAIN_NAMES].filter((d) => d !== name).map((d) => new RegExp(`/src/domains/${d}/`)),
    /\/src\/domains\/index\.ts$/,
    /\/src\/surfaces\/(?!(api|catalog|names|browser-pool)\.ts$)/,
    /\/playwright-core\//, /\/pdf-lib\//, /\/hono\//, /\/@hono\//,
    // The tolerant JSON parser (CommonJS) describes files that fail to parse; files that parse never load it.
    /\/jsonc-parser\//,
    ...OTHER_COMMANDS,
  ];
  const runs: [string, string[]][] = [
    ['airline', ['validate', '--domain', 'airline', '--no-store', '-q']],
    ['retail', ['validate', '--domain', 'retail', '--no-store', '-q']],
    ...(HAS_SHARED ? [['airline', ['validate', '--domain', 'airline', '--data-dir', path.join(SHARED, 'peers', 'tau2', 'airline'), '--tasks', '0', '--no-store', '-q']] as [string, string[]]] : []),
  ];
  it.each(runs)('validate --domain %s resolves that domain alone, on the API surface', (name, args) => {
    const loaded = resolvedModules(args);
    expect(loaded.some((u) => u.endsWith(`/src/domains/${name}/index.ts`)), 'the domain itself').toBe(true);
    expect(loaded.some((u) => u.endsWith('/src/surfaces/api.ts')), 'the API surface').toBe(true);
    expect(loaded.filter((u) => foreignTo(name).some((re) => re.test(u))), args.join(' ')).toEqual([]);
  }, 300_000);

  it('the surface names in the help are the surface registry\'s', () => {
    expect([...SURFACE_NAMES].sort()).toEqual(Object.keys(surfaces).sort());
  });
});
