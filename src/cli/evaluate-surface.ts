/**
 * The surface each trajectory of `servicegym evaluate` is replayed on: the recorded tool calls
 * name the tools of the surface the episode ran on (a terminal entry, a browser click, a
 * `computer` action), so the replay must offer the same ones. A trajectory's surface is, first
 * to last: `--surface` (with `--surface-option`), the line's `surface` (with its
 * `surface_options`, as `export-trajectories` writes them), the dataset's own surface
 * (`LoadedDomain.surface`), the API surface. Every surface comes from the surface registry
 * (`src/surfaces/catalog.ts`); whether it can front the domain and the task is the surface's own
 * answer (`tools`, `fronts`), asked before any trajectory is scored.
 */
import type { LoadedDomain } from '../spec/domain.js';
import { BadInputError } from '../spec/errors.js';
import type { Surface } from '../spec/surface.js';
import type { Task } from '../spec/task.js';
import { canonicalJson } from '../util/canonical.js';
import { surfaceOptionsOf } from './surface-flags.js';
import type { TrajectoryInput } from './trajectory-file.js';

/** The flags of `evaluate` that pick a surface. */
export interface EvaluateSurfaceFlags {
  surface?: string;
  surfaceOption?: string[];
}

/** A surface's registry name and per-run options (key to string value). */
export interface SurfaceChoice {
  name: string;
  options: Record<string, string>;
}

/**
 * The surface name and options for one trajectory (see the module doc). `--surface-option`
 * replaces the line's options; the line's options apply only to the line's own surface.
 * Throws BadInputError for a malformed `--surface-option`.
 */
export function surfaceChoice(loaded: Pick<LoadedDomain<any>, 'surface'>, t: Pick<TrajectoryInput, 'surface' | 'surfaceOptions'>, flags: EvaluateSurfaceFlags): SurfaceChoice {
  const name = flags.surface ?? t.surface ?? loaded.surface ?? 'api';
  if (flags.surfaceOption?.length) return { name, options: surfaceOptionsOf(flags) };
  return { name, options: name === t.surface ? { ...t.surfaceOptions } : {} };
}

/**
 * Loads each distinct surface the trajectories need once (per dataset: a dataset variant may
 * change the domain's tools) and checks that it fronts the input's domain and task. Returns the
 * surface of each input, in input order.
 * @throws BadInputError naming the trajectory (`file:line`) and the flag or line field for an
 *   unknown surface, bad options, a surface that cannot front the domain or the task.
 */
export async function trajectorySurfaces(inputs: readonly { t: TrajectoryInput; task: Task; loaded: LoadedDomain<any> }[], flags: EvaluateSurfaceFlags): Promise<Surface[]> {
  const { checkSurfaceSupports, loadSurface } = await import('../surfaces/catalog.js');
  const byDataset = new Map<LoadedDomain<any>, Map<string, Surface>>();
  const out: Surface[] = [];
  for (const { t, task, loaded } of inputs) {
    const choice = surfaceChoice(loaded, t, flags);
    const fromFlags = flags.surface !== undefined || (flags.surfaceOption?.length ?? 0) > 0;
    const key = canonicalJson(choice);
    const loadedSurfaces = byDataset.get(loaded) ?? new Map<string, Surface>();
    byDataset.set(loaded, loadedSurfaces);
    let surface = loadedSurfaces.get(key);
    try {
      if (!surface) {
        surface = await loadSurface(choice.name, choice.options);
        await checkSurfaceSupports(surface, loaded.domain); // names the surfaces the domain supports
        loadedSurfaces.set(key, surface);
      }
    } catch (e) {
      if (!(e instanceof BadInputError)) throw e;
      if (fromFlags) throw new BadInputError(`--surface ${choice.name}: ${e.message}`);
      throw new BadInputError(e.message, { file: t.where, path: t.surface !== undefined ? 'surface' : undefined });
    }
    if (surface.fronts && !surface.fronts(loaded.domain, task)) {
      throw new BadInputError(`the ${surface.name} surface does not front task ${task.id} of the ${loaded.domain.name} domain (replay it on the surface it was played on)`, { file: t.where });
    }
    out.push(surface);
  }
  return out;
}
