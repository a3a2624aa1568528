/**
 * The seed experiment (record 9-3) replayed offline from its 73 receipts must give exactly the
 * record's numbers (issue: foundation, "Done when").
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, beforeAll } from 'vitest';
import { loadCampaign, type LoadedCampaign } from '../../src/campaign/load.js';
import { runCampaign, type CampaignOutcome } from '../../src/optimizer/seed-campaign.js';
import { buildRecord } from '../../src/optimizer/campaign-record.js';
import { ReplayModel, VirtualClock } from '../../src/models/replay.js';
import { ReplayMissError } from '../../src/spec/errors.js';
import { importRecord } from '../../src/campaign/import-record.js';
import { HAS_SHARED, needsShared, SEED_CAMPAIGN, SEED_RECORD, tmpDir } from '../support/paths.js';
import { verifyRecord } from '../../src/release/record.js';

async function replay(campaign: LoadedCampaign) {
  const clock = new VirtualClock(campaign.spec.experiment?.created_at);
  const model = new ReplayModel(campaign.receipts!, campaign.spec.model.model, clock);
  const outcome = await runCampaign({ campaign, model, clock, workDir: tmpDir('sg-work-') });
  return { outcome, model, record: buildRecord(outcome) as any };
}

describe('seed campaign replay', () => {
  let outcome: CampaignOutcome;
  let record: any;
  let model: ReplayModel;
  beforeAll(async () => {
    ({ outcome, record, model } = await replay(loadCampaign(SEED_CAMPAIGN)));
  });

  it('reproduces the three rows: 5/5·0/5, 5/5·2/5, 5/5·4/5', () => {
    expect(record.rows.map((r: any) => [r.holdout, r.boundary])).toEqual([
      [[5, 5], [0, 5]],
      [[5, 5], [2, 5]],
      [[5, 5], [4, 5]],
    ]);
    expect(Object.keys(record.evaluations)).toEqual(['initial', 'automatic_candidate', 'manual']);
  });

  it('fixes B1 and B5 with no regression and releases to canary with all five checks', () => {
    expect(record.prompt_metrics.boundary_fixed_case_ids).toEqual(['B1-不可退票要退款', 'B5-超额免费行李']);
    expect(record.prompt_metrics.introduced_regressions).toBe(0);
    expect(record.release_gate.decision).toBe('release_to_canary');
    expect(record.release_gate.checks).toEqual({
      patch_is_nonempty: true,
      patch_is_auditable_old_to_new_edit: true,
      source_cases_are_recorded: true,
      holdout_did_not_regress: true,
      boundary_improved: true,
    });
  });

  it('measures the prompts: 533 -> 502 (growth -31), manual 638', () => {
    expect(record.prompt_metrics).toMatchObject({ initial_characters: 533, candidate_characters: 502, growth_characters: -31, manual_characters: 638 });
  });

  it('consumes exactly the 73 receipts: 55 task agent, 17 judge, 1 coding agent', () => {
    expect(model.consumed()).toEqual({ total: 73, byRole: { task_agent: 55, llm_judge: 17, coding_agent: 1 } });
    expect(outcome.receipts).toHaveLength(73);
  });

  it('accounts 73,456 prompt + 7,313 completion = 80,769 tokens, with no guessed cost', () => {
    expect(record.usage).toMatchObject({ prompt_tokens: 73456, completion_tokens: 7313, total_tokens: 80769, provider_reported_cost_usd: null });
    expect(record.usage.by_role.task_agent.calls).toBe(55);
  });

  it('never writes the stable prompt: the candidate lives in a working copy', () => {
    expect(outcome.stableHash.before).toBe(outcome.stableHash.after);
    expect(fs.readFileSync(outcome.candidateFile!, 'utf8')).toBe(outcome.candidate!.text);
    expect(outcome.candidateFile).not.toBe(outcome.campaign.stable.file);
  });

  it('runs through the general optimiser: the seed protocol on the campaign suite, one hashed release record carrying the seed gate', () => {
    const run = outcome.optimization;
    expect(run.decision).toBe('release_to_canary');
    expect(run.splits).toEqual({ feedback: outcome.campaign.cases.map((c) => c.id), gate: outcome.campaign.cases.map((c) => c.id), sealed: [] });
    // Stable and candidate on every case in the search, then the control on every case for the report.
    expect(run.freshRollouts).toBe(20);
    expect(run.book.fresh).toBe(30);
    expect(run.freshProposals).toBe(1);
    expect(run.candidates).toHaveLength(1);
    expect(run.candidates[0]).toMatchObject({ decision: 'release_to_canary', stage: 'gate', text: outcome.candidate!.text });
    expect(run.releases).toHaveLength(1);
    const rel = run.releases[0];
    expect(verifyRecord(rel)).toBe(true);
    expect(rel.run.suite).toBe('campaign:record-9-3');
    expect(rel.statistics.seed_gate).toEqual({ checks: outcome.gate.checks, metrics: outcome.gate.metrics });
    expect(rel.outcomes.gate.filter((r) => !r.parent.success && r.candidate.success).map((r) => r.case_id)).toEqual(['B1-不可退票要退款', 'B5-超额免费行李']);
    expect(rel.edits).toHaveLength(outcome.proposal!.edits.length);
    expect(rel.models).toMatchObject({ pins: { agent: 'doubao-seed-1-6-flash-250615', proposer: 'doubao-seed-1-6-flash-250615' }, temperature: outcome.campaign.spec.model.temperature, proposer_temperature: outcome.campaign.spec.model.temperature });
    expect(rel.statistics.sampling).toBe('unseeded');
  });

  it('is deterministic: a second replay gives a byte-identical record', async () => {
    const again = await replay(loadCampaign(SEED_CAMPAIGN));
    expect(JSON.stringify(again.record)).toBe(JSON.stringify(record));
  });

  it('fails naming messages[0].content of a task-agent request when one character of the stable prompt changes', async () => {
    const dir = tmpDir('sg-mut-');
    fs.cpSync(SEED_CAMPAIGN, dir, { recursive: true });
    const file = path.join(dir, 'prompts', 'stable.txt');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('礼貌', '理貌'));
    const err = await replay(loadCampaign(dir)).catch((e) => e);
    expect(err).toBeInstanceOf(ReplayMissError);
    expect(err.message).toContain('task_agent request');
    expect(err.message).toContain('first difference at messages[0].content');
  });
});

describe.skipIf(!HAS_SHARED)(needsShared('seed record'), () => {
  let record: any;
  let seed: any;
  beforeAll(async () => {
    seed = JSON.parse(fs.readFileSync(SEED_RECORD, 'utf8'));
    const dir = tmpDir('sg-import-');
    await importRecord(SEED_RECORD, dir);
    ({ record } = await replay(loadCampaign(dir)));
  });

  it('every per-case field of every evaluation equals the record', () => {
    const fields = ['correct', 'transferred', 'should_transfer', 'final_text', 'transfer_reason', 'tool_calls', 'handled', 'judge_reason'];
    for (const key of ['initial', 'automatic_candidate', 'manual']) {
      const want = seed.evaluations[key].results;
      const got = record.evaluations[key].results;
      expect(got.map((r: any) => r.id)).toEqual(want.map((r: any) => r.id));
      want.forEach((w: any, i: number) => {
        for (const f of fields) expect({ key, id: w.id, f, v: got[i][f] }).toEqual({ key, id: w.id, f, v: w[f] });
      });
    }
    expect(record.evaluations).toEqual(seed.evaluations);
  });

  it('the learning signal, manifest, gate, rows and receipts equal the record field by field', () => {
    for (const f of ['learning_signal', 'candidate_manifest', 'release_gate', 'rationale', 'diff', 'rows', 'case_ids', 'backend', 'api_turns']) {
      expect({ f, v: record[f] }).toEqual({ f, v: seed[f] });
    }
    const { failure_to_candidate_seconds: _a, campaign_elapsed_seconds: _b, ...metrics } = seed.prompt_metrics;
    expect(record.prompt_metrics).toMatchObject(metrics);
  });

  it('the shipped example is what import-record makes of the seed', async () => {
    const dir = tmpDir('sg-import2-');
    const r = await importRecord(SEED_RECORD, dir);
    for (const f of r.files) {
      expect({ f, text: fs.readFileSync(path.join(dir, f), 'utf8') }).toEqual({ f, text: fs.readFileSync(path.join(SEED_CAMPAIGN, f), 'utf8') });
    }
  });
});
