/**
 * Export tool definitions as the OpenAI `tools[]` entries the model sees.
 */
import { z } from 'zod';
import type { WireTool } from '../spec/messages.js';
import type { ToolDef } from '../spec/tool.js';

/**
 * JSON Schema of a tool's zod parameters, in the plain form most providers accept:
 * `{type: "object", properties, required}` without `$schema`. `additionalProperties: false` is
 * dropped too, because several OpenAI-compatible providers reject it outside strict mode.
 */
export function parametersJsonSchema(tool: ToolDef<any, any>): Record<string, unknown> {
  if (tool.jsonSchema) return tool.jsonSchema;
  const schema = z.toJSONSchema(tool.parameters, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  return stripKeys(schema) as Record<string, unknown>;
}

function stripKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripKeys);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === '$schema' || (k === 'additionalProperties' && x === false)) continue;
    out[k] = stripKeys(x);
  }
  return out;
}

/** The `{type: "function", function: {name, description, parameters}}` entry for a tool. */
export function toWireTool(tool: ToolDef<any, any>): WireTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: parametersJsonSchema(tool) },
  };
}
