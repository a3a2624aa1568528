/**
 * An episode's deadline: a wall-clock limit (seconds) and/or an abort signal from the caller.
 * Each awaited step of the episode (a user turn, an agent turn, a tool call, opening the
 * environment) races it; when it passes the step is abandoned and the episode ends, with its
 * environment closed as always.
 */

/** The deadline passed (or the caller aborted) while a step was running. */
export class DeadlineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeadlineError';
  }
}

export class Deadline {
  private readonly expired: Promise<never> | null;
  private timer: NodeJS.Timeout | null = null;
  private readonly why: string;
  private cleanup: (() => void) | null = null;

  /** `seconds`: null or absent for no time limit; `signal`: aborting it ends the episode too. */
  constructor(seconds: number | null | undefined, signal?: AbortSignal) {
    this.why = seconds != null ? `the episode deadline of ${seconds} s passed` : 'the episode was aborted';
    if (seconds == null && !signal) {
      this.expired = null;
      return;
    }
    this.expired = new Promise<never>((_, reject) => {
      const fire = (why: string) => reject(new DeadlineError(why));
      if (seconds != null) {
        this.timer = setTimeout(() => fire(this.why), seconds * 1000);
        this.timer.unref?.();
      }
      if (signal) {
        const onAbort = () => fire('the episode was aborted');
        if (signal.aborted) onAbort();
        else {
          signal.addEventListener('abort', onAbort, { once: true });
          this.cleanup = () => signal.removeEventListener('abort', onAbort);
        }
      }
    });
    this.expired.catch(() => {});
  }

  /** `p`, or a DeadlineError rejection when the deadline passes first. */
  within<T>(p: Promise<T>): Promise<T> {
    return this.expired ? Promise.race([p, this.expired]) : p;
  }

  /** The episode failure for a deadline that passed during `by`'s step. */
  failure(by: 'agent' | 'user', during: string): { by: 'agent' | 'user'; kind: 'deadline'; message: string } {
    return { by, kind: 'deadline', message: `${this.why} ${during}` };
  }

  /** Stops the timer and the signal listener. */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.cleanup?.();
    this.cleanup = null;
  }
}
