/**
 * The airline tool set: tau2's 14 agent tools (6 read, 6 write, 2 generic).
 *
 * {@link airlineTau2Tools} builds the exact tau2 set (the generic tools come from
 * `../common/generic-tools.ts`); servicegym's own dataset can append its
 * own tools to that list (see `load.ts`).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeCalculateTool, makeTransferToHumanAgentsTool } from '../common/generic-tools.js';
import { withTau2Surface, type Tau2SurfaceSpec } from '../common/tau2-surface.js';
import type { AirlineState } from './state.js';
import { getFlightStatus, getReservationDetails, getUserDetails, listAllAirports, makeSearchOnestopFlight, searchDirectFlight, type NextDayRule } from './tools-read.js';
import {
  cancelReservation,
  makeBookReservation,
  sendCertificate,
  updateReservationBaggages,
  updateReservationFlights,
  updateReservationPassengers,
} from './tools-write.js';
import { AIRLINE_TAU2_NOW, type AirlineTool } from './tools-common.js';

/** `calculate`: Python arithmetic on `0-9 + - * / ( ) .`, result rounded to 2 places (`"4.0"`, `"3.33"`). */
export const calculate: AirlineTool<{ expression: string }> = makeCalculateTool<AirlineState>();

/** `transfer_to_human_agents`: always returns `Transfer successful`; changes nothing. */
export const transferToHumanAgents: AirlineTool<{ summary: string }> = makeTransferToHumanAgentsTool<AirlineState>(
  "Hand the conversation over to a human agent, with a short summary of the customer's issue. Use it only when the customer explicitly asks for a human, or when the request cannot be handled with these tools under the policy.",
);

/**
 * tau2's 14 airline agent tools, in alphabetical order (a fresh array each call). The defaults
 * are tau2's exact behaviour; a dataset with its own calendar (servicegym's) can set `now`, the
 * creation time of new reservations (default {@link AIRLINE_TAU2_NOW}), and `nextDay`, how the
 * one-stop search dates a connection after an overnight leg (default `tau2`: `2024-05-<day+1>`).
 */
export function airlineTau2Tools(opts: { now?: string; nextDay?: NextDayRule } = {}): AirlineTool[] {
  return [
    makeBookReservation(opts.now ?? AIRLINE_TAU2_NOW),
    calculate,
    cancelReservation,
    getFlightStatus,
    getReservationDetails,
    getUserDetails,
    listAllAirports,
    searchDirectFlight,
    makeSearchOnestopFlight(opts.nextDay ?? 'tau2'),
    sendCertificate,
    transferToHumanAgents,
    updateReservationBaggages,
    updateReservationFlights,
    updateReservationPassengers,
  ];
}

/**
 * tau2's airline surface (`data/tau2-tools.json`, exported from tau2-bench a2c0247 under its MIT
 * licence, see `data/tau2-tools.LICENSE.md`): names, descriptions and parameter schemas byte for
 * byte as tau2 shows them, in tau2's order, and Python's argument errors (`AirlineTools.<tool>() …`).
 */
export const AIRLINE_TAU2_SURFACE: Tau2SurfaceSpec = {
  file: path.join(path.dirname(fileURLToPath(import.meta.url)), 'data', 'tau2-tools.json'),
  agentToolkit: 'AirlineTools',
};

/** {@link airlineTau2Tools} dressed in tau2's surface (what tau2 mode exposes): see {@link AIRLINE_TAU2_SURFACE}. */
export function airlineTau2SurfaceTools(tools: AirlineTool[]): AirlineTool[] {
  return withTau2Surface(tools, AIRLINE_TAU2_SURFACE);
}
