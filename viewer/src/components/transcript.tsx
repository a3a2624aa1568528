/** An episode's conversation: customer and agent turns, tool calls with arguments (the customer's own marked), tool outputs, errors. */
import { useEffect } from 'react';
import type { ToolCallView, TranscriptEntry } from '../../../src/viewer/types.js';
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

/** Tool calls of one turn; the customer's own (dual control) are marked as such. */
function Calls({ calls, by }: { calls: ToolCallView[]; by: 'agent' | 'customer' }) {
  return (
    <>
      {calls.map((c) => (
        <div key={c.id} className={`call${c.malformed ? ' is-error' : ''}${by === 'customer' ? ' by-customer' : ''}`} data-testid={by === 'customer' ? 'customer-tool-call' : 'tool-call'}>
          {by === 'customer' ? <span className="badge tone-violet">customer's tool</span> : null}
          <span className="call-name">{c.name}</span>
          {c.malformed ? <span className="badge tone-bad">malformed arguments</span> : null}
          <pre className="code">{jsonBlock(c.arguments)}</pre>
        </div>
      ))}
    </>
  );
}

function ToolOutput({ entry }: { entry: Extract<TranscriptEntry, { kind: 'tool' }> }) {
  const body = <pre className="code">{prettyJson(entry.output)}</pre>;
  const mine = entry.requestor === 'user';
  return (
    <div className={`turn tool${mine ? ' by-customer' : ''}${entry.error ? ' is-error' : ''}`} data-testid={mine ? 'customer-tool-output' : 'tool-output'}>
      <div className="who">
        {mine ? "customer's tool" : 'tool'} · {entry.name || 'unknown'}
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
          {entry.text ? <p className="text">{entry.text}</p> : null}
          <Images urls={entry.images} />
          {entry.tool_calls ? <Calls calls={entry.tool_calls} by="customer" /> : null}
        </div>
      );
    case 'agent':
      return (
        <div className="turn agent">
          <div className="who">agent</div>
          {entry.text ? <p className="text">{entry.text}</p> : null}
          <Calls calls={entry.tool_calls} by="agent" />
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

/**
 * The transcript, one numbered item per message: the number is the message's index in the
 * trajectory (the system prompt is #0), as check evidence cites it ("message 5"). `cited` is
 * highlighted and scrolled into view; `turnHref(i)` links each number (shareable).
 */
export function Transcript({ entries, cited = null, turnHref }: { entries: TranscriptEntry[]; cited?: number | null; turnHref?: (i: number) => string }) {
  useEffect(() => {
    if (cited === null) return;
    const el = document.getElementById(`turn-${cited}`);
    el?.scrollIntoView({ block: 'center' });
    el?.focus({ preventScroll: true });
  }, [cited]);
  if (entries.length === 0) return <p className="hint">No messages were recorded.</p>;
  return (
    <ol className="transcript" data-testid="transcript">
      {entries.map((e, i) => (
        <li key={i} id={`turn-${i}`} tabIndex={-1} className={`turn-slot slot-${e.kind}${cited === i ? ' cited' : ''}`} data-turn={i} aria-current={cited === i ? 'true' : undefined}>
          {turnHref ? (
            <a className="turn-no" href={turnHref(i)} aria-label={`message ${i}`} title={`message ${i}: link to this turn`}>
              #{i}
            </a>
          ) : (
            <span className="turn-no">#{i}</span>
          )}
          <Entry entry={e} />
        </li>
      ))}
    </ol>
  );
}
