/**
 * An episode: the task (user scenario, gold actions, assertions), the numbered transcript (or,
 * on a terminal or web surface, its screens or browser steps) beside the evaluation breakdown whose evidence links the
 * turns it cites, the DB diff, the store's changes from start to end, and cost and time with the tool-call timeline. Keyboard: j or →
 * next episode, k or ← previous, u or Esc back to the run (the run's matrix order).
 */
import { useLayoutEffect } from 'react';
import type { EpisodeDetail } from '../../../src/viewer/types.js';
import { loadEpisode, useLoad } from '../data.js';
import { Show } from '../components/problem.js';
import { Transcript } from '../components/transcript.js';
import { Filmstrip } from '../components/filmstrip.js';
import { Evaluation } from '../components/evaluation.js';
import { Badge } from '../components/badge.js';
import { episodeHref, runHref, runsHref } from '../route.js';
import { DASH, pct, rewardText } from '../format.js';
import { TaskPanel } from '../components/task-panel.js';
import { EpisodeCost } from '../components/episode-cost.js';
import { SURFACE_VIEWS } from '../components/surface-views.js';
import { StoreDiff } from '../components/store-diff.js';
import { OUTCOME_GLYPH } from '../components/matrix.js';
import { usePageTitle } from '../title.js';

/** Keyboard navigation; bound before the page is painted, so no key pressed on it is lost. */
function useKeys(detail: EpisodeDetail) {
  useLayoutEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      const target = ev.target as HTMLElement | null;
      if (ev.altKey || ev.ctrlKey || ev.metaKey || (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
      const { prev, next } = detail.position;
      let to: string | null = null;
      if ((ev.key === 'j' || ev.key === 'ArrowRight') && next) to = episodeHref(detail.run.id, next);
      else if ((ev.key === 'k' || ev.key === 'ArrowLeft') && prev) to = episodeHref(detail.run.id, prev);
      else if (ev.key === 'u' || ev.key === 'Escape') to = runHref(detail.run.id);
      if (to) {
        ev.preventDefault();
        window.location.hash = to;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [detail]);
}

function EpisodeView({ detail, turn }: { detail: EpisodeDetail; turn: number | null }) {
  useKeys(detail);
  const { episode: e, position: p, run } = detail;
  usePageTitle(`Episode ${e.episode_id} · ${run.name}`);
  const turnHref = (i: number) => episodeHref(run.id, e.episode_id, i);
  const steps = detail.surface ? SURFACE_VIEWS[detail.surface] : undefined;
  return (
    <>
      <nav aria-label="breadcrumb" className="crumbs">
        <a href={runsHref()}>Runs</a> › <a href={runHref(run.id)}>{run.name}</a> › <span className="mono">{e.episode_id}</span>
      </nav>
      <div className="episode-head">
        <h1>
          {e.task_id} <span className="sub">· {e.label} · trial {e.trial}</span>
        </h1>
        <nav className="pager" aria-label="episodes">
          {p.prev ? <a href={episodeHref(run.id, p.prev)} rel="prev" title="previous episode (k or ←)">← prev</a> : <span className="disabled">← prev</span>}
          <span className="count">
            {p.index + 1} / {p.total}
          </span>
          {p.next ? <a href={episodeHref(run.id, p.next)} rel="next" title="next episode (j or →)">next →</a> : <span className="disabled">next →</span>}
        </nav>
      </div>
      <p className="meta" data-testid="episode-meta">
        <Badge value={e.outcome} text={`${OUTCOME_GLYPH[e.outcome]} ${e.outcome === 'unjudged' ? 'not judged' : e.outcome}`} /> reward <b>{rewardText(e)}</b> · partial <b>{pct(e.partial)}</b> · ended <b>{e.termination ?? DASH}</b>
        {e.failed_checks.length ? (
          <>
            {' '}
            · failed <span className="mono">{e.failed_checks.join(', ')}</span>
          </>
        ) : null}
        {e.diagnostic_checks.length ? (
          <>
            {' '}
            · <span title="did not pass, but counts towards neither the reward nor the partial score">diagnostic</span>: <span className="mono">{e.diagnostic_checks.join(', ')}</span>
          </>
        ) : null}
        <span className="keys">j/k or ←/→ move between episodes · u back to the run</span>
      </p>
      {detail.errors.infra || detail.errors.harness || detail.errors.evaluation ? (
        <div className="problem inline" role="alert">
          {detail.errors.infra ? <p>Infrastructure error (left out of the scores): {detail.errors.infra}</p> : null}
          {detail.errors.harness ? <p>Harness error, a fault of the tools or surface, not the agent (left out of the scores): {detail.errors.harness}</p> : null}
          {detail.errors.evaluation ? <p>The evaluator failed (left out of the scores): {detail.errors.evaluation}</p> : null}
        </div>
      ) : null}
      {detail.facts.length ? (
        <dl className="facts">
          {detail.facts.map((f) => (
            <div key={f.name}>
              <dt>{f.name}</dt>
              <dd>{f.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      <TaskPanel task={detail.task} ranSha={detail.task_sha256} />
      <Filmstrip entries={detail.transcript} />
      <div className="episode-grid">
        <section className="col-transcript">
          {steps ? (
            <>
              <h2>{steps.title}</h2>
              <steps.Steps detail={detail} turnHref={turnHref} />
              <details className="raw-transcript">
                <summary>Transcript</summary>
                <Transcript entries={detail.transcript} cited={turn} turnHref={turnHref} />
              </details>
            </>
          ) : (
            <>
              <h2>Transcript</h2>
              <Transcript entries={detail.transcript} cited={turn} turnHref={turnHref} />
            </>
          )}
        </section>
        <section className="col-evaluation">
          <h2>Evaluation</h2>
          <Evaluation detail={detail} cite={{ turnHref, turns: detail.transcript.length, actionTurns: detail.action_turns }} />
        </section>
      </div>
      <StoreDiff diff={detail.state_diff} />
      <EpisodeCost detail={detail} turnHref={turnHref} />
    </>
  );
}

export function EpisodePage({ id, eid, turn }: { id: string; eid: string; turn: number | null }) {
  usePageTitle(`Episode ${eid}`);
  const state = useLoad(`episode:${id}:${eid}`, () => loadEpisode(id, eid));
  return <Show state={state}>{(detail) => <EpisodeView detail={detail} turn={turn} />}</Show>;
}
