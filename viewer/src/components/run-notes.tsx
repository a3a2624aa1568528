/**
 * Honest headlines of a run page (issue 18, item 6): a run still being written, interrupted or
 * stopped before every planned episode started (why, how many did not; with the resume command),
 * why pass^k stops at a small k (tasks with fewer scored trials, e.g. after infrastructure errors),
 * and not-judged episodes (never a failure; the reward mean is then a lower bound).
 */
import type { EpisodeOutlineView, RunDetail } from '../../../src/viewer/types.js';
import { haltedText, resumeCommand } from '../format.js';

/** Tasks whose scored trials are fewer than the run's trials, with their counts. */
function shortTasks(episodes: readonly EpisodeOutlineView[], trials: number): { task: string; scored: number }[] {
  const scored = new Map<string, number>();
  for (const e of episodes) {
    const key = `${e.label}\u0000${e.task_id}`;
    scored.set(key, (scored.get(key) ?? 0) + (e.error ? 0 : 1));
  }
  return [...scored.entries()].filter(([, n]) => n < trials).map(([k, n]) => ({ task: k.split('\u0000')[1], scored: n }));
}

export function RunNotes({ detail }: { detail: RunDetail }) {
  const { run, episodes } = detail;
  const notes: { key: string; tone: string; body: React.ReactNode }[] = [];
  if (run.status === 'in_progress') {
    notes.push({ key: 'in_progress', tone: 'info', body: <>This run is <b>in progress</b>: a process is still writing it. Scores cover the {run.episodes} episodes stored so far and change as it runs.</> });
  } else if (run.status === 'interrupted') {
    notes.push({
      key: 'interrupted',
      tone: 'warn',
      body: (
        <>
          This run was <b>interrupted</b> before it finished; its scores cover the {run.episodes} episodes stored. Continue it with <code>{resumeCommand(run)}</code>.
        </>
      ),
    });
  } else if (run.halted) {
    notes.push({
      key: 'stopped',
      tone: 'warn',
      body: (
        <>
          <b>{haltedText(run.halted)}</b>: the run stopped before every planned episode started, so its scores cover only the {run.episodes} episode{run.episodes === 1 ? '' : 's'} stored. Continue it with{' '}
          <code>{resumeCommand(run)}</code>.
        </>
      ),
    });
  }
  const maxK = run.pass_hat_k.length ? run.pass_hat_k[run.pass_hat_k.length - 1].k : 0;
  if (run.trials > 1 && maxK < run.trials && episodes.length) {
    const short = shortTasks(episodes, run.trials);
    const worst = short.filter((s) => s.scored === Math.min(...short.map((x) => x.scored)));
    notes.push({
      key: 'pass_k',
      tone: 'warn',
      body: (
        <>
          pass^k stops at k = {maxK} of {run.trials} trials: pass^k needs k scored trials of every task, and {worst.map((s) => s.task).join(', ')} {worst.length === 1 ? 'has' : 'have'} only {worst[0]?.scored ?? 0}
          {run.errors ? ` (${run.errors} episode${run.errors === 1 ? '' : 's'} left out after infrastructure, harness or evaluation errors)` : ''}.
          {run.kind === 'run' ? <> Re-run the missing trials with <code>{resumeCommand(run)}</code>.</> : null}
        </>
      ),
    });
  }
  const unjudged = episodes.filter((e) => e.outcome === 'unjudged').length;
  if (unjudged) {
    notes.push({
      key: 'not_judged',
      tone: 'muted',
      body: (
        <>
          {unjudged} episode{unjudged === 1 ? ' was' : 's were'} <b>not judged</b> (natural-language assertions need a judge model): not counted as failed, but counted as 0 in the
          reward mean and pass^k, so both are <b>lower bounds</b>.
        </>
      ),
    });
  }
  if (!notes.length) return null;
  return (
    <ul className="notes" data-testid="run-notes">
      {notes.map((n) => (
        <li key={n.key} className={`note tone-${n.tone}`} data-note={n.key}>
          {n.body}
        </li>
      ))}
    </ul>
  );
}
