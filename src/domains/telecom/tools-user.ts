/**
 * tau2 telecom's 30 user (device) tools (tau2-notes §4.3): what the customer does on their own
 * phone, with tau2's exact texts; most write tools end with `\nStatus Bar: …`. Only the user
 * side may call them (requestor `user`; in solo mode the agent gets them too).
 */
import { z } from 'zod';
import { canSendMms, mobileDataWorking, simStatus, simulateNetworkSearch, speedTest, statusBar } from './device.js';
import { coerceModel } from './model.js';
import { PyEnumMember, pyFixed, pyFloatStr, pyRepr } from './py-text.js';
import { APN_SETTINGS, NETWORK_MODES, type ApnSettings, type NetworkMode, type TelecomUserDb, defaultApnSettings } from './schema.js';
import type { TelecomState } from './state.js';
import { tau2Tool, type TelecomTool } from './tool-def.js';

const none = z.object({});
const bar = (u: TelecomUserDb) => `Status Bar: ${statusBar(u)}`;
const onOff = (b: boolean) => (b ? 'ON' : 'OFF');

/** Toggles airplane mode (tau2 `_toggle_airplane_mode`); returns the new state. */
export function toggleAirplane(u: TelecomUserDb): boolean {
  const d = u.device;
  const wasOn = d.airplane_mode;
  d.airplane_mode = !wasOn;
  if (wasOn) {
    d.network_connection_status = 'searching';
    if (d.wifi_enabled) Object.assign(d, { wifi_connected: false, wifi_ssid: null, wifi_signal_strength: 'none' });
  } else {
    Object.assign(d, { wifi_connected: false, wifi_ssid: null, wifi_signal_strength: 'none' });
    if (d.vpn_connected) disconnectVpn(u);
  }
  simulateNetworkSearch(u);
  return d.airplane_mode;
}

function disconnectVpn(u: TelecomUserDb): boolean {
  if (!u.device.vpn_connected) return false;
  u.device.vpn_connected = false;
  u.device.vpn_details = null;
  return true;
}

/** Connects the VPN with the default profile; null when already connected. */
function connectVpn(s: TelecomState): boolean | null {
  const d = s.user.device;
  if (d.vpn_connected) return null;
  d.vpn_connected = true;
  d.vpn_details = { server_address: '192.168.1.1', protocol: 'OpenVPN', server_performance: s.vpnDefaultPoor ? 'poor' : 'excellent' };
  return true;
}

function setMode(u: TelecomUserDb, mode: unknown): NetworkMode | null {
  if (typeof mode !== 'string' || !(NETWORK_MODES as readonly string[]).includes(mode)) return null;
  u.device.network_mode_preference = mode as NetworkMode;
  simulateNetworkSearch(u);
  return mode as NetworkMode;
}

const toggle = (u: TelecomUserDb, key: 'data_enabled' | 'roaming_enabled' | 'data_saver_mode' | 'wifi_calling_enabled', search: boolean) => {
  u.device[key] = !u.device[key];
  if (search) simulateNetworkSearch(u);
  return u.device[key];
};

const SIM_TEXT: Record<string, string> = {
  active: 'Your SIM card is active and working.',
  missing: 'No SIM card detected in the phone.',
  locked_pin: 'The SIM card is locked with a PIN code.',
  locked_puk: 'The SIM card is locked with a PUK code.',
};

const SPEED_ADVICE: Record<string, string> = {
  'Very Poor': 'Connection is very slow. Basic web browsing might be difficult.',
  Poor: 'Connection is slow. Web browsing may be sluggish, streaming difficult.',
  Fair: 'Connection is okay for web browsing and some standard definition streaming.',
  Good: 'Connection is good for most activities, including HD streaming.',
  Excellent: 'Connection is very fast.',
};

const PERF_MEMBER: Record<string, string> = { unknown: 'UNKNOWN', poor: 'POOR', fair: 'FAIR', good: 'GOOD', excellent: 'EXCELLENT' };

const granted = (p: Record<string, boolean>) => Object.entries(p).filter(([, v]) => v).map(([k]) => k.replace(/_/g, ' ').toLowerCase());

