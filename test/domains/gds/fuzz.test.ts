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

/** Random host-operation calls (the API surface's JSON tools): real, near-miss and garbage arguments. */
function randomOperation(rng: Rng): { name: string; args: string } {
  const locator = rng.pick(['LKJ8TQ', 'LKJ8TQ', 'LKJ8TQ', 'QWM4RA', 'NOSUCH', 'lkj8tq', '']);
  const flight = rng.pick(['XA204', 'XA206', 'XA208', 'XA210', 'XA611', 'XA420', 'XA999', 'X', '']);
  const date = rng.pick(['2026-10-20', '2026-10-24', '2026-10-22', '2026-13-40', '20OCT', '']);
  const name = rng.pick(['sell_segment', 'cancel_segment', 'accept_schedule_change', 'add_ssr', 'add_remark', 'add_phone', 'reissue_tickets', 'end_transaction', 'end_transaction', 'gds_command']);
  const all: Record<string, unknown> = {
    locator, flight, date, class: rng.pick(['M', 'Y', 'J', 'Z', 'MM', 3]), count: rng.pick([1, 2, 9, 0, -1, 1.5, '2']),
    code: rng.pick(['WCHR', 'VGML', 'XX', 'wchr']), passenger: rng.pick(['1.1', '2.1', '9.1', 'x']), text: rng.pick(['PAX ADVISED', '', ' ', 'ñé中']),
    phone: rng.pick(['NYC212', '']), received_from: rng.pick(['AGENT', '', ' ', 'pax']), command: rng.pick(REAL),
  };
  const own: Record<string, string[]> = {
    sell_segment: ['locator', 'flight', 'date', 'class', 'count'], cancel_segment: ['locator', 'flight', 'date'], accept_schedule_change: ['locator', 'flight', 'date'],
    add_ssr: ['locator', 'code', 'passenger', 'flight', 'date'], add_remark: ['locator', 'text'], add_phone: ['locator', 'phone'], reissue_tickets: ['locator'],
    end_transaction: ['locator', 'received_from'], gds_command: ['command'],
  };
  // Mostly the operation's own arguments (so many calls succeed and commit), sometimes any subset of all of them.
  const keys = rng.chance(0.8) ? own[name] : Object.keys(all).filter(() => rng.chance(0.5));
  if (rng.chance(0.1)) return { name, args: rng.pick(['{"unterminated', '[1]', '"x"', 'null']) };
  return { name, args: JSON.stringify(Object.fromEntries(keys.map((k) => [k, all[k]]))) };
}

it('survives 5,000 random host-operation calls; the store and the action log change only at a successful end transaction', async () => {
  const rng = new Rng(20261020);
  let env = new Environment<GdsState>(loaded.domain, { now: loaded.now!, idSeed: '' });
  let commits = 0;
  const committed = new Set<string>();
  for (let i = 0; i < 5_000; i++) {
    if (i > 0 && i % 250 === 0) env = new Environment<GdsState>(loaded.domain, { now: loaded.now!, idSeed: '' });
    const { name, args } = randomOperation(rng);
    const before = JSON.stringify([...env.state.db.touched()].map(([t, ids]) => [t, ids.length]));
    const [history, actions] = [env.state.history.length, env.actionLog.length];
    const entry = await env.execute({ id: `o${i}`, type: 'function', function: { name, arguments: args } });
    expect(entry.harnessError, `${name} ${args}`).toBeUndefined();
    // A refusal is a tool error the caller reads (the terminal's wording, or the schema's), never a stack trace.
    if (entry.error) expect(entry.output).toMatch(/^Error: /);
    expect(entry.output).not.toMatch(/TypeError|NaN|at \w+ \(/);
    if (env.state.history.length > history) {
      commits++;
      expect(entry.error).toBe(false);
      expect(env.actionLog.at(-1)!.name).toBe('end_transaction');
      for (const a of env.actionLog.slice(actions)) committed.add(a.name);
    } else {
      expect(JSON.stringify([...env.state.db.touched()].map(([t, ids]) => [t, ids.length])), `${name} ${args} changed the store`).toBe(before);
      expect(env.actionLog.length, `${name} ${args} recorded an action`).toBe(actions);
    }
  }
  expect(env.harnessFault).toBeNull();
  expect(commits).toBeGreaterThan(10);
  // The calls reached real commits (the fuzzed PNRs have no TK segment to accept), not only empty end transactions.
  expect([...committed].sort()).toEqual(['add_phone', 'add_remark', 'add_ssr', 'cancel_segment', 'end_transaction', 'reissue_tickets', 'sell_segment']);
});
