/** An episode's conversation: customer and agent turns, tool calls with arguments, tool outputs, errors. */
import type { TranscriptEntry } from '../../../src/viewer/types.js';
import { jsonBlock } from '../format.js';

/** Tool outputs longer than this many characters start collapsed. */
const LONG = 280;

/** Image parts of a message (data URLs only), e.g. a surface's screenshot. */
function Images({ urls }: { urls?: string[] }) {
  if (!urls?.length) return null;
  return (
    <div className="images">
      {urls.map((u, i) => (
        <img key={i} src={u} alt={`image ${i + 1} of the message`} data-testid="message-image" />
      ))}
    </div>
  );
}

function ToolOutput({ entry }: { entry: Extract<TranscriptEntry, { kind: 'tool' }> }) {
  const body = <pre className="code">{prettyJson(entry.output)}</pre>;
  return (
    <div className={`turn tool${entry.error ? ' is-error' : ''}`} data-testid="tool-output">
      <div className="who">
        tool · {entry.name || 'unknown'}
        {entry.error ? <span className="badge tone-bad">error</span> : null}
      </div>
      {entry.output.length > LONG ? (
        <details>
          <summary>{entry.output.slice(0, 110)}… ({entry.output.length} characters)</summary>
          {body}
        </details>
      ) : (
        body
      )}
      <Images urls={entry.images} />
    </div>
  );
}

/** Tool outputs are often JSON text: indent them when they parse. */
function prettyJson(text: string): string {
  if (!/^\s*[[{]/.test(text)) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function Entry({ entry }: { entry: TranscriptEntry }) {
  switch (entry.kind) {
    case 'system':
      return (
        <details className="turn system">
          <summary className="who">system prompt ({entry.text.length} characters)</summary>
          <pre className="code prose">{entry.text}</pre>
        </details>
      );
    case 'customer':
      return (
        <div className="turn customer">
          <div className="who">customer</div>
          <p className="text">{entry.text}</p>
          <Images urls={entry.images} />
        </div>
      );
    case 'agent':
      return (
        <div className="turn agent">
          <div className="who">agent</div>
          {entry.text ? <p className="text">{entry.text}</p> : null}
          {entry.tool_calls.map((c) => (
            <div key={c.id} className={`call${c.malformed ? ' is-error' : ''}`} data-testid="tool-call">
              <span className="call-name">{c.name}</span>
              {c.malformed ? <span className="badge tone-bad">malformed arguments</span> : null}
              <pre className="code">{jsonBlock(c.arguments)}</pre>
            </div>
          ))}
        </div>
      );
    case 'tool':
      return <ToolOutput entry={entry} />;
    case 'error':
      return (
        <div className="turn is-error" role="note">
          <div className="who">error</div>
          <pre className="code">{entry.text}</pre>
        </div>
      );
  }
}

export function Transcript({ entries }: { entries: TranscriptEntry[] }) {
  if (entries.length === 0) return <p className="hint">No messages were recorded.</p>;
  return (
    <div className="transcript" data-testid="transcript">
      {entries.map((e, i) => (
        <Entry key={i} entry={e} />
      ))}
    </div>
  );
}
