/**
 * What the episode changed in the back-end's store: the task's start state against the episode's
 * final state, one row per changed field (a web episode's app store, an API domain's DB alike).
 */
import type { FieldDiffView } from '../../../src/viewer/types.js';
import { jsonInline } from '../format.js';

export function StoreDiff({ diff }: { diff: FieldDiffView[] | null | undefined }) {
  if (!diff) return null;
  return (
    <section className="store-diff">
      <h2>Store changes (start → end)</h2>
      {diff.length === 0 ? (
        <p className="hint">The episode left the store as it started.</p>
      ) : (
        <div className="table-scroll">
          <table className="db-diff cards" data-testid="state-diff">
            <thead>
              <tr>
                <th>field</th>
                <th>start</th>
                <th>end</th>
              </tr>
            </thead>
            <tbody>
              {diff.map((d, i) => (
                <tr key={i} className={`op-${d.op}`}>
                  <td data-label="field" className="mono path">{d.path}</td>
                  <td data-label="start" className="mono before">{d.op === 'add' ? '(absent)' : jsonInline(d.before)}</td>
                  <td data-label="end" className="mono after">{d.op === 'remove' ? '(absent)' : jsonInline(d.after)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
