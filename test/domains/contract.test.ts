/**
 * The domain contract: one suite every registered domain passes, parameterised over the domain
 * registry (each package's own dataset, its tau2 dataset when ../shared has one, and the bare
 * domains) plus the test-only mini and tiny-shop domains. A new domain gets it by registering.
 *
 * Per domain: the state forks, compares and hashes consistently (and a plain state round-trips
 * through JSON); every tool's JSON Schema compiles and accepts the gold calls' arguments; every
 * task loads and has a start state; hashes are deterministic; unknown tools, malformed JSON and
 * invalid arguments are tool errors (never harness errors, never a state change); the oracle
 * scores reward 1 on every task (NL assertions aside: without a judge they are not judged); episodes share no state (the initial state is untouched, a task
 * run twice in one process ends in the same state); the action log holds every tool call.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Domain, LoadedDomain } from '../../src/spec/domain.js';
import type { Task } from '../../src/spec/task.js';
import { domainPackages, domains } from '../../src/domains/index.js';
import { Environment } from '../../src/env/environment.js';
import { plainStateOps } from '../../src/env/plain-state.js';
import { parametersJsonSchema } from '../../src/env/wire-tools.js';
import { taskInitialState } from '../../src/evaluation/initial-state.js';
import { runDomainTasks } from '../../src/run/task-run.js';
import { surfaceOf } from '../../src/orchestrator/build.js';
import { CHROMIUM_NEED, lacks, needing, type Need } from '../support/needs.js';
import { miniDomain, miniTask, type MiniState } from '../support/mini-domain.js';
import { tinyShop } from '../support/tiny-shop.js';
import { SHARED } from '../support/paths.js';

interface Case {
  name: string;
  load: () => LoadedDomain<any>;
}

/** Whether the agent's tools record their own back-end actions (terminal, web, pixel surfaces): the dataset's surface's tools. */
const selfRecording = (loaded: LoadedDomain<any>) => surfaceOf({ loaded }).tools(loaded.domain).some((t) => t.records === 'self');
/** Datasets run through a browser (their oracle run needs Chromium and more time). */
const inBrowser = (loaded: LoadedDomain<any>) => loaded.surface === 'web' || loaded.surface === 'web-screenshot';

const miniLoaded = (): LoadedDomain<MiniState> => ({
  domain: miniDomain,
  mode: 'servicegym',
  policy: 'Be helpful.',
  source: 'test',
  tasks: [
    miniTask({ id: 'mini_cancel', evaluation_criteria: { actions: [{ action_id: 'a1', name: 'cancel_order', arguments: { order_id: 'O1', reason: 'x' } }], reward_basis: ['DB', 'ACTION'] } }),
    miniTask({ id: 'mini_ticket', evaluation_criteria: { actions: [{ action_id: 'a1', name: 'create_ticket', arguments: { account_id: 'A1', note: 'call back' } }], reward_basis: ['DB'] } }),
  ],
});

const cases: Case[] = [
  ...Object.entries(domainPackages).flatMap(([name, pkg]) => {
    const own: Case = { name: `${name} (own dataset)`, load: () => pkg.load() };
    const tau2Dir = path.join(SHARED, 'peers', 'tau2', name);
    const owns = pkg.ownDataset === false ? [] : [own];
    return fs.existsSync(path.join(tau2Dir, 'tasks.json')) ? [...owns, { name: `${name} (tau2 data)`, load: () => pkg.load({ dataDir: tau2Dir }) }] : owns;
  }),
  ...Object.entries(domains).map(([name, d]) => ({ name, load: (): LoadedDomain<any> => ({ domain: d, mode: 'servicegym', policy: d.policy ?? '', tasks: [], source: 'registry' }) })),
  { name: 'mini (test)', load: miniLoaded },
  { name: 'tiny-shop (test)', load: () => tinyShop },
];

const ENV = (l: LoadedDomain<any>) => ({ now: l.now ?? '1970-01-01T00:00:00Z', idSeed: '' });
const callOf = (name: string, args: string, id = 'c1') => ({ id, type: 'function' as const, function: { name, arguments: args } });
const ops = (d: Domain<any>) => d.state ?? plainStateOps;

