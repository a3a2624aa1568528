/**
 * The `telecom` domain family: tau2-bench's telecom domain with dual control — 13 agent tools
 * over the account DB, 30 user tools over the customer's phone, the sync between them — loaded
 * from a tau2 telecom folder, with tau2-identical tool outputs and both DB hashes.
 */
import type { DomainPackage } from '../../spec/domain.js';
import { BadInputError } from '../../spec/errors.js';
import { loadTau2Telecom } from './load.js';

export { composeTelecomPolicy, createTelecomDomain, loadTau2Telecom, parseTelecomDb, parseTelecomUserDb, TELECOM_TAU2_NOW, TELECOM_TAU2_TODAY } from './load.js';
export type { TelecomDomainParts, TelecomFaultMode, TelecomLoadOptions, TelecomPolicyKind } from './load.js';
export { syncTelecom, telecomDbHash, telecomStateOps, telecomUserDbHash, type TelecomState } from './state.js';
export { telecomAgentTools } from './tools-agent.js';
export { telecomUserTools } from './tools-user.js';
export { tau2ToolSurface } from './tool-def.js';

/** Registry entry: `load({dataDir})` reads a tau2 telecom folder. */
export const telecomPackage: DomainPackage = {
  name: 'telecom',
  description: 'Telecom technical support with dual control: the agent works the account, the customer acts on their own phone (tau2-bench telecom).',
  ownDataset: false,
  variants: { policies: ['manual', 'workflow'], solo: true },
  load: (opts) => {
    if (!opts?.dataDir) throw new BadInputError("domain 'telecom' needs --data-dir (a tau2 telecom folder); servicegym's own telecom dataset is not built yet");
    return loadTau2Telecom({ dataDir: opts.dataDir, policy: opts.policy === 'workflow' ? 'workflow' : 'manual', solo: opts.solo === true });
  },
};
