/**
 * A mock chat-completions server playing both sides of an episode, told apart by the request's
 * `model`: `mock-agent` (the task agent) and `mock-user` (the user simulator). Each side is a
 * function of the request's messages; `ChatModel`s for both point at the server (127.0.0.1).
 */
import type { MockReply, MockRequestLog, MockServer, MockServerOptions } from '../../src/models/mock-server.js';
import { startMockServer } from '../../src/models/mock-server.js';
import { OpenAICompatibleModel } from '../../src/models/openai-adapter.js';
import type { ChatModel } from '../../src/models/chat-model.js';

export type Side = (messages: any[], body: any, ctx?: { index: number; log: MockRequestLog[] }) => MockReply | Promise<MockReply>;

export interface TwoRoleMock {
  server: MockServer;
  agentModel: ChatModel;
  userModel: ChatModel;
  /** Requests per side, in order. */
  bodies: (side: 'agent' | 'user') => any[];
  close(): Promise<void>;
}

export function mockModel(url: string, model: string, maxRetries = 0): ChatModel {
  return new OpenAICompatibleModel({ baseURL: url, apiKey: 'test-key', model, provider: 'mock', timeoutSeconds: 5, maxRetries });
}

export async function startTwoRoleMock(sides: { agent: Side; user?: Side }, extra: Omit<MockServerOptions, 'handler' | 'script'> = {}): Promise<TwoRoleMock> {
  const server = await startMockServer({
    ...extra,
    handler: (body, ctx) => {
      if (body.model === 'mock-agent') return sides.agent(body.messages, body, ctx);
      if (body.model === 'mock-user' && sides.user) return sides.user(body.messages, body, ctx);
      return { status: 400, error: `unexpected model ${body.model}` };
    },
  });
  return {
    server,
    agentModel: mockModel(server.url, 'mock-agent'),
    userModel: mockModel(server.url, 'mock-user'),
    bodies: (side) => server.requests.map((r) => r.body).filter((b) => b.model === `mock-${side}`),
    close: () => server.close(),
  };
}

/** The last message of a request. */
export const last = (messages: any[]): any => messages[messages.length - 1];
