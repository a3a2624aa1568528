/**
 * The surface contract end to end, with the test surface (async tools, image results, back-end
 * actions recorded by the tools, a per-episode resource): an episode runs through it, its action
 * log is what the checks read, a tool that throws ends the episode as a harness error (left out of
 * scores), and the environment is closed after a normal end, a crash, a deadline and a kill.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentImages, contentText } from '../../src/spec/content.js';
import { Environment } from '../../src/env/environment.js';
import { openEnvironmentCount } from '../../src/env/open-environments.js';
import { toWireTool } from '../../src/env/wire-tools.js';
import { ScriptedAgent, call, say } from '../../src/agents/scripted-agent.js';
import type { Agent } from '../../src/agents/agent.js';
import { ScriptedUser } from '../../src/users/scripted-user.js';
import { runEpisode } from '../../src/orchestrator/episode.js';
import { evaluateTask } from '../../src/evaluation/compose.js';
import { runTasks } from '../../src/run/run-tasks.js';
import { miniDomain, miniLoaded, miniTask, type MiniState } from '../support/mini-domain.js';
import { openedSessions, testSurface, type ScreenSession } from '../support/test-surface.js';

const NOW = '2026-01-01T00:00:00Z';
const task = miniTask({
  id: 'screen_cancel',
  evaluation_criteria: { actions: [{ action_id: 'a1', name: 'cancel_order', arguments: { order_id: 'O1', reason: 'pressed cancel' } }], reward_basis: ['DB', 'ACTION'] },
  servicegym: {
    checks: [
      { id: 'looked_first', kind: 'order', first: { name: 'get_order' }, then: { name: 'cancel_order' }, require: true },
      { id: 'confirmed', kind: 'confirmation_before_write', confirm: '\\byes\\b' },
    ],
    partial_credit: [
      { id: 'look', weight: 50, description: 'Read the order before cancelling', checks: ['looked_first'] },
      { id: 'confirm', weight: 50, description: 'Asked before cancelling', checks: ['confirmed'] },
    ],
    zero_if_failed: [],
  },
});
const env = () => new Environment(miniDomain, { now: NOW, surface: testSurface });
const user = () => new ScriptedUser(['Please cancel order O1.', 'Yes, cancel it.']);
const lastSession = (): ScreenSession => openedSessions[openedSessions.length - 1];

describe('test surface', () => {
  it('offers its own async tools (not the domain\'s) with valid wire schemas', () => {
    const e = env();
    expect(e.toolsFor('assistant').map((t) => t.name)).toEqual(['screen', 'press', 'crash']);
    expect(toWireTool(e.toolsFor('assistant')[1]).function.parameters).toMatchObject({ type: 'object', required: ['button', 'order_id'] });
  });

  it('runs an episode end to end: image results reach the agent, presses become back-end actions, checks read them', async () => {
    const agent = new ScriptedAgent([
      call('screen', { order_id: 'O1' }),
      say('Order O1 is pending. Shall I cancel it?'),
      call('press', { button: 'cancel', order_id: 'O1' }),
      say('Order O1 is cancelled. ###STOP###'),
    ]);
    const ep = await runEpisode<MiniState>({ agent, user: user(), env: env() });
    expect(ep.termination).toBe('agent_stop');
    const session = lastSession();
    expect(session).toMatchObject({ closed: true, presses: 1 });
    expect(openEnvironmentCount()).toBe(0);

    const toolMsg = ep.messages.find((m) => m.role === 'tool')!;
    expect(contentText(toolMsg.content)).toBe('Order O1: pending');
    const [img] = contentImages(toolMsg.content);
    expect(img.image_url.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(ep.toolLog.map((t) => [t.name, t.error, t.mutating])).toEqual([['screen', false, false], ['press', false, true]]);
    expect(ep.toolLog[0].parts).toHaveLength(2);

    // One screen look is one read; one press is a read and a write, each caused by its message's call.
    const pressAt = ep.messages.findIndex((m) => m.role === 'assistant' && m.tool_calls?.[0]?.function.name === 'press');
    expect(ep.actionLog.map((a) => [a.seq, a.name, a.mutating, a.cause?.message_index])).toEqual([
      [0, 'get_order', false, 3],
      [1, 'get_order', false, pressAt],
      [2, 'cancel_order', true, pressAt],
    ]);
    expect(ep.actionLog[2].cause?.tool_call_id).toBe(ep.messages[pressAt].role === 'assistant' ? (ep.messages[pressAt] as { tool_calls: { id: string }[] }).tool_calls[0].id : '');

    const ev = await evaluateTask({ loaded: miniLoaded, task, trace: ep, env: { now: NOW } });
    expect([ev.reward, ev.partial]).toEqual([1, 1]);
    expect(ev.checks.find((c) => c.id === 'confirmed')!.evidence).toBe(`#2 cancel_order {"order_id":"O1","reason":"pressed cancel"} confirmed by message ${pressAt - 1} "Yes, cancel it."`);
  });

  it('a write caused by a click without a confirmation fails the confirmation check', async () => {
    const agent = new ScriptedAgent([call('press', { button: 'cancel', order_id: 'O1' }), say('Done. ###STOP###')]);
    const ep = await runEpisode<MiniState>({ agent, user: user(), env: env() });
    const ev = await evaluateTask({ loaded: miniLoaded, task, trace: ep, env: { now: NOW } });
    expect(ev.checks.find((c) => c.id === 'confirmed')!.verdict).toBe('fail');
    expect(ev.checks.find((c) => c.id === 'looked_first')!.verdict).toBe('pass'); // the press read the order first
    expect(ev.reward).toBe(1);
    expect(ev.partial).toBe(0.5);
  });

  it('a malformed call stays a tool error the agent sees, and the episode goes on', async () => {
    const agent = new ScriptedAgent([call('press', { button: 'explode', order_id: 'O1' }), call('teleport', {}), say('Sorry. ###STOP###')]);
    const ep = await runEpisode<MiniState>({ agent, user: user(), env: env() });
    expect(ep.termination).toBe('agent_stop');
    expect(ep.toolLog.map((t) => [t.name, t.error])).toEqual([['press', true], ['teleport', true]]);
    expect(ep.toolLog[0].output).toMatch(/^Error: invalid arguments for press: button:/);
    expect(ep.actionLog).toEqual([]); // nothing reached the back-end
  });

  it('a tool that throws ends the episode as a harness error; the run leaves it out of the scores', async () => {
    const agent = new ScriptedAgent([call('screen', { order_id: 'O1' }), call('crash'), say('unreachable')]);
    const ep = await runEpisode<MiniState>({ agent, user: user(), env: env() });
    expect(ep.termination).toBe('harness_error');
    expect(ep.harness).toEqual({ tool: 'crash', message: "TypeError: Cannot read properties of undefined (reading 'rows')" });
    expect(ep.failure).toEqual({ by: 'harness', kind: 'harness', message: "tool crash threw TypeError: Cannot read properties of undefined (reading 'rows')" });
    expect(lastSession().closed).toBe(true);

    const scripts: Record<string, Parameters<typeof call>[]> = { ok: [['press', { button: 'cancel', order_id: 'O1' }]], bug: [['crash']] };
    const res = await runTasks({
      loaded: { ...miniLoaded, tasks: [task] },
      tasks: [{ ...task, id: 'ok' }, { ...task, id: 'bug' }],
      trials: 1,
      concurrency: 1,
      makeAgent: (t) => new ScriptedAgent([...scripts[t.id].map((c) => call(...c)), say('Done. ###STOP###')]),
      makeUser: () => user(),
      makeEnvironment: () => env(),
      env: { now: NOW },
      evaluate: (t, e) => evaluateTask({ loaded: miniLoaded, task: t, trace: e, env: { now: NOW } }),
    });
    const bug = res.records.find((r) => r.taskId === 'bug')!;
    expect(bug.harnessError).toBe("tool crash threw TypeError: Cannot read properties of undefined (reading 'rows')");
    expect(bug.infraError).toBeUndefined();
    expect(res.summary).toMatchObject({ episodes: 2, scored: 1, harnessErrors: 1, infraErrors: 0, rewardMean: 1, terminations: { agent_stop: 1, harness_error: 1 } });
    expect(res.summary.passHatK).toEqual([{ k: 1, value: 1 }]);
  });

  it('closes the environment when the agent crashes, and when the episode deadline passes', async () => {
    const crashing: Agent = { systemPrompt: () => 'x', step: async () => { throw new Error('agent bug'); } };
    const ep = await runEpisode({ agent: crashing, user: user(), env: env() });
    expect([ep.termination, ep.failure?.kind]).toEqual(['agent_error', 'internal']);
    expect(lastSession().closed).toBe(true);

    await expect(runEpisode({ agent: crashing, user: user(), env: env(), modelErrors: 'throw' })).rejects.toThrow('agent bug');
    expect(lastSession().closed).toBe(true);

    const hanging: Agent = { systemPrompt: () => 'x', step: () => new Promise(() => {}) };
    const slow = await runEpisode({ agent: hanging, user: user(), env: env(), deadlineSeconds: 0.05 });
    expect(slow.termination).toBe('agent_error');
    expect(slow.failure).toEqual({ by: 'agent', kind: 'deadline', message: "the episode deadline of 0.05 s passed during the agent's turn" });
    expect(lastSession().closed).toBe(true);

    const ctl = new AbortController();
    const aborted = runEpisode({ agent: hanging, user: user(), env: env(), signal: ctl.signal });
    setTimeout(() => ctl.abort(), 10);
    expect((await aborted).failure?.kind).toBe('deadline');
    expect(lastSession().closed).toBe(true);
    expect(openEnvironmentCount()).toBe(0);
  });

  it('a surface that fails to open ends the episode as a harness error', async () => {
    const broken = { ...testSurface, name: 'broken', open: async () => { throw new Error('no display'); } };
    const ep = await runEpisode({ agent: new ScriptedAgent([]), user: user(), env: new Environment(miniDomain, { now: NOW, surface: broken }) });
    expect(ep.termination).toBe('harness_error');
    expect(ep.failure?.message).toBe('HarnessError: surface broken failed to open: Error: no display');
  });

  it('SIGTERM closes open environments before the process exits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-surface-'));
    const marker = join(dir, 'closed.txt');
    const script = join(dir, 'hold.mts');
    const root = join(__dirname, '..', '..');
    writeFileSync(
      script,
      [
        `import { Environment } from ${JSON.stringify(join(root, 'src/env/environment.ts'))};`,
        `import { writeFileSync } from 'node:fs';`,
        `import { miniDomain } from ${JSON.stringify(join(root, 'test/support/mini-domain.ts'))};`,
        `const surface = { name: 'held', description: 'd', tools: (d: any) => d.tools, open: () => ({}), close: () => writeFileSync(${JSON.stringify(marker)}, 'closed') };`,
        `const env = new Environment(miniDomain, { now: 'n', surface });`,
        `await env.open();`,
        `process.stdout.write('open\\n');`,
        `setInterval(() => {}, 1000);`,
      ].join('\n'),
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => (String(d).includes('open') ? resolve() : undefined));
      child.on('exit', () => reject(new Error(`child exited early: ${stderr}`)));
    });
    const exited = new Promise<NodeJS.Signals | null>((r) => child.on('exit', (_code, signal) => r(signal)));
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    expect(existsSync(marker) && readFileSync(marker, 'utf8')).toBe('closed');
  }, 60_000);
});
