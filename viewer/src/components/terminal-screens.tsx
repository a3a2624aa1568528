/**
 * Episodes on a terminal surface (e.g. the GDS emulator) as the agent saw them: one fixed-width
 * screen per step, the command line above it. Which surfaces are shown this way is an explicit
 * map (`surface-views.tsx`), never a branch on a domain.
 */
import type { TranscriptEntry } from '../../../src/viewer/types.js';

/** The command line of a terminal tool call's arguments (the only string argument, else JSON). */
function commandOf(args: unknown): string {
  if (typeof args === 'string') return args;
  if (args && typeof args === 'object') {
    const strings = Object.values(args as Record<string, unknown>).filter((v): v is string => typeof v === 'string');
    if (strings.length === 1) return strings[0];
  }
  return JSON.stringify(args);
}

export function TerminalScreens({ entries, turnHref }: { entries: TranscriptEntry[]; turnHref: (i: number) => string }) {
  const commands = new Map<string, string>();
  for (const e of entries) if (e.kind === 'agent') for (const c of e.tool_calls) commands.set(c.id, commandOf(c.arguments));
  const screens = entries.flatMap((e, i) => (e.kind === 'tool' ? [{ turn: i, command: commands.get(e.call_id) ?? '', screen: e.output, error: e.error }] : []));
  if (!screens.length) return <p className="hint">No terminal screen was recorded.</p>;
  return (
    <ol className="screens" data-testid="terminal-screens">
      {screens.map((s, k) => (
        <li key={s.turn} className="screen-step" data-step={k}>
          <div className="screen-head">
            <a href={turnHref(s.turn)}>step {k + 1}</a> <span className="sub">(message {s.turn})</span> <span className="mono screen-command">&gt; {s.command}</span>
            {s.error ? <span className="badge tone-bad">✗ error</span> : null}
          </div>
          <pre className="screen" aria-label={`screen after step ${k + 1}`}>{s.screen}</pre>
        </li>
      ))}
    </ol>
  );
}
