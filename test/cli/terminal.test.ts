/**
 * `servicegym terminal gds --task T12` driven as a person would: in a pseudo-terminal (`script`
 * from util-linux allocates one), typing one entry at a time after each prompt, reading the screens,
 * and leaving with QUIT to get the session scored. Skipped where `script` is missing.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ROOT } from '../support/paths.js';
import { lacks, needing, SCRIPT_NEED } from '../support/needs.js';


/** Types `entries` one per prompt into the command under a pty; resolves with everything shown. */
function drive(argv: string[], entries: string[]): Promise<{ screen: string; code: number | null }> {
  const cmd = [process.execPath, '--import', 'tsx', path.join(ROOT, 'src', 'cli', 'bin.ts'), ...argv].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
  let screen = '';
  let sent = 0;
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString('utf8');
    const prompts = (screen.match(/> /g) ?? []).length;
    // One entry per prompt, as a person waits for the screen before typing.
    while (sent < entries.length && sent < prompts) child.stdin.write(`${entries[sent++]}\r`);
  });
  return new Promise((resolve) => child.on('close', (code) => {
    clearTimeout(timer);
    resolve({ screen, code });
  }));
}

/** Runs the command with `entries` on a pipe (one per line, then end of input); resolves with stdout and the exit code. */
function piped(argv: string[], entries: string[]): Promise<{ out: string; err: string; code: number | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'bin.ts'), ...argv], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  child.stdin.end(entries.map((e) => `${e}\n`).join(''));
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve) => child.on('close', (code) => {
    clearTimeout(timer);
    resolve({ out, err, code });
  }));
}

describe('servicegym terminal', () => {
  it.skipIf(lacks(SCRIPT_NEED))(needing('a person rebooks T12 at the prompt and gets the session scored', SCRIPT_NEED), async () => {
    const { screen, code } = await drive(['terminal', 'gds', '--task', 'T12'], ['*LKJ8TQ', '120OCTJFKORD', '02M3', 'X1', '3WCHR/1-1.1', '6AGENT', 'E', 'QUIT']);
    expect(code).toBe(0);
    expect(screen).toContain('TASK T12:');
    expect(screen).toContain('3 XA 208  F0 A0 J1 C0 Y0 B0 M2 H0 Q1  JFKORD 1300 1445 738');
    expect(screen).toContain('OK 1400 LKJ8TQ');
    expect(screen).toMatch(/T12: reward 1, partial 100%/);
  }, 120_000);

  it('exits 1 when the scored session is below reward 1, listing only the failed checks that count (tau2_action only under --strict)', async () => {
    const quit = await piped(['terminal', 'gds', '--task', 'T12'], ['*LKJ8TQ', 'QUIT']);
    expect(quit.code).toBe(1);
    expect(quit.out).toMatch(/^T12: reward 0, partial 0%$/m);
    expect(quit.out).toContain('  failed tau2_db: ');
    expect(quit.out).toContain('  failed correct_flight: ');
    expect(quit.out).not.toContain('tau2_action');
    const strict = await piped(['terminal', 'gds', '--task', 'T12', '--strict'], ['QUIT']);
    expect(strict.code).toBe(1);
    expect(strict.out).toMatch(/^T12: reward 0, partial \d+% \(strict\)$/m);
    expect(strict.out).toContain('  failed tau2_action: ');
    const done = await piped(['terminal', 'gds', '--task', 'T12', '--strict'], ['*LKJ8TQ', '120OCTJFKORD', '02M3', 'X1', '3WCHR/1-1.1', '6AGENT', 'E', 'QUIT']);
    expect(done.out).toMatch(/^T12: reward 1, partial 100% \(strict\)$/m);
    expect(done.code).toBe(0);
    const free = await piped(['terminal', 'gds'], ['HELP', 'QUIT']);
    expect(free.code).toBe(0);
    expect(free.out).toContain('XA RESERVATIONS TERMINAL - HELP');
    const help = await runCli(['terminal', '--help']);
    expect(help.out).toContain('Exit status: 0 when the scored session reaches reward 1 (always 0 without --task); 1 when its reward is below 1 or not judged');
  }, 120_000);

  it('end of input (Ctrl-D) or QUIT with a sale never ended warns, before the score, that it was not committed', async () => {
    const eof = await piped(['terminal', 'gds', '--task', 'T12'], ['*LKJ8TQ', '120OCTJFKORD', '02M3']);
    expect(eof.code).toBe(1);
    const warning = 'WARNING: PNR LKJ8TQ HAS 1 PENDING CHANGE(S) NOT ENDED (SOLD XA208 M 20OCT JFKORD 2): NOT COMMITTED - END WITH E OR ER FIRST; LEAVING THE TERMINAL IGNORES THEM (SCORED WITHOUT THEM)';
    expect(eof.out).toContain(warning);
    expect(eof.out.indexOf(warning)).toBeLessThan(eof.out.indexOf('T12: reward 0'));
    const quit = await piped(['terminal', 'gds'], ['*LKJ8TQ', 'X1', 'QUIT']);
    expect(quit.out).toMatch(/WARNING: PNR LKJ8TQ HAS 1 PENDING CHANGE\(S\) NOT ENDED \(.*XA204.*\): NOT COMMITTED/);
    const ended = await piped(['terminal', 'gds', '--task', 'T12'], ['*LKJ8TQ', '120OCTJFKORD', '02M3', 'X1', '3WCHR/1-1.1', '6AGENT', 'E']);
    expect(ended.out).not.toContain('WARNING');
    expect(ended.code).toBe(0);
  }, 120_000);

  it('refuses a domain without a terminal surface, and an unknown task', async () => {
    const r = await runCli(['terminal', 'banking']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('the banking domain does not support the terminal surface: it offers no command interpreter; surfaces it supports: api, pixels');
    const t = await runCli(['terminal', 'gds', '--task', 'T99']);
    expect(t.code).toBe(2);
    expect(t.err).toContain('unknown task id(s): T99');
  });
});
