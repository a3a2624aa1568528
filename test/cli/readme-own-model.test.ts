/**
 * The README's "Try it with your own model" section, followed as a new user would, against the
 * local mock OpenAI-compatible server standing in for a model on this machine: its commands are
 * read from the README itself (BASE_URL and MODEL filled in), run from an empty folder with no
 * API key set, reach a first stored `run`, and `view` serves that run over HTTP.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { startMockServer, type MockServer } from '../../src/models/mock-server.js';
import { isLoopbackUrl } from '../../src/models/config.js';
import { ROOT, tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';

const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The README section from its heading to the next `## ` heading. */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  expect(start, `README has a "## ${title}" section`).toBeGreaterThan(0);
  const end = README.indexOf('\n## ', start + 4);
  return README.slice(start, end < 0 ? undefined : end);
}

/** `servicegym` argument lists of the section's shell blocks (`npm run -s servicegym -- …`). */
function commands(text: string): string[][] {
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks.flatMap((b) =>
    b.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('npm run -s servicegym -- ')).map((l) => l.slice('npm run -s servicegym -- '.length).split(/\s+/)),
  );
}

let mock: MockServer;
let saved: Record<string, string | undefined>;
let cwd: string;
beforeEach(async () => {
  saved = { SERVICEGYM_API_KEY: process.env.SERVICEGYM_API_KEY, OPENAI_API_KEY: process.env.OPENAI_API_KEY, SERVICEGYM_BASE_URL: process.env.SERVICEGYM_BASE_URL };
  delete process.env.SERVICEGYM_API_KEY;
  delete process.env.OPENAI_API_KEY;
  delete process.env.SERVICEGYM_BASE_URL;
  cwd = process.cwd();
  // One model for both sides, as the README says: the agent's requests carry tools, the user simulator's do not.
  mock = await startMockServer({
    handler: (body) => {
      const msgs = body.messages as any[];
      if (Array.isArray(body.tools) && body.tools.length) {
        const calls = msgs.filter((m) => m.role === 'assistant' && m.tool_calls).length;
        if (calls === 0) return { tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'mia_lee_301' } }] };
        if (calls === 1) return { tool_calls: [{ name: 'get_reservation_details', arguments: { reservation_id: '8KQ2ZD' } }] };
        return { content: 'Reservation 8KQ2ZD is basic economy, which cannot be changed, so it stays on 2026-10-20.' };
      }
      return msgs.length <= 2 ? { content: "Hi, I'm Mia Lee (mia_lee_301). Please move 8KQ2ZD to 2026-10-21." } : { content: 'I see, thanks. ###STOP###' };
    },
    cost: 0.001,
  });
});
afterEach(async () => {
  process.chdir(cwd);
  await mock.close();
  for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
});

describe('README: try it with your own model', () => {
  it('the local servers it lists are loopback endpoints (no key needed)', () => {
    const text = section('Try it with your own model');
    const urls = [...text.matchAll(/\| (?:Ollama|vLLM)[^|]*\| `(http[^`]+)`/g)].map((m) => m[1]);
    expect(urls).toEqual(['http://localhost:11434/v1', 'http://localhost:8000/v1']);
    for (const u of urls) expect(isLoopbackUrl(u)).toBe(true);
  });

  it('reaches a first run and opens it in view', { timeout: 120_000 }, async () => {
    const cmds = commands(section('Try it with your own model'));
    expect(cmds.map((c) => c[0])).toEqual(['run', 'view']);
    const dir = tmpDir('sg-readme-');
    process.chdir(dir);
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const fill = (args: string[]) => args.map((a) => (a === 'BASE_URL' ? mock.url : a === 'MODEL' ? 'local-model' : a));
    const run = await runCli(fill(cmds[0]));
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^pass\^k: pass\^1 1\.000 {2}pass\^2 1\.000/m);
    expect(run.out).toMatch(/^task_agent\s+\d+/m);
    expect(run.err).toMatch(/^open it: servicegym view {3}\(then #\/runs\/run-airline-\S+\)$/m);
    expect(mock.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
    expect(fs.existsSync(path.join(dir, '.servicegym', 'servicegym.db'))).toBe(true);

    // `view` as the README gives it, in the same folder (port 0 so tests never collide).
    const tsx = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
    const child = spawn(process.execPath, ['--import', tsx, path.join(ROOT, 'src', 'cli', 'bin.ts'), ...fill(cmds[1]), '--port', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d) => {
          out += String(d);
          const m = /servicegym view: (http:\/\/127\.0\.0\.1:\d+\/) \(store /.exec(out);
          if (m) resolve(m[1]);
        });
        child.on('exit', (code) => reject(new Error(`view exited ${code} before serving: ${out}${err}`)));
      });
      const runs = (await (await fetch(`${url}api/runs`)).json()) as { id: string; name: string; episodes: number }[];
      expect(runs.map((r) => [r.name, r.episodes])).toEqual([['first-run', 2]]);
      const detail = (await (await fetch(`${url}api/runs/${encodeURIComponent(runs[0].id)}`)).json()) as { episodes: { task_id: string; reward: number }[] };
      expect(detail.episodes.map((e) => [e.task_id, e.reward])).toEqual([['T01', 1], ['T01', 1]]);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it("the mock server example runs as given and replies in the shapes the README names", { timeout: 60_000 }, async () => {
    const text = section('Try it with your own model');
    const blocks = [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1].replace(/^ {3}/gm, ''));
    expect(blocks).toHaveLength(1);
    const dir = tmpDir('sg-readme-mock-');
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    // The example as a user saves it, pointed at this checkout's source and a free port.
    const source = pathToFileURL(path.join(ROOT, 'src', 'models', 'mock-server.ts')).href;
    expect(blocks[0]).toContain("from './dist/models/mock-server.js'");
    expect(blocks[0]).toContain('port: 8000,');
    fs.writeFileSync(path.join(dir, 'mock-model.mjs'), blocks[0].replace('./dist/models/mock-server.js', source).replace('port: 8000,', 'port: 0,'));
    const tsx = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
    const child = spawn(process.execPath, ['--import', tsx, 'mock-model.mjs'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => (err += String(d)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += String(d);
        const m = /^(http:\/\/127\.0\.0\.1:\d+\/v1)$/m.exec(out);
        if (m) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`the example exited ${code}: ${out}${err}`)));
    });
    const chat = async (body: unknown) => (await (await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as any;
    const tools = [{ type: 'function', function: { name: 'get_reservation_details', parameters: { type: 'object' } } }];
    const first = await chat({ model: 'm', messages: [{ role: 'system', content: 'policy' }, { role: 'user', content: 'hi' }], tools });
    expect(first.choices[0].finish_reason).toBe('tool_calls');
    expect(first.choices[0].message.tool_calls[0].function).toEqual({ name: 'get_reservation_details', arguments: '{"reservation_id":"8KQ2ZD"}' });
    const answer = await chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }, first.choices[0].message, { role: 'tool', tool_call_id: first.choices[0].message.tool_calls[0].id, content: '{}' }], tools });
    expect(answer.choices[0].message.content).toBe('Reservation 8KQ2ZD is basic economy, which cannot be changed.');
    const user = await chat({ model: 'm', messages: [{ role: 'system', content: 'you are the customer' }, { role: 'user', content: 'Hello, how can I help?' }] });
    expect(user.choices[0]).toMatchObject({ finish_reason: 'stop', message: { role: 'assistant', content: 'Please move reservation 8KQ2ZD to 2026-10-21.' } });
    child.kill('SIGTERM');
  });
});
