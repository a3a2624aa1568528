/** Conformance against tau2's gold-replay reference files (see `run.ts`). */
export { readReference, type ReferenceLine, type ReferenceAction } from './reference.js';
export { runConformance, checkTask, tau2InitialState, type ConformanceReport, type TaskConformance, type ActionConformance, type InitialStateHook, type ConformanceOptions } from './run.js';
export { compareDiffs, firstDifferingChar, excerptAt, type DiffComparison } from './compare.js';
export { conformanceText, taskLine, taskProblems } from './format.js';
