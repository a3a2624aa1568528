/**
 * The terminal's own help, as a Sabre-style host answers `HELP`: the entry list by section, and
 * `HELP <topic>` for one entry (`HELP X`, `HELP *`, `HELP 120OCTJFKORD`), a section (`HELP
 * DISPLAYS`, `HELP ERRORS`) or a word (`HELP SSR`). Read from the command reference the agent
 * gets (data/command_reference.md), so the help and the reference never disagree. Upper case,
 * wrapped at word boundaries to the screen's 64 columns (the surface pages longer screens).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTextFile } from '../../util/json-file.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The screen width (GDS_GEOMETRY in dataset.ts). */
const WIDTH = 64;

/** One entry of the reference: what is typed, what it does, an example when the table gives one. */
interface HelpEntry {
  entry: string;
  does: string;
  example: string | null;
  /** The literal start of the entry (`X` for `X{N}`, `*` for `*ABC123`); the whole entry when it has no placeholder. */
  prefix: string;
  pattern: boolean;
}

interface HelpSection {
  title: string;
  entries: HelpEntry[];
  /** Paragraphs of the section beside its table (status codes, SSR codes ...). */
  notes: string[];
}

/** Markdown inline text as terminal text: code and emphasis marks dropped, upper case. */
const plain = (md: string) => md.replace(/\*\*(.+?)\*\*/g, '$1').replace(/`/g, '').replace(/\s*\u2014\s*/g, ' - ').replace(/\u2026/g, '...').trim().toUpperCase();

/** The common start of an entry and its example (`*ABC123` / `*LKJ8TQ` → `*`). */
function prefixOf(entry: string, example: string | null): { prefix: string; pattern: boolean } {
  const brace = entry.indexOf('{');
  if (brace >= 0) return { prefix: entry.slice(0, brace), pattern: true };
  if (!example || example === entry) return { prefix: entry, pattern: false };
  let i = 0;
  while (i < entry.length && entry[i] === example[i]) i++;
  return { prefix: entry.slice(0, i), pattern: true };
}

/** The reference's sections: `## ` headings, their table rows and other paragraphs. */
export function parseReference(md: string): HelpSection[] {
  const sections: HelpSection[] = [];
  for (const block of md.split(/^## /m).slice(1)) {
    const [heading, ...rest] = block.split('\n');
    const section: HelpSection = { title: plain(heading), entries: [], notes: [] };
    let paragraph: string[] = [];
    const flush = () => {
      if (paragraph.length) section.notes.push(plain(paragraph.join(' ')));
      paragraph = [];
    };
    let header = true;
    for (const line of rest) {
      if (line.startsWith('|')) {
        flush();
        const cells = line.slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined).split(/(?<!\\)\|/).map((c) => c.trim());
        if (/^-+$/.test(cells[0].replace(/:/g, ''))) continue;
        if (header) {
          header = false;
          continue;
        }
        const codes = [...cells[0].matchAll(/`([^`]+)`/g)].map((m) => m[1].toUpperCase());
        const example = cells[2] ? ([...cells[2].matchAll(/`([^`]+)`/g)].map((m) => m[1].toUpperCase())[0] ?? null) : null;
        const entry = codes.length ? codes.join(' / ') : plain(cells[0]);
        section.entries.push({ entry, does: plain(cells[1] ?? ''), example, ...prefixOf(codes[0] ?? entry, example) });
      } else if (line.trim() === '') {
        flush();
        header = true;
      } else paragraph.push(line.trim());
    }
    flush();
    sections.push(section);
  }
  return sections;
}

/** `text` wrapped at word boundaries: the first line after `lead`, the rest indented to `indent`. */
function wrap(lead: string, text: string, indent: number): string[] {
  const lines: string[] = [];
  let line = lead;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const sep = line.trim() === '' || line.endsWith(' ') ? '' : ' ';
    if (line.length + sep.length + word.length > WIDTH && line.trim() !== '') {
      lines.push(line.trimEnd());
      line = ' '.repeat(indent) + word;
    } else line += sep + word;
  }
  lines.push(line.trimEnd());
  return lines;
}

/** Column of the descriptions; a longer entry stands on its own line above its description. */
const COLUMN = 13;

