/**
 * Commands load their modules only when they run (issue 17: start-up), so their help is built
 * from light modules alone. The help texts recorded before that change still come out the same.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main.js';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/paths.js';

const FIXTURES = path.join(ROOT, 'test', 'cli', 'fixtures', 'help');

describe('help output', () => {
  it('the top-level help lists the recorded commands with the same text, in the same order', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    const recorded = fs.readFileSync(path.join(FIXTURES, 'root.txt'), 'utf8');
    const [head, commands] = recorded.split('Commands:\n');
    expect(r.out.startsWith(`${head}Commands:\n`)).toBe(true);
    // Each recorded entry (its first line and continuation lines) appears in order.
    const entries = commands.split(/\n(?=  \S)/).filter((e) => e.trim());
    let at = 0;
    for (const e of entries) {
      const i = r.out.indexOf(e.trimEnd(), at);
      expect(i, `help entry:\n${e}`).toBeGreaterThanOrEqual(0);
      at = i + e.trimEnd().length;
    }
  });

  it("each entry of the command map registers exactly the command of its name (a command's run loads only its own entry)", async () => {
    const program = new Command();
    for (const [name, load] of Object.entries(COMMANDS)) {
      const before = program.commands.length;
      (await load())(program, () => {});
      expect(program.commands.slice(before).map((c) => c.name())).toEqual([name]);
    }
  }, 120_000);

  const commands = fs.readdirSync(FIXTURES).filter((f) => f !== 'root.txt').map((f) => f.replace(/\.txt$/, ''));
  it.each(commands)('%s --help is unchanged', async (name) => {
    const r = await runCli([name, '--help']);
    expect(r.code).toBe(0);
    // Defaults that are paths in the checkout differ per clone (and rewrap): compare with the
    // checkout's root as <ROOT> and whitespace runs as one space.
    const norm = (text: string) => text.split(ROOT).join('<ROOT>').replace(/\s+/g, ' ').trim();
    expect(norm(r.out)).toBe(norm(fs.readFileSync(path.join(FIXTURES, `${name}.txt`), 'utf8')));
  });
});
