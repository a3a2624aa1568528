/**
 * The same back-end tasks reached through different surfaces, side by side (issue 16: "a run can
 * compare API and pixel reliability on the same customer and the same rule"): for each task, per
 * run, how often it succeeded, the mean reward and partial score, the agent's steps, the wall time
 * and the image bytes the agent received per episode; then the same over all common tasks, and
 * the tasks where the surfaces disagree. `servicegym compare-surfaces` prints it. Pure: no clock,
 * no I/O.
 *
 * An episode counts when it was scored (an infrastructure, harness or evaluation error leaves it out, as in
 * `run`'s summary); success is reward 1 (a not-judged reward counts as a failure). Steps are the
 * agent's tool calls (an API call, a terminal entry, a click or key). Image bytes are the decoded
 * bytes of every `image_url` part in the messages the agent was given (tool results and user
 * messages), so they measure what the surface sent, not how it was stored.
 */
import { contentImages } from '../spec/content.js';
import type { EpisodeRunLog } from '../spec/run-log.js';
import { BadInputError } from '../spec/errors.js';
import { isSuccess } from './pass-k.js';

/** A stored run as the comparison reads it. */
export interface SurfaceRun {
  id: string;
  episodes: readonly EpisodeRunLog[];
}

/** One task (or all common tasks) in one run. */
export interface SurfaceCell {
  /** Scored episodes. */
  episodes: number;
  /** Episodes at reward 1. */
  passed: number;
  /** Mean reward over the scored episodes (a not-judged reward counts as 0); null when none. */
  reward: number | null;
  /** Mean partial score (0..1); null when none was scored. */
  partial: number | null;
  /** Mean agent tool calls per episode. */
  steps: number | null;
  /** Mean wall seconds per episode, over the episodes that recorded them; null when none did. */
  seconds: number | null;
  /** Mean decoded image bytes the agent received per episode. */
  image_bytes: number | null;
  /** Mean image parts the agent received per episode. */
  images: number | null;
  /** Episodes left out: infrastructure, harness or evaluation errors. */
  errors: number;
}

/** One row: a task and its cell in each run (null when that run did not run it). */
export interface SurfaceTaskRow {
  task: string;
  cells: (SurfaceCell | null)[];
  /** True when every run that scored the task has the same success rate. */
  agree: boolean;
}

