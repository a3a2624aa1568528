/**
 * `--strict` and the data lints through the CLI (issue 10, item 5): `lint` on tau2 retail prints
 * the counts the issue names; `validate` prints the lint report; `validate --strict` leaves the
 * known-bad tasks out with their reasons and still scores the oracle 1 on the rest.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli as cli } from '../support/cli.js';
import { HAS_SHARED, needsShared, SHARED } from '../support/paths.js';

const RETAIL = path.join(SHARED, 'peers', 'tau2', 'retail');

describe.skipIf(!HAS_SHARED)(needsShared('lint and --strict on tau2 retail'), () => {
  it('lint prints the reward-basis, NL-assertion and uncounted communicate_info counts', async () => {
    const r = await cli(['lint', '--domain', 'retail', '--data-dir', RETAIL]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('112 tasks on [DB, NL_ASSERTION]');
    expect(r.out).toContain('2 tasks on [DB]: 33, 34');
    expect(r.out).toContain('40 tasks with NL assertions');
    expect(r.out).toContain('36 tasks with communicate_info no longer counted');
    expect(r.out).toMatch(/4 tasks whose gold requires a transfer the reward does not check.*: 10, 12, 26, 50/);
    expect(r.out).toMatch(/known bad.*: 10, 26/);
    const j = JSON.parse((await cli(['lint', '--domain', 'retail', '--data-dir', RETAIL, '--json'])).out);
    expect(j.findings.find((f: any) => f.rule === 'communicate_info_not_counted').task_ids).toHaveLength(36);
  });

  it('validate prints the lint report; --strict leaves known-bad tasks out and lists them', async () => {
    const plain = await cli(['validate', '--no-store', '-q', '--domain', 'retail', '--data-dir', RETAIL, '--tasks', '10,33,50']);
    expect(plain.out).toContain('lint: retail (tau2 dataset');
    expect(plain.out).toMatch(/^validate: 3\/3 tasks/m);
    const strict = await cli(['validate', '--no-store', '-q', '--strict', '--domain', 'retail', '--data-dir', RETAIL, '--tasks', '10,33,50']);
    expect(strict.code).toBe(0);
    expect(strict.out).toMatch(/^excluded \(known bad\): task 10: The scenario tells the customer/m);
    expect(strict.out).toMatch(/^validate: 2\/2 tasks score reward 1 and partial 100%/m);
    const j = JSON.parse((await cli(['validate', '--no-store', '-q', '--strict', '--json', '--domain', 'retail', '--data-dir', RETAIL, '--tasks', '10,50'])).out);
    expect(j.strict).toBe(true);
    expect(j.excluded_known_bad.map((k: any) => k.id)).toEqual(['10']);
    expect(j.tasks.map((t: any) => [t.task_id, t.reward])).toEqual([['50', 1]]);
  });
});

describe('the lint report says what --strict counts', () => {
  it('lint --strict and validate --strict count gold actions instead of calling them "not counted"', async () => {
    const plain = await cli(['lint', '--domain', 'airline']);
    expect(plain.out).toContain('5 tasks with gold actions not counted (ACTION not in reward_basis; --strict counts them): T01, T02, T03, T15, T17');
    expect(plain.out).toContain('3 tasks on [DB]: T01, T03, T17');
    const strict = await cli(['lint', '--domain', 'airline', '--strict']);
    expect(strict.code).toBe(0);
    expect(strict.out).toContain('lint: airline (servicegym dataset, builtin): 5 tasks (strict: ACTION counted in every reward)');
    expect(strict.out).toContain('3 tasks on [DB, ACTION]: T01, T03, T17');
    expect(strict.out).toContain('5 tasks whose gold actions count only under --strict (ACTION added to their reward_basis): T01, T02, T03, T15, T17');
    expect(strict.out).not.toContain('not counted (ACTION');
    const v = await cli(['validate', '--no-store', '-q', '--strict', '--domain', 'airline', '--tasks', 'T01']);
    expect(v.out).toContain('1 task whose gold actions count only under --strict (ACTION added to their reward_basis): T01');
    expect(v.out).not.toContain('gold actions not counted');
    const j = JSON.parse((await cli(['lint', '--domain', 'airline', '--strict', '--json'])).out);
    expect(j.strict).toBe(true);
    expect(j.findings.map((f: any) => f.rule)).toContain('actions_counted_strict');
    expect(j.findings.map((f: any) => f.rule)).not.toContain('actions_not_counted');
  });
});
