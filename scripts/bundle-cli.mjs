// Bundles the built CLI (tsc's dist/cli/bin.js and everything it imports) into dist/cli/bin.js plus
// code-split chunks in dist/cli/chunks/, so a command resolves and compiles a handful of files
// instead of hundreds of modules: each module costs Node's ESM loader a resolve, a read and a
// compile, and zod's entry alone pulls in ~95 modules (all its locales, which servicegym never
// uses). Dynamic imports stay dynamic (a command still loads only the chunks it needs: no
// domain for `--help`, one domain for `validate --domain D`).
//
// - Bundled: servicegym's own modules, zod, commander and undici (the model calls' HTTP client,
//   loaded before a run's first call). Every other package stays an external import (native
//   addons such as better-sqlite3, browsers, Redis clients, the viewer's server).
// - The license of every bundled package goes with its code: dist/cli/THIRD-PARTY-LICENSES.txt
//   holds each one's name, version, license and license file, and each chunk that holds a
//   package's code starts with a comment naming the package and that file.
// - `import.meta.url` in a bundled module is rewritten to that module's own file in dist/, so
//   paths to data beside the code (policies, task files, tools.json) resolve as before; tsc's
//   per-module output and the copied assets stay in dist/.
// - What validate and run load on every run is grouped into few chunks (`runGroups`): one chunk
//   for the episode machinery, one per domain package, one for code several domains share. Each
//   module loaded costs Node 20's ESM loader a resolve, a read and a compile; spread over the
//   default split this was ~60 chunks for one `validate`, now ~15. `--help` loads none of them.
// - commander's `node:child_process` is required on its first spawn (`lazyChildProcess`), not
//   when commander loads: servicegym has no executable subcommands.
// - The build id (src/util/build-id.ts) is stamped into the bundle: a hash of all its code.
// - Set SERVICEGYM_NO_BUNDLE=1 to skip (dist/cli/bin.js is then tsc's unbundled entry).
// - `bundleCli({ dist, entry, stamp })` is exported for tests (test/cli/bundle.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinModules } from 'node:module';
import { createHash } from 'node:crypto';
import { build } from 'vite';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Packages compiled into the bundle; any other bare import stays external. */
const BUNDLED = new Set(['zod', 'commander', 'undici']);
/** Beside the entry: the licenses of the packages in the bundle. */
const NOTICES = 'THIRD-PARTY-LICENSES.txt';
const PLACEHOLDER = '__SERVICEGYM_DIST_ROOT__/';
const BUILD_ID_PLACEHOLDER = '__SERVICEGYM_BUILD_ID__';

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const packageOf = (id) => (id.startsWith('@') ? id.split('/').slice(0, 2).join('/') : id.split('/')[0]);
const isExternal = (id) => {
  if (builtins.has(id) || id.startsWith('node:')) return true;
  if (id.startsWith('.') || id.startsWith('/') || id.startsWith('\0')) return false;
  return !BUNDLED.has(packageOf(id));
};

/** `import.meta.url` of a module of `dist` -> the URL of that module's own file, whatever chunk it lands in (`outDir` holds the chunks). */
function ownModuleUrl(dist, outDir) {
  return {
    name: 'servicegym-own-module-url',
    enforce: 'pre',
    transform(code, id) {
      if (!id.startsWith(dist + path.sep) || !code.includes('import.meta.url')) return null;
      const rel = path.relative(dist, id).split(path.sep).join('/');
      return { code: code.replaceAll('import.meta.url', `new URL(${JSON.stringify(PLACEHOLDER + rel)}, import.meta.url).href`), map: null };
    },
    renderChunk(code, chunk) {
      if (!code.includes(PLACEHOLDER)) return null;
      const toRoot = path.relative(path.dirname(path.join(outDir, chunk.fileName)), dist).split(path.sep).join('/');
      return { code: code.replaceAll(PLACEHOLDER, toRoot ? `${toRoot}/` : './'), map: null };
    },
  };
}

/**
 * commander requires `node:child_process` when it loads, for executable subcommands, which
 * servicegym has none of: loading it (with `net`, `dgram` and the stream modules it pulls in) cost
 * every command ~3% of a `validate`'s instructions. The bundle requires it on the first `spawn`.
 */
