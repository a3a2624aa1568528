/**
 * Ctrl-C during `servicegym run` (src/cli/run-interrupt.ts): the first SIGINT starts no new
 * episode, lets the running ones finish and be stored, prints the report naming the episodes not
 * started and the `--resume` that runs them, and ends the process by SIGINT (so a shell running it
 * in a script stops there too); a second SIGINT ends the process at once. Either way `--resume` completes the run with every episode stored exactly once. The
 * signals are sent on events the mock model sees (a request arriving), not after a delay.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src/store/store.js';
import { startTwoRoleMock, type TwoRoleMock } from '../support/two-role-mock.js';
import { ROOT, tmpDir } from '../support/paths.js';

const dir = tmpDir('sg-run-interrupt-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const TRIALS = 6;

/** A `servicegym run` child: its exit code or signal, stderr, and the stdout it wrote. */
interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  stdout: string;
}

/** Spawns `servicegym run` of T01 x `trials` at -j 2 on `mock`; `onChild` gets the child before it runs. */
function runChild(mock: TwoRoleMock, db: string, extra: string[], onChild: (child: ReturnType<typeof spawn>, stderr: () => string) => void, trials = TRIALS): Promise<Ended> {
  const args = ['run', '--tasks', 'T01', '--trials', String(trials), '-j', '2', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '--json', ...extra];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'bin.ts'), ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', SERVICEGYM_API_KEY: 'test-key' } });
    let stderr = '';
    let stdout = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr, stdout }));
    onChild(child, () => stderr);
  });
}

/** The stored episodes of the store's one run: its id and each episode's id. */
function storedEpisodes(db: string): { runId: string; ids: string[] } {
  const store = RunStore.open(db, { readonly: true });
  try {
    const runs = store.listRuns();
    expect(runs).toHaveLength(1);
    return { runId: runs[0].id, ids: store.episodes(runs[0].id).map((e) => e.episode_id) };
  } finally {
    store.close();
  }
}

/** Resumes the run and checks that it ends with every trial stored exactly once. */
async function resumeCompletes(mock: TwoRoleMock, db: string, runId: string): Promise<void> {
  const resumed = await runChild(mock, db, ['--resume', runId], () => {});
  expect(resumed.code, resumed.stderr).toBe(0);
  const { ids } = storedEpisodes(db);
  expect([...ids].sort()).toEqual(Array.from({ length: TRIALS }, (_, t) => `T01#${t}`).sort());
}

/**
 * A mock model whose episodes end after one exchange, and that sends `signal` to the attached
 * run (once) when the first agent request arrives: the signal follows an event, not a delay.
 */
async function signallingMock(signal: NodeJS.Signals): Promise<{ mock: TwoRoleMock; attach: (child: ReturnType<typeof spawn>) => void; signalled: () => boolean }> {
  let child: ReturnType<typeof spawn> | undefined;
  let sent = false;
  const mock = await startTwoRoleMock({
    agent: () => {
      if (!sent && child) (sent = true), child.kill(signal);
      return { content: 'Basic economy cannot be changed. ###STOP###' };
    },
    user: (messages) => (messages.length <= 2 ? { content: 'Move 8KQ2ZD please.' } : { content: '###STOP###' }),
  });
  return { mock, attach: (c) => (child = c), signalled: () => sent };
}

