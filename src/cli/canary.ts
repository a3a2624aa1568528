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
import { BadInputError } from '../spec/errors.js';

const number = (name: string, lo: number, hi: number, integer = false) => (v: string) => {
  const x = /^\s*[0-9]*\.?[0-9]+(e[-+]?[0-9]+)?\s*$/i.test(v) ? Number(v) : NaN;
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
    .option('--stable-rate <p>', "stable's resolution rate on the same traffic (0 to 1; this or --stable-episodes is required)", number('--stable-rate', 0, 1))
    .option('--stable-episodes <file>', "stable's conversations on the same traffic (same format); their success rate is used (this or --stable-rate is required)")
    .option('--resolution-drop <d>', 'the drop in resolution to detect (absolute)', number('--resolution-drop', 0.001, 1), 0.1)
    .option('--alpha <a>', 'SPRT alpha', number('--alpha', 0.001, 0.5), 0.05)
    .option('--beta <b>', 'SPRT beta', number('--beta', 0.001, 0.5), 0.05)
    .option('--min-episodes <n>', 'episodes before a promotion', number('--min-episodes', 1, 1e7, true), 200)
    .option('--max-episodes <n>', 'episodes read at most', number('--max-episodes', 1, 1e7, true), 400)
    .option('--db <path>', 'run store to update; it must hold the optimise run (default: .servicegym/servicegym.db when it exists and holds the run)')
    .option('--json', 'print the decision as JSON')
    .action(async (dir: string, flags) => {
      if ((flags.stableRate === undefined) === (flags.stableEpisodes === undefined)) throw new BadInputError('give exactly one of --stable-rate and --stable-episodes');
      if (flags.minEpisodes > flags.maxEpisodes) throw new BadInputError('--min-episodes must not exceed --max-episodes');
      const recordFile = path.join(dir, 'record.json');
      if (!fs.existsSync(recordFile)) throw new BadInputError('no record.json: this is not an optimise output folder', { file: recordFile });
      // One decision at a time per folder: a second invocation waits for nobody, it is refused.
      const lock = path.join(dir, '.canary.lock');
      let fd: number;
      try {
        fd = fs.openSync(lock, 'wx');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new BadInputError('another canary decision is running on this folder (remove .canary.lock if it is stale)', { file: lock });
        throw e;
      }
      try {
        fs.closeSync(fd);
        const { judge } = await import('./canary-decide.js');
        judge(dir, recordFile, flags, setExit);
      } finally {
        fs.rmSync(lock, { force: true });
      }
    });
}
