/**
 * Benchmark: the store side of the model-call path (issue 17, item 1), in this process.
 *
 * Synthetic multi-turn episodes (a 2.3 KiB policy prompt, 8 tool schemas, a ~450-byte tool result
 * per step; each request has its own message and tool lists whose objects are shared, as the model
 * adapter sends them) run 50 at a time,
 * interleaved call by call; every model call writes its receipt to a store on disk, every finished
 * episode writes a record. Measured with `process.cpuUsage` (user + system CPU, less distorted by
 * the load of a shared machine than wall time): CPU per model call of the whole loop with the
 * store minus the same loop without it. Also the store's bytes per episode at 10 and 40 calls.
 *
 * `node --import tsx bench/store-path.ts` prints the rows; run against an older checkout's store to
 * compare (the store is found through `STORE_MODULE`, default this checkout's src/store/store.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchRow } from './seed-replay.js';

interface StoreLike {
  flushReceipts?(): void;
  appendReceipts(rows: object[]): void;
  queueReceipt?(row: object): void;
  appendEpisodes(rows: object[]): void;
  close(): void;
}

const POLICY = `# Airline agent policy\n${'You must confirm every write with the user (yes) before calling a mutating tool. '.repeat(28)}`;
const TOOLS = Array.from({ length: 8 }, (_, i) => ({
  type: 'function',
  function: {
    name: `tool_${i}`,
    description: `Tool ${i}: looks up or changes a reservation. ${'Arguments are validated against the schema. '.repeat(6)}`,
    parameters: { type: 'object', properties: { reservation_id: { type: 'string' }, user_id: { type: 'string' }, amount_cents: { type: 'integer' } }, required: ['reservation_id'] },
  },
}));

function toolResult(episode: number, step: number): string {
  return JSON.stringify({ reservation_id: `R${episode}-${step}`, user_id: `user_${episode}`, flights: [{ flight: `HAT${100 + step}`, date: '2024-05-15', cabin: 'economy', price_cents: 12_300 + step }], status: 'active', notes: 'Basic economy fares cannot be modified after booking; refunds go to the original payment method.' });
}

/** Runs `episodes` synthetic episodes of `calls` model calls, `j` at a time; `sink` receives each receipt row and episode row. */
async function drive(episodes: number, calls: number, j: number, sink: ((row: object) => void) | undefined, onEpisode: ((n: number) => void) | undefined): Promise<number> {
  let made = 0;
  for (let start = 0; start < episodes; start += j) {
    const batch = Array.from({ length: Math.min(j, episodes - start) }, (_, i) => ({ id: start + i, messages: [{ role: 'system', content: POLICY }, { role: 'assistant', content: 'Hi! How can I help you today?' }, { role: 'user', content: `I am user_${start + i}; please change reservation R${start + i}-0.` }] as Record<string, unknown>[] }));
    for (let step = 0; step < calls; step++) {
      for (const ep of batch) {
        // As the model adapter sends it: its own lists, the message and tool objects shared.
        const request = { model: 'agent-model', messages: ep.messages.slice(), tools: TOOLS.slice(), temperature: 0 };
        const last = step === calls - 1;
        const message = last
          ? { role: 'assistant', content: 'Your reservation is basic economy, so it cannot be changed.' }
          : { role: 'assistant', content: null, tool_calls: [{ id: `call_${step}`, type: 'function', function: { name: `tool_${step % 8}`, arguments: JSON.stringify({ reservation_id: `R${ep.id}-${step}` }) } }] };
        const response = { id: `cmpl-${ep.id}-${step}`, object: 'chat.completion', model: 'agent-model', choices: [{ index: 0, message, finish_reason: last ? 'stop' : 'tool_calls' }], usage: { prompt_tokens: 900 + 120 * step, completion_tokens: 30, total_tokens: 930 + 120 * step } };
        sink?.({ run_id: 'bench', seq: made++, kind: 'task_agent', provider: 'mock', endpoint: 'http://127.0.0.1/v1/chat/completions', request, response, elapsed_seconds: 0.3, episode: { task_id: `T${ep.id}`, trial: 0, persona: null, attempt: 1, call: step } });
        ep.messages.push(message);
        if (!last) ep.messages.push({ role: 'tool', tool_call_id: `call_${step}`, content: toolResult(ep.id, step) });
      }
      await new Promise((r) => setImmediate(r));
    }
    for (const ep of batch) onEpisode?.(ep.id);
  }
  return made;
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const DEFAULT_STORE = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'store', 'store.js')).href;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * For `episodes` episodes of `calls` calls: CPU ms per model call on the store path (median of
 * `reps` pairs of runs without and with the store), main-thread ms per call spent inside the
 * store's synchronous calls (wall time: includes waiting for the disk), and store KiB per episode.
 */
