/**
 * The `yunshu` domain: the seed experiment's fixed mock airline back-end (see `tools.ts`).
 */
import type { Domain } from '../../spec/domain.js';
import type { YunshuState } from './state.js';
import { yunshuTools } from './tools.js';

/** The yunshu domain: six canned tools over a small state recording writes (see tools.ts). */
export const yunshuDomain: Domain<YunshuState> = {
  name: 'yunshu',
  description: 'Yunshu Airlines: the canned six-tool back-end of the seed transfer-policy experiment (record 9-3).',
  tools: yunshuTools,
  initialState: () => ({ changes: [] }),
  outputStyle: { ensureAscii: false },
};
