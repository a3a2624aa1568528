/**
 * Receipts (cassettes): one model call each, credential-free.
 *
 * Shape of the seed experiment's `api_turns` entries, so that those entries are a cassette as
 * they stand: `{kind, provider, endpoint, request, response, elapsed_seconds}`. The receipt
 * itself is strict — an unknown key (a misspelt field, or a `headers` block that could carry a
 * credential) is refused — while `request` and `response` keep provider-specific extras.
 */
import { z } from 'zod';
import { ChatRequestSchema, ChatResponseSchema, ModelRoleSchema } from './messages.js';

export const ReceiptSchema = z.strictObject({
  kind: ModelRoleSchema,
  provider: z.string(),
  endpoint: z.string(),
  request: ChatRequestSchema,
  response: ChatResponseSchema,
  /** Wall time of the call in seconds, retries included. */
  elapsed_seconds: z.number().nonnegative(),
  /** Only when the call needed more than one attempt: attempts, seconds waited between them, the kind of each failed attempt. */
  retries: z
    .strictObject({
      attempts: z.number().int().min(1),
      waited_seconds: z.number().nonnegative(),
      faults: z.array(z.enum(['rate_limited', 'server_error', 'timeout', 'body_stalled', 'body_truncated', 'not_json', 'network', 'auth', 'client_error'])),
    })
    .optional(),
});
export type Receipt = z.infer<typeof ReceiptSchema>;
