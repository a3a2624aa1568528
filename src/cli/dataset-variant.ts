/**
 * A run's dataset variant: the domain load options besides the data folder
 * ({@link DomainLoadOptions}: `policy`, a policy variant; `solo`, solo mode) — run settings that
 * change the episode's tools and policy (tau2 telecom solo gives the agent the phone-side tools
 * and a `done` tool). Which variants a domain offers is the domain's own declaration
 * (`DomainPackage.variants`, checked by `loadPackage`); this module only records and reads them.
 *
 * `run` and `validate` record the variant in the run's config as `dataset_variant` (when not the
 * default), `export-trajectories` writes it on each line, and `evaluate` loads the dataset with it
 * (or with `--policy-variant` / `--solo`), so a replay offers the tools the agent used.
 */
import type { DomainLoadOptions, LoadedDomain } from '../spec/domain.js';

/** The load options of a dataset variant: `{policy?: string, solo?: true}`; `{}` is the default dataset. */
export type DatasetVariant = Omit<DomainLoadOptions, 'dataDir'>;

/**
 * Reads a variant's JSON form (run config, export line): an object with at most `policy` (a
 * non-empty string) and `solo` (a boolean). Returns the normal variant, or a message naming what
 * is wrong (`dataset_variant.solo: expected a boolean`).
 */
export function parseDatasetVariant(value: unknown): { variant: DatasetVariant } | { error: string } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: 'dataset_variant: expected an object such as {"policy": "workflow", "solo": true}' };
  const o = value as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => k !== 'policy' && k !== 'solo');
  if (unknown.length) return { error: `dataset_variant: unknown key(s) ${unknown.map((k) => JSON.stringify(k)).join(', ')} (known: policy, solo)` };
  if (o.policy !== undefined && (typeof o.policy !== 'string' || o.policy === '')) return { error: 'dataset_variant.policy: expected a non-empty string' };
  if (o.solo !== undefined && typeof o.solo !== 'boolean') return { error: 'dataset_variant.solo: expected a boolean' };
  return { variant: normalVariant({ policy: o.policy as string | undefined, solo: o.solo as boolean | undefined }) };
}

/** The variant flags of `run`, `validate`, `lint` and `evaluate`. */
export interface DatasetVariantFlags {
  policyVariant?: string;
  solo?: boolean;
}

/** The variant with its default keys left out (`solo: false` dropped), so equal variants print alike. */
export function normalVariant(v: DatasetVariant): DatasetVariant {
  return { ...(v.policy !== undefined ? { policy: v.policy } : {}), ...(v.solo === true ? { solo: true } : {}) };
}

/** The variant `--policy-variant` and `--solo` name (`{}` when neither is given). */
export function variantFromFlags(flags: DatasetVariantFlags): DatasetVariant {
  return normalVariant({ policy: flags.policyVariant, solo: flags.solo === true });
}

/** True when `flags` name a variant (so they override what a trajectory file records). */
export function variantFlagsGiven(flags: DatasetVariantFlags): boolean {
  return flags.policyVariant !== undefined || flags.solo === true;
}

/** The run-config entry of the variant flags: `{ dataset_variant }` when they name one, else `{}`. */
export function datasetVariantConfig(flags: DatasetVariantFlags): { dataset_variant?: DatasetVariant } {
  const v = variantFromFlags(flags);
  return Object.keys(v).length ? { dataset_variant: v } : {};
}

/**
 * The variant a stored run recorded in its config (`dataset_variant`), or `{}` when it recorded
 * none or not in the variant's shape (a run from before the field existed: evaluate's flags apply).
 */
export function runDatasetVariant(config: unknown): DatasetVariant {
  const value = (config as { dataset_variant?: unknown } | null)?.dataset_variant;
  if (value === undefined) return {};
  const parsed = parseDatasetVariant(value);
  return 'variant' in parsed ? parsed.variant : {};
}

/** A short human form of a variant for messages: `policy workflow, solo`, or `default`. */
export function describeVariant(v: DatasetVariant): string {
  const parts = [...(v.policy !== undefined ? [`policy ${v.policy}`] : []), ...(v.solo ? ['solo'] : [])];
  return parts.length ? parts.join(', ') : 'default';
}

/**
 * The dataset each trajectory of `evaluate` is replayed in: loaded with the variant `--policy-variant`
 * / `--solo` name when either is given (the flags replace every line's variant), else the line's
 * `dataset_variant`, else the default dataset. Each distinct variant loads once; the domain checks
 * it (`loadPackage`: a policy variant or solo mode it does not offer is refused).
 * @returns the loaded dataset of each input, in input order.
 * @throws BadInputError naming the flags, or the line (`file:line`) whose `dataset_variant` the
 *   domain does not offer; and whatever loading the data folder throws.
 */
export async function trajectoryDatasets(
  domain: string,
  dataDir: string | undefined,
  inputs: readonly { where: string; variant?: DatasetVariant }[],
  flags: DatasetVariantFlags,
): Promise<LoadedDomain<any>[]> {
  const { loadDomainAsync } = await import('../domains/catalog.js');
  const { BadInputError } = await import('../spec/errors.js');
  const fromFlags = variantFlagsGiven(flags);
  const loadedByKey = new Map<string, Promise<LoadedDomain<any>>>();
  const load = (v: DatasetVariant): Promise<LoadedDomain<any>> => {
    const key = JSON.stringify([v.policy ?? null, v.solo === true]);
    let p = loadedByKey.get(key);
    if (!p) loadedByKey.set(key, (p = loadDomainAsync(domain, { dataDir, ...v })));
    return p;
  };
  if (fromFlags || inputs.every((t) => t.variant === undefined)) {
    const one = await load(fromFlags ? variantFromFlags(flags) : {});
    return inputs.map(() => one);
  }
  const out: LoadedDomain<any>[] = [];
  for (const t of inputs) {
    const v = normalVariant(t.variant ?? {});
    try {
      out.push(await load(v));
    } catch (e) {
      if (!(e instanceof BadInputError) || Object.keys(v).length === 0) throw e;
      throw new BadInputError(`dataset_variant ${JSON.stringify(v)}: ${e.message}`, { file: t.where });
    }
  }
  return out;
}
