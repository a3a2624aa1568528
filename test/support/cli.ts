/** Runs the CLI in-process (`main(argv)`) capturing stdout and stderr; nothing reaches the terminal. */
import { vi } from 'vitest';
import { main, type MainOptions } from '../../src/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Same as `stdout` (shorter name some tests use). */
  out: string;
  /** Same as `stderr`. */
  err: string;
}

/** `servicegym <args…>` in-process; returns the exit code and what was written (`options`: {@link main}'s). */
export async function runCli(args: string[], options: MainOptions = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation(((s: string | Uint8Array) => ((stdout += String(s)), true)) as never);
  const e = vi.spyOn(process.stderr, 'write').mockImplementation(((s: string | Uint8Array) => ((stderr += String(s)), true)) as never);
  try {
    const code = await main(['node', 'servicegym', ...args], options);
    return { code, stdout, stderr, out: stdout, err: stderr };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}
