/**
 * The retail tool set: tau2's 16 agent tools (7 read, 7 write, 2 generic).
 *
 * {@link retailTau2Tools} builds the exact tau2 set; a dataset with its own tools (servicegym's)
 * appends them to that list and passes the result to `createRetailDomain({tools})`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeCalculateTool, makeTransferToHumanAgentsTool } from '../common/generic-tools.js';
import { withTau2Surface, type Tau2SurfaceSpec } from '../common/tau2-surface.js';
import type { RetailState } from './state.js';
import type { RetailTool } from './tools-common.js';
import { exchangeDeliveredOrderItems, modifyUserAddress, returnDeliveredOrderItems } from './tools-delivered.js';
import { cancelPendingOrder, modifyPendingOrderAddress, modifyPendingOrderItems, modifyPendingOrderPayment } from './tools-pending.js';
import { findUserIdByEmail, findUserIdByNameZip, getItemDetails, getOrderDetails, getProductDetails, getUserDetails, listAllProductTypes } from './tools-read.js';

/** `calculate`: Python arithmetic on `0-9 + - * / ( ) .`, result rounded to 2 places (`"4.0"`, `"3.33"`). */
export const calculate: RetailTool<{ expression: string }> = makeCalculateTool<RetailState>();

/** `transfer_to_human_agents`: always returns `Transfer successful`; changes nothing. */
export const transferToHumanAgents: RetailTool<{ summary: string }> = makeTransferToHumanAgentsTool<RetailState>(
  "Hand the conversation over to a human agent, with a short summary of the customer's issue. Use it only when the customer explicitly asks for a human, or when the request cannot be handled with these tools under the policy.",
);

/** tau2's 16 retail agent tools, in alphabetical order (a fresh array each call). */
export function retailTau2Tools(): RetailTool[] {
  return [
    calculate,
    cancelPendingOrder,
    exchangeDeliveredOrderItems,
    findUserIdByEmail,
    findUserIdByNameZip,
    getItemDetails,
    getOrderDetails,
    getProductDetails,
    getUserDetails,
    listAllProductTypes,
    modifyPendingOrderAddress,
    modifyPendingOrderItems,
    modifyPendingOrderPayment,
    modifyUserAddress,
    returnDeliveredOrderItems,
    transferToHumanAgents,
  ];
}

/**
 * tau2's retail surface (`data/tau2-tools.json`, exported from tau2-bench a2c0247 under its MIT
 * licence, see `data/tau2-tools.LICENSE.md`): names, descriptions and parameter schemas byte for
 * byte as tau2 shows them, in tau2's order, and Python's argument errors (`RetailTools.<tool>() …`).
 */
export const RETAIL_TAU2_SURFACE: Tau2SurfaceSpec = {
  file: path.join(path.dirname(fileURLToPath(import.meta.url)), 'data', 'tau2-tools.json'),
  agentToolkit: 'RetailTools',
};

/** {@link retailTau2Tools} dressed in tau2's surface (what tau2 mode exposes): see {@link RETAIL_TAU2_SURFACE}. */
export function retailTau2SurfaceTools(tools: RetailTool[]): RetailTool[] {
  return withTau2Surface(tools, RETAIL_TAU2_SURFACE);
}
