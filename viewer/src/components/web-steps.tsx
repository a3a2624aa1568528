/**
 * A web-surface episode step by step: per browser action of the agent, the action, the excerpt
 * of the snapshot it acted on (the element's line marked), the back-end writes it caused, and the
 * page it led to with its screenshot (when the run took screenshots). Steps come from the
 * transcript (`web-steps.ts`); the full transcript stays one click away on the page.
 */
import type { EpisodeDetail } from '../../../src/viewer/types.js';
import { webSteps } from '../web-steps.js';

export function WebSteps({ detail, turnHref }: { detail: EpisodeDetail; turnHref: (i: number) => string }) {
  const steps = webSteps(detail.transcript, detail.call_writes ?? {});
  if (!steps.length) return <p className="hint">No browser action was recorded.</p>;
  return (
    <ol className="web-steps" data-testid="web-steps">
      {steps.map((s, k) => (
        <li key={s.turn} className={`web-step${s.error ? ' web-step-error' : ''}${s.writes.length ? ' web-step-write' : ''}`} data-testid="web-step">
          <div className="screen-head">
            <a href={turnHref(s.turn)}>step {k + 1}</a> <span className="sub">(message {s.turn})</span> <span className="mono web-action">{s.action}</span>
            {s.error ? <span className="badge tone-bad">✗ error</span> : null}
          </div>
          <div className="web-step-body">
            <div className="web-step-text">
              {s.excerpt ? (
                <pre className="web-excerpt" aria-label={`snapshot acted on, step ${k + 1}`}>
                  {s.excerpt.lines.map((l, i) => (
                    <span key={i} className={i === s.excerpt!.focus ? 'web-focus' : undefined}>
                      {l}
                      {'\n'}
                    </span>
                  ))}
                </pre>
              ) : null}
              {s.writes.length ? (
                <ul className="web-writes" aria-label={`back-end writes, step ${k + 1}`}>
                  {s.writes.map((w, i) => (
                    <li key={i} className="mono">
                      ✎ {w}
                    </li>
                  ))}
                </ul>
              ) : null}
              {s.error ? <p className="web-error">{s.output}</p> : <p className="sub web-page">→ {s.page ?? '?'} <span className="mono">{s.url ?? ''}</span></p>}
            </div>
            {s.screenshot ? <img className="web-shot" src={s.screenshot} alt={`page after step ${k + 1}`} loading="lazy" /> : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
