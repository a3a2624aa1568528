/**
 * A pixel-surface episode as a filmstrip: for every computer action of the agent, the frame it
 * acted on (the screenshot the agent last saw) with the action drawn on it — a ring at a click's
 * point (two rings for a double-click), a line for a drag, a box with the typed text or the keys.
 * Built from the transcript alone; nothing is shown when the episode has no computer actions.
 */
import type { TranscriptEntry } from '../../../src/viewer/types.js';

/** One frame of the strip. */
interface Shot {
  frame: string;
  action: string;
  point?: { x: number; y: number; count: number; button: string };
  path?: { x: number; y: number }[];
  label?: string;
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Reads either computer-use vocabulary loosely, for drawing only. */
function shotOf(frame: string, args: Record<string, unknown>): Shot {
  const action = String(args.action ?? '?');
  const coord = Array.isArray(args.coordinate) ? (args.coordinate as unknown[]) : undefined;
  const x = num(coord?.[0]) ?? num(args.x);
  const y = num(coord?.[1]) ?? num(args.y);
  const shot: Shot = { frame, action };
  if (/click/.test(action) && x !== undefined && y !== undefined) {
    shot.point = { x, y, count: /double/.test(action) ? 2 : /triple/.test(action) ? 3 : 1, button: /right/.test(action) || args.button === 'right' ? 'right' : 'left' };
  }
  if (Array.isArray(args.path)) shot.path = args.path as { x: number; y: number }[];
  else if (Array.isArray(args.start_coordinate) && coord) shot.path = [{ x: Number(args.start_coordinate[0]), y: Number(args.start_coordinate[1]) }, { x: Number(coord[0]), y: Number(coord[1]) }];
  if (action === 'type') shot.label = `type "${String(args.text ?? '')}"`;
  else if (action === 'key' || action === 'keypress') shot.label = `key ${Array.isArray(args.keys) ? args.keys.join('+') : String(args.text ?? '')}`;
  else if (action === 'wait' || action === 'screenshot' || action === 'scroll') shot.label = action;
  return shot;
}

/** The shots of a transcript: each computer call paired with the last frame before it. */
export function filmstripShots(entries: readonly TranscriptEntry[]): Shot[] {
  const shots: Shot[] = [];
  let last: string | undefined;
  for (const e of entries) {
    if (e.kind === 'tool' && e.images?.length) last = e.images[e.images.length - 1];
    if (e.kind !== 'agent' || !last) continue;
    for (const c of e.tool_calls) if (c.name === 'computer' && c.arguments && typeof c.arguments === 'object') shots.push(shotOf(last, c.arguments as Record<string, unknown>));
  }
  return shots;
}

function Overlay({ shot }: { shot: Shot }) {
  const p = shot.point;
  return (
    <svg className="film-overlay" viewBox="0 0 1024 768" preserveAspectRatio="none" aria-hidden="true">
      {p ? Array.from({ length: p.count }, (_, i) => <circle key={i} cx={p.x} cy={p.y} r={14 + i * 8} className={`film-click ${p.button}`} />) : null}
      {p ? <circle cx={p.x} cy={p.y} r={3} className="film-dot" /> : null}
      {shot.path ? <polyline points={shot.path.map((q) => `${q.x},${q.y}`).join(' ')} className="film-drag" /> : null}
      {shot.label ? (
        <g>
          <rect x={8} y={712} width={Math.min(1008, 24 + shot.label.length * 15)} height={48} className="film-label-bg" />
          <text x={20} y={745} className="film-label">{shot.label}</text>
        </g>
      ) : null}
    </svg>
  );
}

/** The filmstrip of an episode's computer actions (nothing when there are none). */
export function Filmstrip({ entries }: { entries: TranscriptEntry[] }) {
  const shots = filmstripShots(entries);
  if (shots.length === 0) return null;
  return (
    <section className="filmstrip" data-testid="filmstrip">
      <h2>Filmstrip ({shots.length} actions)</h2>
      <div className="film-row">
        {shots.map((s, i) => (
          <figure key={i} className="film-frame" data-testid="film-frame">
            <div className="film-image">
              <img src={s.frame} alt={`frame before action ${i + 1}`} />
              <Overlay shot={s} />
            </div>
            <figcaption>
              {i + 1}. {s.action}
              {s.point ? ` (${s.point.x}, ${s.point.y})` : ''}
            </figcaption>
          </figure>
        ))}
      </div>
    </section>
  );
}