function readTools(): TelecomTool[] {
  const r = (name: string, params: z.ZodType<any>, fn: (a: any, s: TelecomState) => string) => tau2Tool(name, 'user', 'read', params, fn);
  return [
    r('check_status_bar', none, (_a, s) => bar(s.user)),
    r('check_network_status', none, (_a, s) => {
      const d = s.user.device;
      const lines = [
        `Airplane Mode: ${onOff(d.airplane_mode)}`,
        `SIM Card Status: ${simStatus(s.user)}`,
        `Cellular Connection: ${d.network_connection_status}`,
        `Cellular Signal: ${d.network_signal_strength}`,
        `Cellular Network Type: ${d.network_technology_connected}`,
        `Mobile Data Enabled: ${d.data_enabled ? 'Yes' : 'No'}`,
        `Data Roaming Enabled: ${d.roaming_enabled ? 'Yes' : 'No'}`,
        `Wi-Fi Radio: ${onOff(d.wifi_enabled)}`,
        `Wi-Fi Connected: ${d.wifi_connected ? 'Yes' : 'No'}`,
      ];
      if (d.wifi_connected) lines.push(`Connected Wi-Fi Network: ${d.wifi_ssid ?? 'None'}`);
      return lines.join('\n');
    }),
    r('check_network_mode_preference', none, (_a, s) => `Network Mode Preference: ${s.user.device.network_mode_preference}`),
    r('run_speed_test', none, (_a, s) => {
      const t = speedTest(s.user);
      if (!t) return 'Speed test failed: No Connection.';
      return `Speed Test Result: ${pyFixed(t.mbps, 2)} Mbps (${t.label}). ${SPEED_ADVICE[t.label] ?? ''}`;
    }),
    r('check_sim_status', none, (_a, s) => SIM_TEXT[simStatus(s.user)]),
    r('check_data_restriction_status', none, (_a, s) => (s.user.device.data_saver_mode ? 'Data Saver mode is ON (limits data usage).' : 'Data Saver mode is OFF.')),
    r('check_apn_settings', none, (_a, s) => {
      const apn = s.user.device.active_apn_settings;
      return `Current APN Name: ${apn.apn_name || 'Not Set'}\nMMSC URL (for picture messages): ${apn.mmsc_url || 'Not Set'}\n(These are technical settings, usually best left unchanged.)`;
    }),
    r('check_wifi_status', none, (_a, s) => {
      const d = s.user.device;
      if (!d.wifi_enabled) return 'Wi-Fi is turned OFF.';
      if (d.wifi_connected) return `Wi-Fi is ON and connected to '${d.wifi_ssid ?? 'None'}'. Signal strength: ${d.wifi_signal_strength}.`;
      return 'Wi-Fi is ON but not connected to any network.';
    }),
    r('check_wifi_calling_status', none, (_a, s) => `Wi-Fi Calling is currently turned ${onOff(s.user.device.wifi_calling_enabled)}.`),
    r('check_vpn_status', none, (_a, s) => {
      const d = s.user.device;
      if (d.vpn_connected) {
        const v = d.vpn_details;
        if (!v) return 'VPN is ON and connected (no specific details available).';
        const details = { server_address: v.server_address, protocol: v.protocol, server_performance: new PyEnumMember('PerformanceLevel', PERF_MEMBER[v.server_performance], v.server_performance) };
        return `VPN is ON and connected. Details: ${pyRepr(details)}`;
      }
      return d.vpn_enabled_setting ? 'VPN is turned ON in settings, but currently not connected.' : 'VPN is turned OFF.';
    }),
    r('check_installed_apps', none, (_a, s) => `The following apps are installed on the phone: ${Object.keys(s.user.device.app_statuses).join(', ')}`),
    r('check_app_status', z.object({ app_name: z.string() }), (a, s) => {
      const app = s.user.device.app_statuses[a.app_name];
      if (!app) return `App '${a.app_name}' not found on this phone.`;
      const perms = granted({ ...app.permissions });
      const lines = [`Status for App: ${a.app_name}`];
      if (perms.length === 0) lines.push(' - Permissions: None granted.');
      else lines.push(' - Permissions Granted:', ...perms.map((p) => `   - ${p}`));
      return lines.join('\n');
    }),
    r('check_app_permissions', z.object({ app_name: z.string() }), (a, s) => {
      const app = s.user.device.app_statuses[a.app_name];
      if (!app) return `App '${a.app_name}' not found on this phone.`;
      const perms = granted({ ...app.permissions });
      return perms.length === 0 ? `App '${a.app_name}' currently has no permissions granted.` : `App '${a.app_name}' has permission for: ${perms.join(', ')}.`;
    }),
    r('can_send_mms', none, (_a, s) => (canSendMms(s.user) ? 'Your messaging app can send MMS messages.' : 'Your messaging app cannot send MMS messages.')),
    r('check_payment_request', none, (_a, s) => {
      const p = s.user.surroundings.payment_request;
      return p ? `You have a payment request for bill ${p.bill_id} of ${pyFloatStr(p.amount_due)} USD.` : 'No payment request has been made.';
    }),
  ];
}

