/**
 * `servicegym view --export DIR`: a static copy of the viewer that opens from the file system
 * with no server and no network. DIR gets the built UI (index.html, assets/), `data.js`, a
 * classic script that sets `window.__SERVICEGYM_DATA__` ({@link StaticData}: every run and its
 * matrix), and `episodes/N.js`, classic scripts of {@link EPISODES_PER_FILE} episode pages each
 * that the UI loads when an episode is opened (script tags work from file://, fetch does not).
 */
import fs from 'node:fs';
import path from 'node:path';
import { RunStore } from '../store/store.js';
import { prepareOutputDir } from '../util/output-dir.js';
import { BadInputError } from '../spec/errors.js';
import { allEpisodePayloads, listRunItems, runDetail } from './queries.js';
import { withTask } from './episode-view.js';
import { defaultUiDir, missingUiMessage } from './ui-dir.js';
import type { EpisodeChunk, StaticData, TaskInfoResolver } from './types.js';

/** Episode pages per `episodes/N.js` script. */
export const EPISODES_PER_FILE = 100;

export interface ExportOptions {
  dbPath: string;
  outDir: string;
  /** Write into a non-empty folder that holds no earlier export. */
  force?: boolean;
  /** Folder of the built UI; default {@link defaultUiDir}. */
  uiDir?: string;
  /** Finds an episode's task for its page; default none. */
  taskInfo?: TaskInfoResolver;
}

/** What was exported. */
export interface ExportResult {
  /** Absolute path of the site's index.html. */
  index: string;
  runs: number;
  episodes: number;
  /** Size of data.js and the episode scripts, in bytes. */
  dataBytes: number;
}

/** The static data and the episode scripts' contents (relative file name → episode pages). */
export interface StaticSite {
  data: StaticData;
  chunks: Map<string, EpisodeChunk>;
}

/**
 * The time the static data is "as of": the newest stored run's `created_at` (the store keeps no
 * end time), null for a store without runs. Taken from the data, never the clock, so the same
 * store exports byte-identical files.
 */
export function dataTimeOf(runs: readonly { created_at: string }[]): string | null {
  let newest: string | null = null;
  for (const r of runs) if (newest === null || Date.parse(r.created_at) > Date.parse(newest)) newest = r.created_at;
  return newest;
}

/** Reads every run and episode of the store into the static data and episode chunks: a pure function of the store. */
export function buildStaticSite(store: RunStore, taskInfo?: TaskInfoResolver): StaticSite {
  const runs = listRunItems(store);
  const data: StaticData = { version: 1, generated_at: dataTimeOf(runs), runs, details: {}, episode_files: {} };
  const chunks = new Map<string, EpisodeChunk>();
  for (const run of runs) {
    const detail = runDetail(store, run.id);
    if (!detail) continue;
    data.details[run.id] = detail;
    const files: Record<string, string> = {};
    Object.entries(allEpisodePayloads(store, detail)).forEach(([eid, page], i) => {
      if (i % EPISODES_PER_FILE === 0) chunks.set(`episodes/${chunks.size}.js`, {});
      const file = `episodes/${chunks.size - 1}.js`;
      chunks.get(file)![eid] = withTask(page, taskInfo);
      files[eid] = file;
    });
    data.episode_files[run.id] = files;
  }
  return { data, chunks };
}

/** How data.js begins: also what marks a folder as an earlier export. */
const DATA_JS_HEAD = '/* servicegym view --export';

function copyDir(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isDirectory()) copyDir(src, dst);
    else fs.copyFileSync(src, dst);
  }
}

/**
 * Writes the static site into `outDir`: created if needed; an earlier export there (it has a
 * data.js) has its index.html, assets/, data.js and episodes/ replaced, other files left alone.
 * The files depend on the store (and the UI build) alone: two exports of one store are
 * byte-identical.
 *
 * @throws BadInputError when the store cannot be read, the UI is not built, or `outDir` is a
 *   non-empty folder that holds no earlier export and `force` is not set.
 */
export function exportStaticSite(opts: ExportOptions): ExportResult {
  const uiDir = opts.uiDir ?? defaultUiDir();
  if (!fs.existsSync(path.join(uiDir, 'index.html'))) throw new BadInputError(missingUiMessage(uiDir));
  const store = RunStore.open(opts.dbPath, { readonly: true });
  let site: StaticSite;
  try {
    // One snapshot: the runs list and each run's pages agree while a run is being written.
    site = store.snapshot(() => buildStaticSite(store, opts.taskInfo));
  } finally {
    store.close();
  }
  const { data, chunks } = site;
  const { earlier } = prepareOutputDir(opts.outDir, { marker: 'data.js', markerPrefix: DATA_JS_HEAD, what: 'an earlier export (data.js)', forceFlag: '--force', force: opts.force });
  // Checked before anything is written, so a bad folder is left as it was.
  for (const name of ['index.html', 'data.js', 'assets', 'episodes']) {
    const p = path.join(opts.outDir, name);
    const wantDir = name === 'assets' || name === 'episodes';
    if (fs.existsSync(p) && fs.statSync(p).isDirectory() !== wantDir) throw new BadInputError(`${name} is in the way: expected ${wantDir ? 'a folder' : 'a file'} there`, { file: p });
  }
  // An earlier export's hashed assets and episode chunks would otherwise pile up beside the new
  // ones; in any other folder (--force) nothing is removed.
  if (earlier) {
    fs.rmSync(path.join(opts.outDir, 'assets'), { recursive: true, force: true });
    fs.rmSync(path.join(opts.outDir, 'episodes'), { recursive: true, force: true });
  }
  copyDir(uiDir, opts.outDir);
  fs.mkdirSync(path.join(opts.outDir, 'episodes'), { recursive: true });
  const js = `${DATA_JS_HEAD}: static data (${data.runs.length} runs), newest run ${data.generated_at ?? 'none'} */\nwindow.__SERVICEGYM_DATA__ = ${JSON.stringify(data)};\n`;
  fs.writeFileSync(path.join(opts.outDir, 'data.js'), js);
  let bytes = Buffer.byteLength(js);
  for (const [file, chunk] of chunks) {
    const text = `window.__SERVICEGYM_EPISODES__ = window.__SERVICEGYM_EPISODES__ || {};\nwindow.__SERVICEGYM_EPISODES__[${JSON.stringify(file)}] = ${JSON.stringify(chunk)};\n`;
    fs.writeFileSync(path.join(opts.outDir, file), text);
    bytes += Buffer.byteLength(text);
  }
  return {
    index: path.resolve(opts.outDir, 'index.html'),
    runs: data.runs.length,
    episodes: [...chunks.values()].reduce((n, c) => n + Object.keys(c).length, 0),
    dataBytes: bytes,
  };
}
