/**
 * `servicegym canary <optimize-output-dir> --episodes FILE (--stable-rate P | --stable-episodes FILE)`:
 * judges the prompt an optimise run released to canary on real traffic outcomes (see
 * `src/release/traffic-canary.ts` for the episode file) and, on a decision, appends the hashed
 * canary release record to `releases/` and `record.json`, replaces `stable.txt` only on a
 * promotion, and updates the run in the store so `servicegym prompts` shows the new states.
 * Exit codes: 0 promoted or still in canary, 1 rolled back, 2 bad input.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { readJsonFile, readTextFile } from '../util/json-file.js';
import { SystemClock, isoSeconds } from '../util/clock.js';
import { BadInputError } from '../spec/errors.js';
import { recordBytes } from '../release/record.js';
import { versionOf } from '../release/lifecycle.js';
import { applyTrafficCanary, readTrafficEpisodes, resolutionRate, type OptimizeRunRecordLike } from '../release/traffic-canary.js';
import { optimizeRunId } from '../optimizer/run-record.js';
import { RunStore } from '../store/store.js';

const RunRecordSchema = z.looseObject({ name: z.string(), releases: z.array(z.looseObject({ sha256: z.string(), state: z.string() })), release_records: z.array(z.looseObject({ sha256: z.string() })) });

const number = (name: string, lo: number, hi: number, integer = false) => (v: string) => {
  const x = Number(v);
  if (!Number.isFinite(x) || x < lo || x > hi || (integer && !Number.isInteger(x))) throw new BadInputError(`${name} must be ${integer ? 'a whole number' : 'a number'} from ${lo} to ${hi}, got '${v}'`);
  return x;
};

/** Registers `canary` on the program; `setExit` receives the exit code. */
export function registerCanary(program: Command, setExit: (code: number) => void): void {
  program
    .command('canary')
    .description("promote or roll back an optimise run's canary prompt on real traffic outcomes")
    .argument('<dir>', 'the optimise output folder (record.json, releases/, prompts/, stable.txt)')
    .requiredOption('--episodes <file>', 'canary conversations, JSON Lines: {"id", "success", "critical"?, "valid"?} in serving order')
    .option('--stable-rate <p>', "stable's resolution rate on the same traffic (0 to 1)", number('--stable-rate', 0, 1))
    .option('--stable-episodes <file>', "stable's conversations on the same traffic (same format); their success rate is used")
    .option('--resolution-drop <d>', 'the drop in resolution to detect (absolute)', number('--resolution-drop', 0.001, 1), 0.1)
    .option('--alpha <a>', 'SPRT alpha', number('--alpha', 0.001, 0.5), 0.05)
    .option('--beta <b>', 'SPRT beta', number('--beta', 0.001, 0.5), 0.05)
    .option('--min-episodes <n>', 'episodes before a promotion', number('--min-episodes', 1, 1e7, true), 200)
    .option('--max-episodes <n>', 'episodes read at most', number('--max-episodes', 1, 1e7, true), 400)
    .option('--db <path>', 'run store to update (default: none; the optimise run must be in it)')
    .option('--json', 'print the decision as JSON')
    .action((dir: string, flags) => {
      if ((flags.stableRate === undefined) === (flags.stableEpisodes === undefined)) throw new BadInputError('give exactly one of --stable-rate and --stable-episodes');
      if (flags.minEpisodes > flags.maxEpisodes) throw new BadInputError('--min-episodes must not exceed --max-episodes');
      const recordFile = path.join(dir, 'record.json');
      const run = readJsonFile(recordFile, RunRecordSchema) as unknown as OptimizeRunRecordLike;
      const episodes = readTrafficEpisodes(flags.episodes);
      const p0 = flags.stableEpisodes !== undefined ? resolutionRate(readTrafficEpisodes(flags.stableEpisodes), flags.stableEpisodes) : (flags.stableRate as number);
      const params = { p0, drop: flags.resolutionDrop, alpha: flags.alpha, beta: flags.beta, minEpisodes: flags.minEpisodes, maxEpisodes: flags.maxEpisodes };
      let res;
      try {
        res = applyTrafficCanary(run, {
          episodes, params, now: isoSeconds(SystemClock.nowSeconds()),
          source: path.basename(flags.episodes), stableSource: flags.stableEpisodes !== undefined ? path.basename(flags.stableEpisodes) : `--stable-rate ${p0}`,
        });
      } catch (e) {
        if (e instanceof BadInputError && !e.file) throw new BadInputError(e.message, { file: recordFile });
        throw e;
      }
      const { decision, canary, release } = res;
      if (release) {
        // The new stable text must exist before anything is written.
        const promptFile = path.join(dir, 'prompts', `${canary.version}.txt`);
        const text = res.promoted ? readTextFile(promptFile) : null;
        const releases = path.join(dir, 'releases');
        fs.mkdirSync(releases, { recursive: true });
        fs.writeFileSync(path.join(releases, `canary-${canary.version}-${decision.decision}.json`), recordBytes(release));
        fs.writeFileSync(recordFile, JSON.stringify(res.record, null, 2) + '\n');
        if (text !== null) fs.writeFileSync(path.join(dir, 'stable.txt'), text);
        if (flags.db) {
          const store = RunStore.open(flags.db);
          try {
            const id = typeof run.run_id === 'string' ? run.run_id : optimizeRunId(String(run.name), run);
            const row = store.getRun(id);
            if (!row) throw new BadInputError(`the optimise run ${id} is not in this store (was it run with --no-store or another --db?)`, { file: flags.db });
            store.saveRun({ ...row, record: res.record, summary: { ...(row.summary as object), canary: decision.decision } });
          } finally {
            store.close();
          }
        }
      }
      if (flags.json) {
        process.stdout.write(JSON.stringify({ canary: canary.version, decision: decision.decision, reason: decision.reason, episodes: decision.episodes, p0: decision.p0, p1: decision.p1, release_sha256: release?.sha256 ?? null }, null, 2) + '\n');
      } else {
        const what = decision.decision === 'promote' ? `promoted: ${versionOf(canary.sha256)} is now stable (stable.txt replaced)` : decision.decision === 'rollback' ? `rolled back: ${versionOf(canary.sha256)}; stable.txt unchanged` : `continue: ${versionOf(canary.sha256)} stays in canary`;
        process.stdout.write(`Canary ${what}\n  ${decision.reason}\n${release ? `  release record ${release.sha256} in ${path.join(dir, 'releases')}\n` : ''}`);
      }
      setExit(decision.decision === 'rollback' ? 1 : 0);
    });
}