function writeTools(): TelecomTool[] {
  const w = (name: string, params: z.ZodType<any>, fn: (a: any, s: TelecomState) => string) => tau2Tool(name, 'user', 'write', params, fn);
  return [
    w('set_network_mode_preference', z.object({ mode: z.unknown() }), (a, s) => {
      const mode = setMode(s.user, a.mode);
      if (mode === null) return `Failed to set network mode: '${String(a.mode)}' is not a valid option. Please use one of: ${NETWORK_MODES.join(', ')}\n${bar(s.user)}`;
      return `Preferred Network Mode set to: ${mode}\n${bar(s.user)}`;
    }),
    w('toggle_airplane_mode', none, (_a, s) => `Airplane Mode is now ${onOff(toggleAirplane(s.user))}.\n${bar(s.user)}`),
    w('reseat_sim_card', none, (_a, s) => {
      s.user.device.sim_card_missing = false;
      simulateNetworkSearch(s.user);
      return `SIM card re-seated successfully.\n${bar(s.user)}`;
    }),
    w('toggle_data', none, (_a, s) => `Mobile Data is now ${onOff(toggle(s.user, 'data_enabled', true))}.\n${bar(s.user)}`),
    w('toggle_roaming', none, (_a, s) => `Data Roaming is now ${onOff(toggle(s.user, 'roaming_enabled', true))}.\n${bar(s.user)}`),
    w('toggle_data_saver_mode', none, (_a, s) => `Data Saver Mode is now ${onOff(toggle(s.user, 'data_saver_mode', false))}.\n${bar(s.user)}`),
    w('set_apn_settings', z.object({ apn_settings: z.record(z.string(), z.unknown()) }), (a, s) => {
      const apn = coerceModel(APN_SETTINGS, a.apn_settings, 'apn_settings');
      s.user.device.active_apn_settings = apn as unknown as ApnSettings;
      simulateNetworkSearch(s.user);
      return `APN settings set to: ${(apn as unknown as ApnSettings).apn_name}\n${bar(s.user)}`;
    }),
    w('reset_apn_settings', none, (_a, s) => {
      s.user.device.active_apn_settings.reset_at_reboot = true;
      simulateNetworkSearch(s.user);
      return `APN settings will reset at reboot.\n${bar(s.user)}`;
    }),
    w('toggle_wifi', none, (_a, s) => {
      const d = s.user.device;
      if (d.airplane_mode) return `Cannot change Wi-Fi settings while Airplane Mode is ON.\n${bar(s.user)}`;
      d.wifi_enabled = !d.wifi_enabled;
      if (!d.wifi_enabled) Object.assign(d, { wifi_connected: false, wifi_ssid: null, wifi_signal_strength: 'none' });
      return `Wi-Fi is now ${onOff(d.wifi_enabled)}.\n${bar(s.user)}`;
    }),
    w('toggle_wifi_calling', none, (_a, s) => `Wi-Fi Calling is now ${onOff(toggle(s.user, 'wifi_calling_enabled', false))}.\n${bar(s.user)}`),
    w('connect_vpn', none, (_a, s) => {
      const r = connectVpn(s);
      if (r === null) return 'VPN already connected.';
      return `VPN connected successfully.\n${bar(s.user)}`;
    }),
    w('disconnect_vpn', none, (_a, s) => `${disconnectVpn(s.user) ? 'VPN disconnected successfully.' : 'No active VPN connection to disconnect.'}\n${bar(s.user)}`),
    w('grant_app_permission', z.object({ app_name: z.string(), permission: z.string() }), (a, s) => {
      const app = s.user.device.app_statuses[a.app_name];
      const perm = a.permission.toLowerCase();
      let msg: string;
      if (!app) msg = `Error. App '${a.app_name}' not found. Cannot grant permission.`;
      else if (!Object.prototype.hasOwnProperty.call(app.permissions, perm)) {
        msg = `Error. Permission '${perm}' not tracked for app '${a.app_name}', available permissions: ${pyRepr(Object.keys(app.permissions))}`;
      } else {
        (app.permissions as unknown as Record<string, boolean>)[perm] = true;
        msg = `Success. Permission '${perm}' granted to app '${a.app_name}'.`;
      }
      return `${msg}\n${bar(s.user)}`;
    }),
    w('reboot_device', none, (_a, s) => {
      const lines: string[] = [];
      if (s.user.device.active_apn_settings.reset_at_reboot) {
        lines.push('Resetting APN settings...');
        s.user.device.active_apn_settings = defaultApnSettings();
      }
      lines.push('Restarting network services...');
      s.user.device.network_connection_status = 'searching';
      simulateNetworkSearch(s.user);
      return `${lines.join('\n')}\n${bar(s.user)}`;
    }),
    w('make_payment', none, (_a, s) => {
      const p = s.user.surroundings.payment_request;
      if (!p) return 'You do not have a payment request.';
      p.paid = true;
      return `Payment of ${pyFloatStr(p.amount_due)} USD has been made for bill ${p.bill_id}.`;
    }),
  ];
}

