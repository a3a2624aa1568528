/**
 * `servicegym worker --queue redis://HOST:6379 [-j n]`: runs episodes of distributed runs
 * (`servicegym run --queue …`) and rollouts of `servicegym optimize --queue …` with this
 * machine's own domain data and model key, until stopped: the first Ctrl-C or SIGTERM takes no
 * new job and lets the running ones finish (their environments, and a browser they use, stay
 * open until they end); a second one ends the process at once (its jobs run again elsewhere
 * after their lease). A worker whose servicegym version, dataset, surface or suite differs from a run's
 * refuses it and exits 2 without running any of its jobs.
 */
import type { Command } from 'commander';
import { BadInputError } from '../spec/errors.js';

/** Registers `servicegym worker`; exit 0 when stopped, 2 when it refused a run or on bad input. */
export function registerWorker(program: Command, setExit: (code: number) => void): void {
  program
    .command('worker')
    .description("run episodes of distributed runs ('run --queue') and rollouts of 'optimize --queue' from a Redis queue; results go back to the one process that stores them")
    .requiredOption('--queue <url>', 'Redis URL, e.g. redis://127.0.0.1:6379')
    .option('--queue-name <name>', 'BullMQ queue of the episodes (as given to run)', 'servicegym')
    .option('-j, --concurrency <n>', 'episodes at once', '4')
    .option('--lease <seconds>', "lock lease of a running episode: a dead worker's episode runs again elsewhere after it", '30')
    .option('--base-url <url>', "OpenAI-compatible base URL for this worker (default: the run's)")
    .option('-q, --quiet', 'no progress on stderr')
    .action(async (flags) => {
      if (!/^\d+$/.test(String(flags.concurrency)) || Number(flags.concurrency) < 1) throw new BadInputError(`-j/--concurrency must be a whole number >= 1, got '${flags.concurrency}'`);
      const lease = Number(flags.lease);
      if (!(lease >= 0.5)) throw new BadInputError(`--lease must be a number of seconds >= 0.5, got '${flags.lease}'`);
      (await import('../queue/redis-url.js')).checkRedisUrl(String(flags.queue));
      const { checkQueueName } = await import('../queue/jobs.js');
      const { startWorker } = await import('../queue/worker.js');
      const log = (line: string) => {
        if (!flags.quiet || line.startsWith('stopped')) process.stderr.write(`servicegym worker: ${line}\n`);
      };
      const worker = startWorker({ url: flags.queue, queueName: checkQueueName(flags.queueName), concurrency: Number(flags.concurrency), leaseSeconds: lease, baseUrl: flags.baseUrl, log });
      const { SIGNAL_NAMES, watchStopSignals } = await import('./run-interrupt.js');
      const watch = watchStopSignals((signal) => {
        // Said even with -q, as a run says it: the user asked, and a running episode may take minutes.
        process.stderr.write(`servicegym worker: stopping: no new episode is taken; the running ones finish (${SIGNAL_NAMES[signal]} again to stop at once)\n`);
        void worker.close();
      });
      log(`waiting for episodes on ${flags.queueName} (pid ${process.pid})`);
      const code = await worker.stopped;
      watch.dispose();
      setExit(code);
    });
}
