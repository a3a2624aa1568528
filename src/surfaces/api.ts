/**
 * The API surface: the agent calls the domain's back-end tools directly as JSON function calls
 * (tau2's setting). Each call is one back-end action; nothing is opened or closed per episode.
 */
import type { Domain } from '../spec/domain.js';
import type { Surface } from '../spec/surface.js';
import type { ToolDef } from '../spec/tool.js';

export const apiSurface: Surface = {
  name: 'api',
  description: "JSON tool calls straight to the domain's back-end (one back-end action per call)",
  tools: <S>(domain: Domain<S>): ToolDef<S>[] => domain.tools,
};
