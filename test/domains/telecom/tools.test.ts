/**
 * The telecom domain: tau2's tool surface exactly (13 agent tools, 30 user tools), the TOML
 * reader's refusals, the sync between the account and the phone, and a sweep over tau2's task
 * set: every task's start state builds, and with the live sync every gold trajectory satisfies
 * the task's env assertions (tau2's evaluator path without the sync fails many of them).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { toWireTool } from '../../../src/env/wire-tools.js';
import { Environment } from '../../../src/env/environment.js';
import { taskInitialState } from '../../../src/evaluation/initial-state.js';
import { parseTomlSubset } from '../../../src/domains/common/toml-subset.js';
import { loadTau2Telecom, parseTelecomUserDb } from '../../../src/domains/telecom/index.js';
import { BadInputError } from '../../../src/spec/errors.js';
import { HAS_SHARED, needsShared, SHARED } from '../../support/paths.js';

const DIR = path.join(SHARED, 'peers', 'tau2', 'telecom');

describe('TOML subset reader', () => {
  it('reads tables, arrays of tables, dotted headers, strings, numbers, booleans, arrays', () => {
    const v = parseTomlSubset('a = 1\nb = 2.5\n[[x]]\nn = "q\\"s"\nl = ["a", "b"]\n[x.sub]\nok = true\n[[x]]\nn = \'lit\'\n', 'f.toml');
    expect(v).toEqual({ a: 1, b: 2.5, x: [{ n: 'q"s', l: ['a', 'b'], sub: { ok: true } }, { n: 'lit' }] });
  });
  it('refuses what it does not support, naming the file and line', () => {
    expect(() => parseTomlSubset('a = 1\nd = 1979-05-27\n', 'f.toml')).toThrow(BadInputError);
    expect(() => parseTomlSubset('a = 1\nd = 1979-05-27\n', 'f.toml')).toThrow(/f\.toml at line 2/);
    expect(() => parseTomlSubset('a = { b = 1 }', 'f.toml')).toThrow(/line 1/);
    expect(() => parseTomlSubset('a = 1\na = 2', 'f.toml')).toThrow(/defined twice/);
  });
  it('an unknown device field is refused with its path', () => {
    expect(() => parseTelecomUserDb('[device]\nfoo = 1\n', 'user_db.toml')).toThrow(/user_db\.toml at \$\.device\.foo/);
  });
});

describe.skipIf(!HAS_SHARED)(needsShared('tau2 telecom domain'), () => {
  const loaded = HAS_SHARED ? loadTau2Telecom({ dataDir: DIR }) : undefined!;
  const surface = HAS_SHARED ? JSON.parse(fs.readFileSync(path.join(DIR, 'tools.json'), 'utf8')) : undefined;

  it("offers exactly tau2's tool surface: 13 agent tools, 30 user tools", () => {
    const wire = (r: 'assistant' | 'user') => loaded.domain.tools.filter((t) => t.requestor === r).map((t) => toWireTool(t));
    expect(wire('assistant')).toEqual(surface.agent_tools);
    expect(wire('user')).toEqual(surface.user_tools);
  });

  it("composes the policy as tau2 does (main policy, then the tech-support manual)", () => {
    const main = fs.readFileSync(path.join(DIR, 'main_policy.md'), 'utf8');
    const manual = fs.readFileSync(path.join(DIR, 'tech_support_manual.md'), 'utf8');
    expect(loaded.policy).toBe(`<main_policy>\n${main}\n</main_policy>\n<tech_support_policy>\n${manual}\n</tech_support_policy>`);
    const workflow = loadTau2Telecom({ dataDir: DIR, policy: 'workflow', solo: true });
    expect(workflow.policy.startsWith(`<main_policy>\n${fs.readFileSync(path.join(DIR, 'main_policy_solo.md'), 'utf8')}`)).toBe(true);
    expect(workflow.policy).toContain(fs.readFileSync(path.join(DIR, 'tech_support_workflow_solo.md'), 'utf8'));
  });

  it('syncs the line onto the phone after every call; the agent cannot call device tools', async () => {
    const task = loaded.tasks.find((t) => t.id === '[mobile_data_issue]user_abroad_roaming_disabled_on[PERSONA:Easy]')!;
    const env = new Environment(loaded.domain, { now: loaded.now!, state: await taskInitialState(loaded.domain, task) });
    const call = (name: string, args: object, who: 'assistant' | 'user' = 'assistant') => env.execute({ id: name, type: 'function', function: { name, arguments: JSON.stringify(args) } }, who);
    expect((await call('toggle_data', {})).output).toBe("Error: Tool 'toggle_data' not found.");
    expect((await call('run_speed_test', {}, 'user')).output).toBe('Speed test failed: No Connection.');
    expect((await call('enable_roaming', { customer_id: 'C1001', line_id: 'L1002' })).output).toBe('Roaming enabled successfully');
    expect((env.state as any).user.surroundings.roaming_allowed).toBe(true);
    expect((await call('run_speed_test', {}, 'user')).output).toBe('Speed Test Result: 275.00 Mbps (Excellent). Connection is very fast.');
    expect((await call('get_data_usage', { customer_id: 'C1001', line_id: 'L1002' })).output).toBe(
      '{"line_id": "L1002", "data_used_gb": "8.7", "data_limit_gb": "15.0", "data_refueling_gb": "0.0", "cycle_end_date": "2025-02-28"}',
    );
    expect((await call('check_vpn_status', {}, 'user')).output).toBe('VPN is turned OFF.');
    await call('connect_vpn', {}, 'user');
    expect((await call('check_vpn_status', {}, 'user')).output).toBe(
      "VPN is ON and connected. Details: {'server_address': '192.168.1.1', 'protocol': 'OpenVPN', 'server_performance': <PerformanceLevel.EXCELLENT: 'excellent'>}",
    );
  });

  it('every 9th task: the start state builds; with the sync the gold trajectory meets every env assertion', async () => {
    const d = loaded.domain;
    let unsyncedFailures = 0;
    const sample = loaded.tasks.filter((_, i) => i % 9 === 0);
    for (const task of sample) {
      const start = await taskInitialState(d, task, { now: loaded.now! });
      for (const sync of [true, false]) {
        const env = new Environment(d, { now: loaded.now!, state: start, sync });
        for (const a of task.evaluation_criteria!.actions!) {
          expect((await env.execute({ id: 'g', type: 'function', function: { name: a.name, arguments: JSON.stringify(a.arguments) } }, a.requestor)).error).toBe(false);
        }
        const met = (task.evaluation_criteria!.env_assertions ?? []).every((a) => d.assertions![a.func_name](env.state, a.arguments, a.env_type) === a.assert_value);
        if (sync) expect(met, task.id).toBe(true);
        else if (!met) unsyncedFailures++;
      }
    }
    expect(sample.length).toBe(254);
    expect(unsyncedFailures).toBeGreaterThan(100); // tau2's gold replay without the sync (tau2-notes §7.1)
  });
});
