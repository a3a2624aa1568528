/**
 * What a servicegym check sees: the task, the episode, its tool calls with message positions,
 * the gold replay, the start state and the domain. Checks are pure functions of this.
 */
import type { Domain } from '../../spec/domain.js';
import type { StateOps } from '../../spec/state.js';
import type { Check, Task } from '../../spec/task.js';
import { BadInputError } from '../../spec/errors.js';
import type { GoldReplay } from '../gold.js';
import type { LoggedCall } from '../trace-index.js';
import type { EpisodeTrace } from '../types.js';

export interface CheckContext<S = unknown> {
  task: Task;
  trace: EpisodeTrace<S>;
  /** The back-end action log with message positions (`indexActions` in trace-index.ts). */
  calls: LoggedCall[];
  gold: GoldReplay<S>;
  /** The task's start state (the episode started here). */
  initialState: S;
  domain: Domain<S>;
  ops: StateOps<S>;
  /** The user persona of the episode, in persona runs (e.g. `off-policy`). */
  persona?: string;
}

/** The check variant of one kind. */
export type CheckOf<K extends Check['kind']> = Extract<Check, { kind: K }>;

/**
 * Compiles a task-supplied regular expression (flags `g`/`y` dropped: matching is stateless).
 * Throws {@link BadInputError} naming the task and check when the pattern is invalid.
 */
export function compileRegex(ctx: Pick<CheckContext, 'task'>, checkId: string, source: string, flags = ''): RegExp {
  try {
    return new RegExp(source, flags.replace(/[gy]/g, ''));
  } catch (e) {
    throw new BadInputError(`check '${checkId}': invalid regular expression /${source}/${flags}: ${(e as Error).message}`, {
      path: `tasks[id=${ctx.task.id}].servicegym.checks`,
    });
  }
}

/** `/source/flags` for evidence; a source longer than 60 characters is cut there (`…`). */
export function showRegex(re: RegExp): string {
  const src = re.source.length > 60 ? `${re.source.slice(0, 60)}…` : re.source;
  return `/${src}/${re.flags}`;
}
