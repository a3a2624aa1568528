/** An episode's evaluation: every check with weight, verdict and evidence; the rubric; the DB diff. */
import type { CheckView, EpisodeDetail, FieldDiffView } from '../../../src/viewer/types.js';
import { Badge } from './badge.js';
import { jsonInline } from '../format.js';
import { EvidenceText } from './evidence-text.js';
import { ScoreExplained } from './score-explained.js';

/** How evidence links its citations to transcript turns. */
export interface Citations {
  turnHref: (i: number) => string;
  turns: number;
  actionTurns?: Record<string, number>;
}

/** A JSON pointer with line-break opportunities after each `/`. */
function breakable(path: string) {
  return path.split('/').map((part, i) => (
    <span key={i}>
      {i > 0 ? '/' : ''}
      {part}
      <wbr />
    </span>
  ));
}

/** Gold final DB against the episode's final DB, one row per changed field. */
export function DbDiff({ diff }: { diff: FieldDiffView[] }) {
  if (diff.length === 0) return <p className="hint">The final DB equals the gold DB.</p>;
  return (
    <div className="table-scroll">
      <table className="db-diff cards" data-testid="db-diff">
        <thead>
          <tr>
            <th>field</th>
            <th>gold</th>
            <th>episode</th>
          </tr>
        </thead>
        <tbody>
          {diff.map((d, i) => (
            <tr key={i} className={`op-${d.op}`}>
              <td data-label="field" className="mono path">
                <span>{breakable(d.path)}</span>
              </td>
              <td data-label="gold" className="mono before">{d.op === 'add' ? '(absent)' : jsonInline(d.before)}</td>
              <td data-label="episode" className="mono after">{d.op === 'remove' ? '(absent)' : jsonInline(d.after)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One check as a card: verdict, id, kind and weight on top, the evidence below. */
function CheckItem({ check, cite }: { check: CheckView; cite?: Citations }) {
  return (
    <li className={`check v-${check.verdict}`} data-check={check.id}>
      <div className="check-head">
        <Badge value={check.verdict} text={check.verdict === 'not_judged' ? '? not judged' : check.verdict === 'fail' ? '✗ fail' : '✓ pass'} />
        <span className="mono check-id">{check.id}</span>
        <span className="sub">{check.kind}</span>
        <span className="check-weight" title="rubric points that depend on this check; 'reward basis' checks multiply into the tau2 reward">
          {/^\d/.test(check.weight_label) ? `weight ${check.weight_label}` : check.weight_label}
        </span>
      </div>
      {check.evidence ? <p className="evidence">{cite ? <EvidenceText text={check.evidence} {...cite} /> : check.evidence}</p> : null}
    </li>
  );
}

/** Failed checks first, in evaluation order otherwise. */
const failedFirst = (checks: readonly CheckView[]) => [...checks].sort((a, b) => Number(b.verdict === 'fail') - Number(a.verdict === 'fail'));
const failedCount = (checks: readonly CheckView[]) => checks.filter((c) => c.verdict === 'fail').length;

/**
 * The checks that count towards the reward or the partial score, counted as the rest of the
 * viewer and the CLI count them ("N failed of M"); diagnostic-only checks (e.g. `tau2_action`
 * outside strict mode) listed apart with their own count.
 */
function Checks({ checks, cite }: { checks: readonly CheckView[]; cite?: Citations }) {
  const counted = checks.filter((c) => c.counts);
  const diagnostic = checks.filter((c) => !c.counts);
  return (
    <>
      <section>
        <h3>
          Checks <span className="count">{failedCount(counted)} failed of {counted.length}</span>
        </h3>
        {counted.length ? (
          <ul className="checks" data-testid="checks">
            {failedFirst(counted).map((c) => (
              <CheckItem key={c.id} check={c} cite={cite} />
            ))}
          </ul>
        ) : (
          <p className="hint">{checks.length ? 'No check counts towards the scores.' : 'This episode has no evaluation.'}</p>
        )}
      </section>
      {diagnostic.length ? (
        <section>
          <h3 title="computed, but counted towards neither the reward nor the partial score">
            Diagnostic checks <span className="count">{failedCount(diagnostic)} failed of {diagnostic.length}</span>
          </h3>
          <ul className="checks" data-testid="diagnostic-checks">
            {failedFirst(diagnostic).map((c) => (
              <CheckItem key={c.id} check={c} cite={cite} />
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

export function Evaluation({ detail, cite }: { detail: EpisodeDetail; cite?: Citations }) {
  const basis = Object.entries(detail.reward_breakdown);
  return (
    <div className="evaluation">
      {detail.score_explained ? (
        <ScoreExplained score={detail.score_explained} />
      ) : basis.length > 0 ? (
        <section>
          <h3>Reward components</h3>
          <p className="components">
            {basis.map(([name, v]) => (
              <span key={name} className={`component${detail.reward_basis.includes(name) ? ' in-basis' : ''}`} title={detail.reward_basis.includes(name) ? 'in the reward basis: the tau2 reward is the product of these' : 'diagnostic only'}>
                {name} <b>{v === null ? '—' : v}</b>
              </span>
            ))}
          </p>
        </section>
      ) : null}
      <Checks checks={detail.checks} cite={cite} />
      {detail.rubric.length ? (
        <section>
          <h3>Partial-credit rubric</h3>
          <div className="table-scroll">
            <table className="rubric cards" data-testid="rubric">
              <thead>
                <tr>
                  <th>item</th>
                  <th>weight</th>
                  <th>verdict</th>
                  <th>checks</th>
                </tr>
              </thead>
              <tbody>
                {detail.rubric.map((r) => (
                  <tr key={r.id}>
                    <td data-label="item">
                      <div>
                        <span className="mono">{r.id}</span>
                        <div className="sub">{r.description}</div>
                      </div>
                    </td>
                    <td data-label="weight" className="weight">{r.weight}</td>
                    <td data-label="verdict">
                      <Badge value={r.verdict} />
                    </td>
                    <td data-label="checks" className="mono">{r.checks.join(', ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
      <section>
        <h3>Final DB vs gold DB</h3>
        {detail.db_diff.length || detail.checks.some((c) => c.kind === 'DB') ? (
          <DbDiff diff={detail.db_diff} />
        ) : (
          <p className="hint">This evaluation does not compare databases.</p>
        )}
      </section>
    </div>
  );
}
