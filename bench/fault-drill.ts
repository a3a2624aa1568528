/**
 * Benchmark: the fault drill. The airline seed suite (5 tasks x 2 trials, 4 at once) runs once
 * straight against the mock model and once through the loopback fault proxy, which faults every
 * fifth request in turn (429 with a day's / 999999999 ms / a year-ahead retry-after, 500, hang,
 * stalled body, truncated body, HTML 200). Reported: whether every episode's evaluation equals the
 * fault-free run's, the retries, the longest call, and the wall time against the fault-free run.
 */
import { loadDomain } from '../src/domains/index.js';
import { runDomainTasks, selectTasks } from '../src/run/task-run.js';
import { OpenAICompatibleModel } from '../src/models/openai-adapter.js';
import { resolveLiveModelConfig } from '../src/models/config.js';
import type { ChatModel } from '../src/models/chat-model.js';
import { startTwoRoleMock, last } from '../test/support/two-role-mock.js';
import { startFaultProxy } from '../test/support/fault-proxy.js';
import type { BenchRow } from './seed-replay.js';

const CALL_DEADLINE = 60;

function model(url: string, name: string): ChatModel {
  const flags = { model: name, timeout: 3, maxRetries: 8, maxRetryAfter: 0.05, callDeadline: CALL_DEADLINE, bodyTimeout: 1 };
  return new OpenAICompatibleModel(resolveLiveModelConfig(flags, { SERVICEGYM_BASE_URL: url, SERVICEGYM_API_KEY: 'bench-fake-key' }));
}

export async function benchFaultDrill(): Promise<BenchRow[]> {
  const mock = await startTwoRoleMock({
    agent: (messages) => {
      const m = last(messages);
      if (m.role === 'tool') return { content: `I found your profile (${String(m.content).length} characters). Anything else?` };
      const id = /user id(?: is)? ([a-z_0-9]+)/i.exec(String(m.content))?.[1];
      if (id && !messages.some((x: any) => x.role === 'tool')) return { tool_calls: [{ name: 'get_user_details', arguments: { user_id: id }, id: 'call_lookup' }] };
      return { content: 'Thank you. ###STOP###' };
    },
    user: (messages) => (messages.length <= 2 ? { content: `Hello, my user id is ${/user id is ([a-z_0-9]+)/i.exec(String(messages[0].content))?.[1] ?? 'unknown'}.` } : { content: '###STOP###' }),
  });
  const proxy = await startFaultProxy(mock.server.url, { rate: 0.2, cycle: true });
  try {
    const loaded = loadDomain('airline');
    const tasks = selectTasks(loaded, ['T01', 'T02', 'T03', 'T15', 'T17']);
    const run = async (url: string) => {
      const started = performance.now();
      const res = await runDomainTasks({ loaded, tasks, trials: 2, concurrency: 4, agent: 'llm', user: 'llm', agentModel: model(url, 'mock-agent'), userModel: model(url, 'mock-user'), runId: 'bench-drill' });
      const seconds = (performance.now() - started) / 1000;
      const evaluations = JSON.stringify(res.records.map((r) => [r.taskId, r.trial, r.episode.termination, r.evaluation, r.infraError ?? null]));
      const receipts = res.records.flatMap((r) => r.episode.receipts);
      return { seconds, evaluations, receipts, usage: res.usage };
    };
    const clean = await run(mock.server.url);
    const faulty = await run(proxy.url);
    const retried = faulty.receipts.filter((r) => r.retries);
    const faults = retried.flatMap((r) => r.retries!.faults);
    const longest = Math.max(...faulty.receipts.map((r) => r.elapsed_seconds));
    return [
      { name: 'results equal the fault-free run', value: faulty.evaluations === clean.evaluations ? 'yes' : 'NO' },
      { name: 'requests faulted', value: `${proxy.injected.filter(Boolean).length} of ${proxy.injected.length}` },
      { name: 'calls retried', value: `${retried.length} of ${faulty.receipts.length} (${faults.length} failed attempts)` },
      { name: 'longest call', value: `${longest.toFixed(2)} s`, ratio: `${(longest / CALL_DEADLINE).toFixed(2)} of the ${CALL_DEADLINE} s deadline` },
      { name: 'wall time with faults', value: `${faulty.seconds.toFixed(1)} s`, ratio: `${(faulty.seconds / clean.seconds).toFixed(1)}x the fault-free ${clean.seconds.toFixed(1)} s` },
    ];
  } finally {
    await proxy.close();
    await mock.close();
  }
}
