/** A run's status badge: in progress (scores so far) or interrupted (resume it); nothing for a complete run. */
import type { RunListItem } from '../../../src/viewer/types.js';
import { resumeCommand } from '../format.js';

export function RunStatusBadge({ run }: { run: Pick<RunListItem, 'status' | 'id' | 'domain'> }) {
  if (run.status === 'complete') return null;
  const live = run.status === 'in_progress';
  return (
    <span
      className={`badge ${live ? 'tone-info' : 'tone-warn'}`}
      data-testid="run-status"
      data-status={run.status}
      title={live ? 'a process is still writing this run: the scores cover the episodes stored so far' : `not finished and nobody is writing it; continue with: ${resumeCommand(run)}`}
    >
      {live ? '◔ in progress' : '‖ interrupted'}
    </span>
  );
}

/** Tags of a run, each a link that filters the runs list by it. */
export function Tags({ tags, href }: { tags: readonly string[]; href: (tag: string) => string }) {
  if (!tags.length) return null;
  return (
    <span className="tags" data-testid="run-tags">
      {tags.map((t) => (
        <a key={t} className="tag" href={href(t)} aria-label={`tag ${t}: show runs with it`}>
          #{t}
        </a>
      ))}
    </span>
  );
}

/** A run's surface and strict mode (` · terminal · strict`), as recorded by `run` and `validate`; nothing when neither is. */
export function RunModeLabels({ run }: { run: Pick<RunListItem, 'surface' | 'strict'> }) {
  return (
    <>
      {run.surface ? (
        <>
          {' · '}
          <span data-testid="run-surface" title="the surface the agent worked through">
            {run.surface}
          </span>
        </>
      ) : null}
      {run.strict ? (
        <>
          {' · '}
          <span data-testid="run-strict" title="evaluated in strict mode: ACTION in every reward basis, a transfer must be a real call, known-bad tasks left out">
            strict
          </span>
        </>
      ) : null}
    </>
  );
}
