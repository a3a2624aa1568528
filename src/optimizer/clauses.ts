/**
 * Clause-addressable prompts: a system prompt read as sections (Markdown `#` headings) of
 * clauses (non-empty lines), each with a stable id the proposer must cite.
 *
 * Grammar (the harness contract): text before the first heading is section 0; each heading line
 * opens the next section and is itself clause `S<n>.h`; every other non-empty line is clause
 * `S<n>.<m>` (m counts from 1 within the section). Lines inside a `<policy>` … `</policy>` block
 * are read-only: the business policy is not the optimiser's to rewrite.
 */

/** One clause of a prompt. */
export interface Clause {
  /** `S<section>.<line>` or `S<section>.h` for a heading. */
  id: string;
  /** The line's text (without the newline). */
  text: string;
  /** UTF-16 offsets of the line in the prompt: [start, end). */
  start: number;
  end: number;
  /** Inside a `<policy>` block. */
  readonly: boolean;
}

/** Parses `prompt` into clauses (see the module grammar). */
export function parseClauses(prompt: string): Clause[] {
  const out: Clause[] = [];
  let section = 0;
  let line = 0;
  let inPolicy = false;
  let offset = 0;
  for (const text of prompt.split('\n')) {
    const start = offset;
    offset += text.length + 1;
    const trimmed = text.trim();
    const opensPolicy = trimmed.startsWith('<policy>');
    if (opensPolicy) inPolicy = true;
    const readonly = inPolicy;
    if (trimmed.includes('</policy>')) inPolicy = false;
    if (trimmed === '') continue;
    if (!readonly && /^#{1,6}\s/.test(trimmed)) {
      section++;
      line = 0;
      out.push({ id: `S${section}.h`, text, start, end: start + text.length, readonly });
      continue;
    }
    line++;
    out.push({ id: `S${section}.${line}`, text, start, end: start + text.length, readonly });
  }
  return out;
}

/** The clauses an edit of `[start, end)` touches (an empty span touches the clause it sits in). */
export function clausesTouched(clauses: readonly Clause[], start: number, end: number): Clause[] {
  return clauses.filter((c) => (end > start ? c.start < end && start < c.end : c.start <= start && start <= c.end));
}

/** The clause map given to the proposer: one `id: text` line per clause, read-only ones marked. */
export function clauseMap(clauses: readonly Clause[]): string {
  return clauses.map((c) => `${c.id}${c.readonly ? ' (read-only)' : ''}: ${c.text.trim()}`).join('\n');
}

/**
 * Rough token count used to prefer smaller prompts: one token per CJK character, plus one per
 * four other characters (rounded up). Only differences between prompts are ever compared.
 */
export function estimateTokens(text: string): number {
  let cjk = 0;
  let other = 0;
  for (const ch of text) {
    if (/[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(ch)) cjk++;
    else other++;
  }
  return cjk + Math.ceil(other / 4);
}
