/**
 * `servicegym merge-shards --db OUT SHARD.db…`: joins the stores of a sharded run (`run --shard
 * i/N --run-id ID` on several machines) into one run with every episode, its summary recomputed
 * (src/queue/shard-merge.ts), and prints a line per run it merged or copied.
 */
import type { Command } from 'commander';
import type { MergedRun } from '../queue/shard-merge.js';

/** Registers `servicegym merge-shards`; exit 2 when a shard is missing or repeated. */
export function registerMergeShards(program: Command, setExit: (code: number) => void): void {
  program
    .command('merge-shards')
    .description('merge the stores of a sharded run (run --shard i/N) into one store')
    .argument('<stores...>', 'the shard stores (SQLite files)')
    .requiredOption('--db <path>', 'the merged store (created if missing)')
    .action(async (stores: string[], flags) => {
      const { mergeShardStores } = await import('../queue/shard-merge.js');
      const { counted } = await import('./output.js');
      for (const m of mergeShardStores(flags.db, stores)) process.stdout.write(`${mergedRunLine(m, counted)}\n`);
      setExit(0);
    });
}

/**
 * The report line of one run of the merge: `ID: shards 1, 2 of 2: 6 episodes, 40 receipts`, or
 * `ID: copied: …` for a run that was not sharded; `counted` words a count (src/cli/output.ts).
 */
function mergedRunLine(m: MergedRun, counted: (n: number, noun: string) => string): string {
  return `${m.runId}: ${m.count > 1 ? `shards ${m.shards.join(', ')} of ${m.count}` : 'copied'}: ${counted(m.episodes, 'episode')}, ${counted(m.receipts, 'receipt')}`;
}
