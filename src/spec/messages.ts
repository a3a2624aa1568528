/**
 * Trajectory format: OpenAI chat-completions messages and tool calls.
 *
 * Messages are kept exactly as they travel over the wire. Provider extras such as
 * `reasoning_content` are preserved (objects are `loose`), because a replayed request must
 * equal the recorded one field for field.
 */
import { z } from 'zod';
import { ContentSchema } from './content.js';

export const ToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const SystemMessageSchema = z.looseObject({ role: z.literal('system'), content: z.string() });
/** A user message: text, or content parts (e.g. a photo the customer sends). */
export const UserMessageSchema = z.looseObject({ role: z.literal('user'), content: ContentSchema });
export const AssistantMessageSchema = z.looseObject({
  role: z.literal('assistant'),
  content: z.string().nullable().optional(),
  tool_calls: z.array(ToolCallSchema).optional(),
});
/** A tool result: text, or content parts (a surface's screenshot travels as an `image_url` part). */
export const ToolMessageSchema = z.looseObject({
  role: z.literal('tool'),
  tool_call_id: z.string(),
  content: ContentSchema,
});

export const ChatMessageSchema = z.discriminatedUnion('role', [
  SystemMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
]);

export type SystemMessage = z.infer<typeof SystemMessageSchema>;
export type UserMessage = z.infer<typeof UserMessageSchema>;
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
export type ToolMessage = z.infer<typeof ToolMessageSchema>;
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** An OpenAI `tools[]` entry as sent on the wire. */
export const WireToolSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string(),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type WireTool = z.infer<typeof WireToolSchema>;

/** A chat-completions request body (the subset servicegym sends; extra fields pass through). */
export const ChatRequestSchema = z.looseObject({
  model: z.string(),
  messages: z.array(ChatMessageSchema),
  tools: z.array(WireToolSchema).optional(),
  tool_choice: z.unknown().optional(),
  temperature: z.number().optional(),
  response_format: z.unknown().optional(),
});
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

export const UsageSchema = z.looseObject({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative().optional(),
  /** Provider-reported cost in USD, where the provider exposes one (e.g. OpenRouter's `usage.cost`). */
  cost: z.number().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** A chat-completions response body. */
export const ChatResponseSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z
    .array(
      z.looseObject({
        index: z.number().optional(),
        finish_reason: z.string().nullable().optional(),
        message: AssistantMessageSchema,
      }),
    )
    .min(1),
  usage: UsageSchema.optional(),
});
export type ChatResponse = z.infer<typeof ChatResponseSchema>;

/** The role a model call plays in a run; usage and receipts are accounted per role. */
export const ModelRoleSchema = z.enum(['task_agent', 'user_simulator', 'llm_judge', 'coding_agent']);
export type ModelRole = z.infer<typeof ModelRoleSchema>;
