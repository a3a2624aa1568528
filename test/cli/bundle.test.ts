/**
 * The CLI bundle (`scripts/bundle-cli.mjs`, run by `npm run build`; issue 17 item 2): a small
 * built tree is bundled in place, and the bundle behaves as the modules did — a module's
 * `import.meta.url` still names its own file (data beside the code resolves), dynamic imports
 * stay in their own chunks and load only when called, zod's messages are unchanged — while the
 * process resolves none of zod's modules (its locales stay out of the bundle), nor undici's (the
 * two modules of it the transport loads, src/models/http-pool.ts). The build id is stamped into the
 * bundle (`src/util/build-id.ts`), and the licenses of the bundled packages go with it. What a run
 * loads is grouped into few chunks: the episode machinery in one, each domain package in its own,
 * code shared by domains in one, none of them loaded by a command's registration (`--help`). The
 * entry of `run --threads`' worker threads is bundled too, sharing the chunks: a thread started
 * on it loads no module of tsc's per-file output (each of which would cost the thread a resolve,
 * a read and a compile).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, tmpDir } from '../support/paths.js';

const dir = tmpDir('sg-bundle-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(rel: string, text: string, root = dir): void {
  fs.mkdirSync(path.dirname(path.join(root, 'dist', rel)), { recursive: true });
  fs.writeFileSync(path.join(root, 'dist', rel), text);
}

/** The bundler's `bundleCli` (scripts/bundle-cli.mjs). */
async function bundler(): Promise<(o: { dist: string; entry: string; stamp: boolean }) => Promise<void>> {
  const script = pathToFileURL(path.join(ROOT, 'scripts', 'bundle-cli.mjs')).href;
  return ((await import(/* @vite-ignore */ script)) as { bundleCli: (o: { dist: string; entry: string; stamp: boolean }) => Promise<void> }).bundleCli;
}

