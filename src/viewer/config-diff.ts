/**
 * The whole configuration of two runs side by side, for the compare page: models, prompt,
 * settings and dataset, so two runs that differ in anything but the prompt say so (issue 18,
 * item 4). Pure (no Node APIs): the static export computes it in the browser.
 *
 * A run's configuration is its list-row facts (domain, models, prompt hash, tasks × trials,
 * labels) plus every setting its stored summary records (scalars and lists of scalars), except
 * the summary's results (scores, counts, usage, attempts), which are outcomes, not settings.
 */
import type { ConfigDiffRow, RunDetail } from './types.js';

/** Summary keys that hold results of the run, not its settings (src/run/summary.ts and the CLI's extras). */
const RESULT_KEYS = new Set([
  'episodes',
  'scored',
  'infraErrors',
  'harnessErrors',
  'evaluationErrors',
  'unjudged',
  'rewardMean',
  'partialMean',
  'passHatK',
  'passHatKInterval',
  'terminations',
  'crossSide',
  'usage',
  'unattached_usage',
  'attempts',
  'canary',
  'name',
  'tags',
]);

type Value = string | number | boolean | null;

const isScalar = (v: unknown): v is Value => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** A setting's value as one comparable string; undefined when it is not a setting (an object). */
function shown(v: unknown): string | undefined {
  if (isScalar(v)) return v === null ? '—' : String(v);
  if (Array.isArray(v) && v.every(isScalar)) return v.map((x) => String(x)).join(', ');
  return undefined;
}

/** The configuration of one run as `key → shown value`, in a stable order (facts first, then summary keys sorted). */
export function runConfig(d: RunDetail): Map<string, string> {
  const r = d.run;
  const out = new Map<string, string>([
    ['domain', r.domain ?? '—'],
    ['agent model', r.agent_model ?? '—'],
    ['user model', r.user_model ?? '—'],
    ['system prompt (sha256)', r.prompt_hash ?? '—'],
    ['tasks × trials', `${r.tasks} × ${r.trials}`],
    ['labels', r.labels.join(', ') || '—'],
  ]);
  const summary = (d.summary && typeof d.summary === 'object' ? d.summary : {}) as Record<string, unknown>;
  for (const key of Object.keys(summary).sort()) {
    if (RESULT_KEYS.has(key) || key === 'agent_model' || key === 'user_model' || key === 'tasks' || key === 'trials') continue;
    const v = shown(summary[key]);
    if (v !== undefined) out.set(key, v);
  }
  return out;
}

/** Every configuration key of either run with both values; `same` is false where they differ (or one lacks it). */
export function configDiff(a: RunDetail, b: RunDetail): ConfigDiffRow[] {
  const ca = runConfig(a);
  const cb = runConfig(b);
  const keys = [...ca.keys(), ...[...cb.keys()].filter((k) => !ca.has(k))];
  return keys.map((key) => {
    const x = ca.get(key) ?? null;
    const y = cb.get(key) ?? null;
    return { key, a: x, b: y, same: x === y };
  });
}
