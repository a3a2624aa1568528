/**
 * The `telecom` domain family with dual control — the agent works the account, the customer acts
 * on their own phone, and the two sides are synced after every call:
 * - with `dataDir`: tau2-bench's telecom (13 agent tools, 30 user tools, tau2-identical outputs and
 *   both DB hashes; the `workflow` policy variant and solo mode);
 * - without: servicegym's own dataset (Kestrel Mobile: seed task T07 and K01-K13).
 */
import type { DomainPackage } from '../../spec/domain.js';
import { BadInputError } from '../../spec/errors.js';
import { loadTau2Telecom } from './load.js';
import { loadKestrelTelecom } from './own/dataset.js';

export { composeTelecomPolicy, createTelecomDomain, loadTau2Telecom, parseTelecomDb, parseTelecomUserDb, TELECOM_TAU2_NOW, TELECOM_TAU2_TODAY } from './load.js';
export type { TelecomDomainParts, TelecomFaultMode, TelecomLoadOptions, TelecomPolicyKind } from './load.js';
export { syncTelecom, telecomDbHash, telecomStateOps, telecomUserDbHash, type TelecomState } from './state.js';
export { telecomAgentTools } from './tools-agent.js';
export { telecomUserTools } from './tools-user.js';
export { tau2ToolSurface } from './tool-def.js';
export { createKestrelDomain, kestrelStateOps, kestrelTablesJson, KESTREL_NOW, KESTREL_TASK_FILES, loadKestrelTelecom } from './own/dataset.js';
export type { KestrelState } from './own/phone.js';
export * as kestrelRules from './own/rules.js';

/** Registry entry: `load({dataDir})` reads a tau2 telecom folder; without it, servicegym's dataset. */
export const telecomPackage: DomainPackage = {
  name: 'telecom',
  description: 'Telecom technical support with dual control: the agent works the account, the customer acts on their own phone (tau2-bench telecom, or servicegym\'s Kestrel Mobile).',
  variants: { policies: ['manual', 'workflow'], solo: true },
  load: (opts) => {
    if (!opts?.dataDir) {
      if (opts?.policy !== undefined || opts?.solo) throw new BadInputError("the policy variants and solo mode belong to tau2's telecom data: add --data-dir (a tau2 telecom folder)");
      return loadKestrelTelecom();
    }
    return loadTau2Telecom({ dataDir: opts.dataDir, policy: opts.policy === 'workflow' ? 'workflow' : 'manual', solo: opts.solo === true });
  },
};
