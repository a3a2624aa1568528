/**
 * The telecom records (tau2-bench telecom, tau2-notes §4.1 and §4.3): the agent-side DB
 * (`plans, customers, lines, bills, devices`) and the user-side DB (the customer's `device` and
 * `surroundings`), as {@link Model}s in tau2's field order with its defaults. Records are held
 * in their printed shape (dates as strings; see `model.ts`).
 */
import type { PyTypeTree } from '../../util/pyjson.js';
import { typeTreeOf, type Model } from './model.js';

export const LINE_STATUSES = ['Active', 'Suspended', 'Pending Activation', 'Closed'] as const;
export const BILL_STATUSES = ['Draft', 'Issued', 'Awaiting Payment', 'Paid', 'Overdue', 'Disputed'] as const;
export const SIM_STATUSES = ['active', 'missing', 'locked_pin', 'locked_puk'] as const;
export const NETWORK_TECHNOLOGIES = ['none', '2G', '3G', '4G', '5G'] as const;
export const NETWORK_MODES = ['4g_5g_preferred', '4g_only', '3g_only', '2g_only'] as const;
export const SIGNAL_STRENGTHS = ['none', 'poor', 'fair', 'good', 'excellent'] as const;
export const PERFORMANCE_LEVELS = ['unknown', 'poor', 'fair', 'good', 'excellent'] as const;
export const NETWORK_STATUSES = ['connected', 'searching', 'no_service', 'emergency_only'] as const;

export type LineStatus = (typeof LINE_STATUSES)[number];
export type BillStatus = (typeof BILL_STATUSES)[number];
export type SimStatus = (typeof SIM_STATUSES)[number];
export type NetworkTechnology = (typeof NETWORK_TECHNOLOGIES)[number];
export type NetworkMode = (typeof NETWORK_MODES)[number];
export type SignalStrength = (typeof SIGNAL_STRENGTHS)[number];
export type NetworkStatus = (typeof NETWORK_STATUSES)[number];

export interface Plan {
  plan_id: string;
  name: string;
  /** GB per month. */
  data_limit_gb: number;
  /** USD per month. */
  price_per_month: number;
  /** USD per GB. */
  data_refueling_price_per_gb: number;
}
export interface Device {
  device_id: string;
  device_type: string;
  model: string;
  imei: string | null;
  is_esim_capable: boolean;
  activated: boolean;
  activation_date: string | null;
  last_esim_transfer_date: string | null;
}
export interface Line {
  line_id: string;
  phone_number: string;
  status: LineStatus;
  plan_id: string;
  device_id: string | null;
  data_used_gb: number;
  data_refueling_gb: number;
  roaming_enabled: boolean;
  contract_end_date: string | null;
  last_plan_change_date: string | null;
  last_sim_replacement_date: string | null;
  suspension_start_date: string | null;
}
export interface LineItem {
  description: string;
  /** USD; positive for charges, negative for credits. */
  amount: number;
  date: string;
  item_type: string;
}
export interface Bill {
  bill_id: string;
  customer_id: string;
  period_start: string;
  period_end: string;
  issue_date: string;
  total_due: number;
  due_date: string;
  line_items: LineItem[];
  status: BillStatus;
}
export interface Customer {
  customer_id: string;
  full_name: string;
  date_of_birth: string;
  email: string;
  phone_number: string;
  address: { street: string; city: string; state: string; zip_code: string };
  account_status: string;
  payment_methods: { method_type: string; account_number_last_4: string; expiration_date: string }[];
  line_ids: string[];
  bill_ids: string[];
  created_at: string;
  last_extension_date: string | null;
  goodwill_credit_used_this_year: number;
}
/** The agent-side DB (`db.toml`). */
export interface TelecomDb {
  plans: Plan[];
  customers: Customer[];
  lines: Line[];
  bills: Bill[];
  devices: Device[];
}

