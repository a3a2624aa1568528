/**
 * The run report's model-calls line (src/cli/run-report.ts `callsText`): usage counts answered
 * calls, so when episodes ended on a call that failed after all its attempts, the line says the
 * count is of answered calls and how many episodes ended that way, instead of reading
 * `model calls: 0 (no retries)` beside an error that says `after 5 attempts`.
 */
import { describe, expect, it } from 'vitest';
import { callsText } from '../../src/cli/run-report.js';
import type { UsageByRole } from '../../src/models/usage.js';

const role = (calls: number, extra: Record<string, unknown> = {}) => ({ calls, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, latency_seconds: 0, provider_reported_cost_usd: null, provider_reported_cost_observations: 0, ...extra });

describe('callsText', () => {
  it('counts answered calls and their retries', () => {
    expect(callsText({ task_agent: role(3), user_simulator: role(2) })).toBe('model calls: 5 (no retries)');
    const retried: UsageByRole = { task_agent: role(4, { retried_calls: 1, extra_attempts: 2, retry_wait_seconds: 1.5, faults: { server_error: 2 } }) };
    expect(callsText(retried)).toBe('model calls: 4 (1 retried: 2 extra attempts, 1.5 s waited; server_error 2)');
  });

  it('says the calls counted are the answered ones when episodes ended on a failed call', () => {
    expect(callsText({}, 2)).toBe('model calls: 0 answered (no retries); 2 episode(s) ended on a call that failed after its retries (see the infrastructure errors)');
    expect(callsText({ task_agent: role(7) }, 1)).toBe('model calls: 7 answered (no retries); 1 episode(s) ended on a call that failed after its retries (see the infrastructure errors)');
    expect(callsText({ task_agent: role(7) }, 0)).toBe('model calls: 7 (no retries)');
  });
});
