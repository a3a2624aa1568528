/**
 * Optimiser records name the surface the rollouts actually ran on (not a fixed `api`): a task
 * suite runs on the dataset's own surface (gds: the terminal) unless `suite.surface` names
 * another, and the run record and every stored rollout say which; a campaign suite's case
 * episodes run on the API surface.
 */
import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domains/index.js';
import { getSurface } from '../../src/surfaces/index.js';
import { loadSurface } from '../../src/surfaces/catalog.js';
import { TaskSuite } from '../../src/optimizer/task-suite.js';
import { CampaignSuite } from '../../src/optimizer/campaign-suite.js';
import { loadCampaign } from '../../src/campaign/load.js';
import { rolloutEpisodeLog } from '../../src/optimizer/run-record.js';
import { parseOptimizeConfig } from '../../src/optimizer/config.js';
import { buildSuite } from '../../src/optimizer/setup.js';
import type { Rollout } from '../../src/optimizer/suite.js';
import { SEED_CAMPAIGN } from '../support/paths.js';

const rollout: Rollout = {
  case_id: 'G01', trial: 0, seed: 1, prompt_sha256: 'a'.repeat(64), valid: true, success: true, critical: [], termination: 'user_stop', usage: {}, messages: [],
  dimensions: { rule_compliance: { verdict: 'pass', evidence: 'ok' }, task_resolution: { verdict: 'pass', evidence: 'ok' }, compliant_flexibility: { verdict: 'not_applicable', evidence: 'holdout' } },
};

describe('the surface of optimiser rollouts', () => {
  it('a task suite runs on the dataset\'s own surface (once loaded), or the one the config names; its id tells them apart', async () => {
    const gds = loadDomain('gds');
    expect(new TaskSuite(gds, { surface: getSurface('api') }).id).toBe('tasks:gds@api');
    expect(() => new TaskSuite(gds)).toThrow("the terminal surface is not loaded yet: await loadSurface('terminal')");
    await loadSurface('terminal');
    expect(new TaskSuite(gds).surface).toBe('terminal');
    expect(new TaskSuite(gds).id).toBe('tasks:gds');
    const onApi = new TaskSuite(gds, { surface: getSurface('api') });
    expect(onApi.surface).toBe('api');
    expect(onApi.id).toBe('tasks:gds@api');
    expect(new TaskSuite(loadDomain('airline')).surface).toBe('api');
    expect(new TaskSuite(loadDomain('airline'), { surface: getSurface('api') }).id).toBe('tasks:airline');
    expect(new CampaignSuite(loadCampaign(SEED_CAMPAIGN)).surface).toBe('api');
  });

  it('the stored rollout record carries the suite\'s surface', () => {
    expect(rolloutEpisodeLog(rollout, 'v1/G01#0#trial', 'v1', 'gds', 'x', { agent: 'm' }, 'terminal').surface).toBe('terminal');
    expect(rolloutEpisodeLog(rollout, 'v1/G01#0#trial', 'v1', 'gds', 'x', { agent: 'm' }, 'api').surface).toBe('api');
  });

  it('suite.surface in the config picks the surface; an unknown one is bad input at $.suite.surface', async () => {
    const cfg = (surface?: string) => ({ file: '/tmp/x/optimize.json', dir: '/tmp/x', identity: 'i', config: parseOptimizeConfig({ name: 'g', suite: { kind: 'tasks', domain: 'gds', tasks: ['G01'], ...(surface ? { surface } : {}) }, models: { agent: { model: 'a' }, user: { model: 'u' } } }) });
    expect((await buildSuite(cfg() as never)).suite.surface).toBe('terminal');
    expect((await buildSuite(cfg('api') as never)).suite.surface).toBe('api');
    await expect(buildSuite(cfg('nope') as never)).rejects.toThrow(expect.objectContaining({ path: '$.suite.surface', message: expect.stringMatching(/unknown surface 'nope'/) }));
  });
});