/** tau2's order of the 30 user tools (as in its tool surface). */
const USER_TOOL_ORDER = [
  'check_status_bar', 'check_network_status', 'check_network_mode_preference', 'set_network_mode_preference', 'run_speed_test',
  'toggle_airplane_mode', 'check_sim_status', 'reseat_sim_card', 'toggle_data', 'toggle_roaming', 'check_data_restriction_status',
  'toggle_data_saver_mode', 'check_apn_settings', 'set_apn_settings', 'reset_apn_settings', 'check_wifi_status', 'toggle_wifi',
  'check_wifi_calling_status', 'toggle_wifi_calling', 'check_vpn_status', 'connect_vpn', 'disconnect_vpn', 'check_installed_apps',
  'check_app_status', 'check_app_permissions', 'grant_app_permission', 'can_send_mms', 'reboot_device', 'check_payment_request', 'make_payment',
];

/** The 30 user tools, in tau2's order. */
export function telecomUserTools(): TelecomTool[] {
  const all = new Map([...readTools(), ...writeTools()].map((t) => [t.name, t]));
  return USER_TOOL_ORDER.map((n) => all.get(n)!);
}

const bool = (a: Record<string, unknown>, k: string) => {
  if (typeof a[k] !== 'boolean') throw new Error(`argument '${k}' must be true or false`);
  return a[k] as boolean;
};
const str = (a: Record<string, unknown>, k: string) => {
  if (typeof a[k] !== 'string') throw new Error(`argument '${k}' must be a string`);
  return a[k] as string;
};
function check(cond: boolean, what: string): void {
  if (!cond) throw new Error(`assertion failed: ${what}`);
}

/**
 * User-side functions for initialization actions (tau2 `TelecomUserTools` helpers that break or
 * set up the phone). `compat` keeps tau2's shared-VPN-profile quirk within the episode.
 */