const entryLines = (e: HelpEntry, withExample: boolean): string[] => {
  const head = e.entry.length < COLUMN ? wrap(e.entry.padEnd(COLUMN), e.does, COLUMN) : [e.entry, ...wrap(' '.repeat(COLUMN), e.does, COLUMN)];
  return [...head, ...(withExample && e.example ? [`${' '.repeat(COLUMN)}E.G. ${e.example}`] : [])];
};

let cached: HelpSection[] | undefined;
const reference = () => (cached ??= parseReference(readTextFile(path.join(HERE, 'data', 'command_reference.md'))));

/**
 * The word `HELP <word>` names a section by, as the index lists it: the title's first word in the
 * plural (`ERROR RESPONSES` → `ERRORS`, `DISPLAYS`, `CHANGES`), a gerund as is (`ENDING`).
 * {@link helpScreen} accepts the singular too.
 */
export function sectionKeyword(section: { title: string }): string {
  const word = section.title.split(/\s+/)[0];
  return /(S|ING)$/.test(word) ? word : `${word}S`;
}

/** The entry list: every section's entries, one line each (wrapped), then how to get more. */
function indexScreen(sections: readonly HelpSection[]): string {
  const lines = ['XA RESERVATIONS TERMINAL - HELP'];
  for (const s of sections.filter((x) => !/ERROR/.test(x.title))) lines.push(s.title, ...s.entries.flatMap((e) => entryLines(e, false)));
  lines.push(`${'SCROLL'.padEnd(COLUMN)}MD DOWN  MU UP  MT TOP  MB BOTTOM`);
  lines.push(...wrap('', `HELP <ENTRY> FOR ONE ENTRY (E.G. HELP X); HELP ${sections.map(sectionKeyword).join(', HELP ')} FOR A SECTION`, 0));
  return lines.join('\n');
}

/**
 * The entries `topic` names: an entry typed as is and those that extend it (`E` → `E`, `ER`;
 * `*I` → `*I`); else a placeholder entry whose literal start it has (`X1` → `X{N}`) and entries
 * starting with it (`*` → `*ABC123`, `*R`, `*I`, `*H`).
 */
function entriesFor(topic: string, sections: readonly HelpSection[]): HelpEntry[] {
  const all = sections.filter((s) => !/ERROR/.test(s.title)).flatMap((s) => s.entries);
  const plainEntries = all.filter((e) => !e.pattern && e.entry.startsWith(topic));
  if (plainEntries.some((e) => e.entry === topic)) return plainEntries;
  return all.filter((e) => (e.pattern ? e.prefix !== '' && (topic.startsWith(e.prefix) || e.prefix.startsWith(topic)) : e.entry.startsWith(topic)));
}

/**
 * The screen `HELP` (no topic) or `HELP <topic>` answers (see the module doc); an unknown topic
 * answers `NO HELP FOR <topic>` with how to list the entries.
 */
export function helpScreen(topic?: string): string {
  const sections = reference();
  const t = (topic ?? '').trim().toUpperCase();
  if (!t) return indexScreen(sections);
  const singular = (w: string) => w.replace(/S$/, '');
  const section = sections.find((s) => singular(s.title.split(/\s+/)[0]) === singular(t) || s.title === t);
  if (section) return [section.title, ...section.entries.flatMap((e) => entryLines(e, true)), ...section.notes.flatMap((n) => wrap('', n, 0))].join('\n');
  const entries = entriesFor(t, sections);
  if (entries.length) return entries.flatMap((e) => entryLines(e, true)).join('\n');
  const word = new RegExp(`(^|[^A-Z0-9])${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Z0-9]|$)`);
  const hits = sections.flatMap((s) => s.entries.filter((e) => word.test(`${e.entry} ${e.does}`)));
  const notes = sections.flatMap((s) => s.notes.filter((n) => word.test(n)));
  if (hits.length || notes.length) return [...hits.flatMap((e) => entryLines(e, true)), ...notes.flatMap((n) => wrap('', n, 0))].join('\n');
  return `NO HELP FOR ${t} - ENTER HELP FOR THE ENTRY LIST`;
}