export interface ApnSettings {
  apn_name: 'internet' | 'broken';
  reset_at_reboot: boolean;
  mms_apn: string | null;
  mmsc_url: string | null;
  mms_proxy: string | null;
  mms_port: number | null;
}
export interface VpnDetails {
  server_address: string | null;
  protocol: string | null;
  server_performance: (typeof PERFORMANCE_LEVELS)[number];
}
export interface AppPermissions {
  sms: boolean;
  storage: boolean;
  phone: boolean;
  network: boolean;
}
export interface AppStatus {
  app_name: string;
  permissions: AppPermissions;
}
/** The customer's phone (tau2 `MockPhoneAttributes`). */
export interface PhoneDevice {
  sim_card_status: SimStatus;
  sim_card_missing: boolean;
  airplane_mode: boolean;
  network_signal_strength: SignalStrength;
  network_technology_connected: NetworkTechnology;
  network_connection_status: NetworkStatus;
  battery_level: number;
  data_enabled: boolean;
  roaming_enabled: boolean;
  network_mode_preference: NetworkMode;
  active_apn_settings: ApnSettings;
  wifi_enabled: boolean;
  wifi_connected: boolean;
  wifi_ssid: string | null;
  wifi_signal_strength: SignalStrength;
  wifi_calling_enabled: boolean;
  wifi_calling_mms_over_wifi: boolean;
  data_saver_mode: boolean;
  vpn_enabled_setting: boolean;
  vpn_connected: boolean;
  vpn_details: VpnDetails | null;
  app_statuses: Record<string, AppStatus>;
}
export interface PaymentRequest {
  bill_id: string;
  /** USD. */
  amount_due: number;
  paid: boolean;
}
export interface Surroundings {
  name: string | null;
  phone_number: string | null;
  is_abroad: boolean;
  roaming_allowed: boolean;
  signal_strength: Partial<Record<NetworkTechnology, SignalStrength>>;
  mobile_data_usage_exceeded: boolean;
  line_active: boolean;
  payment_request: PaymentRequest | null;
}
/** The user-side DB (`user_db.toml`). */
export interface TelecomUserDb {
  device: PhoneDevice;
  surroundings: Surroundings;
}

const opt = (name: string, kind: Model['fields'][number]['kind'], def: unknown = null) => ({ name, kind, nullable: true, default: def });

