/** The task an episode ran: the user scenario, the gold actions and the assertion texts (collapsible). */
import type { TaskInfoView } from '../../../src/viewer/types.js';
import { jsonInline } from '../format.js';

function List({ title, items, testid }: { title: string; items: string[]; testid: string }) {
  if (!items.length) return null;
  return (
    <>
      <h4>{title}</h4>
      <ul className="task-list" data-testid={testid}>
        {items.map((t, i) => (
          <li key={i}>{t}</li>
        ))}
      </ul>
    </>
  );
}

export function TaskPanel({ task, ranSha }: { task: TaskInfoView | null | undefined; ranSha?: string | null }) {
  if (!task) return <p className="hint" data-testid="task-missing">The task definition is not available to the viewer (its domain is not registered here, or the task id is not in its dataset).</p>;
  return (
    <details className="task-panel" data-testid="task-panel" open>
      <summary>
        Task <span className="mono">{task.id}</span>: user scenario, gold actions and assertions
      </summary>
      {task.sha256 && ranSha && task.sha256 !== ranSha ? (
        <p className="note tone-warn" data-testid="task-changed">
          The task definition changed since this episode ran (hash {ranSha.slice(0, 12)} then, {task.sha256.slice(0, 12)} now); it is shown as it is now.
        </p>
      ) : null}
      {task.purpose ? <p className="sub">{task.purpose}</p> : null}
      <h4>User scenario{task.persona ? ` (persona: ${task.persona})` : ''}</h4>
      <dl className="scenario" data-testid="task-scenario">
        {task.scenario.map((p) => (
          <div key={p.name}>
            <dt>{p.name}</dt>
            <dd>{p.text}</dd>
          </div>
        ))}
      </dl>
      {task.gold_actions.length ? (
        <>
          <h4>Gold actions</h4>
          <ol className="gold-actions" data-testid="gold-actions">
            {task.gold_actions.map((a) => (
              <li key={a.action_id}>
                <span className="mono call-name">{a.name}</span> <span className="mono sub">{jsonInline(a.arguments)}</span>
                {a.requestor === 'user' ? <span className="badge tone-info">customer</span> : null}
              </li>
            ))}
          </ol>
        </>
      ) : (
        <p className="hint">No gold actions: the correct outcome changes nothing.</p>
      )}
      <List title="Natural-language assertions" items={task.nl_assertions} testid="nl-assertions" />
      <List title="Must be communicated" items={task.communicate_info} testid="communicate-info" />
      <List title="Environment assertions" items={task.env_assertions} testid="env-assertions" />
      {task.rubric.length ? <List title="Partial credit" items={task.rubric.map((r) => `${r.weight} — ${r.id}: ${r.description}`)} testid="task-rubric" /> : null}
      {task.reward_basis.length ? (
        <p className="sub">
          tau2 reward basis: {task.reward_basis.join(' × ')} (the reward is the product of these components; partial credit is the weighted share of rubric items passed).
        </p>
      ) : null}
    </details>
  );
}
