/**
 * A metric tau2 lacks (issue: telecom dual control): how often a party reaches for the other
 * side's tools — the agent calling a user-side (device) tool, the customer calling an agent-side
 * tool, or the agent telling the customer to use an agent-side tool by name. tau2's maintainers
 * traced a large share of telecom failures to agents calling user-side tools. Only domains with
 * user tools have it; in solo mode the agent may call both sets, so only the last kind counts.
 */
import type { Domain } from '../spec/domain.js';
import type { CrossSideEvent, CrossSideUse, EpisodeTrace } from './types.js';

export type { CrossSideEvent, CrossSideUse };

/** A sentence addressed to the customer ("please …", "you …") and not about the agent's own action. */
const ADDRESSED = /\b(you|your|please)\b/i;
const SELF = /\b(I will|I'll|let me|I am going to|I'm going to|I have|I've)\b/i;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The cross-side uses of one episode, or null when the domain has no user tools. An agent text
 * message "tells the customer" to use an agent-side tool when a sentence addressed to the customer
 * ("please …", "you …", not "I will …") names the tool as a whole word (e.g. `enable_roaming`);
 * names of user-side tools in agent messages are ordinary instructions.
 */
export function crossSideUse(domain: Domain<any>, trace: Pick<EpisodeTrace, 'messages' | 'actionLog'>): CrossSideUse | null {
  const userTools = new Set(domain.tools.filter((t) => t.requestor === 'user').map((t) => t.name));
  if (userTools.size === 0) return null;
  const agentTools = domain.tools.filter((t) => t.requestor === 'assistant').map((t) => t.name);
  const agentSet = new Set(agentTools);
  const events: CrossSideEvent[] = [];
  trace.actionLog.forEach((e, step) => {
    if (e.requestor === 'assistant' && userTools.has(e.name) && domain.soloMode !== true) events.push({ kind: 'agent_called_user_tool', tool: e.name, at: step });
    if (e.requestor === 'user' && agentSet.has(e.name)) events.push({ kind: 'user_called_agent_tool', tool: e.name, at: step });
  });
  const named = agentTools.filter((n) => n.includes('_') && n !== 'transfer_to_human_agents').map((n) => ({ n, re: new RegExp(`\\b${escape(n)}\\b`) }));
  trace.messages.forEach((m, i) => {
    if (m.role !== 'assistant' || typeof m.content !== 'string' || !m.content) return;
    const told = new Set<string>();
    for (const sentence of m.content.split(/(?<=[.!?])\s+|\n/)) {
      if (!ADDRESSED.test(sentence) || SELF.test(sentence)) continue;
      for (const { n, re } of named) if (re.test(sentence)) told.add(n);
    }
    for (const n of told) events.push({ kind: 'agent_told_user_agent_tool', tool: n, at: i });
  });
  return { count: events.length, events };
}
