/** Pure helpers of the viewer: usage by role, the configuration diff, natural task order. */
import { describe, expect, it } from 'vitest';
import { usageRows, usageTotal } from '../../src/viewer/usage.js';
import { configDiff } from '../../src/viewer/config-diff.js';
import { matrixOrder, naturalCompare } from '../../src/viewer/matrix.js';
import type { RunDetail, RunListItem } from '../../src/viewer/types.js';

describe('usageRows', () => {
  it('reads per-role usage, keeps a null cost null (never estimated) and sums a total', () => {
    const rows = usageRows({
      task_agent: { calls: 6, prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, latency_seconds: 1.5, provider_reported_cost_usd: 0.02 },
      user_simulator: { calls: 4, prompt_tokens: 50, completion_tokens: 5, total_tokens: 55, latency_seconds: 0.5, provider_reported_cost_usd: null },
    });
    expect(rows.map((r) => [r.role, r.calls, r.total_tokens, r.latency_seconds, r.cost_usd])).toEqual([
      ['task_agent', 6, 120, 1.5, 0.02],
      ['user_simulator', 4, 55, 0.5, null],
    ]);
    expect(usageTotal(rows)).toMatchObject({ role: 'total', calls: 10, total_tokens: 175, latency_seconds: 2, cost_usd: 0.02 });
    expect(usageTotal(rows.slice(1)).cost_usd).toBeNull();
  });

  it("gives no rows for a campaign's single total or anything else", () => {
    expect(usageRows({ total_tokens: 5, provider_reported_cost_usd: null })).toEqual([]);
    expect(usageRows(null)).toEqual([]);
    expect(usageRows([1, 2])).toEqual([]);
  });
});

function detail(run: Partial<RunListItem>, summary: unknown): RunDetail {
  const base: RunListItem = {
    id: 'r', kind: 'run', name: 'r', domain: 'airline', created_at: '2026-01-01T00:00:00Z', agent_model: 'a', user_model: 'u', prompt_hash: 'abc', tasks: 5, trials: 1, labels: ['llm'],
    episodes: 5, reward_mean: 1, partial_mean: 1, pass_hat_k: [], failed: 0, unjudged: 0, errors: 0, cost_usd: null, total_tokens: null, has_optimizer: false, tags: [], status: 'complete', ...run,
  };
  return { run: base, summary, prompt: null, episodes: [], optimizer: null, usage_by_role: [], by_label: [] };
}

describe('configDiff', () => {
  it('diffs models, prompt, settings and dataset, not results', () => {
    const a = detail({ agent_model: 'gpt-a' }, { temperature: 0, data: 'servicegym', judge_model: null, rewardMean: 0.5, usage: {}, strict: false });
    const b = detail({ agent_model: 'gpt-b', prompt_hash: 'def' }, { temperature: 0.7, data: 'servicegym', judge_model: 'j', rewardMean: 0.9, usage: {}, personas: ['vague', 'impatient'] });
    const rows = configDiff(a, b);
    const differ = rows.filter((r) => !r.same).map((r) => [r.key, r.a, r.b]);
    expect(differ).toEqual([
      ['agent model', 'gpt-a', 'gpt-b'],
      ['system prompt (sha256)', 'abc', 'def'],
      ['judge_model', '—', 'j'],
      ['strict', 'false', null],
      ['temperature', '0', '0.7'],
      ['personas', null, 'vague, impatient'],
    ]);
    expect(rows.map((r) => r.key)).not.toContain('rewardMean');
    expect(rows.find((r) => r.key === 'data')).toEqual({ key: 'data', a: 'servicegym', b: 'servicegym', same: true });
  });
});

describe('natural task order', () => {
  it('orders digit runs as numbers', () => {
    expect(['10', '2', '1', 'T10', 'T9', 'T01', 'a'].sort(naturalCompare)).toEqual(['1', '2', '10', 'a', 'T01', 'T9', 'T10']);
  });
  it('puts the matrix in natural task order whatever the stored (completion) order', () => {
    const e = (task_id: string, trial = 0) => ({ task_id, label: 'llm', trial });
    expect(matrixOrder([e('6'), e('10'), e('2'), e('2', 1), e('0')]).map((x) => `${x.task_id}#${x.trial}`)).toEqual(['0#0', '2#0', '2#1', '6#0', '10#0']);
  });
});
