/**
 * Ctrl-C during `servicegym run` (episodes in this process), as users of test runners expect:
 *
 * - The first SIGINT (Ctrl-C) or SIGTERM (a service manager's stop) stops the run gently: no new
 *   episode starts, the running ones finish and are stored, the report of what ran is printed,
 *   saying how many episodes did not start and the `--resume` that runs them. The process then
 *   ends by that signal ({@link endBySignalAtExit}; a shell shows 130 for Ctrl-C, 143 for
 *   SIGTERM), even when every episode had started: a shell running it in a script or a loop stops
 *   there too, as it does for a program Ctrl-C kills, instead of going on to the next command (a
 *   program that *exits* 130 is taken to have handled Ctrl-C itself).
 * - The second signal ends the process at once, as the signal does by default. Nothing stored is
 *   lost: `--resume` runs the episodes that did not finish, serving the calls they had made from
 *   their stored receipts instead of sending them again.
 *
 * While the run is gentle-stopping, environments with a resource (a browser, a terminal session:
 * src/env/open-environments.ts) are left to the episodes that use them, which close them as they
 * end. Runs on worker threads or a queue keep the signal's default (the process ends at once; the
 * queue's jobs and `--resume` carry the rest).
 */

/** The signals that stop a run: Ctrl-C, and the polite stop of `kill` and service managers. */
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Exit code of a run stopped by a signal before every episode started: 128 + SIGINT, as shells report Ctrl-C. */
export const EXIT_INTERRUPTED = 130;

/** A signal that stops a run or a worker. */
export type StopSignal = (typeof SIGNALS)[number];

/** What users call each signal, in the run's and the worker's messages. */
export const SIGNAL_NAMES: Record<StopSignal, string> = { SIGINT: 'Ctrl-C', SIGTERM: 'SIGTERM' };

/**
 * The two-stage stop of `run` and `worker` on SIGINT and SIGTERM: the first signal calls
 * `onFirst(signal)` (the command stops gently: nothing new starts, the running work finishes);
 * the second ends the process by that signal at once (its default action, after whatever else
 * listens to it: open environments close first, src/env/open-environments.ts). `first()` is the
 * first signal that came, if any; `dispose()` stops watching (the signals' default comes back).
 * `onSecond(signal)`, if given, is called just before the process ends on the second.
 */
export function watchStopSignals(onFirst: (signal: StopSignal) => void, onSecond?: (signal: StopSignal) => void): { first(): StopSignal | undefined; dispose(): void } {
  let first: StopSignal | undefined;
  const onSignal = (signal: StopSignal) => {
    if (first === undefined) {
      first = signal;
      onFirst(signal);
      return;
    }
    dispose();
    onSecond?.(signal);
    process.kill(process.pid, signal);
  };
  const dispose = () => {
    for (const s of SIGNALS) process.off(s, onSignal);
  };
  for (const s of SIGNALS) process.on(s, onSignal);
  return { first: () => first, dispose };
}

/** A run's watch for the stop signals ({@link watchInterrupt}). */
export interface InterruptWatch {
  /** Why the run stops (`interrupted (Ctrl-C)`), once a first signal came; else undefined. */
  reason(): string | undefined;
  /** The first signal that came (`SIGINT`, `SIGTERM`); else undefined. */
  signal(): NodeJS.Signals | undefined;
  /** Whether `reason` is a stop this watch gave (the run's halt may have other reasons, e.g. `--max-cost`). */
  gave(reason: string | undefined): boolean;
  /** Stops watching (the signals' default comes back); call when the run's episodes are done. */
  dispose(): void;
}

/**
 * Watches SIGINT and SIGTERM for one run (see the module comment). `say(line)` tells the user
 * what the first signal does (stderr; shown even with `-q`: the user asked for it).
 * `resumeHint` is the command that continues the run (`--resume <id>`).
 */
export function watchInterrupt(say: (line: string) => void, resumeHint: string): InterruptWatch {
  let reason: string | undefined;
  const watch = watchStopSignals((signal) => {
    reason = `interrupted (${SIGNAL_NAMES[signal]})`;
    say(`servicegym: stopping: no new episode starts; the running ones finish and are stored (${SIGNAL_NAMES[signal]} again to stop at once; ${resumeHint} continues)`);
  }, (signal) => say(`servicegym: stopped at once (${SIGNAL_NAMES[signal]} again); the episodes in flight run again on ${resumeHint}`));
  return { reason: () => reason, signal: () => watch.first(), gave: (r) => r !== undefined && r === reason, dispose: watch.dispose };
}

/**
 * Makes the process end by `signal` (its default action: termination, as if the signal had not
 * been handled) when it exits, after everything else has run: the report written, the store and
 * its lock released, the browser closed (the process's `exit` event). Shells tell a program a
 * signal killed from one that exited with a code, and stop a script only for the former (bash's
 * "wait and cooperative exit"); this keeps a gentle stop from continuing the user's script. The
 * exit code set before stays as the fallback should the signal not end the process.
 */
export function endBySignalAtExit(signal: NodeJS.Signals): void {
  process.once('exit', () => {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}
