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
 *
 * With `busyTurnMs`, the work gives way to the event loop's other work: a stretch starts only on a
 * turn that began less than `busyTurnMs` after the previous turn's check (a loop with nothing else
 * to do turns in microseconds); after a longer turn (answers were handled, timers ran) it waits for
 * the next one, unless `maxWaitMs` (default 10) have passed since the last stretch, so that the
 * work goes on, at `sliceMs` per `maxWaitMs` or more, on a loop that is never quiet.
 * @param onError called with what a step throws; the work stops there.
 */
export function runInSlices(steps: Iterator<unknown>, opts: { sliceMs: number; busyTurnMs?: number; maxWaitMs?: number; now?: () => number; onError?: (e: unknown) => void }): SlicedRun {
  const now = opts.now ?? (() => performance.now());
  let pending: NodeJS.Immediate | undefined;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const maxWaitMs = opts.maxWaitMs ?? 10;
  /** When the last stretch ended, and when the last turn was seen. */
  let ended: number | undefined;
  let last = -Infinity;
  const stretch = () => {
    pending = undefined;
    const start = now();
    const busy = opts.busyTurnMs !== undefined && start - last >= opts.busyTurnMs;
    last = start;
    if (busy && (ended === undefined || start - ended < maxWaitMs)) {
      ended ??= start;
      pending = setImmediate(stretch);
      return;
    }
    const until = start + opts.sliceMs;
    try {
      for (;;) {
        if (steps.next().done) return finish();
        if ((last = ended = now()) >= until) return void (pending = setImmediate(stretch));
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
