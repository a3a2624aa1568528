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
});
