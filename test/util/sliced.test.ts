/**
 * runInSlices (src/util/sliced.ts): long work in stretches of whole steps, one stretch per turn of
 * the event loop, so that other work queued meanwhile runs between them (issue 17: the run's
 * warm-up hashing must not hold back the answers to its first model calls). A fake clock decides
 * where stretches end.
 */
import { describe, expect, it } from 'vitest';
import { runInSlices } from '../../src/util/sliced.js';

/** `n` steps, each 1 ms on the fake clock, logging `s<i>` to `log`. */
function* steps(n: number, clock: { t: number }, log: string[]): Generator<void, void> {
  for (let i = 0; i < n; i++) {
    clock.t += 1;
    log.push(`s${i}`);
    yield;
  }
}

/** Logs a turn marker on every turn of the event loop until `until` settles. */
function markTurns(log: string[], until: Promise<void>): void {
  let over = false;
  void until.then(() => (over = true));
  const turn = () => {
    if (over) return;
    log.push('|');
    setImmediate(turn);
  };
  setImmediate(turn);
}

describe('runInSlices', () => {
  it('runs whole steps until the stretch reaches sliceMs, then yields a turn of the event loop; the first stretch starts on the next turn', async () => {
    const clock = { t: 0 };
    const log: string[] = [];
    const run = runInSlices(steps(7, clock, log), { sliceMs: 3, now: () => clock.t });
    expect(log).toEqual([]);
    markTurns(log, run.done);
    await run.done;
    // Stretches of 3 steps (3 ms each); the last one ends with the work; turns of the loop between them.
    expect(log.join(' ').replace(/(\| )+/g, '| ')).toBe('s0 s1 s2 | s3 s4 s5 | s6');
  });

  it('with busyTurnMs, a stretch waits for a turn of the event loop that did no other work for that long', async () => {
    const clock = { t: 0 };
    const log: string[] = [];
    const run = runInSlices(steps(6, clock, log), { sliceMs: 2, busyTurnMs: 1, maxWaitMs: 100, now: () => clock.t });
    // Other work: turns 2 to 4 each take 5 ms (answers handled), the others none.
    let turn = 0;
    let over = false;
    void run.done.then(() => (over = true));
    const other = () => {
      if (over) return;
      turn++;
      if (turn >= 2 && turn <= 4) clock.t += 5;
      log.push(`t${turn}`);
      setImmediate(other);
    };
    setImmediate(other);
    await run.done;
    // Turn 1 only notes the time; stretches run on the quiet turns, none while turns 2-4 were busy.
    expect(log.join(' ')).toMatch(/^t1 s0 s1 t2 t3 t4 t5 s2 s3 t6 s4 s5( t7)?$/); // (t7: the other work's last turn, as done settles)
  });

  it('on a loop that is never quiet, a stretch still runs once maxWaitMs have passed since the last one', async () => {
    const clock = { t: 0 };
    const log: string[] = [];
    const run = runInSlices(steps(4, clock, log), { sliceMs: 1, busyTurnMs: 1, maxWaitMs: 10, now: () => clock.t });
    let over = false;
    void run.done.then(() => (over = true));
    const other = () => {
      if (over) return;
      clock.t += 4; // every turn does 4 ms of other work
      log.push(`@${clock.t}`);
      setImmediate(other);
    };
    setImmediate(other);
    await run.done;
    // One 1 ms step per stretch; each stretch starts 10 ms or more after the last one ended (the first: after the first turn, at 0).
    expect(log.filter((x) => x.startsWith('s')).length).toBe(4);
    expect(log.join(' ')).toMatch(/^@4 @8 @12 s0 @17 @21 @25 s1 @30 @34 @38 s2 @43 @47 @51 s3/);
  });

  it('a step that throws stops the work and is passed to onError; done settles', async () => {
    const seen: unknown[] = [];
    let n = 0;
    const failing = (function* () {
      n++;
      yield;
      n++;
      throw new Error('bad data');
    })();
    const run = runInSlices(failing, { sliceMs: 100, onError: (e) => seen.push(e) });
    await run.done;
    expect(n).toBe(2);
    expect(seen.map((e) => (e as Error).message)).toEqual(['bad data']);
  });

  it('cancel stops before the next stretch and settles done', async () => {
    const clock = { t: 0 };
    const log: string[] = [];
    const run = runInSlices(steps(10, clock, log), { sliceMs: 2, now: () => clock.t });
    await new Promise((r) => setImmediate(r));
    run.cancel();
    await run.done;
    await new Promise((r) => setTimeout(r, 5));
    expect(log).toEqual(['s0', 's1']);
    run.cancel();
  });
});
