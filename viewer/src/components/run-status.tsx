/**
 * A run's status badge: in progress (scores so far), interrupted (resume it) or stopped before
 * every planned episode started (why, how many did not start; resume it); nothing for a complete run.
 */
import type { RunListItem } from '../../../src/viewer/types.js';
import { haltedText, resumeCommand } from '../format.js';

/** The badge's tone, text and hover title by status (a complete run has none). */
const STATUS_LOOK: Record<Exclude<RunListItem['status'], 'complete'>, { tone: string; text: string; title: (run: Pick<RunListItem, 'id' | 'domain' | 'halted'>) => string }> = {
  in_progress: { tone: 'tone-info', text: '◔ in progress', title: () => 'a process is still writing this run: the scores cover the episodes stored so far' },
  interrupted: { tone: 'tone-warn', text: '‖ interrupted', title: (run) => `not finished and nobody is writing it; continue with: ${resumeCommand(run)}` },
  stopped: { tone: 'tone-warn', text: '■ stopped', title: (run) => `${run.halted ? haltedText(run.halted) : 'stopped'}; continue with: ${resumeCommand(run)}` },
};

export function RunStatusBadge({ run }: { run: Pick<RunListItem, 'status' | 'id' | 'domain' | 'halted'> }) {
  if (run.status === 'complete') return null;
  const look = STATUS_LOOK[run.status];
  return (
    <span className={`badge ${look.tone}`} data-testid="run-status" data-status={run.status} title={look.title(run)}>
      {look.text}
    </span>
  );
}

/** A stopped run's line: why it stopped and how many planned episodes did not start (with the resume command on hover); nothing for another run. */
export function RunHaltedLine({ run }: { run: Pick<RunListItem, 'id' | 'domain' | 'halted'> }) {
  if (!run.halted) return null;
  return (
    <div className="sub" data-testid="run-halted" title={`continue with: ${resumeCommand(run)}`}>
      {haltedText(run.halted)}
    </div>
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
