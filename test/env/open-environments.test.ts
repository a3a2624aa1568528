/**
 * Environments with a resource are closed on a signal that would end the process (no other
 * listener), and left open when a command handles the signal itself (a run's gentle Ctrl-C lets
 * its running episodes finish: closing their browser or terminal under them would fail them).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openEnvironmentCount, trackOpen, untrackOpen, type Closable } from '../../src/env/open-environments.js';

const tracked: Closable[] = [];
afterEach(() => {
  for (const e of tracked.splice(0)) untrackOpen(e);
});

function fakeEnvironment(): Closable & { closed: number } {
  const env = { closed: 0, close: async () => void env.closed++ };
  tracked.push(env);
  trackOpen(env);
  return env;
}

describe('open environments on a signal', () => {
  it("are left to the command when it listens for the signal itself", async () => {
    const env = fakeEnvironment();
    let told = 0;
    const own = () => void told++;
    process.on('SIGINT', own);
    try {
      process.emit('SIGINT', 'SIGINT');
      await new Promise((r) => setImmediate(r));
      expect(told).toBe(1);
      expect(env.closed).toBe(0);
      expect(openEnvironmentCount()).toBe(1);
    } finally {
      process.off('SIGINT', own);
    }
  });

  it('install their handler with the first open environment and remove it with the last', () => {
    const before = process.listenerCount('SIGTERM');
    const env = fakeEnvironment();
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    untrackOpen(env);
    tracked.splice(tracked.indexOf(env), 1);
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
