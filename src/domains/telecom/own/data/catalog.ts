/**
 * Kestrel Mobile's catalogue: plans and roaming passes (policy sections 4 and 5). Prices in
 * integer cents.
 */
import type { Plan, RoamingPass } from '../schema.js';

export const KESTREL_PLANS: Plan[] = [
  { plan_id: 'PL-BASIC', name: 'Kestrel Basic', monthly_price_cents: 3000, data_gb: 5, eligible_passes: [], topup_price_per_gb_cents: 1000 },
  { plan_id: 'PL-PLUS', name: 'Kestrel Plus', monthly_price_cents: 4500, data_gb: 15, eligible_passes: ['RP-NA7'], topup_price_per_gb_cents: 800 },
  { plan_id: 'PL-TRAVEL', name: 'Kestrel Travel', monthly_price_cents: 6000, data_gb: 25, eligible_passes: ['RP-EU7', 'RP-NA7', 'RP-WORLD7'], topup_price_per_gb_cents: 600 },
  { plan_id: 'PL-UNLTD', name: 'Kestrel Unlimited', monthly_price_cents: 8000, data_gb: 100, eligible_passes: ['RP-EU7', 'RP-EU30', 'RP-NA7', 'RP-WORLD7', 'RP-WORLD30'], topup_price_per_gb_cents: 500 },
  { plan_id: 'PL-STUDENT', name: 'Kestrel Student', monthly_price_cents: 2500, data_gb: 10, eligible_passes: ['RP-EU7'], topup_price_per_gb_cents: 800 },
];

export const KESTREL_PASSES: RoamingPass[] = [
  { pass_id: 'RP-EU7', name: 'Europe Pass 7 days', zone: 'Europe', days: 7, data_gb: 3, price_cents: 2500 },
  { pass_id: 'RP-EU30', name: 'Europe Pass 30 days', zone: 'Europe', days: 30, data_gb: 10, price_cents: 6000 },
  { pass_id: 'RP-NA7', name: 'Americas Pass 7 days', zone: 'Americas', days: 7, data_gb: 2, price_cents: 1500 },
  { pass_id: 'RP-WORLD7', name: 'World Pass 7 days', zone: 'World', days: 7, data_gb: 2, price_cents: 4500 },
  { pass_id: 'RP-WORLD30', name: 'World Pass 30 days', zone: 'World', days: 30, data_gb: 8, price_cents: 9900 },
];
