/**
 * Building telecom tools: the wire definition (description and JSON schema) comes verbatim from
 * tau2's tool surface (`data/tau2-tools.json`, MIT, see `data/TAU2-LICENSE.md`), so the model is
 * offered exactly what tau2 offers; the zod schema only checks argument types.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import type { ToolDef, ToolKind, ToolRequestor } from '../../spec/tool.js';
import type { TelecomState } from './state.js';

/** A telecom tool. */
export type TelecomTool<A = any> = ToolDef<TelecomState, A>;

interface WireEntry {
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

let surface: { agent_tools: WireEntry[]; user_tools: WireEntry[] } | undefined;

/** tau2's telecom tool surface (`agent_tools`, `user_tools`), read once. */
export function tau2ToolSurface(): { agent_tools: WireEntry[]; user_tools: WireEntry[] } {
  surface ??= JSON.parse(fs.readFileSync(fileURLToPath(new URL('./data/tau2-tools.json', import.meta.url)), 'utf8'));
  return surface!;
}

/**
 * A tool whose description and JSON schema are tau2's entry of the same name. Throws when
 * tau2's surface has no such tool for that side (a programming error).
 */
export function tau2Tool<A>(
  name: string,
  requestor: ToolRequestor,
  kind: ToolKind,
  parameters: z.ZodType<A>,
  invoke: (args: A, state: TelecomState, ctx: { nextId: (prefix: string) => string }) => string,
): TelecomTool<A> {
  const list = requestor === 'user' ? tau2ToolSurface().user_tools : tau2ToolSurface().agent_tools;
  const entry = list.find((t) => t.function.name === name);
  if (!entry) throw new Error(`tau2 telecom has no ${requestor} tool '${name}'`);
  return {
    name,
    description: entry.function.description,
    parameters,
    kind,
    requestor,
    jsonSchema: entry.function.parameters,
    invoke: (args, ctx) => invoke(args, ctx.state, ctx),
  };
}
