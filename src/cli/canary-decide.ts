/** The decision of `servicegym canary` (see `canary.ts`): read the run and the traffic, judge, write. */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readJsonFile, readTextFile } from '../util/json-file.js';
import { SystemClock, isoSeconds } from '../util/clock.js';
import { BadInputError } from '../spec/errors.js';
import { recordBytes } from '../release/record.js';
import { versionOf } from '../release/lifecycle.js';
import { applyTrafficCanary, readTrafficEpisodes, resolutionRate, type OptimizeRunRecordLike } from '../release/traffic-canary.js';
import { optimizeRunId } from '../optimizer/run-record.js';
import { DEFAULT_STORE_PATH, RunStore } from '../store/store.js';
import { sha256Hex } from '../util/canonical.js';

const RunRecordSchema = z.looseObject({ name: z.string(), releases: z.array(z.looseObject({ sha256: z.string(), state: z.string() })), release_records: z.array(z.looseObject({ sha256: z.string() })) });

/** The parsed flags of `canary`. */
export interface CanaryFlags {
  episodes: string;
  stableRate?: number;
  stableEpisodes?: string;
  resolutionDrop: number;
  alpha: number;
  beta: number;
  minEpisodes: number;
  maxEpisodes: number;
  db?: string;
  json?: boolean;
}

/** Reads, decides, and writes the decision; see the module doc. */
export function judge(dir: string, recordFile: string, flags: CanaryFlags, setExit: (code: number) => void): void {
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
    if (e instanceof BadInputError && !e.file) throw new BadInputError(e.path ? e.message.replace(`at ${e.path}: `, '') : e.message, { file: recordFile, path: e.path });
    throw e;
  }
  const { decision, canary, release } = res;
  let storeNote = '';
  if (release) {
    // Everything is checked before the first write, so a refusal leaves the folder as it was.
    if (!/^[0-9a-f]{12}$/.test(canary.version) || !canary.sha256.startsWith(canary.version)) throw new BadInputError(`canary version '${canary.version}' is not the first 12 hex digits of its sha256`, { file: recordFile, path: '$.releases' });
    const promptFile = path.join(dir, 'prompts', `${canary.version}.txt`);
    const text = res.promoted ? readTextFile(promptFile) : null;
    if (text !== null && sha256Hex(text) !== canary.sha256) throw new BadInputError(`the prompt text does not hash to the canary's sha256 ${canary.sha256}; it was changed after the release`, { file: promptFile });
    const stableFile = path.join(dir, 'stable.txt');
    if (text !== null && fs.existsSync(stableFile) && !fs.statSync(stableFile).isFile()) throw new BadInputError('stable.txt is not a file', { file: stableFile });
    const dbPath = flags.db ?? (fs.existsSync(DEFAULT_STORE_PATH) ? DEFAULT_STORE_PATH : null);
    const runId = typeof run.run_id === 'string' ? run.run_id : optimizeRunId(String(run.name), run);
    const store = dbPath ? RunStore.open(dbPath, { create: false }) : null;
    try {
      const row = store?.getRun(runId) ?? null;
      if (store && !row && flags.db) throw new BadInputError(`the optimise run ${runId} is not in this store (was it run with --no-store or another --db?)`, { file: dbPath! });
      const releases = path.join(dir, 'releases');
      fs.mkdirSync(releases, { recursive: true });
      fs.writeFileSync(path.join(releases, `canary-${canary.version}-${decision.decision}.json`), recordBytes(release));
      if (text !== null) writeAtomic(stableFile, text);
      // record.json last: it holds the state, so until it is written the canary can be judged again.
      writeAtomic(recordFile, JSON.stringify(res.record, null, 2) + '\n');
      appendJournalNote(dir, `traffic-canary:${canary.sha256}`, `canary ${canary.version} ${decision.decision} on traffic (${path.basename(flags.episodes)}); release record ${release.sha256}`);
      if (store && row) {
        store.saveRun({ ...row, record: res.record, summary: { ...(row.summary as object), canary: decision.decision } });
        storeNote = `  store ${dbPath} updated\n`;
      } else {
        storeNote = `  no store updated (${dbPath ? `run ${runId} is not in ${dbPath}` : 'no store found'}; pass --db PATH to update one)\n`;
      }
    } finally {
      store?.close();
    }
  }
  if (flags.json) {
    process.stdout.write(JSON.stringify({ canary: canary.version, decision: decision.decision, reason: decision.reason, episodes: decision.episodes, p0: decision.p0, p1: decision.p1, release_sha256: release?.sha256 ?? null }, null, 2) + '\n');
  } else {
    const what = decision.decision === 'promote' ? `promoted: ${versionOf(canary.sha256)} is now stable (stable.txt replaced)` : decision.decision === 'rollback' ? `rolled back: ${versionOf(canary.sha256)}; stable.txt unchanged` : `continue: ${versionOf(canary.sha256)} stays in canary`;
    process.stdout.write(`Canary ${what}\n  ${decision.reason}\n${release ? `  release record ${release.sha256} in ${path.join(dir, 'releases')}\n` : ''}${storeNote}`);
  }
  setExit(decision.decision === 'rollback' ? 1 : 0);
}

/** Writes `file` through a temporary file and a rename, so a reader never sees half of it. */
function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

/**
 * Notes the traffic decision in the run's journal (when there is one), so that `optimize
 * --resume` knows record.json holds a decision the journal cannot rebuild.
 */
function appendJournalNote(dir: string, key: string, text: string): void {
  const journal = path.join(dir, 'events.jsonl');
  if (!fs.existsSync(journal)) return;
  fs.appendFileSync(journal, JSON.stringify({ type: 'note', key, text }) + '\n');
}