describe('Ctrl-C during a run', () => {
  it('the first stops gently: running episodes finish and are stored, the rest do not start, the process ends by SIGINT; --resume runs the rest', async () => {
    // Ctrl-C as the first episode's agent is asked its first question: the episodes started finish.
    const { mock, attach, signalled } = await signallingMock('SIGINT');
    try {
      const db = path.join(dir, 'gentle.db');
      const junit = path.join(dir, 'gentle.xml');
      const ended = await runChild(mock, db, ['-o', junit], attach);
      expect(signalled()).toBe(true);
      // Ended by the signal, not by exit 130: a shell stops a script only for a program the signal ended.
      expect(ended.signal, ended.stderr).toBe('SIGINT');
      const { runId, ids } = storedEpisodes(db);
      // Each episode that started finished and was stored (-j 2: one or two had started).
      expect(ids.length).toBeGreaterThanOrEqual(1);
      expect(ids.length).toBeLessThanOrEqual(2);
      // Piped stderr and -q: no progress line to step below, so no blank line first.
      expect(ended.stderr).toMatch(/^servicegym: stopping: no new episode starts; the running ones finish and are stored \(Ctrl-C again to stop at once; --resume run-\S+ continues\)\n/);
      expect(ended.stderr).toContain(`servicegym: the run stopped: interrupted (Ctrl-C); ${TRIALS - ids.length} episode(s) not started; continue with --resume ${runId}\n`);
      expect(ended.stderr).not.toContain('--max-cost');
      // The report of what ran is printed, and the run row says why it stopped.
      const report = JSON.parse(ended.stdout);
      expect(report.run_id).toBe(runId);
      expect(report.episodes).toHaveLength(ids.length);
      // The JSON says the run stopped, as the stored run does, so a reader does not take it for a complete run.
      expect(report.summary.halted).toEqual({ reason: 'interrupted (Ctrl-C)', not_started: TRIALS - ids.length });
      const store = RunStore.open(db, { readonly: true });
      const summary = store.getRun(runId)!.summary as { halted?: unknown };
      store.close();
      expect(summary.halted).toEqual({ reason: 'interrupted (Ctrl-C)', not_started: TRIALS - ids.length });
      // The JUnit file has every trial: the ones that did not start are skipped, saying why and how to continue.
      const xml = fs.readFileSync(junit, 'utf8');
      expect(xml).toMatch(new RegExp(`<testsuite name="${runId}" tests="${TRIALS}" failures="\\d+" errors="0" skipped="${TRIALS - ids.length}"`));
      expect(xml.split(`<skipped message="not started: the run stopped (interrupted (Ctrl-C)); continue with --resume ${runId}"/>`)).toHaveLength(TRIALS - ids.length + 1);
      await resumeCompletes(mock, db, runId);
    } finally {
      await mock.close();
    }
  }, 180_000);

  it('after every episode had started, the run completes and the process still ends by the signal', async () => {
    // -j 2 and 2 trials: both episodes have started when the first agent question arrives.
    const { mock, attach, signalled } = await signallingMock('SIGTERM');
    try {
      const db = path.join(dir, 'all-started.db');
      const ended = await runChild(mock, db, [], attach, 2);
      expect(signalled()).toBe(true);
      expect(ended.signal, ended.stderr).toBe('SIGTERM');
      expect([...storedEpisodes(db).ids].sort()).toEqual(['T01#0', 'T01#1']);
      expect(JSON.parse(ended.stdout).episodes).toHaveLength(2);
      expect(JSON.parse(ended.stdout).summary.halted).toBeUndefined();
      // SIGTERM (kill, a service manager) is told to send SIGTERM again, not to press Ctrl-C.
      expect(ended.stderr).toContain('the running ones finish and are stored (SIGTERM again to stop at once;');
      expect(ended.stderr).toContain('servicegym: every episode had started when SIGTERM came: the run is complete\n');
      expect(ended.stderr).not.toContain('not started');
    } finally {
      await mock.close();
    }
  }, 180_000);

  it('the second stops at once; --resume then runs every episode once', async () => {
    let child: ReturnType<typeof spawn> | undefined;
    let stderrOf: () => string = () => '';
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    let first = true;
    const mock = await startTwoRoleMock({
      agent: async () => {
        if (first && child) {
          first = false;
          // The first Ctrl-C, then the second once the run says it is stopping; this answer never comes.
          child.kill('SIGINT');
          const says = setInterval(() => {
            if (stderrOf().includes('servicegym: stopping:')) (clearInterval(says), child!.kill('SIGINT'));
          }, 20);
          await held;
        }
        return { content: 'Basic economy cannot be changed. ###STOP###' };
      },
      user: (messages) => (messages.length <= 2 ? { content: 'Move 8KQ2ZD please.' } : { content: '###STOP###' }),
    });
    try {
      const db = path.join(dir, 'at-once.db');
      const ended = await runChild(mock, db, [], (c, s) => ((child = c), (stderrOf = s)));
      release();
      expect(ended.signal, ended.stderr).toBe('SIGINT');
      expect(ended.stderr).toMatch(/servicegym: stopped at once \(Ctrl-C again\); the episodes in flight run again on --resume \S+/);
      const { runId, ids } = storedEpisodes(db);
      // The episode whose answer was held never finished: it is not stored.
      expect(ids.length).toBeLessThan(TRIALS);
      await resumeCompletes(mock, db, runId);
    } finally {
      release();
      await mock.close();
    }
  }, 180_000);
});