describe.each(cases)('domain contract: $name', ({ load }) => {
  const loaded = load();
  const { domain } = loaded;

  it('the state forks, compares, diffs and hashes consistently; a plain state round-trips through JSON', () => {
    const s0 = domain.initialState();
    const o = ops(domain);
    const fork = o.fork(s0);
    expect(o.equal(s0, fork)).toBe(true);
    expect(o.diff(s0, fork)).toEqual([]);
    expect(o.hash(fork)).toBe(o.hash(s0));
    if (!domain.state) expect(o.hash(JSON.parse(JSON.stringify(s0)))).toBe(o.hash(s0));
    // loading again gives the same state hash (deterministic data generation)
    expect(o.hash(load().domain.initialState())).toBe(o.hash(s0));
  });

  it("every tool has a unique name, a description, and a JSON Schema that compiles and accepts the gold calls' arguments", () => {
    const names = domain.tools.map((t) => `${t.requestor}:${t.name}`);
    expect(new Set(names).size).toBe(names.length);
    const compiled = new Map(
      domain.tools.map((t) => {
        expect(t.description.trim(), t.name).not.toBe('');
        const schema = parametersJsonSchema(t);
        expect(schema.type, t.name).toBe('object');
        return [t.name, z.fromJSONSchema(schema as never)];
      }),
    );
    for (const task of loaded.tasks) {
      for (const a of task.evaluation_criteria?.actions ?? []) {
        const schema = compiled.get(a.name);
        if (!schema) continue; // an unknown gold tool is the gold replay's finding, checked by validate
        expect(schema.safeParse(a.arguments).success, `${task.id} ${a.action_id} ${a.name}`).toBe(true);
      }
    }
  });

  it('every task loads and has a start state; hashes are deterministic', async () => {
    const o = ops(domain);
    for (const task of loaded.tasks) {
      expect(task.id).toBeTruthy();
      const a = await taskInitialState(domain, task, ENV(loaded));
      const b = await taskInitialState(domain, task, ENV(loaded));
      expect(o.hash(a), task.id).toBe(o.hash(b));
    }
  }, 900_000); // tau2 telecom: 2,285 tasks (minutes on a loaded 2-core machine)

  it('unknown tools, malformed JSON and invalid arguments are tool errors the caller sees, with no state change', async () => {
    const env = new Environment(domain, { now: ENV(loaded).now });
    const before = env.stateHash();
    const entries = [await env.execute(callOf('no_such_tool', '{}'))];
    for (const t of domain.tools) {
      entries.push(await env.execute(callOf(t.name, '{"unterminated'), t.requestor));
      entries.push(await env.execute(callOf(t.name, '[1, 2]'), t.requestor));
      entries.push(await env.execute(callOf(t.name, '"just a string"'), t.requestor));
    }
    for (const e of entries) {
      expect(e.error, `${e.name}: ${e.output}`).toBe(true);
      expect(e.output, e.name).toMatch(/^Error: /);
      expect(e.harnessError, e.name).toBeUndefined();
      expect(e.mutating).toBe(false);
    }
    expect(env.harnessFault).toBeNull();
    expect(env.stateHash()).toBe(before);
    // API tools: the action log holds every call, in order. Self-recording surfaces (a terminal):
    // a call that never reached the back-end is no back-end action.
    if (domain.tools.some((t) => t.records === 'self')) expect(env.actionLog).toEqual([]);
    else expect(env.actionLog.map((a) => [a.seq, a.name, a.error])).toEqual(entries.map((e, i) => [i, e.name, true]));
  });

  const browserNeeds = inBrowser(loaded) ? [CHROMIUM_NEED] : [];
  const tasksNeed: Need = { present: loaded.tasks.length > 0, reason: 'needs a dataset with tasks (a bare registry domain has none)' };
  it.skipIf(lacks(tasksNeed, ...browserNeeds))(needing('the oracle scores reward 1 on every task; episodes share no state; the action log holds every tool call', tasksNeed, ...browserNeeds), async () => {
    const o = ops(domain);
    const initialHash = o.hash(domain.initialState());
    const run = () => runDomainTasks({ loaded, tasks: loaded.tasks, trials: 1, concurrency: 4, agent: 'oracle', user: 'personas', runId: 'contract' });
    const first = await run();
    // Without a judge, NL assertions are not judged (reward null): every other basis component must be 1.
    const full = (ev: NonNullable<(typeof first.records)[number]['evaluation']>) =>
      ev.reward === 1 || (ev.reward === null && ev.reward_basis.every((b) => b === 'NL_ASSERTION' || ev.reward_breakdown[b] === 1));
    const failing = first.records.filter((r) => !r.evaluation || !full(r.evaluation)).map((r) => `${r.taskId}: ${r.episode.termination} ${r.infraError ?? r.harnessError ?? r.evaluationError ?? ''} reward ${r.evaluation?.reward}`);
    expect(failing).toEqual([]);
    for (const r of first.records) {
      const ep = r.episode;
      if (!selfRecording(loaded)) expect(ep.actionLog.map((a) => a.name), r.taskId).toEqual(ep.toolLog.map((t) => t.name));
      else if (ep.toolLog.some((t) => t.mutating)) expect(ep.actionLog.some((a) => a.mutating), r.taskId).toBe(true);
      for (const a of ep.actionLog.filter((x) => x.requestor === 'assistant')) {
        const m = ep.messages[a.cause!.message_index];
        expect(m.role === 'assistant' && m.tool_calls?.some((tc) => tc.id === a.cause!.tool_call_id), `${r.taskId} #${a.seq}`).toBe(true);
      }
    }
    // The domain's initial state is untouched, and a second run in the same process ends each task in the same state.
    expect(o.hash(domain.initialState())).toBe(initialHash);
    const again = await run();
    const hashes = (res: typeof first) => Object.fromEntries(res.records.map((r) => [r.taskId, o.hash(r.episode.finalState)]));
    expect(hashes(again)).toEqual(hashes(first));
  }, 900_000); // tau2 telecom: 2,285 tasks twice; browser datasets (minutes on a loaded 2-core machine)

  const writeTask = loaded.tasks.find((t: Task) => (t.evaluation_criteria?.actions ?? []).some((a) => domain.tools.find((x) => x.name === a.name)?.kind === 'write'));
  const writeNeed: Need = { present: writeTask !== undefined, reason: 'needs a task whose gold actions include a write' };
  it.skipIf(lacks(writeNeed))(
    needing('a write in one environment is not seen by another of the same domain', writeNeed),
    async () => {
      const task = writeTask!;
      const start = await taskInitialState(domain, task, ENV(loaded));
      const a = new Environment(domain, { ...ENV(loaded), state: start });
      const b = new Environment(domain, { ...ENV(loaded), state: start });
      const hashB = b.stateHash();
      for (const [i, g] of (task.evaluation_criteria?.actions ?? []).entries()) await a.execute(callOf(g.name, JSON.stringify(g.arguments), `g${i}`), g.requestor);
      expect(a.changed(), task.id).toBe(true);
      expect(b.stateHash()).toBe(hashB);
      expect(b.changed()).toBe(false);
    },
  );
});
