/**
 * `--help` says what a user needs without reading the code: the live-call flags show their
 * effective defaults (the same constants the model configuration falls back to), and every
 * positional argument of every command is listed with a description (commander's Arguments section).
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main.js';
import { LIVE_MODEL_DEFAULTS, resolveLiveModelConfig } from '../../src/models/config.js';
import { runCli } from '../support/cli.js';

describe('help texts', () => {
  it.each(['run', 'optimize', 'campaign'])('%s --help shows the effective defaults of --timeout, --max-retries and the other live-call flags', async (name) => {
    const r = await runCli([name, '--help']);
    expect(r.code).toBe(0);
    const help = r.out.replace(/\s+/g, ' ');
    const cfg = resolveLiveModelConfig({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm' }, {});
    expect(cfg.timeoutSeconds).toBe(LIVE_MODEL_DEFAULTS.timeoutSeconds);
    expect(cfg.maxRetries).toBe(LIVE_MODEL_DEFAULTS.maxRetries);
    expect(help).toMatch(new RegExp(`--timeout <seconds> per-attempt timeout in seconds \\(default: SERVICEGYM_TIMEOUT, else ${cfg.timeoutSeconds}\\)`));
    expect(help).toMatch(new RegExp(`--max-retries <n> retries on 429/5xx/timeouts \\(default: SERVICEGYM_MAX_RETRIES, else ${cfg.maxRetries}\\)`));
    expect(help).toContain(`SERVICEGYM_MAX_RETRY_AFTER, else ${cfg.maxRetryAfterSeconds})`);
    expect(help).toContain(`SERVICEGYM_CALL_DEADLINE, else ${cfg.callDeadlineSeconds})`);
    expect(help).toContain(`SERVICEGYM_BODY_TIMEOUT, else ${cfg.bodyTimeoutSeconds})`);
  });

  it('rescore --help has an Arguments section describing <run-id>', async () => {
    const r = await runCli(['rescore', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Arguments:\n  run-id +the run to re-score/);
  });

  it('every positional argument of every command has a description', async () => {
    const program = new Command();
    for (const load of Object.values(COMMANDS)) (await load())(program, () => {});
    const undescribed: string[] = [];
    const visit = (cmd: Command, path: string) => {
      for (const a of cmd.registeredArguments) if (!a.description) undescribed.push(`${path} <${a.name()}>`);
      for (const sub of cmd.commands) visit(sub, `${path} ${sub.name()}`.trim());
    };
    visit(program, '');
    expect(undescribed).toEqual([]);
  }, 120_000);

  it('every option a command cannot run without says "required" in its --help', async () => {
    const evaluate = (await runCli(['evaluate', '--help'])).out.replace(/\s+/g, ' ');
    expect(evaluate).toContain('--domain <name> domain (required)');
    const program = new Command();
    for (const load of Object.values(COMMANDS)) (await load())(program, () => {});
    const mandatory: [path: string[], long: string][] = [];
    const visit = (cmd: Command, path: string[]) => {
      for (const o of cmd.options) if (o.mandatory) mandatory.push([path, o.long!]);
      for (const sub of cmd.commands) visit(sub, [...path, sub.name()]);
    };
    visit(program, []);
    expect(mandatory.length).toBeGreaterThanOrEqual(9);
    for (const [path, long] of mandatory) {
      const help = (await runCli([...path, '--help'])).out.replace(/\s+/g, ' ');
      // The option's entry: from its flags to the next option's (or the help's end).
      const at = help.indexOf(` ${long} `);
      const entry = help.slice(at, help.indexOf(' -', at + long.length + 2) >>> 0);
      expect(entry, `${path.join(' ')} ${long}`).toContain('(required)');
    }
    // Required in another way than commander's: by a config key, an environment variable or one of two flags.
    const run = (await runCli(['run', '--help'])).out.replace(/\s+/g, ' ');
    expect(run).toContain('--agent-model <name> model of the agent under test (required: this flag or "agent-model" in the --config file)');
    expect(run).toContain('--user-model <name> model of the user simulator (required: this flag or "user-model" in the --config file)');
    expect((await runCli(['campaign', '--help'])).out.replace(/\s+/g, ' ')).toContain('(required unless SERVICEGYM_MODEL or OPENAI_MODEL is set)');
    const canary = (await runCli(['canary', '--help'])).out.replace(/\s+/g, ' ');
    expect(canary).toContain('this or --stable-episodes is required');
    expect(canary).toContain('this or --stable-rate is required');
  }, 120_000);

  it("-j defaults differ between run (4) and validate (8) and each --help says why: run's episodes wait on a model provider, validate's oracle calls none", async () => {
    const run = (await runCli(['run', '--help'])).out.replace(/\s+/g, ' ');
    expect(run).toContain('-j, --concurrency <n> episodes at once; each waits on model calls, so this bounds the requests in flight to the provider');
    expect(run).toContain('rate limit allows) (default: "4")');
    const validate = (await runCli(['validate', '--help'])).out.replace(/\s+/g, ' ');
    expect(validate).toContain('-j, --concurrency <n> episodes at once; the oracle calls no model');
    expect(validate).toContain('a higher default than run\'s 4, which bounds requests to a model provider (default: "8")');
  });
});
