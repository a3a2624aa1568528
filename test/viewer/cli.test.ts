/**
 * `servicegym view` from the command line: the store is checked before anything starts (exit 2
 * with its message), `--export DIR` writes the static site, and the server runs until SIGTERM
 * (a real subprocess, so the signal handling is the CLI's own).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it, vi, onTestFinished } from 'vitest';
import { main } from '../../src/cli/main.js';
import { UI_DIR_ENV } from '../../src/viewer/ui-dir.js';
import { ROOT, tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';

const cli = runCli;

let db: string;
let uiDir: string;

beforeAll(async () => {
  const dir = tmpDir('sg-view-cli-');
  db = path.join(dir, 'store.db');
  expect((await cli(['validate', '--db', db, '-q'])).code).toBe(0);
  uiDir = path.join(dir, 'ui');
  fs.mkdirSync(path.join(uiDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><title>servicegym view</title>');
  fs.writeFileSync(path.join(uiDir, 'assets', 'viewer.js'), 'void 0;');
});

afterEach(() => {
  delete process.env[UI_DIR_ENV];
});

describe('servicegym view', () => {
  it('exits 2 naming what writes a store when the store is missing (view: the commands that store runs; prompts: optimize)', async () => {
    const missing = path.join(tmpDir('sg-view-none-'), 'none.db');
    const r = await cli(['view', '--db', missing]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`servicegym: error: ${missing}: no run store here; \`servicegym run\`, \`validate\`, \`replay\`, \`campaign\`, \`optimize\` and \`import tau2-results\` write one (into .servicegym/servicegym.db, or the --db PATH they are given): run one of them first, or give --db the store they wrote\n`);
    const p = await cli(['prompts', '--db', missing]);
    expect(p.code).toBe(2);
    expect(p.err).toBe(`servicegym: error: ${missing}: no run store here; prompt versions are stored by \`servicegym optimize CONFIG\` (into the config's "store", else .servicegym/servicegym.db, or its --db PATH) and updated by \`canary\`: run optimize first, or give --db the store it wrote\n`);
  });

  it('exits 2 when the store is from an older schema', async () => {
    const old = path.join(tmpDir('sg-view-old-'), 'old.db');
    const raw = new Database(old);
    raw.exec('CREATE TABLE runs (id TEXT)');
    raw.close();
    const r = await cli(['view', '--db', old, '--export', tmpDir('sg-view-out-')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/this store is from an older servicegym schema \(v0, this is v4\)/);
  });

  it('exits 2 on a bad --port', async () => {
    const r = await cli(['view', '--db', db, '--port', '70000']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--port must be an integer from 0 to 65535');
  });

  it("exits 2 on an empty --host instead of binding every interface (an unset variable in --host \"$HOST\")", async () => {
    for (const host of ['', ' ']) {
      const r = await cli(['view', '--db', db, '--host', host, '--port', '0']);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`servicegym: error: --host names no address (got '${host}'); give one such as 127.0.0.1, or 0.0.0.0 to serve on every interface\n`);
      expect(r.out).toBe('');
    }
  });

  it('--export DIR writes a static site with the data of every run', async () => {
    process.env[UI_DIR_ENV] = uiDir;
    const out = path.join(tmpDir('sg-view-export-'), 'site');
    const r = await cli(['view', '--db', db, '--export', out]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^exported 1 run and 5 episodes \\(data \\d+ KiB\\): open ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/index.html\\n$`));
    expect(fs.readdirSync(out).sort()).toEqual(['assets', 'data.js', 'episodes', 'index.html']);
    expect(fs.readFileSync(path.join(out, 'data.js'), 'utf8')).toMatch(/^\/\* servicegym view --export: static data \(1 runs\)[^\n]*\*\/\nwindow.__SERVICEGYM_DATA__ = \{"version":1,/);
  });

  it('--export refuses a non-empty folder that holds no earlier export (--force overrides) and replaces an earlier export', async () => {
    process.env[UI_DIR_ENV] = uiDir;
    const out = tmpDir('sg-view-busy-');
    fs.writeFileSync(path.join(out, 'report.pdf'), 'mine');
    const refused = await cli(['view', '--db', db, '--export', out]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`${out}: the output folder is not empty (report.pdf) and does not hold an earlier export (data.js)`);
    expect(fs.readdirSync(out)).toEqual(['report.pdf']);
    expect((await cli(['view', '--db', db, '--export', out, '--force'])).code).toBe(0);
    // A stale asset of an earlier export is removed on the next export into the same folder.
    fs.writeFileSync(path.join(out, 'assets', 'index-stale.js'), '');
    expect((await cli(['view', '--db', db, '--export', out])).code).toBe(0);
    expect(fs.existsSync(path.join(out, 'assets', 'index-stale.js'))).toBe(false);
    expect(fs.readdirSync(out).sort()).toEqual(['assets', 'data.js', 'episodes', 'index.html', 'report.pdf']);
  });

  it('--export: a data.js, index.html or episodes/ of someone else is not an earlier export, and --force removes nothing', async () => {
    process.env[UI_DIR_ENV] = uiDir;
    const out = tmpDir('sg-view-theirs-');
    fs.mkdirSync(path.join(out, 'assets'));
    fs.mkdirSync(path.join(out, 'episodes'));
    fs.writeFileSync(path.join(out, 'data.js'), 'var mine = 1;\n');
    fs.writeFileSync(path.join(out, 'assets', 'logo.png'), 'logo');
    fs.writeFileSync(path.join(out, 'episodes', 'ep1.md'), 'notes');
    const refused = await cli(['view', '--db', db, '--export', out]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('does not hold an earlier export (data.js)');
    expect(fs.readFileSync(path.join(out, 'data.js'), 'utf8')).toBe('var mine = 1;\n');
    expect((await cli(['view', '--db', db, '--export', out, '--force'])).code).toBe(0);
    expect(fs.readFileSync(path.join(out, 'assets', 'logo.png'), 'utf8')).toBe('logo');
    expect(fs.readFileSync(path.join(out, 'episodes', 'ep1.md'), 'utf8')).toBe('notes');
  });

  it('--export refuses, before writing anything, a folder where data.js is a folder', async () => {
    process.env[UI_DIR_ENV] = uiDir;
    const out = tmpDir('sg-view-inway-');
    fs.mkdirSync(path.join(out, 'data.js'));
    const r = await cli(['view', '--db', db, '--export', out, '--force']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${path.join(out, 'data.js')}: data.js is in the way: expected a file there`);
    expect(fs.readdirSync(out)).toEqual(['data.js']);
  });

  it('--export with an empty path, and --force without --export, are bad input (exit 2)', async () => {
    process.env[UI_DIR_ENV] = uiDir;
    const empty = await cli(['view', '--db', db, '--export', '']);
    expect(empty.code).toBe(2);
    expect(empty.err).toContain('the output folder is an empty path');
    const stray = await cli(['view', '--db', db, '--force']);
    expect(stray.code).toBe(2);
    expect(stray.err).toContain('--force goes with --export DIR');
  });

  it('--export says how to build the UI when it is missing', async () => {
    process.env[UI_DIR_ENV] = tmpDir('sg-view-no-ui-');
    const r = await cli(['view', '--db', db, '--export', tmpDir('sg-view-out-')]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/the viewer UI is not built .*run `npm run build`/);
  });

  // Starting the CLI from source compiles it first: seconds, more on a loaded machine.
  it('serves on 127.0.0.1 until SIGTERM, then exits 0', { timeout: 120_000 }, async () => {
    const { child, exited, url: served } = startView([]);
    try {
      const url = await served(/servicegym view: (http:\/\/127\.0\.0\.1:\d+\/) \(store /);
      const runs = (await (await fetch(`${url}api/runs`)).json()) as { id: string; episodes: number }[];
      expect(runs.map((r) => r.episodes)).toEqual([5]);
      expect(await (await fetch(url)).text()).toContain('<title>servicegym view</title>');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('-q prints the address alone on stdout; the warning for a non-loopback --host still goes to stderr', { timeout: 120_000 }, async () => {
    const { child, exited, url: served, output } = startView(['-q', '--host', '127.0.0.2']);
    try {
      const url = await served(/^(http:\/\/127\.0\.0\.2:\d+\/)\n/);
      expect(output().out).toBe(`${url}\n`);
      expect(output().err).toBe('servicegym: warning: binding 127.0.0.2: anyone who can reach it can read the store\n');
      expect(((await (await fetch(`${url}api/runs`)).json()) as unknown[]).length).toBe(1);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('exits on SIGINT (Ctrl-C) while a browser holds connections open: idle keep-alive, connected without a request, a request half sent', { timeout: 120_000 }, async () => {
    const { child, exited, url: served } = startView([]);
    const sockets: net.Socket[] = [];
    const agent = new http.Agent({ keepAlive: true });
    onTestFinished(() => {
      agent.destroy();
      for (const s of sockets) s.destroy();
    });
    const url = new URL(await served(/servicegym view: (http:\/\/127\.0\.0\.1:\d+\/) \(store /));
    // A finished request whose connection the client keeps alive for the next one.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      http.get(new URL('api/runs', url), { agent }, (res) => res.resume().on('end', () => resolve(res.statusCode))).on('error', reject);
    });
    expect(status).toBe(200);
    // A browser's preconnected socket (no request yet), and a request whose headers never end.
    for (const text of ['', 'GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\n']) {
      const socket = net.connect(Number(url.port), '127.0.0.1');
      socket.on('error', () => {});
      await new Promise((resolve) => socket.once('connect', resolve));
      if (text) socket.write(text);
      sockets.push(socket);
    }
    // The server has taken every connection before the signal.
    await expect.poll(() => fetch(new URL('api/runs', url)).then((r) => r.status)).toBe(200);
    child.kill('SIGINT');
    // Left open, these would keep the server up until their timeouts (30 s and more): it closes them and exits.
    await expect.poll(() => child.exitCode, { timeout: 20_000, interval: 50 }).toBe(0);
    expect(await exited).toBe(0);
  });
});

/**
 * `servicegym view --db <db> --port 0 <args>` from source in a subprocess (killed when the test
 * ends, whatever happened): `url(pattern)` resolves to the first group of `pattern` once stdout
 * matches it, `exited` to the exit code, `output()` to what was printed so far.
 */
function startView(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'bin.ts'), 'view', '--db', db, '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, [UI_DIR_ENV]: uiDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Never leave a server behind, even when the test times out.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(out);
        if (m) resolve(m[1]);
      };
      child.stdout.on('data', check);
      check();
      child.on('exit', (code) => reject(new Error(`view exited ${code} before serving: ${out}${err}`)));
    });
  return { child, exited, url, output: () => ({ out, err }) };
}
