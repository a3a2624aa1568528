/** Pure helpers of the viewer: usage by role, natural task order. */
import { describe, expect, it } from 'vitest';
import { usageRows, usageTotal } from '../../src/viewer/usage.js';
import { matrixOrder, naturalCompare } from '../../src/viewer/matrix.js';

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

describe('natural task order', () => {
  it('orders digit runs as numbers', () => {
    expect(['10', '2', '1', 'T10', 'T9', 'T01', 'a'].sort(naturalCompare)).toEqual(['1', '2', '10', 'a', 'T01', 'T9', 'T10']);
  });
  it('puts the matrix in natural task order whatever the stored (completion) order', () => {
    const e = (task_id: string, trial = 0) => ({ task_id, label: 'llm', trial });
    expect(matrixOrder([e('6'), e('10'), e('2'), e('2', 1), e('0')]).map((x) => `${x.task_id}#${x.trial}`)).toEqual(['0#0', '2#0', '2#1', '6#0', '10#0']);
  });
});
