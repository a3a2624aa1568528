/**
 * The program's help lists every command from src/cli/command-summaries.ts, without loading the
 * commands' modules (issue 17, start-up: `servicegym --help` <= 0.3 s). Each summary must be what
 * the command's own module registers, and every way of reaching the program's help (or an error
 * that lists or suggests commands) must print exactly what it prints with every module loaded.
 */
import { Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main.js';
import { COMMAND_SUMMARIES } from '../../src/cli/command-summaries.js';
import { runCli } from '../support/cli.js';

describe('command summaries', () => {
  it('there is one summary per command, in the order of the command map', () => {
    expect(Object.keys(COMMAND_SUMMARIES)).toEqual(Object.keys(COMMANDS));
  });

  it("each summary is the term and description of the command its module registers", async () => {
    const program = new Command();
    for (const load of Object.values(COMMANDS)) (await load())(program, () => {});
    const help = new Help();
    for (const cmd of program.commands) {
      expect(COMMAND_SUMMARIES[cmd.name()], `${cmd.name()}: update src/cli/command-summaries.ts`).toEqual({ term: help.subcommandTerm(cmd), description: help.subcommandDescription(cmd) });
    }
  }, 120_000);

  const cases: string[][] = [['--help'], ['-h'], [], ['help'], ['--version'], ['rnu'], ['valdate', '--domain', 'airline'], ['--nope'], ['help', 'lint'], ['help', 'nosuch'], ['--', 'prompts', '--help'], ['-h', 'lint']];
  it.each(cases.map((c) => [c.join(' ') || '(no arguments)', c]))('servicegym %s prints the same as with every command loaded', async (_label, args) => {
    const listed = await runCli(args as string[]);
    const loaded = await runCli(args as string[], { loadAll: true });
    expect(listed.code).toBe(loaded.code);
    expect(listed.stdout).toBe(loaded.stdout);
    expect(listed.stderr).toBe(loaded.stderr);
  }, 120_000);

  it('the program help lists every command with its summary', async () => {
    const r = await runCli(['--help']);
    for (const { term, description } of Object.values(COMMAND_SUMMARIES)) {
      expect(r.stdout).toContain(term);
      expect(r.stdout.replace(/\s+/g, ' ')).toContain(description);
    }
    expect(r.stdout).toContain('merge-shards [options] <stores...>');
  });
});
