/**
 * `servicegym view [--db PATH] [--port N] [--host ADDR]`: a read-only local web viewer over the
 * run store (127.0.0.1 by default) that picks up new runs while it is open; stops on Ctrl-C or
 * SIGTERM at once, closing every open connection (a browser's keep-alive and preconnected sockets
 * would otherwise hold the server until their timeouts).
 * `servicegym view --export DIR`: writes the viewer and every run into DIR as a static site that
 * opens from the file system, with no server and no network.
 *
 * Output: the server's address on stdout, `servicegym view: URL (store …; read-only; Ctrl-C to
 * stop)`; with `-q` the address alone (`http://127.0.0.1:8765/`), as other commands' `-q` drops
 * the chatter but keeps the result. The warning for a non-loopback `--host` goes to stderr
 * whether or not `-q` is given (a warning is not progress).
 *
 * The store is checked before anything starts: a missing store exits 2 naming the commands that
 * write one; a locked, foreign or other-schema store exits 2 with the store's message. The server and the exporter are loaded only when this
 * command runs, so other commands start without them.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { DEFAULT_STORE_PATH } from '../store/paths.js';
import { BadInputError } from '../spec/errors.js';
import { DEFAULT_VIEWER_HOST, DEFAULT_VIEWER_PORT } from '../viewer/defaults.js';

/** The commands whose runs the viewer shows (each stores what it ran). */
const STORE_WRITERS = '`servicegym run`, `validate`, `replay`, `campaign`, `optimize` and `import tau2-results`';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new BadInputError(`--port must be an integer from 0 to 65535 (0 picks a free port), got '${text}'`);
  return port;
}

/** Resolves on the first SIGINT or SIGTERM. */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Registers `servicegym view` (server, or `--export DIR`) on the program; `setExit` receives the exit code. */
export function registerView(program: Command, setExit: (code: number) => void): void {
  program
    .command('view')
    .description('browse runs, episodes, comparisons and prompt releases in a local web viewer (read-only), or export it as a static site')
    .option('--db <path>', 'run store (SQLite)', DEFAULT_STORE_PATH)
    .option('--port <n>', 'port to listen on (0 picks a free one)', String(DEFAULT_VIEWER_PORT))
    .option('--host <addr>', 'address to bind (the viewer has no authentication)', DEFAULT_VIEWER_HOST)
    .option('--allow-host <name>', 'also accept this Host name (besides loopback; repeatable), e.g. when serving on a LAN address', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--export <dir>', 'write a static site (index.html, assets, data.js) into DIR instead of serving (new, empty, or an earlier export)')
    .option('--force', 'with --export: write into a non-empty folder that holds no earlier export')
    .option('-q, --quiet', 'print the address alone, without the text around it (warnings still go to stderr)')
    .action(async (flags) => {
      const { RunStore } = await import('../store/store.js');
      const port = parsePort(flags.port);
      if (!fs.existsSync(flags.db)) throw new BadInputError(`no run store here; ${STORE_WRITERS} write one (into ${DEFAULT_STORE_PATH}, or the --db PATH they are given): run one of them first, or give --db the store they wrote`, { file: flags.db });
      RunStore.open(flags.db, { readonly: true }).close();
      if (flags.force && flags.export === undefined) throw new BadInputError('--force goes with --export DIR');
      if (flags.export !== undefined) {
        const { exportStaticSite } = await import('../viewer/export.js');
        const { registryTaskResolver } = await import('./view-tasks.js');
        const res = exportStaticSite({ dbPath: flags.db, outDir: flags.export, force: flags.force, taskInfo: registryTaskResolver() });
        process.stdout.write(`exported ${res.runs} run${res.runs === 1 ? '' : 's'} and ${res.episodes} episode${res.episodes === 1 ? '' : 's'} (data ${(res.dataBytes / 1024).toFixed(0)} KiB): open ${res.index}\n`);
        setExit(0);
        return;
      }
      // An empty address (e.g. `--host "$HOST"` with HOST unset) would bind every interface.
      if (String(flags.host).trim() === '') throw new BadInputError(`--host names no address (got '${flags.host}'); give one such as ${DEFAULT_VIEWER_HOST}, or 0.0.0.0 to serve on every interface`);
      if (!LOOPBACK.has(flags.host)) process.stderr.write(`servicegym: warning: binding ${flags.host}: anyone who can reach it can read the store\n`);
      const { startViewer } = await import('../viewer/server.js');
      const { registryTaskResolver } = await import('./view-tasks.js');
      const allowHosts = [...flags.allowHost, ...(LOOPBACK.has(flags.host) ? [] : [flags.host])];
      const viewer = await startViewer({ dbPath: flags.db, host: flags.host, port, allowHosts, taskInfo: registryTaskResolver() });
      // Handlers first: a caller may stop the viewer as soon as it sees the URL.
      const stopped = untilStopped();
      process.stdout.write(flags.quiet ? `${viewer.url}\n` : `servicegym view: ${viewer.url} (store ${flags.db}; read-only; Ctrl-C to stop)\n`);
      await stopped;
      await viewer.close();
      setExit(0);
    });
}
