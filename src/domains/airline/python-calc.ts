/**
 * Moved to `../common/python-calc.ts` (shared by every tau2 domain); re-exported here so existing
 * imports keep working.
 */
export { pyCalculate, pyRound2 } from '../common/python-calc.js';
