/**
 * scavengeNow (src/util/young-gc.ts): young-generation collections on demand, without leaving a
 * `gc` on the program's global or in later contexts.
 */
import vm from 'node:vm';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { scavengeNow } from '../../src/util/young-gc.js';

/** Kinds of the collections V8 reports as started while `fn` ran (reports arrive after a turn of the event loop). */
async function collectionsDuring(fn: () => void): Promise<number[]> {
  const seen: { kind: number; at: number }[] = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) seen.push({ kind: ((e as PerformanceEntry & { detail?: unknown }).detail as { kind: number }).kind, at: e.startTime });
  });
  obs.observe({ entryTypes: ['gc'] });
  const from = performance.now();
  fn();
  const to = performance.now();
  await new Promise((r) => setTimeout(r, 50));
  obs.disconnect();
  return seen.filter((e) => e.at >= from && e.at <= to).map((e) => e.kind);
}

describe('scavengeNow', () => {
  it('runs the asked number of young-generation collections, synchronously, and only those', async () => {
    let done = false;
    expect(await collectionsDuring(() => (done = scavengeNow(2)))).toEqual([constants.NODE_PERFORMANCE_GC_MINOR, constants.NODE_PERFORMANCE_GC_MINOR]);
    expect(done).toBe(true);
    expect(await collectionsDuring(() => scavengeNow(3))).toHaveLength(3);
    expect(await collectionsDuring(() => scavengeNow(0))).toEqual([]);
  });

  it('a young object survives it unchanged, and no gc is left on the global or in a new context', () => {
    const young = { id: 'x', list: Array.from({ length: 1000 }, (_, i) => ({ i })) };
    scavengeNow(2);
    expect(young.list[999]).toEqual({ i: 999 });
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
    expect(vm.runInNewContext('typeof gc')).toBe('undefined');
  });
});