/** Runs `node --import <resolve logger> bin args` in `root`: its stdout and the names of the chunk files it resolved. */
function runLogged(root: string, bin: string, args: string[]): { out: string; chunks: string[] } {
  const hooks = path.join(root, 'hooks.mjs');
  fs.writeFileSync(hooks, "import fs from 'node:fs';\nexport async function resolve(s, c, next) {\n  const r = await next(s, c);\n  fs.appendFileSync(process.env.SG_RESOLVED_LOG, r.url + '\\n');\n  return r;\n}\n");
  const register = path.join(root, 'register.mjs');
  fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const log = path.join(root, `resolved-${args.join('-')}.log`);
  const r = spawnSync(process.execPath, ['--import', register, bin, ...args], { cwd: root, env: { ...process.env, SG_RESOLVED_LOG: log }, encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  const chunks = fs.readFileSync(log, 'utf8').split('\n').filter((u) => u.includes('/chunks/')).map((u) => path.basename(new URL(u).pathname));
  return { out: r.stdout.trim(), chunks: [...new Set(chunks)] };
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

    const bundleCli = await bundler();
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

  it("loads node:child_process only when commander spawns an executable subcommand, not with commander", async () => {
    const root = path.join(dir, 'commander');
    fs.mkdirSync(root, { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
    const loaded = "process.moduleLoadList.includes('NativeModule child_process')";
    write('cli/bin.js', [
      "import { Command } from 'commander';",
      "const program = new Command('demo');",
      `program.command('hello').action(() => console.log('HELLO child_process=' + ${loaded}));`,
      "program.command('sub', 'an executable subcommand', { executableFile: 'demo-sub.js' });",
      'await program.parseAsync();',
      '',
    ].join('\n'), root);
    write('cli/demo-sub.js', "console.log('SUB-RAN');\n", root);
    await (await bundler())({ dist: path.join(root, 'dist'), entry: 'cli/bin.js', stamp: false });
    const bin = path.join(root, 'dist', 'cli', 'bin.js');
    const run = (arg: string) => spawnSync(process.execPath, [bin, arg], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(run('hello').stdout.trim()).toBe('HELLO child_process=false');
    const sub = run('sub');
    expect(sub.status, sub.stderr).toBe(0);
    expect(sub.stdout.trim()).toBe('SUB-RAN');
  }, 120_000);

  it('groups what a run loads: the episode machinery in one chunk, each domain in its own, code shared by domains in one; registration loads none', async () => {
    const root = path.join(dir, 'groups');
    fs.mkdirSync(root, { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
    const files: Record<string, string> = {
      'cli/bin.js': "import { main } from './main.js';\nawait main(process.argv.slice(2));\n",
      'cli/main.js': "export async function main([cmd, domain]) {\n  const { run } = await import('./validate.js');\n  console.log(cmd === 'help' ? 'HELP' : await run(domain));\n}\n",
      'cli/validate.js': "import { fmt } from '../util/fmt.js';\nexport async function run(name) {\n  const { load } = await import('../domains/catalog.js');\n  const { runTasks } = await import('../run/task-run.js');\n  return fmt(runTasks(await load(name)));\n}\n",
      'util/fmt.js': "export const fmt = (x) => 'OUT ' + x;\n",
      'domains/catalog.js': "const PACKAGES = { a: () => import('./a/index.js'), b: () => import('./b/index.js') };\nexport const load = async (name) => (await PACKAGES[name]()).domain;\n",
      'domains/a/index.js': "import { shared } from '../common/shared.js';\nimport { toolsA } from './tools.js';\nexport const domain = { tools: toolsA + shared() };\n",
      'domains/a/tools.js': "export const toolsA = 'DOMAIN-A-TOOLS';\n",
      'domains/b/index.js': "import { shared } from '../common/shared.js';\nexport const domain = { tools: 'DOMAIN-B-TOOLS' + shared() };\n",
      'domains/common/shared.js': "import { evaluate } from '../../evaluation/evaluate.js';\nexport const shared = () => '+COMMON-CODE+' + evaluate();\n",
      'run/task-run.js': "import { evaluate } from '../evaluation/evaluate.js';\nimport { episode } from '../orchestrator/episode.js';\nexport const runTasks = (d) => `${d.tools} ${episode()} ${evaluate()}`;\n",
      'evaluation/evaluate.js': "import { fmt } from '../util/fmt.js';\nexport const evaluate = () => fmt('EVALUATED').slice(4);\n",
      'orchestrator/episode.js': "export const episode = () => 'EPISODE-RAN';\n",
    };
    for (const [rel, text] of Object.entries(files)) write(rel, text, root);
    await (await bundler())({ dist: path.join(root, 'dist'), entry: 'cli/bin.js', stamp: false });

    const chunkDir = path.join(root, 'dist', 'cli', 'chunks');
    const holding = (text: string) => fs.readdirSync(chunkDir).filter((c) => fs.readFileSync(path.join(chunkDir, c), 'utf8').includes(text));
    // The episode machinery (task-run, evaluate, episode, the domain catalog) is one chunk.
    const [episodes] = holding('EPISODE-RAN');
    expect(episodes).toMatch(/^episodes-/);
    expect(holding('EVALUATED')).toEqual([episodes]);
    expect(holding('PACKAGES = {')).toEqual([episodes]);
    // Each domain's own modules are its chunk; the module both load is a third one.
    const [a] = holding('DOMAIN-A-TOOLS');
    expect(a).toMatch(/^domain-a-/);
    expect(fs.readFileSync(path.join(chunkDir, a), 'utf8')).toContain('shared()'); // a/index.js is with a/tools.js
    expect(holding('+COMMON-CODE+')).toHaveLength(1);
    expect(holding('+COMMON-CODE+')[0]).toMatch(/^domains-common-/);
    // util/fmt.js is loaded at registration (by cli/validate.js): it stays out of the groups.
    expect(holding('OUT ').some((c) => /^(episodes|domain)/.test(c))).toBe(false);

    const run = runLogged(root, path.join(root, 'dist', 'cli', 'bin.js'), ['run', 'a']);
    expect(run.out).toBe('OUT DOMAIN-A-TOOLS+COMMON-CODE+EVALUATED EPISODE-RAN EVALUATED');
    expect(run.chunks).toEqual(expect.arrayContaining([episodes, a, holding('+COMMON-CODE+')[0]]));
    expect(run.chunks.some((c) => holding('DOMAIN-B-TOOLS').includes(c))).toBe(false); // the other domain is not loaded
    const help = runLogged(root, path.join(root, 'dist', 'cli', 'bin.js'), ['help']);
    expect(help.out).toBe('HELP');
    expect(help.chunks.filter((c) => /^(episodes|domain)/.test(c))).toEqual([]);
  }, 120_000);

  it("bundles the thread entry of run --threads as a second entry: a worker thread loads only the bundle's chunks, the same files the main thread loads", async () => {
    const root = path.join(dir, 'threads');
    fs.mkdirSync(root, { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
    // As in src/queue: the pool starts its thread on the file beside its own module (import.meta.url).
    const files: Record<string, string> = {
      'cli/bin.js': "const { runOnThread } = await import('../queue/thread-pool.js');\nconsole.log(await runOnThread());\n",
      'queue/thread-pool.js': "import { Worker } from 'node:worker_threads';\nimport { episode } from '../run/task-run.js';\nexport const runOnThread = () => new Promise((res, rej) => {\n  const w = new Worker(new URL('./thread-worker.js', import.meta.url));\n  w.once('message', (m) => { void w.terminate(); res(`main: ${episode()}; thread: ${m}`); });\n  w.once('error', rej);\n});\n",
      'queue/thread-worker.js': "import { parentPort } from 'node:worker_threads';\nimport { episode } from '../run/task-run.js';\nimport { domain } from '../domains/a/index.js';\nparentPort.postMessage(`${episode()} ${domain}`);\n",
      'run/task-run.js': "import { fmt } from '../util/fmt.js';\nexport const episode = () => fmt('EPISODE-RAN');\n",
      'util/fmt.js': "export const fmt = (x) => '<' + x + '>';\n",
      'domains/a/index.js': "export const domain = 'DOMAIN-A';\n",
    };
    for (const [rel, text] of Object.entries(files)) write(rel, text, root);
    await (await bundler())({ dist: path.join(root, 'dist'), entry: 'cli/bin.js', stamp: false }); // the default second entries

    const dist = path.join(root, 'dist');
    const threadEntry = fs.readFileSync(path.join(dist, 'queue', 'thread-worker.js'), 'utf8');
    const imports = [...threadEntry.matchAll(/from "([^"]+)"/g)].map((m) => m[1]).filter((s) => s.startsWith('.'));
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.every((s) => s.startsWith('../cli/chunks/'))).toBe(true); // bundled, not tsc's module graph
    const chunkDir = path.join(dist, 'cli', 'chunks');
    const holding = (text: string) => fs.readdirSync(chunkDir).filter((c) => fs.readFileSync(path.join(chunkDir, c), 'utf8').includes(text));
    expect(holding('EPISODE-RAN')).toHaveLength(1); // one copy, shared by both entries

    // Every file of dist/ the process resolves, its worker thread's included, is an entry or a chunk.
    const log = path.join(root, 'resolved.log');
    const hooks = path.join(root, 'hooks.mjs');
    fs.writeFileSync(hooks, "import fs from 'node:fs';\nexport async function resolve(s, c, next) {\n  const r = await next(s, c);\n  fs.appendFileSync(process.env.SG_RESOLVED_LOG, r.url + '\\n');\n  return r;\n}\n");
    const register = path.join(root, 'register.mjs');
    fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const r = spawnSync(process.execPath, ['--import', register, path.join(dist, 'cli', 'bin.js')], { cwd: root, env: { ...process.env, SG_RESOLVED_LOG: log }, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('main: <EPISODE-RAN>; thread: <EPISODE-RAN> DOMAIN-A');
    const own = [...new Set(fs.readFileSync(log, 'utf8').split('\n').filter((u) => u.startsWith(pathToFileURL(dist).href)))].map((u) => path.relative(dist, new URL(u).pathname));
    expect(own).toContain(path.join('queue', 'thread-worker.js')); // the thread ran, on the bundled entry
    expect(own.filter((f) => !f.startsWith(path.join('cli', 'chunks') + path.sep) && f !== path.join('cli', 'bin.js') && f !== path.join('queue', 'thread-worker.js'))).toEqual([]);
    expect(own).toContain(path.join('cli', 'chunks', holding('EPISODE-RAN')[0]));
  }, 120_000);
});
