/**
 * Parent selection from a per-case Pareto front (GEPA's per-instance frontier): a prompt stays on
 * the front while it is best (ties included) on at least one gate case, so a prompt that fixes a
 * different case than the leader stays alive; parents are drawn weighted by how many cases they
 * win, without replacement, with the run's seeded generator.
 */
import type { Rng } from '../util/rng.js';

/** A prompt's per-case success rates on gate cases. */
export interface PoolEntry {
  sha256: string;
  /** case id → success rate in [0, 1]. */
  rates: ReadonlyMap<string, number>;
}

/** The front: entries best on ≥ 1 case, with their win counts, in pool order. */
export function paretoFront(pool: readonly PoolEntry[]): { sha256: string; wins: number }[] {
  const cases = [...new Set(pool.flatMap((p) => [...p.rates.keys()]))];
  const wins = new Map<string, number>();
  for (const c of cases) {
    const best = Math.max(...pool.map((p) => p.rates.get(c) ?? 0));
    for (const p of pool) if ((p.rates.get(c) ?? 0) === best) wins.set(p.sha256, (wins.get(p.sha256) ?? 0) + 1);
  }
  const front = pool.filter((p) => (wins.get(p.sha256) ?? 0) > 0).map((p) => ({ sha256: p.sha256, wins: wins.get(p.sha256)! }));
  return front.length ? front : pool.slice(0, 1).map((p) => ({ sha256: p.sha256, wins: 1 }));
}

/** Draws up to `n` distinct parents from the front, each with probability ∝ wins. */
export function pickParents(front: readonly { sha256: string; wins: number }[], n: number, rng: Rng): string[] {
  const left = [...front];
  const out: string[] = [];
  while (out.length < n && left.length) {
    const total = left.reduce((s, x) => s + x.wins, 0);
    let r = rng.next() * total;
    let i = 0;
    while (i < left.length - 1 && r >= left[i].wins) r -= left[i++].wins;
    out.push(left[i].sha256);
    left.splice(i, 1);
  }
  return out;
}
