/**
 * A task episode's reward and partial score explained: each tau2 component (DB, environment
 * assertions, communicate, NL assertions, actions) with whether it counts in the reward basis,
 * its value and its check's evidence; then the reward and the partial score, each as a formula
 * and a sentence saying why.
 */
import type { ScoreExplanationView } from '../../../src/viewer/types.js';

const value = (x: number | null) => (x === null ? 'not judged' : String(Number(x.toFixed(3))));

export function ScoreExplained({ score }: { score: ScoreExplanationView }) {
  return (
    <section className="score-explained" data-testid="score-explained">
      <h3>Score, explained</h3>
      <div className="table-scroll">
        <table className="components-table" data-testid="score-components">
          <caption className="visually-hidden">Reward components of this episode</caption>
          <thead>
            <tr>
              <th scope="col">component</th>
              <th scope="col">counts?</th>
              <th scope="col">value</th>
              <th scope="col">evidence</th>
            </tr>
          </thead>
          <tbody>
            {score.components.map((c) => (
              <tr key={c.name} data-component={c.name} className={c.counts ? 'in-basis' : 'diagnostic'}>
                <th scope="row" className="mono">{c.name}</th>
                <td>{c.counts ? 'in the reward basis' : 'diagnostic only'}</td>
                <td className="num">{value(c.value)}</td>
                <td className="evidence">{c.evidence ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="score-lines">
        <div data-testid="reward-explained">
          <dt>reward</dt>
          <dd>
            <span className="mono formula">{score.reward.formula}</span>
            <p>{score.reward.why}</p>
          </dd>
        </div>
        <div data-testid="partial-explained">
          <dt>partial</dt>
          <dd>
            <span className="mono formula">{score.partial.formula}</span>
            <p>{score.partial.why}</p>
          </dd>
        </div>
      </dl>
      {score.lower_bound ? <p className="hint">Some checks were not judged: both numbers are lower bounds.</p> : null}
    </section>
  );
}
