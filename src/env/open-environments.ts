/**
 * Environments whose surface holds a resource (a browser context, a terminal session) are tracked
 * while open, so that a kill signal (SIGINT, SIGTERM) closes them before the process exits.
 * Handlers are installed while at least one such environment is open and removed after.
 */

/** What can be closed on a signal. */
export interface Closable {
  close(): Promise<void>;
}

const open = new Set<Closable>();
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
let installed = false;

/**
 * A signal while environments are open: with no other listener (the signal would end the process
 * at once) the environments are closed, then the signal's default action (exit) is restored and
 * the signal raised again. Another listener is a command's own stop (a run's gentle Ctrl-C,
 * `worker`'s): it decides what happens next, and the episodes still running close their
 * environments as they end, so nothing is closed under them here.
 */
async function closeAndRaise(signal: NodeJS.Signals): Promise<void> {
  await closeOpenEnvironments();
  if (process.listenerCount(signal) > 1) return;
  uninstall();
  process.kill(process.pid, signal);
}

const handler = (signal: NodeJS.Signals) => {
  if (process.listenerCount(signal) > 1) return;
  void closeAndRaise(signal);
};

function install(): void {
  if (installed) return;
  installed = true;
  for (const s of SIGNALS) process.on(s, handler);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  for (const s of SIGNALS) process.off(s, handler);
}

/** Tracks an open environment (installs the signal handlers with the first one). */
export function trackOpen(env: Closable): void {
  open.add(env);
  install();
}

/** Stops tracking a closed environment (removes the handlers with the last one). */
export function untrackOpen(env: Closable): void {
  open.delete(env);
  if (open.size === 0) uninstall();
}

/** How many tracked environments are open (for tests and diagnostics). */
export function openEnvironmentCount(): number {
  return open.size;
}

/** Closes every tracked environment; a failing close does not stop the others. */
export async function closeOpenEnvironments(): Promise<void> {
  await Promise.allSettled([...open].map((e) => e.close()));
}