export interface SurfaceComparison {
  /**
   * The runs in the order given, with the surface their episodes record and whether they were
   * scored strictly (`--strict`: ACTION in every reward basis; any episode scored strictly).
   */
  runs: { id: string; surface: string; domain: string; dataset: string; strict: boolean }[];
  /** Tasks in natural order of their ids. */
  tasks: SurfaceTaskRow[];
  /** Over the tasks every run has (episode-weighted means). */
  common: { tasks: number; cells: SurfaceCell[] };
  /** Ids of tasks whose success rates differ between runs. */
  disagreements: string[];
  /** What limits the comparison (runs scored under different rules); empty when nothing does. */
  notes: string[];
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** The decoded bytes of a `data:` URL's base64 payload (0 for anything else). */
function dataUrlBytes(url: string): number {
  const comma = url.indexOf(',');
  if (!url.startsWith('data:') || comma < 0 || !url.slice(0, comma).endsWith(';base64')) return 0;
  const b64 = url.slice(comma + 1);
  const pad = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.floor((b64.length * 3) / 4) - pad;
}

/** Image parts and their decoded bytes in the messages an episode's agent was given. */
export function imagesReceived(record: Pick<EpisodeRunLog, 'messages'>): { images: number; bytes: number } {
  let images = 0;
  let bytes = 0;
  for (const m of record.messages) {
    if (m.role !== 'tool' && m.role !== 'user') continue;
    for (const p of contentImages(m.content ?? null)) {
      images++;
      bytes += dataUrlBytes(p.image_url.url);
    }
  }
  return { images, bytes };
}

const scored = (r: EpisodeRunLog) => r.evaluation !== null && r.evaluation.kind === 'task' && r.termination.infra_error === null && !r.termination.harness_error && r.evaluation_error === null;

/** The cell of `records` (the episodes of one task, or of all common tasks, in one run). */
export function surfaceCell(records: readonly EpisodeRunLog[]): SurfaceCell {
  const ok = records.filter(scored);
  const rewards = ok.map((r) => (r.evaluation as { reward: number | null }).reward);
  const seen = ok.map(imagesReceived);
  const seconds = ok.map((r) => r.timings.elapsed_seconds).filter((s): s is number => s !== null);
  return {
    episodes: ok.length,
    passed: rewards.filter((x) => isSuccess(x)).length,
    reward: mean(rewards.map((x) => x ?? 0)),
    partial: mean(ok.map((r) => (r.evaluation as { partial: number }).partial)),
    steps: mean(ok.map((r) => r.tool_calls.filter((t) => t.requestor === 'assistant').length)),
    seconds: mean(seconds),
    image_bytes: mean(seen.map((s) => s.bytes)),
    images: mean(seen.map((s) => s.images)),
    errors: records.length - ok.length,
  };
}

/**
 * A note when the runs were not all scored under the same rules: strict evaluation adds ACTION
 * (the gold actions) to every reward basis, so a strict run can fail where a non-strict one
 * passes on the same behaviour, and a difference may be the rules rather than the surface.
 */
function strictNotes(runs: readonly { id: string; strict: boolean }[]): string[] {
  if (runs.every((r) => r.strict === runs[0].strict)) return [];
  const names = (strict: boolean) => runs.filter((r) => r.strict === strict).map((r) => r.id).join(', ');
  return [`strict evaluation differs: ${names(true)} scored with --strict (ACTION in every reward basis), ${names(false)} without; rewards may differ by the rules, not the surface (run both with or without --strict)`];
}

/** The one value of `field` over a run's records; BadInputError when they disagree or there are none. */
function single(run: SurfaceRun, what: string, of: (r: EpisodeRunLog) => string): string {
  const values = [...new Set(run.episodes.map(of))];
  if (values.length === 0) throw new BadInputError(`run ${run.id} has no episode`);
  if (values.length > 1) throw new BadInputError(`run ${run.id} mixes ${what}s (${values.join(', ')}); compare runs of one ${what} each`);
  return values[0];
}

/**
 * Side by side, per task, the runs' results on their surfaces (see the module doc). Throws
 * BadInputError for fewer than two runs, a run without episodes or mixing surfaces, runs of
 * different domains or datasets (the same back-end tasks are compared, so they must be the same
 * tasks), or runs that share no task.
 */
export function compareSurfaces(runs: readonly SurfaceRun[]): SurfaceComparison {
  if (runs.length < 2) throw new BadInputError('compare at least two runs');
  const meta = runs.map((r) => ({
    id: r.id,
    surface: single(r, 'surface', (e) => e.surface),
    domain: single(r, 'domain', (e) => e.domain),
    dataset: single(r, 'dataset', (e) => `${e.dataset.kind}:${e.dataset.source}`),
    strict: r.episodes.some((e) => e.evaluation?.kind === 'task' && e.evaluation.strict === true),
  }));
  for (const m of meta.slice(1)) {
    if (m.domain !== meta[0].domain || m.dataset !== meta[0].dataset) throw new BadInputError(`runs ${meta[0].id} (${meta[0].domain}, ${meta[0].dataset}) and ${m.id} (${m.domain}, ${m.dataset}) are not of the same domain and dataset`);
  }
  const byTask = runs.map((r) => {
    const m = new Map<string, EpisodeRunLog[]>();
    for (const e of r.episodes) m.set(e.task.id, [...(m.get(e.task.id) ?? []), e]);
    return m;
  });
  const ids = [...new Set(byTask.flatMap((m) => [...m.keys()]))].sort((a, b) => collator.compare(a, b) || (a < b ? -1 : 1));
  const common = ids.filter((id) => byTask.every((m) => m.has(id)));
  if (common.length === 0) throw new BadInputError(`the runs share no task (${meta.map((m) => m.id).join(', ')})`);
  const tasks: SurfaceTaskRow[] = ids.map((task) => {
    const cells = byTask.map((m) => (m.has(task) ? surfaceCell(m.get(task)!) : null));
    const rates = new Set(cells.filter((c): c is SurfaceCell => c !== null && c.episodes > 0).map((c) => c.passed / c.episodes));
    return { task, cells, agree: rates.size <= 1 };
  });
  return {
    runs: meta,
    tasks,
    common: { tasks: common.length, cells: byTask.map((m) => surfaceCell(common.flatMap((id) => m.get(id)!))) },
    disagreements: tasks.filter((t) => !t.agree).map((t) => t.task),
    notes: strictNotes(meta),
  };
}
