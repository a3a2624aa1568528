/**
 * 10,000 random entry lines — garbage, near-misses of real entries and real entries out of order —
 * never crash the emulator, always answer with a screen, and never change the PNR store except
 * through a successful end transaction. Sent as an agent sends them: through the terminal surface.
 */
import { expect, it } from 'vitest';
import { loadDomain } from '../../../src/domains/index.js';
import { Environment } from '../../../src/env/environment.js';
import { Rng } from '../../../src/util/rng.js';
import { getSurface } from '../../../src/surfaces/index.js';
import type { GdsState } from '../../../src/domains/gds/index.js';

const loaded = loadDomain('gds');
const REAL = ['*LKJ8TQ', '*QWM4RA', '*R', '*I', '*H', '120OCTJFKORD', '125OCTORDDEN', '02M3', '01Y1', 'X1', 'X1-2', 'X2/1', '.1HK', '3WCHR/1-1.1', '3VGML-1.2', '5TEST REMARK', '9NYC212', '6AGENT', 'WTKT', 'I', 'IR', 'MD', 'MU', 'MT', 'MB'];
const CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*./-¥‡ \t#@!%^&()[]{}"\'\\ñé中';

function randomLine(rng: Rng): string {
  const kind = rng.int(0, 4);
  if (kind === 0) return rng.pick(REAL);
  if (kind === 1) return Array.from({ length: rng.int(0, 30) }, () => rng.pick([...CHARS])).join('');
  if (kind === 2) {
    const base = rng.pick(REAL);
    const i = rng.int(0, base.length);
    return base.slice(0, i) + rng.pick([...CHARS]) + base.slice(i + rng.int(0, 2));
  }
  if (kind === 3) return `${rng.pick(['0', '1', '3', '5', '6', '9', 'X', '.', '*'])}${rng.int(0, 999999)}${rng.pick(['', 'OCT', 'HK', '-1.1', '/1'])}`;
  return rng.chance(0.5) ? 'E' : 'ER';
}

it('survives 10,000 random lines; the store changes only at a successful end transaction', async () => {
  const rng = new Rng(20261019);
  const fresh = async () => {
    const e = new Environment<GdsState>(loaded.domain, { now: loaded.now!, idSeed: '', surface: getSurface('terminal') });
    await e.open();
    return e;
  };
  let env = await fresh();
  let commits = 0;
  for (let i = 0; i < 10_000; i++) {
    if (i > 0 && i % 500 === 0) {
      await env.close();
      env = await fresh();
    }
    const line = randomLine(rng);
    const before = JSON.stringify([...env.state.db.touched()].map(([t, ids]) => [t, ids.length]));
    const beforeHistory = env.state.history.length;
    const entry = await Promise.resolve(env.execute({ id: `f${i}`, type: 'function', function: { name: 'gds_command', arguments: JSON.stringify({ command: line }) } }));
    expect(entry.error, `line ${JSON.stringify(line)}`).toBe(false);
    expect(typeof entry.output).toBe('string');
    expect(entry.output).not.toMatch(/Error|TypeError|undefined|NaN|at \w+ \(/);
    expect(entry.output.split('\n').every((l) => l.length <= 64)).toBe(true);
    const committed = env.state.history.length > beforeHistory;
    if (committed) {
      commits++;
      expect(['E', 'ER']).toContain(line.trim().toUpperCase());
    } else {
      expect(JSON.stringify([...env.state.db.touched()].map(([t, ids]) => [t, ids.length])), `line ${JSON.stringify(line)} changed the store`).toBe(before);
    }
  }
  await env.close();
  expect(commits).toBeGreaterThan(10);
});
