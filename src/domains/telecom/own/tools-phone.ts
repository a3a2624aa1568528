/**
 * The customer's own tools in servicegym's telecom dataset: what a person can see and do on the
 * phone in their hand (requestor `user`; the agent cannot call them and only learns what the
 * customer tells it). Settings change at once, except an APN reset, which takes effect at the next
 * restart. Every write answers with the status line the phone then shows.
 */
import { z } from 'zod';
import { dollars } from './rules.js';
import { connectionSpeedMbps, isAbroad, phoneStatus, type KestrelState } from './phone.js';
import { CORRECT_APN, NETWORK_MODES, type Phone } from './schema.js';
import type { KestrelTool } from './tools-agent.js';

const onOff = (b: boolean) => (b ? 'on' : 'off');

/** The phone's status line: signal and network, mobile data, roaming, airplane mode. */
export function statusLine(p: Phone): string {
  if (p.airplane_mode) return 'Status: airplane mode';
  if (p.status.service === 'no_service') return 'Status: no service';
  const data = p.status.mobile_data === 'working' ? 'mobile data connected' : 'no mobile data';
  return `Status: ${p.status.network}${isAbroad(p) ? ' (roaming network)' : ''} | ${data}`;
}

/** Recomputes the status after a change made on the phone (the environment syncs again after the call). */
function refresh(s: KestrelState): string {
  s.phone.status = phoneStatus(s.db, s.phone);
  return statusLine(s.phone);
}

const none = z.strictObject({});
const enabled = z.strictObject({ enabled: z.boolean().describe('true to turn it on, false to turn it off.') });

function read(name: string, description: string, fn: (p: Phone) => string): KestrelTool {
  return { name, description, parameters: none, kind: 'read', requestor: 'user', invoke: (_a, { state }) => fn(state.phone) };
}

function toggle(name: string, label: string, key: 'airplane_mode' | 'mobile_data' | 'data_roaming' | 'data_saver', description: string): KestrelTool<{ enabled: boolean }> {
  return {
    name,
    description,
    parameters: enabled,
    kind: 'write',
    requestor: 'user',
    invoke: ({ enabled: on }, { state }) => {
      const was = state.phone[key];
      state.phone[key] = on;
      return `${label} ${was === on ? 'was already' : 'is now'} ${onOff(on)}.\n${refresh(state)}`;
    },
  };
}

const readTools: KestrelTool[] = [
  read('check_phone_status', 'Look at the status bar of your phone: signal, network type, whether mobile data is connected, roaming.', statusLine),
  read('open_mobile_network_settings', "Open your phone's mobile network settings: airplane mode, mobile data, data roaming, data saver and preferred network mode.", (p) =>
    [`Airplane mode: ${onOff(p.airplane_mode)}`, `Mobile data: ${onOff(p.mobile_data)}`, `Data roaming: ${onOff(p.data_roaming)}`, `Data saver: ${onOff(p.data_saver)}`, `Preferred network mode: ${p.network_mode}`].join('\n'),
  ),
  read('view_apn_settings', "Look at your phone's access point (APN) settings.", (p) => `Access point name: ${p.apn.name}${p.apn.reset_pending ? ' (reset to default at next restart)' : ''}`),
  read('check_sim_card', "Look at your phone's SIM card status.", (p) =>
    p.sim === 'ready' ? 'SIM card: ready' : p.sim === 'puk_locked' ? 'SIM card: locked, the phone asks for a PUK code' : 'SIM card: no SIM card detected',
  ),
  read('run_connection_check', 'Run the connection check in the Kestrel app: it loads a test page over mobile data and reports the speed.', (p) => {
    const mbps = connectionSpeedMbps(p);
    if (mbps === 0) return 'Connection check failed: the test page could not be loaded over mobile data.';
    return `Connection check passed: test page loaded over ${p.status.network}${isAbroad(p) ? ' (roaming)' : ''} at ${mbps} Mbps.`;
  }),
  read('view_payment_request', 'Open the Kestrel app to see whether Kestrel Mobile has sent you a payment request.', (p) =>
    p.payment_request ? `Payment request for bill ${p.payment_request.bill_id}: ${dollars(p.payment_request.amount_cents)}${p.payment_request.paid ? ' (paid)' : ''}` : 'No payment request.',
  ),
];

const writeTools: KestrelTool[] = [
  toggle('set_airplane_mode', 'Airplane mode', 'airplane_mode', 'Turn airplane mode on or off on your phone.'),
  toggle('set_mobile_data', 'Mobile data', 'mobile_data', 'Turn mobile data on or off on your phone.'),
  toggle('set_data_roaming', 'Data roaming', 'data_roaming', 'Turn the Data roaming switch on or off on your phone (needed for mobile data abroad).'),
  toggle('set_data_saver', 'Data saver', 'data_saver', 'Turn data saver on or off on your phone (it slows mobile data down).'),
  {
    name: 'set_network_mode',
    description: 'Choose the preferred network mode on your phone: auto, 4g_only or 3g_only.',
    parameters: z.strictObject({ mode: z.enum(NETWORK_MODES) }),
    kind: 'write',
    requestor: 'user',
    invoke: ({ mode }, { state }) => {
      state.phone.network_mode = mode;
      return `Preferred network mode: ${mode}.\n${refresh(state)}`;
    },
  },
  {
    name: 'reset_apn_to_default',
    description: "Reset your phone's access point (APN) settings to the carrier default; the reset takes effect when you restart the phone.",
    parameters: none,
    kind: 'write',
    requestor: 'user',
    invoke: (_a, { state }) => {
      state.phone.apn = { ...state.phone.apn, reset_pending: true };
      return `APN settings will be reset to default when you restart the phone.\n${statusLine(state.phone)}`;
    },
  },
  {
    name: 'restart_phone',
    description: 'Turn your phone off and on again.',
    parameters: none,
    kind: 'write',
    requestor: 'user',
    invoke: (_a, { state }) => {
      const reset = state.phone.apn.reset_pending;
      if (reset) state.phone.apn = { name: CORRECT_APN, reset_pending: false };
      return `${reset ? 'APN settings reset to default. ' : ''}Phone restarted.\n${refresh(state)}`;
    },
  },
  {
    name: 'reinsert_sim_card',
    description: 'Take the SIM card out of your phone and put it back in.',
    parameters: none,
    kind: 'write',
    requestor: 'user',
    invoke: (_a, { state }) => {
      if (state.phone.sim === 'not_detected') state.phone.sim = 'ready';
      const still = state.phone.sim === 'puk_locked' ? ' The phone still asks for a PUK code.' : state.phone.sim === 'faulty' ? ' No SIM card detected.' : '';
      return `SIM card re-inserted.${still}\n${refresh(state)}`;
    },
  },
  {
    name: 'pay_payment_request',
    description: 'Pay the payment request shown in the Kestrel app with your saved card.',
    parameters: none,
    kind: 'write',
    requestor: 'user',
    invoke: (_a, { state }) => {
      const req = state.phone.payment_request;
      if (!req) return 'There is no payment request to pay.';
      if (req.paid) return `Bill ${req.bill_id} is already paid.`;
      state.phone.payment_request = { ...req, paid: true };
      return `Paid ${dollars(req.amount_cents)} for bill ${req.bill_id}.`;
    },
  },
];

/** The customer's phone tools (requestor `user`). */
export function kestrelPhoneTools(): KestrelTool[] {
  return [...readTools, ...writeTools];
}
