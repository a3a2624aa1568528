/**
 * `servicegym prompts [--db PATH]`: the prompt versions the optimiser has seen, with their
 * lifecycle state (stable, candidate, canary, rejected, rolled_back, retired), hashes and dates,
 * folded from the `releases[]` of every `optimize` run in the store (the latest decision wins),
 * each with its own results: the rollouts its run played with that prompt (episodes labelled by
 * the version) and how many succeeded — per version, never one pooled reward for the run.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { BadInputError } from '../spec/errors.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';
import type { RunStore } from '../store/store.js';
import { promptVersions, type ReleaseEntry } from '../release/lifecycle.js';
import { table } from './output.js';
import { isSuccess } from '../evaluation/pass-k.js';

/** One prompt version's rollouts in its optimise run: `scored` excludes invalid rollouts (null reward). */
export interface VersionResults {
  rollouts: number;
  scored: number;
  passed: number;
  /** passed / scored; null when none was scored. */
  success_rate: number | null;
}

/** Results of `version`'s rollouts in run `runId` (episodes labelled with the version). */
export function versionResults(store: RunStore, runId: string, version: string): VersionResults {
  const mine = store.episodeOutlines(runId).filter((o) => o.label === version);
  const scored = mine.filter((o) => o.reward !== null);
  const passed = scored.filter((o) => isSuccess(o.reward)).length;
  return { rollouts: mine.length, scored: scored.length, passed, success_rate: scored.length ? Math.round((passed / scored.length) * 1e6) / 1e6 : null };
}

/** Reads every optimise run's release list from an open store. */
export function storedReleases(store: RunStore): { id: string; releases: ReleaseEntry[] }[] {
  return store
    .listRuns()
    .filter((r) => r.kind === 'optimize')
    .reverse()
    .map((r) => {
      const record = store.getRun(r.id)?.record as { releases?: ReleaseEntry[] } | null;
      return { id: r.id, releases: Array.isArray(record?.releases) ? record!.releases : [] };
    });
}

/** Registers `prompts` on the program; `setExit` receives the exit code. */
export function registerPrompts(program: Command, setExit: (code: number) => void): void {
  program
    .command('prompts')
    .description('list prompt versions and their release state (from optimise runs in the store)')
    .option('--db <path>', 'run store (SQLite)', DEFAULT_STORE_PATH)
    .option('--json', 'print the versions as JSON')
    .action(async (flags) => {
      // SQLite loads when the command runs, not for `--help` or other commands.
      const { RunStore } = await import('../store/store.js');
      if (!fs.existsSync(flags.db)) {
        throw new BadInputError(`no run store here; prompt versions are stored by \`servicegym optimize CONFIG\` (into the config's "store", else ${DEFAULT_STORE_PATH}, or its --db PATH) and updated by \`canary\`: run optimize first, or give --db the store it wrote`, { file: flags.db });
      }
      const store = RunStore.open(flags.db, { readonly: true });
      try {
        const versions = promptVersions(storedReleases(store)).map((v) => ({ ...v, results: versionResults(store, v.run_id, v.version) }));
        const success = (r: VersionResults) => (r.success_rate === null ? '-' : `${r.passed}/${r.scored} (${(r.success_rate * 100).toFixed(1)}%)`);
        if (flags.json) process.stdout.write(JSON.stringify(versions, null, 2) + '\n');
        else if (versions.length === 0) process.stdout.write(`no prompt versions in ${flags.db} (no optimise run has been saved)\n`);
        else {
          process.stdout.write(
            table([
              ['version', 'state', 'decision', 'rollouts', 'success', 'decided_at', 'parent', 'release_sha256', 'run'],
              ...versions.map((v) => [v.version, v.state, v.decision ?? '-', String(v.results.rollouts), success(v.results), v.decided_at, v.parent_sha256?.slice(0, 12) ?? '-', v.release_sha256?.slice(0, 12) ?? '-', v.run_id]),
            ]) + '\n',
          );
        }
        setExit(0);
      } finally {
        store.close();
      }
    });
}
