/**
 * Shared code never names a specific domain, agent kind or model vendor (architecture notes:
 * "register implementations in explicit maps"). Every file of src/ outside a domain's own folder
 * and the registries' map files is scanned: comments are dropped, then string literals and
 * identifiers are matched word by word. The allow-list below is the only way past, with a reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

const SRC = path.join(ROOT, 'src');
/** Domains, agent kinds with a dedicated implementation, model vendors. */
const WORDS = ['airline', 'retail', 'banking', 'hotel', 'insurance', 'utility', 'telecom', 'yunshu', 'oracle', 'openai', 'anthropic', 'openrouter', 'gemini', 'claude', 'mistral', 'ollama', 'vllm'];
/** The registries' map files (naming each implementation is their job) and the implementations of named agent kinds. */
const REGISTRIES = ['domains/index.ts', 'domains/catalog.ts', 'agents/index.ts', 'users/index.ts', 'models/providers.ts', 'surfaces/index.ts', 'agents/oracle-agent.ts'];
/** `file: word` pairs allowed elsewhere, each for a stated reason. */
const ALLOWED: Record<string, string> = {
  'spec/surface.ts: oracle': "a surface's oracle hook: the tool calls that perform a task's gold actions on it (a GUI's scripted coordinates)",
  'surfaces/pixel-app.ts: oracle': "a GUI app's oracle: computer actions from its own layout",
  'surfaces/pixels.ts: oracle': 'the pixel surface implements the oracle hook with its app',
  'surfaces/terminal.ts: oracle': "the terminal surface implements the oracle hook with its interpreter's scripted entries",
  'surfaces/pixel-actions.ts: openai': 'the computer tool names the two action vocabularies it accepts (not a vendor choice)',
  'surfaces/pixel-actions.ts: anthropic': 'the computer tool names the two action vocabularies it accepts (not a vendor choice)',
  'cli/run.ts: airline': 'the default of --domain',
  'cli/validate.ts: airline': 'the default of --domain',
  'cli/lint.ts: airline': 'the default of --domain',
  'cli/conformance.ts: airline': 'an example in the help text of --domain and --reference',
  'cli/conformance.ts: telecom': 'the help text of --synced names the domain that has a sync step',
  'cli/lint.ts: telecom': 'the help texts of --policy-variant and --solo name the domain that has them',
  'cli/run.ts: telecom': 'the help texts of --policy-variant and --solo name the domain that has them',
  'cli/validate.ts: telecom': 'the help texts of --policy-variant and --solo name the domain that has them',
  'cli/evaluate.ts: telecom': 'the help texts of --policy-variant and --solo name the domain that has them',
  'cli/run-stored-settings.ts: oracle': "recognises a stored validate run (summary agent_model 'oracle') to refuse resuming it",
  'cli/validate.ts: oracle': "validate is the oracle's command: it asks the registry for the 'oracle' agent and stores that name",
  'cli/command-summaries.ts: oracle': "validate's entry in the program's help: its description, the same text as in cli/validate.ts",
  'run/task-run.ts: oracle': "the persona run asks the registry for the 'oracle' agent",
  'models/config.ts: openai': "the documented default base URL (api.openai.com) when none is configured",
  'models/openai-adapter.ts: openai': 'the OpenAI-compatible chat-completions wire format (not a vendor choice)',
};

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

/** The code of a file with comments removed (strings kept; a `//` inside a string is not a comment). */
function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  let quote: string | null = null;
  while (i < text.length) {
    const c = text[i];
    if (quote) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === quote || (c === '\n' && quote !== '`')) quote = null; // a quote in a regex literal ends at the line
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      if (c === '"' || c === "'" || c === '`') quote = c;
      out += c;
      i++;
    }
  }
  return out;
}

/** Words of `code` that name something from {@link WORDS} (case-insensitive, word boundaries; `_` and `-` separate words). */
export function namedWords(code: string): string[] {
  const found = new Set<string>();
  // `openai-compatible` names a wire protocol and `OPENAI_*` the standard environment variables of its clients, not a vendor.
  for (const w of WORDS) if (new RegExp(`(?<![A-Za-z0-9])${w}(?![A-Za-z0-9])${w === 'openai' ? '(?!-compatible|_)' : ''}`, 'i').test(code)) found.add(w);
  return [...found];
}

describe('shared code names no domain, agent kind or vendor', () => {
  it('the scanner sees code, not comments', () => {
    expect(namedWords(withoutComments("// airline\nconst x = 'retail'; /* hotel */ const p = 'openai';"))).toEqual(['retail', 'openai']);
    expect(namedWords(withoutComments("const r = /that's it/;\n// oracle\nconst k = 'openai-compatible';"))).toEqual([]);
    expect(namedWords(withoutComments("const url = 'http://x//airline';"))).toEqual(['airline']);
    expect(namedWords('const airlines2 = 1; const hotelier = 2;')).toEqual([]);
  });

  it('holds for every file outside a domain folder and the registries', () => {
    const offences: string[] = [];
    for (const file of files(SRC)) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      if (/^domains\/[^/]+\//.test(rel) || REGISTRIES.includes(rel)) continue;
      for (const w of namedWords(withoutComments(fs.readFileSync(file, 'utf8')))) {
        if (!ALLOWED[`${rel}: ${w}`]) offences.push(`${rel}: ${w}`);
      }
    }
    expect(offences).toEqual([]);
  });
});
