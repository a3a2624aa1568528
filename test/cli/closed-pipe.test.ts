/**
 * Output piped into a reader that stops early (`servicegym replay --json | head -1`) ends the
 * command quietly: no unhandled EPIPE stack trace on stderr.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { lacks, needing, type Need } from '../support/needs.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** Linux's always-full device, which fails every write with ENOSPC. */
const DEV_FULL: Need = { present: fs.existsSync('/dev/full'), reason: 'needs /dev/full (a Linux device)' };

/** Runs the CLI with its stdout read for one chunk and then closed; resolves its stderr and exit code. */
function runIntoClosedPipe(argv: string[]): Promise<{ stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'bin.ts'), ...argv], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('error', reject);
    child.on('close', (code) => resolve({ stderr, code }));
  });
}

describe('a closed output pipe', () => {
  it('ends the command without a stack trace when the reader stops after the first chunk', async () => {
    // replay --json writes the seed experiment's whole record: far more than one pipe buffer.
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-closed-pipe-'));
    const { stderr, code } = await runIntoClosedPipe(['replay', '--json', '--no-store', '--work-dir', work]).finally(() => fs.rmSync(work, { recursive: true, force: true }));
    expect(stderr).not.toMatch(/EPIPE|Unhandled 'error' event|\n\s+at /);
    expect(code).not.toBe(70);
  }, 120_000);

  it.skipIf(lacks(DEV_FULL))(needing('output that cannot be written (a full disk: /dev/full) is one line naming the cause and exit 74, not a stack trace', DEV_FULL), async () => {
    const full = fs.openSync('/dev/full', 'w');
    try {
      const { stderr, code } = await new Promise<{ stderr: string; code: number | null }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'bin.ts'), '--help'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', full, 'pipe'] });
        let err = '';
        child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
        child.on('error', reject);
        child.on('close', (c) => resolve({ stderr: err, code: c }));
      });
      expect(stderr).toBe('servicegym: cannot write the output: ENOSPC: no space left on device, write\n');
      expect(code).toBe(74);
    } finally {
      fs.closeSync(full);
    }
  }, 60_000);
});
