/**
 * An episode's cost and time: usage by role (calls, tokens, latency, provider-reported cost),
 * model and wall seconds when recorded, and the tool-call timeline: every tool call in order with
 * its turn, marked as a write or an error (by glyph and text, not colour alone), each a link to
 * its turn in the transcript; beside it, each turn's latency (the model call that produced the
 * agent's or the simulated customer's message), as a number and a bar.
 */
import type { EpisodeDetail, ToolStepView, TranscriptEntry } from '../../../src/viewer/types.js';
import { usageRows } from '../../../src/viewer/usage.js';
import { UsageTable } from './usage-table.js';

/** The tool calls of a transcript, when the episode did not record its own timeline. */
function fromTranscript(entries: TranscriptEntry[]): ToolStepView[] {
  const errors = new Map<string, boolean>();
  for (const e of entries) if (e.kind === 'tool') errors.set(e.call_id, e.error);
  const steps: ToolStepView[] = [];
  entries.forEach((e, turn) => {
    if (e.kind !== 'agent') return;
    for (const c of e.tool_calls) steps.push({ step: steps.length, requestor: 'assistant', name: c.name, error: errors.get(c.id) ?? c.malformed, mutating: false, turn });
  });
  return steps;
}

export function ToolTimeline({ steps, turnHref, knowsWrites }: { steps: ToolStepView[]; turnHref: (i: number) => string; knowsWrites: boolean }) {
  if (!steps.length) return <p className="hint">No tool was called.</p>;
  return (
    <ol className="timeline" data-testid="tool-timeline" aria-label="tool calls in order">
      {steps.map((s) => {
        const kind = s.error ? 'error' : s.mutating ? 'write' : 'read';
        const glyph = s.error ? '✗' : s.mutating ? '✎' : '·';
        const body = (
          <>
            <span className="step-no">#{s.step}</span> <span aria-hidden="true">{glyph}</span> <span className="mono">{s.name}</span>
            <span className="visually-hidden">{s.error ? ' (error)' : knowsWrites ? (s.mutating ? ' (write)' : ' (read)') : ''}</span>
            {s.requestor === 'user' ? <span className="sub"> customer</span> : null}
          </>
        );
        return (
          <li key={s.step} className={`step step-${kind}`} data-step={s.step} data-kind={kind} title={`${s.name}: ${s.error ? 'error' : kind}${s.turn !== null ? `, message ${s.turn}` : ''}`}>
            {s.turn !== null ? <a href={turnHref(s.turn)}>{body}</a> : body}
          </li>
        );
      })}
    </ol>
  );
}

type TurnTime = NonNullable<NonNullable<EpisodeDetail['timings']>['turns']>[number];

/** Each timed turn: its number (a link to it), who spoke, the latency in seconds and a bar scaled to the slowest turn. */
export function TurnTimings({ turns, turnHref }: { turns: TurnTime[]; turnHref: (i: number) => string }) {
  if (!turns.length) return <p className="hint">No turn was timed: the episode recorded no model call per message (scripted or oracle parties, or an older record).</p>;
  const slowest = Math.max(...turns.map((t) => t.latency_seconds), 1e-9);
  const total = turns.reduce((s, t) => s + t.latency_seconds, 0);
  const slowestTurn = turns.find((t) => t.latency_seconds === slowest)!;
  return (
    <>
      <p className="sub" data-testid="turn-timings-summary">
        {turns.length} timed turns, {total.toFixed(2)} s in all; slowest #{slowestTurn.message_index} ({slowest.toFixed(2)} s)
      </p>
      <ol className="turn-timings" data-testid="turn-timings" aria-label="latency of each turn">
        {turns.map((t) => (
          <li key={t.message_index} data-turn={t.message_index} data-role={t.role}>
            <a href={turnHref(t.message_index)}>
              <span className="step-no">#{t.message_index}</span> {t.role === 'assistant' ? 'agent' : 'customer'} <b className="secs">{t.latency_seconds.toFixed(2)} s</b>
            </a>
            <span className={`bar bar-${t.role}`} aria-hidden="true" style={{ width: `${Math.max(2, (t.latency_seconds / slowest) * 100)}%` }} />
          </li>
        ))}
      </ol>
    </>
  );
}

export function EpisodeCost({ detail, turnHref }: { detail: EpisodeDetail; turnHref: (i: number) => string }) {
  const rows = usageRows(detail.usage);
  const steps = detail.tool_timeline ?? fromTranscript(detail.transcript);
  const t = detail.timings;
  return (
    <section className="episode-cost" data-testid="episode-cost">
      <h2>Cost and time</h2>
      {t ? (
        <p className="meta" data-testid="timings">
          model time <b>{t.model_seconds.toFixed(2)} s</b>
          {t.elapsed_seconds !== null ? (
            <>
              {' '}
              · wall time <b>{t.elapsed_seconds.toFixed(2)} s</b>
            </>
          ) : null}
        </p>
      ) : null}
      <UsageTable rows={rows} caption="Model calls of this episode, by role" />
      <div className="time-columns">
        <div>
          <h3>Tool-call timeline</h3>
          <ToolTimeline steps={steps} turnHref={turnHref} knowsWrites={!!detail.tool_timeline} />
        </div>
        {t?.turns ? (
          <div>
            <h3>Turn timings</h3>
            <TurnTimings turns={t.turns} turnHref={turnHref} />
          </div>
        ) : null}
      </div>
    </section>
  );
}
