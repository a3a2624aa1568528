/**
 * Check evidence with its citations as links: "message N" opens turn N of the transcript
 * (highlighted), "#N" (an action of the back-end's action log, as ordering and confirmation
 * checks cite them) opens the turn whose tool call caused it, when the episode knows that.
 */
import type { ReactNode } from 'react';

const CITE = /\b(message|turn) (\d+)\b|#(\d+)\b/g;

/** The turns `evidence` cites, in order of appearance (message indexes). */
export function citedTurns(evidence: string, actionTurns: Record<string, number> = {}): number[] {
  const out: number[] = [];
  for (const m of evidence.matchAll(CITE)) {
    const turn = m[2] !== undefined ? Number(m[2]) : actionTurns[m[3]];
    if (turn !== undefined && !out.includes(turn)) out.push(turn);
  }
  return out;
}

export function EvidenceText({ text, turnHref, turns, actionTurns = {} }: { text: string; turnHref: (i: number) => string; turns: number; actionTurns?: Record<string, number> }) {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(CITE)) {
    const turn = m[2] !== undefined ? Number(m[2]) : actionTurns[m[3]];
    if (turn === undefined || turn >= turns) continue;
    parts.push(text.slice(last, m.index));
    parts.push(
      <a key={m.index} href={turnHref(turn)} className="cite" data-cites={turn} title={`show message ${turn} in the transcript`}>
        {m[0]}
      </a>,
    );
    last = m.index! + m[0].length;
  }
  parts.push(text.slice(last));
  return <>{parts}</>;
}
