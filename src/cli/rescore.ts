/**
 * `servicegym rescore <run-id> [--db PATH] [--data-dir DIR] [--json]`: re-evaluates every stored
 * episode of a run from its run-log record alone (src/run/rescore.ts) and reports each difference
 * from the stored evaluation. NL checks are judged again from the run's recorded judge calls
 * (a replay; nothing goes to the network). Exit 0 when every evaluation is reproduced, 1 on any
 * difference, 2 for an unknown run or store.
 */
import type { Command } from 'commander';
import type { LoadedDomain } from '../spec/domain.js';
import type { Receipt } from '../spec/receipt.js';
import { BadInputError } from '../spec/errors.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';
import type { RunStore } from '../store/store.js';
import type { EpisodeRunLog } from '../spec/run-log.js';
import type { RescoreOutcome } from '../run/rescore.js';
import { cleanFloats } from '../util/round.js';

/** Loads the dataset an episode was run on: a tau2 folder as recorded (or `--data-dir`), else servicegym's own. */
function datasetLoader(dataDir: string | undefined, loadDomain: typeof import('../domains/catalog.js').loadDomainAsync): (r: EpisodeRunLog) => Promise<LoadedDomain<any>> {
  const cache = new Map<string, Promise<LoadedDomain<any>>>();
  return (r) => {
    const dir = dataDir ?? (r.dataset.kind === 'tau2' ? r.dataset.source : undefined);
    const key = `${r.domain}\u0000${dir ?? ''}`;
    let loaded = cache.get(key);
    if (!loaded) cache.set(key, (loaded = loadDomain(r.domain, { dataDir: dir })));
    return loaded;
  };
}

/** Re-scores every episode of `runId` in `store`. */
export async function rescoreRun(store: RunStore, runId: string, dataDir?: string): Promise<RescoreOutcome[]> {
  const { loadDomainAsync } = await import('../domains/catalog.js');
  const { readEpisodeLogs } = await import('../store/run-log.js');
  const { createModel } = await import('../models/providers.js');
  const { notRescorable, rescoreEpisode, skippedOutcome } = await import('../run/rescore.js');
  if (!store.getRun(runId)) throw new BadInputError(`no run '${runId}' in the store (servicegym view lists the runs)`);
  const judgeCalls = store.receipts(runId).filter((r) => r.kind === 'llm_judge').map((r) => ({ kind: r.kind, provider: r.provider, endpoint: r.endpoint, request: r.request, response: r.response, elapsed_seconds: r.elapsed_seconds }) as Receipt);
  const judge = judgeCalls.length ? createModel('replay', { receipts: judgeCalls, model: String((judgeCalls[0].request as { model?: unknown }).model ?? 'judge') }) : undefined;
  const load = datasetLoader(dataDir, loadDomainAsync);
  const out: RescoreOutcome[] = [];
  for (const e of readEpisodeLogs(store, runId)) {
    const r = e.record;
    const skip = notRescorable(r);
    out.push(skip ? skippedOutcome(r, skip) : await rescoreEpisode(await load(r), r, judge));
  }
  return out;
}

/**
 * The skipped episodes, one line per reason (in order of first appearance): `E1: skipped (why)` for
 * one episode, `N episodes skipped (why): E1, E2, E3, …` for more (a campaign run skips every case
 * for the same reason).
 */
export function skippedLines(outcomes: readonly RescoreOutcome[]): string {
  const byReason = new Map<string, string[]>();
  for (const o of outcomes) {
    if (o.status !== 'skipped') continue;
    const reason = o.reason ?? 'not rescorable';
    const ids = byReason.get(reason) ?? [];
    ids.push(o.episode_id);
    byReason.set(reason, ids);
  }
  let text = '';
  for (const [reason, ids] of byReason) {
    text += ids.length === 1 ? `${ids[0]}: skipped (${reason})\n` : `${ids.length} episodes skipped (${reason}): ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}\n`;
  }
  return text;
}

/** Registers `rescore`; exit 1 when some episode's evaluation was not reproduced. */
export function registerRescore(program: Command, setExit: (code: number) => void): void {
  program
    .command('rescore')
    .description('re-evaluate every stored episode of a run from its record alone and report any difference from the stored evaluation')
    .argument('<run-id>', "the run to re-score: an id the runs list shows ('servicegym view', or the run_id 'run --json' prints)")
    .option('--db <path>', 'run store (SQLite)', DEFAULT_STORE_PATH)
    .option('--data-dir <dir>', 'the tau2-bench domain folder to load tasks from (default: the one recorded, or servicegym\'s own dataset)')
    .option('--json', 'print the outcome per episode as JSON')
    .action(async (runId: string, flags) => {
      // SQLite and the domains load when the command runs, not for `--help` or other commands.
      const { RunStore } = await import('../store/store.js');
      const store = RunStore.open(flags.db, { create: false });
      try {
        const outcomes = await rescoreRun(store, runId, flags.dataDir);
        const count = (s: RescoreOutcome['status']) => outcomes.filter((o) => o.status === s).length;
        const different = count('different');
        if (flags.json) {
          process.stdout.write(JSON.stringify(cleanFloats({ run_id: runId, episodes: outcomes.length, same: count('same'), different, skipped: count('skipped'), outcomes }), null, 2) + '\n');
        } else {
          for (const o of outcomes) {
            if (o.status === 'different') process.stdout.write(`${o.episode_id}: ${o.differences.length} difference(s)\n${o.differences.map((d) => `  ${d}\n`).join('')}`);
          }
          process.stdout.write(skippedLines(outcomes));
          process.stdout.write(`rescore: ${count('same')}/${outcomes.length - count('skipped')} evaluations reproduced, ${different} with differences${count('skipped') ? `, ${count('skipped')} skipped` : ''}\n`);
        }
        setExit(different ? 1 : 0);
      } finally {
        store.close();
      }
    });
}