export function telecomUserInitFunctions(compat: boolean): Record<string, (s: TelecomState, a: Record<string, unknown>) => unknown> {
  const toOn = (key: 'data_enabled' | 'roaming_enabled' | 'data_saver_mode', on: boolean, search: boolean) => (s: TelecomState) => {
    if (toggle(s.user, key, search) !== on) toggle(s.user, key, search);
  };
  return {
    set_user_info: (s, a) => {
      s.user.surroundings.name = str(a, 'name');
      s.user.surroundings.phone_number = str(a, 'phone_number');
    },
    set_user_location: (s, a) => {
      s.user.surroundings.is_abroad = bool(a, 'abroad');
    },
    simulate_network_search: (s) => simulateNetworkSearch(s.user),
    turn_airplane_mode_on: (s) => {
      if (!toggleAirplane(s.user)) toggleAirplane(s.user);
    },
    turn_airplane_mode_off: (s) => {
      if (toggleAirplane(s.user)) toggleAirplane(s.user);
    },
    unseat_sim_card: (s) => {
      s.user.device.sim_card_missing = true;
      simulateNetworkSearch(s.user);
    },
    lock_sim_card: (s, a) => {
      const mode = str(a, 'mode');
      if (mode === 'pin') s.user.device.sim_card_status = 'locked_pin';
      else if (mode === 'puk') s.user.device.sim_card_status = 'locked_puk';
      simulateNetworkSearch(s.user);
    },
    turn_data_on: (s) => {
      s.user.device.data_enabled = true;
    },
    turn_data_off: toOn('data_enabled', false, true),
    turn_roaming_on: toOn('roaming_enabled', true, true),
    turn_roaming_off: toOn('roaming_enabled', false, true),
    turn_data_saver_mode_on: toOn('data_saver_mode', true, false),
    turn_data_saver_mode_off: toOn('data_saver_mode', false, false),
    break_apn_settings: (s) => {
      s.user.device.active_apn_settings.apn_name = 'broken';
      simulateNetworkSearch(s.user);
      check(s.user.device.network_connection_status === 'no_service', 'broken APN leaves no service');
    },
    break_apn_mms_setting: (s) => {
      s.user.device.active_apn_settings.mmsc_url = null;
      check(!canSendMms(s.user), 'MMS fails without an MMSC URL');
    },
    break_vpn: (s) => {
      connectVpn(s);
      if (s.user.device.vpn_details) s.user.device.vpn_details.server_performance = 'poor';
      if (compat) s.vpnDefaultPoor = true;
    },
    remove_app_permission: (s, a) => {
      const app = s.user.device.app_statuses[str(a, 'app_name')];
      const perm = str(a, 'permission').toLowerCase();
      if (app && Object.prototype.hasOwnProperty.call(app.permissions, perm)) (app.permissions as unknown as Record<string, boolean>)[perm] = false;
    },
    set_wifi_calling: (s, a) => {
      const enabled = bool(a, 'enabled');
      if (s.user.device.wifi_calling_enabled !== enabled) toggle(s.user, 'wifi_calling_enabled', false);
      if (a.mms_over_wifi !== undefined && a.mms_over_wifi !== null) s.user.device.wifi_calling_mms_over_wifi = bool(a, 'mms_over_wifi');
    },
  };
}

/** User-side env assertions (tau2 `TelecomUserTools.assert_*`). */
export const telecomUserAssertions: Record<string, (s: TelecomState, a: Record<string, unknown>) => boolean> = {
  assert_airplane_mode_status: (s, a) => s.user.device.airplane_mode === a.expected_status,
  assert_service_status: (s, a) => s.user.device.network_connection_status === a.expected_status,
  assert_mobile_data_status: (s, a) => mobileDataWorking(s.user) === a.expected_status,
  assert_mobile_roaming_status: (s, a) => s.user.device.roaming_enabled === a.expected_status,
  assert_mobile_data_saver_mode_status: (s, a) => s.user.device.data_saver_mode === a.expected_status,
  assert_internet_speed: (s, a) => {
    const t = speedTest(s.user);
    const speed = t?.mbps ?? 0;
    const label = t?.label ?? 'No Connection';
    if (typeof a.expected_speed !== 'number') throw new Error("argument 'expected_speed' must be a number");
    if (a.expected_desc === undefined || a.expected_desc === null) return speed >= a.expected_speed;
    return speed >= a.expected_speed && label.toLowerCase() === String(a.expected_desc).toLowerCase();
  },
  assert_internet_not_excellent: (s) => (speedTest(s.user)?.label ?? 'No Connection').toLowerCase() !== 'excellent',
  assert_can_send_mms: (s, a) => canSendMms(s.user) === a.expected_status,
  assert_mobile_data_usage_exceeded: (s, a) => s.user.surroundings.mobile_data_usage_exceeded === a.expected_status,
};
