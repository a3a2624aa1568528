/**
 * `servicegym merge-shards --db OUT SHARD.db…`: joins the stores of a sharded run (`run --shard
 * i/N --run-id ID` on several machines) into one run with every episode, its summary recomputed.
 */
import type { Command } from 'commander';

/** Registers `servicegym merge-shards`; exit 2 when a shard is missing or repeated. */
export function registerMergeShards(program: Command, setExit: (code: number) => void): void {
  program
    .command('merge-shards')
    .description('merge the stores of a sharded run (run --shard i/N) into one store')
    .argument('<stores...>', 'the shard stores (SQLite files)')
    .requiredOption('--db <path>', 'the merged store (created if missing)')
    .action(async (stores: string[], flags) => {
      const { mergeShardStores } = await import('../queue/shard.js');
      const { counted } = await import('./output.js');
      for (const m of mergeShardStores(flags.db, stores)) {
        process.stdout.write(`${m.runId}: ${m.count > 1 ? `shards ${m.shards.join(', ')} of ${m.count}` : 'copied'}: ${counted(m.episodes, 'episode')}, ${counted(m.receipts, 'receipt')}\n`);
      }
      setExit(0);
    });
}
