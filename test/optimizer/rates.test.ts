/**
 * The gate's operating characteristics over 100 seeded repetitions of the seed campaign suite
 * (10 cases split feedback 4 / gate 4 / sealed 2 per run seed), in process with the scripted
 * prompt-sensitive model (test/support/optimizer-model.ts). Each repetition is one run with a
 * single proposal, so each rate is the decision on one candidate:
 *
 * - a real fix (the no-transfer rule; disputes then fail 10% of trials) is released ≥ 90%;
 * - a no-op edit (rewording) is released ≤ 5%, also when the stable prompt handles disputes by
 *   luck 30% of the time (noisy discordant pairs);
 * - a fix that adds one critical violation on a holdout case (rebooking an emergency instead
 *   of escalating it) is never released.
 */
import { describe, expect, it } from 'vitest';
import { optimizeInProcess, seedConfig } from '../support/optimizer-run.js';
import type { OptimizerHandlerOptions } from '../support/optimizer-model.js';

const REPS = 100;

/** Decision counts `decision@stage` of the single candidate over REPS run seeds. */
async function rates(handler: OptimizerHandlerOptions): Promise<{ released: number; counts: Record<string, number> }> {
  const counts: Record<string, number> = {};
  let released = 0;
  for (let seed = 1; seed <= REPS; seed++) {
    const config = seedConfig({ seed, search: { rounds: 1, parents_per_round: 1, proposals_per_parent: 1 } });
    const r = await optimizeInProcess({ config, handler });
    expect(r.candidates).toHaveLength(1);
    const c = r.candidates[0];
    counts[`${c.decision}@${c.stage}`] = (counts[`${c.decision}@${c.stage}`] ?? 0) + 1;
    if (r.decision === 'release_to_canary') released++;
  }
  return { released, counts };
}

// Each case runs 100 whole optimisations in process: seconds alone, much longer on a loaded machine.
describe(`gate rates over ${REPS} seeded repetitions`, { timeout: 180_000 }, () => {
  it('releases a real fix in at least 90% of repetitions', async () => {
    const r = await rates({ proposer: 'fix' });
    expect(r.released, JSON.stringify(r.counts)).toBeGreaterThanOrEqual(90);
  });

  it('releases a no-op edit in at most 5% of repetitions', async () => {
    const r = await rates({ proposer: 'noop' });
    expect(r.released, JSON.stringify(r.counts)).toBeLessThanOrEqual(5);
  });

  it('releases a no-op edit in at most 5% even when the stable prompt handles disputes by luck 30% of the time', async () => {
    const r = await rates({ proposer: 'noop', rates: { baseHandle: 0.3 } });
    expect(r.released, JSON.stringify(r.counts)).toBeLessThanOrEqual(5);
  });

  it('never releases a fix that adds one critical violation on a holdout case', async () => {
    const r = await rates({ proposer: 'fix_violation' });
    expect(r.released, JSON.stringify(r.counts)).toBe(0);
    // Caught wherever the case landed: screen (feedback), gate, or confirmation (sealed).
    expect(Object.keys(r.counts).every((k) => k.startsWith('reject@'))).toBe(true);
  });
});