export const PLAN: Model = {
  name: 'Plan',
  fields: [
    { name: 'plan_id', kind: 'str' },
    { name: 'name', kind: 'str' },
    { name: 'data_limit_gb', kind: 'float' },
    { name: 'price_per_month', kind: 'float' },
    { name: 'data_refueling_price_per_gb', kind: 'float' },
  ],
};
export const DEVICE: Model = {
  name: 'Device',
  fields: [
    { name: 'device_id', kind: 'str' },
    { name: 'device_type', kind: { enum: ['phone', 'router', 'tablet', 'watch', 'other'] } },
    { name: 'model', kind: 'str' },
    opt('imei', 'str'),
    { name: 'is_esim_capable', kind: 'bool' },
    { name: 'activated', kind: 'bool', default: false },
    opt('activation_date', 'datetime'),
    opt('last_esim_transfer_date', 'datetime'),
  ],
};
export const LINE: Model = {
  name: 'Line',
  fields: [
    { name: 'line_id', kind: 'str' },
    { name: 'phone_number', kind: 'str' },
    { name: 'status', kind: { enum: LINE_STATUSES }, default: 'Pending Activation' },
    { name: 'plan_id', kind: 'str' },
    opt('device_id', 'str'),
    { name: 'data_used_gb', kind: 'float', default: 0 },
    { name: 'data_refueling_gb', kind: 'float', default: 0 },
    { name: 'roaming_enabled', kind: 'bool', default: false },
    opt('contract_end_date', 'date'),
    opt('last_plan_change_date', 'date'),
    opt('last_sim_replacement_date', 'date'),
    opt('suspension_start_date', 'date'),
  ],
};
export const LINE_ITEM: Model = {
  name: 'LineItem',
  fields: [
    { name: 'description', kind: 'str' },
    { name: 'amount', kind: 'float' },
    { name: 'date', kind: 'date' },
    { name: 'item_type', kind: 'str' },
  ],
};
export const BILL: Model = {
  name: 'Bill',
  fields: [
    { name: 'bill_id', kind: 'str' },
    { name: 'customer_id', kind: 'str' },
    { name: 'period_start', kind: 'date' },
    { name: 'period_end', kind: 'date' },
    { name: 'issue_date', kind: 'date' },
    { name: 'total_due', kind: 'float' },
    { name: 'due_date', kind: 'date' },
    { name: 'line_items', kind: { list: { model: LINE_ITEM } }, default: () => [] },
    { name: 'status', kind: { enum: BILL_STATUSES }, default: 'Draft' },
  ],
};
const ADDRESS: Model = {
  name: 'Address',
  fields: ['street', 'city', 'state', 'zip_code'].map((name) => ({ name, kind: 'str' as const })),
};
const PAYMENT_METHOD: Model = {
  name: 'PaymentMethod',
  fields: [
    { name: 'method_type', kind: { enum: ['Credit Card', 'Debit Card', 'PayPal'] } },
    { name: 'account_number_last_4', kind: 'str' },
    { name: 'expiration_date', kind: 'str' },
  ],
};
export const CUSTOMER: Model = {
  name: 'Customer',
  fields: [
    { name: 'customer_id', kind: 'str' },
    { name: 'full_name', kind: 'str' },
    { name: 'date_of_birth', kind: 'str' },
    { name: 'email', kind: 'str' },
    { name: 'phone_number', kind: 'str' },
    { name: 'address', kind: { model: ADDRESS } },
    { name: 'account_status', kind: { enum: ['Active', 'Suspended', 'Pending Verification', 'Closed'] }, default: 'Pending Verification' },
    { name: 'payment_methods', kind: { list: { model: PAYMENT_METHOD } }, default: () => [] },
    { name: 'line_ids', kind: { list: 'str' }, default: () => [] },
    { name: 'bill_ids', kind: { list: 'str' }, default: () => [] },
    // tau2's default is a `date` (2025-01-01), printed without a time.
    { name: 'created_at', kind: 'datetime', default: '2025-01-01' },
    opt('last_extension_date', 'date'),
    { name: 'goodwill_credit_used_this_year', kind: 'float', default: 0 },
  ],
};
export const TELECOM_DB: Model = {
  name: 'TelecomDB',
  fields: [
    { name: 'plans', kind: { list: { model: PLAN } }, default: () => [] },
    { name: 'customers', kind: { list: { model: CUSTOMER } }, default: () => [] },
    { name: 'lines', kind: { list: { model: LINE } }, default: () => [] },
    { name: 'bills', kind: { list: { model: BILL } }, default: () => [] },
    { name: 'devices', kind: { list: { model: DEVICE } }, default: () => [] },
  ],
};

