/**
 * The customer's phone as tau2-bench telecom simulates it (tau2-notes §4.3): network search,
 * the status bar, whether mobile data works, the speed test and MMS. Pure functions over the
 * user-side DB; the user tools (`tools-user.ts`) call them.
 */
import { pyRound2 } from '../common/python-calc.js';
import type { NetworkTechnology, SignalStrength, TelecomUserDb } from './schema.js';

const NO_SERVICE = (u: TelecomUserDb) => {
  u.device.network_connection_status = 'no_service';
  u.device.network_technology_connected = 'none';
  u.device.network_signal_strength = 'none';
};

const signalFor = (u: TelecomUserDb, tech: NetworkTechnology): SignalStrength => u.surroundings.signal_strength[tech] ?? 'none';

/** The SIM as the phone reports it: `missing` when unseated, else the card's status. */
export function simStatus(u: TelecomUserDb) {
  return u.device.sim_card_missing ? 'missing' : u.device.sim_card_status;
}

/**
 * tau2 `simulate_network_search`: an active SIM connects with the technology the mode
 * preference picks (4G/5G preferred: 5G when the location has a 5G signal, else 4G) at the
 * location's signal for it; a missing or locked SIM, airplane mode, a broken APN or an inactive
 * line leave the phone without service.
 */
export function simulateNetworkSearch(u: TelecomUserDb): void {
  const d = u.device;
  if (simStatus(u) === 'active') {
    d.network_connection_status = 'connected';
    let tech: NetworkTechnology;
    switch (d.network_mode_preference) {
      case '4g_5g_preferred':
        tech = signalFor(u, '5G') === 'none' ? '4G' : '5G';
        break;
      case '3g_only':
        tech = '3G';
        break;
      case '2g_only':
        tech = '2G';
        break;
      default:
        tech = '4G';
    }
    d.network_technology_connected = tech;
    d.network_signal_strength = signalFor(u, tech);
  } else {
    NO_SERVICE(u);
  }
  if (d.airplane_mode || d.active_apn_settings.apn_name === 'broken' || !u.surroundings.line_active) NO_SERVICE(u);
}

const SIGNAL_ICONS: Record<SignalStrength, string> = {
  none: '📵 No Signal',
  poor: '📶¹ Poor',
  fair: '📶² Fair',
  good: '📶³ Good',
  excellent: '📶⁴ Excellent',
};

/** The status-bar text (without the `Status Bar: ` prefix), icons joined by ` | `. */
export function statusBar(u: TelecomUserDb): string {
  const d = u.device;
  const out: string[] = [];
  if (d.airplane_mode) out.push('✈️ Airplane Mode');
  else {
    out.push(SIGNAL_ICONS[d.network_signal_strength] ?? '📵 No Signal');
    if (d.network_technology_connected !== 'none') out.push(d.network_technology_connected);
    if (d.data_enabled && d.network_technology_connected !== 'none') {
      out.push('📱 Data Enabled');
      if (d.data_saver_mode) out.push('🔽 Data Saver');
    } else out.push('📵 Data Disabled');
  }
  if (d.wifi_enabled && d.wifi_connected) out.push(d.wifi_ssid ? `📡 Connected to ${d.wifi_ssid}` : '📡 Enabled');
  if (d.vpn_connected) out.push('🔒 VPN Connected');
  out.push(`🔋 ${d.battery_level}%`);
  return out.join(' | ');
}

/**
 * Whether mobile data works: not in airplane mode, some signal, service, abroad only with the
 * phone's data roaming on and roaming allowed on the line, data on, usage not exceeded.
 */
export function mobileDataWorking(u: TelecomUserDb): boolean {
  const d = u.device;
  if (d.airplane_mode || d.network_signal_strength === 'none') return false;
  if (d.network_connection_status === 'no_service') return false;
  if (u.surroundings.is_abroad && (!d.roaming_enabled || !u.surroundings.roaming_allowed)) return false;
  if (!d.data_enabled) return false;
  return !u.surroundings.mobile_data_usage_exceeded;
}

const TECH_SPEED: Record<NetworkTechnology, [number, number]> = {
  '2G': [0.1, 0.4],
  '3G': [1, 5],
  '4G': [10, 100],
  '5G': [50, 500],
  none: [0, 0],
};
const SIGNAL_FACTOR: Record<SignalStrength, number> = { poor: 0.2, fair: 0.5, good: 0.8, excellent: 1, none: 0 };

/**
 * The speed test: `null` without working mobile data; otherwise, in Mbps rounded to 2 places,
 * the technology's mid-range × the signal factor × 0.1 behind a poor VPN × 0.2 with data saver,
 * labelled Very Poor (< 1), Poor (< 5), Fair (< 25), Good (< 100) or Excellent.
 */
export function speedTest(u: TelecomUserDb): { mbps: number; label: string } | null {
  if (!mobileDataWorking(u)) return null;
  const d = u.device;
  let base = d.vpn_connected && d.vpn_details && d.vpn_details.server_performance === 'poor' ? 0.1 : 1.0;
  if (d.data_saver_mode) base *= 0.2;
  const [lo, hi] = TECH_SPEED[d.network_technology_connected] ?? [0, 0];
  const mbps = pyRound2(((lo + hi) / 2.0) * (SIGNAL_FACTOR[d.network_signal_strength] ?? 0) * base);
  const label = mbps < 1 ? 'Very Poor' : mbps < 5 ? 'Poor' : mbps < 25 ? 'Fair' : mbps < 100 ? 'Good' : 'Excellent';
  return { mbps, label };
}

/**
 * Whether the messaging app can send MMS: mobile data works, the network is not 2G, Wi-Fi
 * calling is not set to carry MMS, an MMSC URL is configured, and the messaging app exists with
 * SMS and storage permissions.
 */
export function canSendMms(u: TelecomUserDb): boolean {
  const d = u.device;
  if (!mobileDataWorking(u)) return false;
  if (d.network_technology_connected === '2G') return false;
  if (d.wifi_calling_enabled && d.wifi_calling_mms_over_wifi) return false;
  if (d.active_apn_settings.mmsc_url === null) return false;
  const app = d.app_statuses.messaging;
  if (!app) return false;
  return app.permissions.storage && app.permissions.sms;
}
