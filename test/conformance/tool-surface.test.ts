/**
 * tau2's tool surface in tau2 mode (issue 10, item 4): the tools the agent receives on the wire
 * are byte for byte tau2's `tools.json` (names, descriptions, parameter schemas, order) for every
 * tau2 domain servicegym registers, the shipped data file equals the peer copy, argument errors
 * are Python's TypeError texts, and servicegym's own datasets keep their own surface.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domains/index.js';
import { AIRLINE_TAU2_SURFACE } from '../../src/domains/airline/index.js';
import { RETAIL_TAU2_SURFACE } from '../../src/domains/retail/index.js';
import { LLMAgent, agentWireTools } from '../../src/agents/llm-agent.js';
import { Environment } from '../../src/env/environment.js';
import { pythonArgumentError } from '../../src/domains/common/tau2-surface.js';
import { startTwoRoleMock, type TwoRoleMock } from '../support/two-role-mock.js';
import { HAS_SHARED, needsShared, SHARED } from '../support/paths.js';

const TAU2 = path.join(SHARED, 'peers', 'tau2');
const SURFACES = { airline: AIRLINE_TAU2_SURFACE, retail: RETAIL_TAU2_SURFACE };

let mock: TwoRoleMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('Python argument errors', () => {
  const params = { properties: { a: {}, b: {}, c: {}, d: {} }, required: ['a', 'b', 'c'] };
  it('phrases unknown and missing keyword arguments as Python 3.10+ does', async () => {
    expect(pythonArgumentError('K.f', params, { a: 1, b: 2, c: 3 })).toBeNull();
    expect(pythonArgumentError('K.f', params, { a: 1, b: 2, c: 3, d: 4 })).toBeNull();
    expect(pythonArgumentError('K.f', params, { a: 1, b: 2 })).toBe("K.f() missing 1 required positional argument: 'c'");
    expect(pythonArgumentError('K.f', params, { c: 1, b: 2 })).toBe("K.f() missing 1 required positional argument: 'a'");
    expect(pythonArgumentError('K.f', params, { b: 2 })).toBe("K.f() missing 2 required positional arguments: 'a' and 'c'");
    expect(pythonArgumentError('K.f', params, {})).toBe("K.f() missing 3 required positional arguments: 'a', 'b', and 'c'");
    expect(pythonArgumentError('K.f', params, { x: 1, y: 2 })).toBe("K.f() got an unexpected keyword argument 'x'");
    expect(pythonArgumentError('K.f', params, [1])).toBeNull();
  });
});

describe.skipIf(!HAS_SHARED)(needsShared('tau2 tool surface conformance'), () => {
  for (const domain of ['airline', 'retail'] as const) {
    const peer = path.join(TAU2, domain, 'tools.json');
    it(`${domain}: the shipped surface file is tau2's tools.json byte for byte`, async () => {
      expect(fs.readFileSync(SURFACES[domain].file)).toEqual(fs.readFileSync(peer));
    });

    it(`${domain}: the wire tools the agent receives are tau2's agent_tools, whole and in order`, async () => {
      const expected = JSON.parse(fs.readFileSync(peer, 'utf8')).agent_tools;
      const loaded = loadDomain(domain, { dataDir: path.join(TAU2, domain) });
      const wire = agentWireTools(loaded.domain);
      expect(JSON.stringify(wire)).toBe(JSON.stringify(expected));
      // …and what actually goes over HTTP in the agent's request body.
      mock = await startTwoRoleMock({ agent: () => ({ content: 'Hello. ###STOP###' }) });
      await new LLMAgent({ model: mock.agentModel, policy: loaded.policy, tools: wire }).step([{ role: 'user', content: 'hi' }]);
      expect(JSON.stringify(mock.bodies('agent')[0].tools)).toBe(JSON.stringify(expected));
    });

    it(`${domain}: servicegym's own dataset keeps its own surface`, async () => {
      const own = agentWireTools(loadDomain(domain).domain);
      const tau2 = new Map(JSON.parse(fs.readFileSync(peer, 'utf8')).agent_tools.map((t: any) => [t.function.name, t.function.description]));
      expect(own.filter((t) => tau2.get(t.function.name) === t.function.description)).toEqual([]);
    });
  }

  it('airline send_certificate.amount is an integer on the wire, as in tau2', async () => {
    const wire = agentWireTools(loadDomain('airline', { dataDir: path.join(TAU2, 'airline') }).domain);
    const cert = wire.find((t) => t.function.name === 'send_certificate')!;
    expect((cert.function.parameters as any).properties.amount.type).toBe('integer');
  });

  it('argument errors are the TypeError texts tau2 returns; valid calls run as before', async () => {
    const loaded = loadDomain('airline', { dataDir: path.join(TAU2, 'airline') });
    const env = new Environment(loaded.domain, { now: loaded.now! });
    const call = async (name: string, args: unknown) => (await env.execute({ id: 'c', type: 'function', function: { name, arguments: JSON.stringify(args) } }));
    expect((await call('get_user_details', {})).output).toBe("Error: AirlineTools.get_user_details() missing 1 required positional argument: 'user_id'");
    expect((await call('get_user_details', { user_id: 'raj_sanchez_7340', verbose: true })).output).toBe("Error: AirlineTools.get_user_details() got an unexpected keyword argument 'verbose'");
    expect((await call('update_reservation_baggages', { reservation_id: 'Q69X3R' })).output).toBe(
      "Error: AirlineTools.update_reservation_baggages() missing 3 required positional arguments: 'total_baggages', 'nonfree_baggages', and 'payment_id'",
    );
    expect((await call('get_user_details', { user_id: 'raj_sanchez_7340' })).error).toBe(false);
    const retail = loadDomain('retail', { dataDir: path.join(TAU2, 'retail') });
    const renv = new Environment(retail.domain, { now: '2024-05-15T15:00:00' });
    const out = (await renv.execute({ id: 'c', type: 'function', function: { name: 'find_user_id_by_name_zip', arguments: '{"first_name":"Chen"}' } })).output;
    expect(out).toBe("Error: RetailTools.find_user_id_by_name_zip() missing 2 required positional arguments: 'last_name' and 'zip'");
  });
});