export const APN_SETTINGS: Model = {
  name: 'APNSettings',
  fields: [
    { name: 'apn_name', kind: { enum: ['internet', 'broken'] }, default: 'internet' },
    { name: 'reset_at_reboot', kind: 'bool', default: false },
    opt('mms_apn', 'str', 'mms'),
    opt('mmsc_url', 'str', 'http://mms.carrier.com/mms/wapenc'),
    opt('mms_proxy', 'str'),
    opt('mms_port', 'int'),
  ],
};
const VPN: Model = {
  name: 'VpnDetails',
  fields: [opt('server_address', 'str'), opt('protocol', 'str'), { name: 'server_performance', kind: { enum: PERFORMANCE_LEVELS }, default: 'unknown' }],
};
const PERMISSIONS: Model = {
  name: 'AppPermissions',
  fields: ['sms', 'storage', 'phone', 'network'].map((name) => ({ name, kind: 'bool' as const, default: false })),
};
const APP_STATUS: Model = {
  name: 'AppStatus',
  fields: [
    { name: 'app_name', kind: 'str' },
    { name: 'permissions', kind: { model: PERMISSIONS }, default: () => ({ sms: false, storage: false, phone: false, network: false }) },
  ],
};
/** A fresh APN settings record with tau2's defaults (what a reboot after a reset installs). */
export const defaultApnSettings = (): ApnSettings => ({
  apn_name: 'internet',
  reset_at_reboot: false,
  mms_apn: 'mms',
  mmsc_url: 'http://mms.carrier.com/mms/wapenc',
  mms_proxy: null,
  mms_port: null,
});
const defaultApps = (): Record<string, AppStatus> => ({
  messaging: { app_name: 'messaging', permissions: { sms: true, storage: true, phone: true, network: false } },
  browser: { app_name: 'browser', permissions: { sms: false, storage: true, phone: false, network: true } },
});
export const PHONE_DEVICE: Model = {
  name: 'MockPhoneAttributes',
  fields: [
    { name: 'sim_card_status', kind: { enum: SIM_STATUSES }, default: 'active' },
    { name: 'sim_card_missing', kind: 'bool', default: false },
    { name: 'airplane_mode', kind: 'bool', default: false },
    { name: 'network_signal_strength', kind: { enum: SIGNAL_STRENGTHS }, default: 'good' },
    { name: 'network_technology_connected', kind: { enum: NETWORK_TECHNOLOGIES }, default: '5G' },
    { name: 'network_connection_status', kind: { enum: NETWORK_STATUSES }, default: 'connected' },
    { name: 'battery_level', kind: 'int', default: 80 },
    { name: 'data_enabled', kind: 'bool', default: true },
    { name: 'roaming_enabled', kind: 'bool', default: false },
    { name: 'network_mode_preference', kind: { enum: NETWORK_MODES }, default: '4g_5g_preferred' },
    { name: 'active_apn_settings', kind: { model: APN_SETTINGS }, default: defaultApnSettings },
    { name: 'wifi_enabled', kind: 'bool', default: false },
    { name: 'wifi_connected', kind: 'bool', default: false },
    opt('wifi_ssid', 'str'),
    { name: 'wifi_signal_strength', kind: { enum: SIGNAL_STRENGTHS }, default: 'none' },
    { name: 'wifi_calling_enabled', kind: 'bool', default: false },
    { name: 'wifi_calling_mms_over_wifi', kind: 'bool', default: false },
    { name: 'data_saver_mode', kind: 'bool', default: false },
    { name: 'vpn_enabled_setting', kind: 'bool', default: false },
    { name: 'vpn_connected', kind: 'bool', default: false },
    opt('vpn_details', { model: VPN }),
    { name: 'app_statuses', kind: { dict: { model: APP_STATUS } }, default: defaultApps },
  ],
};
const PAYMENT_REQUEST: Model = {
  name: 'PaymentRequest',
  fields: [
    { name: 'bill_id', kind: 'str' },
    { name: 'amount_due', kind: 'float' },
    { name: 'paid', kind: 'bool', default: false },
  ],
};
export const SURROUNDINGS: Model = {
  name: 'UserSurroundings',
  fields: [
    opt('name', 'str'),
    opt('phone_number', 'str'),
    { name: 'is_abroad', kind: 'bool', default: false },
    { name: 'roaming_allowed', kind: 'bool', default: false },
    { name: 'signal_strength', kind: { dict: { enum: SIGNAL_STRENGTHS } }, default: () => ({ '2G': 'poor', '3G': 'fair', '4G': 'good', '5G': 'excellent' }) },
    { name: 'mobile_data_usage_exceeded', kind: 'bool', default: false },
    { name: 'line_active', kind: 'bool', default: true },
    opt('payment_request', { model: PAYMENT_REQUEST }),
  ],
};
export const TELECOM_USER_DB: Model = {
  name: 'TelecomUserDB',
  fields: [
    { name: 'device', kind: { model: PHONE_DEVICE }, default: () => ({}) },
    { name: 'surroundings', kind: { model: SURROUNDINGS }, default: () => ({}) },
  ],
};

/** Float positions of the agent DB dump. */
export const TELECOM_DB_TYPES: PyTypeTree = typeTreeOf(TELECOM_DB)!;
/** Float positions of the user DB dump. */
export const TELECOM_USER_DB_TYPES: PyTypeTree = typeTreeOf(TELECOM_USER_DB)!;
export const LINE_TYPES: PyTypeTree = typeTreeOf(LINE)!;
export const BILL_TYPES: PyTypeTree = typeTreeOf(BILL)!;
export const PLAN_TYPES: PyTypeTree = typeTreeOf(PLAN)!;
export const CUSTOMER_TYPES: PyTypeTree = typeTreeOf(CUSTOMER)!;
