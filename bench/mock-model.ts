/**
 * A mock model for the scale benchmarks, in its own process (so that serving it costs the measured
 * process nothing): `node --import tsx bench/mock-model.ts DELAY_MS` prints its base URL and answers
 * every request after DELAY_MS. The model name sets the episode's length in calls:
 * `agent-C` makes C - 3 tool calls then answers; `user-C` opens, then stops once answered — so an
 * episode is exactly C model calls (C >= 4) and its conversation grows with every tool result.
 */
import { startMockServer, type MockReply } from '../src/models/mock-server.js';

const delayMs = Number(process.argv[2] ?? 300);

function reply(body: { model: string; messages: { role: string; tool_calls?: unknown[] }[] }): MockReply {
  const [side, c] = body.model.split('-');
  const calls = Number(c);
  // The agent's view starts with the canned greeting (an assistant message no call made).
  const own = body.messages.filter((m) => m.role === 'assistant').length - (side === 'agent' ? 1 : 0);
  if (side === 'agent') {
    if (own < calls - 3) return { tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'mia_lee_301' }, id: `call_${own}` }] };
    return { content: 'Your reservation 8KQ2ZD is basic economy, so it cannot be changed; it stays on its date.' };
  }
  return own === 0 ? { content: "Hi, I'm Mia Lee (mia_lee_301). Please move reservation 8KQ2ZD by a day." } : { content: 'I see, thanks. ###STOP###' };
}

// The benchmark never reads the request log: none is kept (it would hold every request body).
const server = await startMockServer({ delayMs, log: false, handler: (body) => reply(body) });
process.stdout.write(`${server.url}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
