/**
 * The end hint of `run` (src/cli/run-end.ts endHint): the default store needs no --db however it
 * is spelled (a --config file makes its paths absolute), another store is named, quoted for a shell.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { endHint } from '../../src/cli/run-end.js';

describe('end hint', () => {
  it('leaves out --db for the default store, relative or absolute, and names any other', () => {
    expect(endHint('r1', '.servicegym/servicegym.db', false)).toBe('open it: servicegym view   (then #/runs/r1)');
    expect(endHint('r1', path.resolve('.servicegym/servicegym.db'), false)).toBe('open it: servicegym view   (then #/runs/r1)');
    expect(endHint('r1', '/tmp/my runs/x.db', true)).toBe("open it: servicegym view --db '/tmp/my runs/x.db'   (then #/runs/r1)\ncontinue it: servicegym run --resume r1 --db '/tmp/my runs/x.db' (the run's stored settings; finished episodes are kept, those with an infrastructure error run again)");
  });
});
