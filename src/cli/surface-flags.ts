/**
 * The flags `run` and `validate` share to pick a surface: `--surface NAME` (default: the dataset's
 * own surface, `LoadedDomain.surface`, e.g. `terminal` for a terminal-only back-end; else `api`) and
 * repeatable `--surface-option key=value` (e.g. the pixel surface's `format=png`,
 * `latency_ms=200`, `document=text`). On a surface that fronts only some tasks (a GUI app), the
 * tasks default to those it fronts; naming another task is an error.
 */
import type { Command } from 'commander';
import type { LoadedDomain } from '../spec/domain.js';
import { BadInputError } from '../spec/errors.js';
import type { Surface } from '../spec/surface.js';
import type { Task } from '../spec/task.js';
import { SURFACE_NAMES } from '../surfaces/names.js';

/** Adds `--surface` and `--surface-option` to a command. */
export function addSurfaceFlags(cmd: Command): Command {
  return cmd
    .option('--surface <name>', `how the agent reaches the back-end (${SURFACE_NAMES.join(', ')}; default: the dataset's own surface, else api)`)
    .option('--surface-option <key=value>', 'a surface option, repeatable (pixels: format=png|jpeg, quality=1..100, latency_ms, transition_ms, document=images|text)', (v: string, acc: string[] = []) => [...acc, v]);
}

/**
 * The surface the flags name, else the dataset's own (`loaded.surface`), else `api`, with its
 * options, checked to front `loaded.domain` before anything runs or is stored. Throws
 * BadInputError for an unknown surface, a malformed option, or a surface the domain does not
 * support (naming the domain, the surface and the surfaces it supports). Async: the surfaces
 * (browsers, PDF rendering) load only when a command runs, not for its `--help`.
 */
export async function surfaceFromFlags(flags: { surface?: string; surfaceOption?: string[] }, loaded: Pick<LoadedDomain<any>, 'surface' | 'domain'>): Promise<Surface> {
  const { checkSurfaceSupports, loadSurface } = await import('../surfaces/catalog.js');
  const surface = await loadSurface(flags.surface ?? loaded.surface ?? 'api', surfaceOptionsOf(flags));
  try {
    await checkSurfaceSupports(surface, loaded.domain);
  } catch (e) {
    if (e instanceof BadInputError && flags.surface !== undefined) throw new BadInputError(`--surface ${flags.surface}: ${e.message}`);
    throw e;
  }
  return surface;
}

/** The `--surface-option key=value` flags as an object (later keys win). Throws BadInputError for a malformed one. */
export function surfaceOptionsOf(flags: { surfaceOption?: string[] }): Record<string, string> {
  const options: Record<string, string> = {};
  for (const kv of flags.surfaceOption ?? []) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new BadInputError(`--surface-option must be key=value, got '${kv}'`);
    options[kv.slice(0, i).trim()] = kv.slice(i + 1).trim();
  }
  return options;
}

/**
 * The run-config entry of the `--surface-option` flags: `{ surface_options }` when any were given
 * (export-trajectories hands them to `evaluate`), else `{}` (a run's config keeps no empty key).
 * Throws BadInputError for a malformed one.
 */
export function surfaceOptionsConfig(flags: { surfaceOption?: string[] }): { surface_options?: Record<string, string> } {
  const options = surfaceOptionsOf(flags);
  return Object.keys(options).length ? { surface_options: options } : {};
}

/**
 * The tasks to run on `surface`: those it fronts when no ids were named, else the named ones
 * (BadInputError naming any it does not front).
 */
export function tasksOnSurface(loaded: LoadedDomain<any>, tasks: Task[], surface: Surface, named: boolean): Task[] {
  if (!surface.fronts) return tasks;
  const ok = (t: Task) => surface.fronts!(loaded.domain, t);
  if (!named) {
    const kept = tasks.filter(ok);
    if (kept.length === 0) throw new BadInputError(`the ${surface.name} surface fronts no task of the ${loaded.domain.name} domain`);
    return kept;
  }
  const bad = tasks.filter((t) => !ok(t)).map((t) => t.id);
  if (bad.length) throw new BadInputError(`the ${surface.name} surface does not front task(s) ${bad.join(', ')} (run them on the api surface)`);
  return tasks;
}
