/**
 * Long work done in short stretches between the event loop's other work: the stretches run one per
 * turn of the event loop (`setImmediate`), so that what arrives meanwhile (answers on sockets,
 * timers) is handled within one stretch of arriving rather than after the whole of the work.
 */

/** What {@link runInSlices} returns. */
export interface SlicedRun {
  /** Settles when the work is done, failed (see `onError`) or was cancelled; never rejects. */
  done: Promise<void>;
  /** Stops before the next stretch (a stretch under way finishes its step); idempotent. */
  cancel(): void;
}

/**
 * Iterates `steps` to its end, in stretches of whole steps: a stretch ends at the first step that
 * ends `sliceMs` or more after it started (by `now`, default `performance.now`), and the next one
 * starts on a later turn of the event loop. The first stretch starts on the next turn.
 * @param onError called with what a step throws; the work stops there.
 */
export function runInSlices(steps: Iterator<unknown>, opts: { sliceMs: number; now?: () => number; onError?: (e: unknown) => void }): SlicedRun {
  const now = opts.now ?? (() => performance.now());
  let pending: NodeJS.Immediate | undefined;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const stretch = () => {
    pending = undefined;
    const until = now() + opts.sliceMs;
    try {
      for (;;) {
        if (steps.next().done) return finish();
        if (now() >= until) return void (pending = setImmediate(stretch));
      }
    } catch (e) {
      opts.onError?.(e);
      finish();
    }
  };
  pending = setImmediate(stretch);
  return {
    done,
    cancel() {
      if (pending) clearImmediate(pending);
      pending = undefined;
      finish();
    },
  };
}
