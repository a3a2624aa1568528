/**
 * The CLI bundle (`scripts/bundle-cli.mjs`, run by `npm run build`; issue 17 item 2): a small
 * built tree is bundled in place, and the bundle behaves as the modules did — a module's
 * `import.meta.url` still names its own file (data beside the code resolves), dynamic imports
 * stay in their own chunks and load only when called, zod's messages are unchanged — while the
 * process resolves none of zod's modules (its locales stay out of the bundle), nor undici's (the
 * two modules of it the transport loads, src/models/http-pool.ts). The build id is stamped into the
 * bundle (`src/util/build-id.ts`), and the licenses of the bundled packages go with it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tmpDir } from '../support/paths.js';

const dir = tmpDir('sg-bundle-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, 'dist', rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, 'dist', rel), text);
}

describe('bundle-cli', () => {
  it('bundles a built tree in place: own-file URLs, lazy chunks and zod messages kept, no zod module resolved at run time', async () => {
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    write('cli/bin.js', [
      '#!/usr/bin/env node',
      "import { z } from 'zod';",
      "import { policy } from '../domains/demo/load.js';",
      "import { BUILD_ID } from '../util/build-id.js';",
      "import Agent from 'undici/lib/dispatcher/agent.js';",
      'const arg = process.argv[2];',
      "const issue = z.object({ n: z.number() }).safeParse({ n: 'x' }).error.issues[0];",
      "const lazy = arg === 'lazy' ? (await import('../domains/demo/heavy.js')).heavy() : null;",
      'const pools = new Agent({ keepAliveTimeout: 1000 });',
      'console.log(JSON.stringify({ policy: policy(), message: issue.message, path: issue.path, lazy, build: BUILD_ID, pools: typeof pools.dispatch }));',
      '',
    ].join('\n'));
    write('domains/demo/load.js', [
      "import fs from 'node:fs';",
      "import path from 'node:path';",
      "import { fileURLToPath } from 'node:url';",
      "export const policy = () => fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'data', 'policy.md'), 'utf8').trim();",
      '',
    ].join('\n'));
    write('util/build-id.js', fs.readFileSync(path.join(ROOT, 'src', 'util', 'build-id.ts'), 'utf8').replace(/: string( \| null)?/g, ''));
    write('domains/demo/heavy.js', "export const heavy = () => 'HEAVY-MODULE-LOADED';\n");
    write('domains/demo/data/policy.md', 'the demo policy\n');

    const script = pathToFileURL(path.join(ROOT, 'scripts', 'bundle-cli.mjs')).href;
    const { bundleCli } = (await import(/* @vite-ignore */ script)) as { bundleCli: (o: { dist: string; entry: string; stamp: boolean }) => Promise<void> };
    await bundleCli({ dist: path.join(dir, 'dist'), entry: 'cli/bin.js', stamp: true });

    const bin = path.join(dir, 'dist', 'cli', 'bin.js');
    const entry = fs.readFileSync(bin, 'utf8');
    expect(entry.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(entry).not.toContain('HEAVY-MODULE-LOADED'); // the dynamic import is its own chunk
    const chunks = fs.readdirSync(path.join(dir, 'dist', 'cli', 'chunks'));
    expect(chunks.some((c) => fs.readFileSync(path.join(dir, 'dist', 'cli', 'chunks', c), 'utf8').includes('HEAVY-MODULE-LOADED'))).toBe(true);
    const all = [entry, ...chunks.map((c) => fs.readFileSync(path.join(dir, 'dist', 'cli', 'chunks', c), 'utf8'))].join('\n');
    expect(all).not.toMatch(/Ungültige Eingabe|Entrada inválida/); // zod's other locales are not bundled
    expect(all).not.toContain('class WebSocket'); // undici's entry (fetch, WebSocket, ...) is not bundled, only the modules imported

    // Each bundled package's license goes with its code: the notices file, and a comment in each chunk holding it.
    const notices = fs.readFileSync(path.join(dir, 'dist', 'cli', 'THIRD-PARTY-LICENSES.txt'), 'utf8');
    for (const name of ['zod', 'undici']) {
      const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
      expect(notices).toContain(`${name} ${pkg.version}\nLicense: MIT\n`);
      expect(notices).toContain(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'LICENSE'), 'utf8').trim());
      expect(all).toMatch(new RegExp(`/\\*! Contains code of [^*]*${name} ${pkg.version.replaceAll('.', '\\.')} \\(MIT\\)[^*]*: see (\\.\\./)?THIRD-PARTY-LICENSES\\.txt \\*/`));
    }
    expect(notices).not.toContain('commander'); // only what the bundle holds

    // Which modules the bundled process resolves (a resolve hook logs them).
    const hooks = path.join(dir, 'hooks.mjs');
    fs.writeFileSync(hooks, "import fs from 'node:fs';\nexport async function resolve(s, c, next) {\n  const r = await next(s, c);\n  fs.appendFileSync(process.env.SG_RESOLVED_LOG, r.url + '\\n');\n  return r;\n}\n");
    const register = path.join(dir, 'register.mjs');
    fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const run = (arg: string) => {
      const log = path.join(dir, `resolved-${arg}.log`);
      const r = spawnSync(process.execPath, ['--import', register, bin, arg], { cwd: dir, env: { ...process.env, SG_RESOLVED_LOG: log }, encoding: 'utf8', timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      return { out: JSON.parse(r.stdout), resolved: fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) };
    };
    const plain = run('plain');
    expect(plain.out).toMatchObject({ policy: 'the demo policy', message: 'Invalid input: expected number, received string', path: ['n'], lazy: null, pools: 'function' });
    expect(plain.out.build).toMatch(/^[0-9a-f]{16}$/); // the build id is stamped
    expect(plain.resolved.filter((u) => u.includes('/zod/') || u.includes('/undici/'))).toEqual([]);
    expect(plain.resolved.filter((u) => u.includes('/chunks/'))).toEqual([]);
    const lazy = run('lazy');
    expect(lazy.out.lazy).toBe('HEAVY-MODULE-LOADED');
    expect(lazy.resolved.filter((u) => u.includes('/chunks/'))).toHaveLength(1);
  }, 120_000);
});
