/**
 * The end of a run's results queue (`resultsQueueName` in jobs.ts): the queue a run's workers
 * send its episodes or rollouts back on, read by the run's one storing process.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/**
 * Removes a finished run's results queue from Redis (its BullMQ keys: id counter, meta, event
 * stream of up to 10,000 entries), so a Redis that serves many runs does not keep one queue per
 * run forever. A late duplicate result (a stalled job that also finished elsewhere) would make
 * the queue again with that one result, which nothing reads; a failure here only leaves the keys.
 */
export async function removeResultsQueue(name: string, redis: Redis): Promise<void> {
  const results = new Queue(name, { connection: redis });
  try {
    await results.obliterate({ force: true });
  } catch {
    // the keys stay; the run is stored either way
  } finally {
    await results.close();
  }
}