const lazyChildProcess = {
  name: 'servicegym-lazy-child-process',
  transform(code, id) {
    if (!/[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/.test(id)) return null;
    const eager = "const childProcess = require('node:child_process');";
    if (!code.includes(eager)) {
      this.warn(`commander's lib/command.js no longer has "${eager}": node:child_process loads with it again`);
      return null;
    }
    return { code: code.replace(eager, "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"), map: null };
  },
};

/**
 * Modules (paths in dist) that `validate` and `run` import when they run (never at registration,
 * so `--help` does not load them): the static closure of these, less what the entry and the
 * command modules load, becomes the `episodes` chunk.
 */
const EPISODE_ROOTS = ['domains/catalog.js', 'run/task-run.js', 'evaluation/lint.js', 'surfaces/api.js'];
/** The domain catalog: each module it imports dynamically is a domain package. */
const DOMAIN_CATALOG = 'domains/catalog.js';

/**
 * The chunk groups (rolldown `codeSplitting.groups`) for what a run loads: `episodes` (see
 * {@link EPISODE_ROOTS}); `domain-<name>`, what one domain package loads statically (with every
 * module in its folder `domains/<name>/`, whoever loads it); `domains-common`, the other modules
 * two or more domain packages load. Each group leaves out every package and what the entry
 * (`entry`, a file in dist) and the modules it imports dynamically (the command modules) load
 * statically: those keep the default split, so `--help` and registering a command load what they
 * did. A group holds the static imports of its modules, but for those left out (rolldown's
 * `includeDependenciesRecursively` is off so that it does not pull them in).
 */
function runGroups(dist, entry) {
  let groupOf;
  const build = (ctx) => {
    const info = (id) => ctx.getModuleInfo(id);
    const closure = (roots, skip = new Set()) => {
      const seen = new Set();
      const stack = roots.filter((r) => info(r));
      while (stack.length) {
        const id = stack.pop();
        if (seen.has(id) || skip.has(id)) continue;
        seen.add(id);
        stack.push(...(info(id)?.importedIds ?? []));
      }
      return seen;
    };
    const abs = (rel) => path.join(dist, rel);
    const own = (id) => id.startsWith(dist + path.sep) && !id.includes(`${path.sep}node_modules${path.sep}`);
    const start = closure([entry]);
    const registered = closure([...start].flatMap((id) => [id, ...(info(id)?.dynamicallyImportedIds ?? [])]));
    const episodes = closure(EPISODE_ROOTS.map(abs), registered);
    const domains = (info(abs(DOMAIN_CATALOG))?.dynamicallyImportedIds ?? []).map((d) => ({ name: path.basename(path.dirname(d)), modules: closure([d], new Set([...registered, ...episodes])) }));
    const uses = new Map();
    for (const d of domains) for (const id of d.modules) uses.set(id, (uses.get(id) ?? 0) + 1);
    groupOf = new Map();
    for (const id of episodes) groupOf.set(id, 'episodes');
    const domainFolder = (id) => /^domains\/([^/]+)\//.exec(path.relative(dist, id).split(path.sep).join('/'))?.[1];
    const named = new Set(domains.map((d) => d.name));
    for (const d of domains) {
      for (const id of d.modules) {
        if (groupOf.has(id)) continue;
        const home = domainFolder(id); // a module in a domain's own folder stays with that domain
        groupOf.set(id, named.has(home) ? `domain-${home}` : uses.get(id) > 1 ? 'domains-common' : `domain-${d.name}`);
      }
    }
    for (const id of [...groupOf.keys()]) if (!own(id)) groupOf.delete(id);
  };
  return [{ debugName: 'run', includeDependenciesRecursively: false, name: (id, ctx) => (groupOf ?? (build(ctx), groupOf)).get(id) ?? null }];
}

/**
 * Writes the build id into the bundle: 16 hex digits of the sha256 of every chunk's code, in place
 * of `src/util/build-id.ts`'s placeholder (caches of derived data key on it).
 */
const buildStamp = {
  name: 'servicegym-build-id',
  generateBundle(_options, bundle) {
    const chunks = Object.values(bundle).filter((c) => c.type === 'chunk').sort((a, b) => (a.fileName < b.fileName ? -1 : 1));
    const h = createHash('sha256');
    for (const c of chunks) h.update(`${c.fileName}\n${c.code}\n`);
    const id = h.digest('hex').slice(0, 16);
    let stamped = 0;
    for (const c of chunks) {
      if (!c.code.includes(BUILD_ID_PLACEHOLDER)) continue;
      c.code = c.code.replaceAll(BUILD_ID_PLACEHOLDER, id);
      stamped++;
    }
    if (!stamped) this.error(`no ${BUILD_ID_PLACEHOLDER} placeholder in the bundle (src/util/build-id.ts)`);
  },
};

/** The package folder (…/node_modules/<name>) of a bundled module id, or null for servicegym's own modules. */
function packageDirOf(id) {
  const m = /^(.*[\\/]node_modules[\\/])((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(id);
  return m ? m[1] + m[2] : null;
}

/** The license file of a package folder (LICENSE, LICENCE, with or without .md/.txt). */
function licenseFileOf(dir) {
  return fs.readdirSync(dir).find((f) => /^licen[cs]e(\.(md|txt))?$/i.test(f));
}

/**
 * Keeps the license notices of bundled packages: writes `<entry dir>/THIRD-PARTY-LICENSES.txt`
 * (name, version, license and the license file of every package with code in the bundle) and
 * starts each chunk holding such code with a comment naming the packages and that file.
 * @throws (fails the build) when a bundled package has no license file.
 */
function thirdPartyNotices(dist, outDir) {
  return {
    name: 'servicegym-third-party-notices',
    generateBundle(_options, bundle) {
      const packages = new Map();
      for (const c of Object.values(bundle)) {
        if (c.type !== 'chunk') continue;
        const names = new Set();
        for (const id of c.moduleIds) {
          const dir = packageDirOf(id);
          if (!dir) continue;
          const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
          if (!packages.has(pkg.name)) {
            const file = licenseFileOf(dir);
            if (!file) this.error(`the bundled package ${pkg.name} has no license file in ${dir}`);
            packages.set(pkg.name, { version: pkg.version, license: pkg.license ?? 'see its license file', text: fs.readFileSync(path.join(dir, file), 'utf8').trim() });
          }
          names.add(`${pkg.name} ${pkg.version} (${packages.get(pkg.name).license})`);
        }
        if (!names.size) continue;
        const notices = path.relative(path.dirname(path.join(dist, c.fileName)), path.join(outDir, NOTICES)).split(path.sep).join('/');
        const banner = `/*! Contains code of ${[...names].sort().join(', ')}: see ${notices} */\n`;
        const shebang = c.code.startsWith('#!') ? c.code.slice(0, c.code.indexOf('\n') + 1) : '';
        c.code = shebang + banner + c.code.slice(shebang.length);
      }
      const text = [...packages].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([name, p]) => `${name} ${p.version}\nLicense: ${p.license}\n\n${p.text}\n`);
      this.emitFile({
        type: 'asset',
        fileName: path.relative(dist, path.join(outDir, NOTICES)).split(path.sep).join('/'),
        source: `The servicegym command's bundle (the files in this folder and chunks/) contains code of these packages, under these licenses.\n\n${text.join('\n----------------------------------------\n\n')}`,
      });
    },
  };
}

/**
 * Bundles `dist/<entry>` (tsc's output) in place: the entry file becomes the bundle's entry and
 * its chunks go to `chunks/` beside it (emptied first). Each of `more` that exists (the entry of
 * `run --threads`' worker threads, started by file) is bundled in place too, as a second entry
 * sharing the chunks. On failure the unbundled entries are left.
 */
export async function bundleCli({ dist = path.join(ROOT, 'dist'), entry = 'cli/bin.js', more = ['queue/thread-worker.js'], stamp = true } = {}) {
  const entries = [entry, ...more.filter((e) => fs.existsSync(path.join(dist, e)))];
  const outDir = path.dirname(path.join(dist, entry));
  fs.rmSync(path.join(outDir, 'chunks'), { recursive: true, force: true });
  // Each entry is read from a renamed copy and written back to its own path: `cli/bin` -> dist/cli/bin.js.
  const inputs = entries.map((e) => {
    const file = path.join(dist, e);
    return { name: e.replace(/\.js$/, ''), file, input: path.join(path.dirname(file), `.${path.basename(file, '.js')}.unbundled.js`) };
  });
  for (const i of inputs) fs.renameSync(i.file, i.input);
  try {
    await build({
      configFile: false,
      logLevel: 'warn',
      // The folder above dist/, not dist/ itself: Vite warns when the output folder is the root (or above it).
      root: path.dirname(dist),
      plugins: [ownModuleUrl(dist, dist), lazyChildProcess, thirdPartyNotices(dist, outDir), ...(stamp ? [buildStamp] : [])],
      build: {
        ssr: true,
        outDir: dist,
        emptyOutDir: false,
        minify: false,
        sourcemap: false,
        copyPublicDir: false,
        target: 'node20',
        rolldownOptions: {
          input: Object.fromEntries(inputs.map((i) => [i.name, i.input])),
          external: isExternal,
          output: { codeSplitting: { groups: runGroups(dist, inputs[0].input) }, format: 'es', entryFileNames: '[name].js', chunkFileNames: `${path.relative(dist, outDir).split(path.sep).join('/')}/chunks/[name]-[hash].js` },
          onLog(level, log, handler) {
            if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' || log.code === 'CIRCULAR_DEPENDENCY') return;
            handler(level, log);
          },
        },
      },
      ssr: { noExternal: [...BUNDLED], external: [] },
    });
    for (const i of inputs) fs.rmSync(i.input);
  } catch (e) {
    for (const i of inputs) if (!fs.existsSync(i.file)) fs.renameSync(i.input, i.file); // leave the unbundled entries working
    throw e;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.env.SERVICEGYM_NO_BUNDLE !== '1') await bundleCli();
