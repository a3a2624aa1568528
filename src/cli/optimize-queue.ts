/**
 * `servicegym optimize <config> --queue redis://…`: the optimiser's rollouts run as jobs on
 * `servicegym worker`s (src/queue/rollout-runner.ts) while this process stays the one writer of
 * the journal, records and store. The manifest tells workers how to build the suite (paths
 * resolved here), its fingerprint, and the models (no key: each worker uses its own).
 */
import { parseRateLimit } from '../models/rate-limit.js';
import { BadInputError } from '../spec/errors.js';
import type { LiveModelFlags } from '../models/config.js';
import { resolveConfigPath, type LoadedOptimizeConfig } from '../optimizer/config.js';
import { roleModelFlags } from '../optimizer/setup.js';
import type { Suite } from '../optimizer/suite.js';
import { canonicalHash } from '../util/canonical.js';
import { checkQueueName, harnessPin, type ModelPin } from '../queue/jobs.js';
import { buildSuiteOf, type SuiteSpec } from '../queue/rollout-jobs.js';
import { QueueRolloutRunner } from '../queue/rollout-runner.js';

/** What a worker needs to build the config's suite; `strict` is `optimize --strict`. */
export function suiteSpecOf(loaded: LoadedOptimizeConfig, strict: boolean): SuiteSpec {
  const s = loaded.config.suite;
  if (s.kind === 'campaign') return { kind: 'campaign', dir: resolveConfigPath(loaded, s.dir) };
  return {
    kind: 'tasks', domain: s.domain, data_dir: s.data_dir ? resolveConfigPath(loaded, s.data_dir) : null, tasks: s.tasks ?? null, boundary: s.boundary ?? null,
    variants: s.variants ?? null, strict, surface: s.surface ?? null,
  };
}

function pinOf(f: LiveModelFlags): ModelPin {
  const s = (v: unknown) => (v === undefined || v === null ? null : String(v));
  return { model: String(f.model), base_url: s(f.baseUrl), provider: s(f.provider), timeout: s(f.timeout), max_retries: s(f.maxRetries), max_retry_after: s(f.maxRetryAfter), call_deadline: s(f.callDeadline), body_timeout: s(f.bodyTimeout) };
}

/**
 * Opens the queue runner of an optimise run: run id `optimize-<name>-<12 hex of the journal
 * identity>` (the same on resume, so job ids repeat and finished work is not redone).
 * @throws BadInputError for a bad `--queue-name` or `--rate-limit`.
 */
export async function openRolloutQueue(loaded: LoadedOptimizeConfig, suite: Suite, flags: Record<string, any>): Promise<QueueRolloutRunner> {
  const queueName = checkQueueName(String(flags.queueName ?? 'servicegym'));
  const rate = parseRateLimit(flags.rateLimit) ?? null;
  const spec = suiteSpecOf(loaded, flags.strict === true);
  const built = await buildSuiteOf(spec);
  // The workers build the suite from the spec: it must be the very suite this process judges with.
  if (built.suite.id !== suite.id || canonicalHash(built.suite.cases) !== canonicalHash(suite.cases) || built.suite.surface !== suite.surface) {
    throw new Error(`the queue's suite ${built.suite.id} differs from the optimiser's ${suite.id}`);
  }
  const roles = roleModelFlags(loaded, flags);
  const variants = new Map(suite.cases.map((c) => [c.id, c.variant ?? null]));
  return QueueRolloutRunner.open({
    url: String(flags.queue),
    queueName,
    personaOf: (caseId) => variants.get(caseId) ?? null,
    manifest: {
      kind: 'rollouts',
      run_id: `optimize-${loaded.config.name}-${loaded.identity.slice(0, 12)}`,
      harness: harnessPin(),
      suite: spec,
      suite_fingerprint: built.fingerprint,
      agent: pinOf(roles.agent),
      user: roles.user ? pinOf(roles.user) : null,
      judge: pinOf(roles.judge),
      temperature: loaded.config.models.agent.temperature ?? 0,
      rate_limit_per_minute: rate,
    },
  });
}