async function measure(dir: string, episodes: number, calls: number, reps = 3): Promise<{ cpuPerCall: number; blockedPerCall: number; kibPerEpisode: number }> {
  const { RunStore } = (await import(process.env.STORE_MODULE ?? DEFAULT_STORE)) as { RunStore: { open(file: string): StoreLike } };
  const j = 50;
  const cpu: number[] = [];
  const blocked: number[] = [];
  let kib = 0;
  for (let rep = 0; rep < reps; rep++) {
    const t0 = cpuMs();
    await drive(episodes, calls, j, undefined, undefined);
    const bare = cpuMs() - t0;
    const file = path.join(dir, `store-${calls}-${rep}.db`);
    const store = RunStore.open(file);
    let inStore = 0;
    let depth = 0;
    const timed = <T>(fn: () => T): T => {
      const w = performance.now();
      depth++;
      try {
        return fn();
      } finally {
        if (--depth === 0) inStore += performance.now() - w;
      }
    };
    // Batched writes made from the store's own timer count too.
    const flush = (store as { flushReceipts?: () => void }).flushReceipts?.bind(store);
    if (flush) (store as { flushReceipts?: () => void }).flushReceipts = () => timed(flush);
    const t1 = cpuMs();
    const made = await drive(
      episodes,
      calls,
      j,
      (row) => timed(() => (store.queueReceipt ? store.queueReceipt(row) : store.appendReceipts([row]))),
      (id) => timed(() => store.appendEpisodes([{ run_id: 'bench', episode_id: `e${id}`, task_id: 't', trial: 0, label: 'bench', reward: 1, partial: 1, termination: 'agent_stop', result: { id } }])),
    );
    timed(() => store.close());
    cpu.push(Math.max(0, cpuMs() - t1 - bare) / made);
    blocked.push(inStore / made);
    kib = [file, `${file}-wal`].reduce((n, f) => n + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0) / 1024 / episodes;
  }
  return { cpuPerCall: median(cpu), blockedPerCall: median(blocked), kibPerEpisode: kib };
}

/** The rows of this benchmark; its temporary folder is removed. */
export async function benchStorePath(): Promise<BenchRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-store-'));
  try {
    const ten = await measure(dir, 200, 10);
    const forty = await measure(dir, 200, 40);
    return [
      { name: 'store path per model call, 200 episodes x 10 calls, 50 at a time (CPU: process.cpuUsage with minus without the store, median of 3)', value: `${ten.cpuPerCall.toFixed(3)} ms CPU`, ratio: `main thread inside the store: ${ten.blockedPerCall.toFixed(3)} ms wall` },
      { name: 'store path per model call, 200 episodes x 40 calls', value: `${forty.cpuPerCall.toFixed(3)} ms CPU`, ratio: `main thread inside the store: ${forty.blockedPerCall.toFixed(3)} ms wall` },
      { name: 'store bytes per episode at 10 calls vs 40 calls', value: `${ten.kibPerEpisode.toFixed(1)} KiB vs ${forty.kibPerEpisode.toFixed(1)} KiB`, ratio: `${(forty.kibPerEpisode / ten.kibPerEpisode).toFixed(2)}x for 4x the calls (linear: about 4x)` },
      {
        name: 'baseline (RECORDED, not measured here): the store before issue 17 (commit 4ed7580) in this benchmark on this machine',
        value: '0.29-0.34 ms CPU per call at 10 calls, 0.41-0.42 ms at 40; 101.0 KiB vs 703.3 KiB per episode (6.96x for 4x the calls)',
      },
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchStorePath()) process.stdout.write(`  ${r.name}: ${r.value}${r.ratio ? `  [${r.ratio}]` : ''}\n`);
}
