/**
 * The task resolver of `servicegym view`: finds an episode's task in the domain registry (the
 * domain's own dataset, loaded once per domain on first use), so the episode page shows the user
 * scenario, gold actions and assertion texts. A domain that is unknown or fails to load gives no
 * task (the page says so) rather than an error. Each task carries the run log's task hash, so the
 * page says when the task file changed since the episode ran.
 */
import { loadDomain } from '../domains/index.js';
import { resolverOver } from '../viewer/task-info.js';
import { taskHash } from '../run/episode-log.js';
import type { TaskInfoResolver } from '../viewer/types.js';

/** A resolver over the registered domains' default datasets. */
export function registryTaskResolver(): TaskInfoResolver {
  return resolverOver((domain) => {
    try {
      return loadDomain(domain).tasks;
    } catch {
      return null;
    }
  }, taskHash);
}
