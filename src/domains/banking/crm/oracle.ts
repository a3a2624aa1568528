/**
 * TellerLink/32's oracle: a task's gold actions turned into computer actions at the coordinates
 * of the app's own layout (layout.ts) — clicks at control centres, typed values, function keys,
 * and a wait after every screen transition — proving each task solvable by pixels alone. The
 * actions use the OpenAI computer-use vocabulary (`click {x, y}`, `type`, `keypress`, `wait`).
 */
import { BadInputError } from '../../../spec/errors.js';
import type { GoldAction, Task } from '../../../spec/task.js';
import type { ComputerArgs } from '../../../surfaces/pixel-actions.js';
import type { BankDb } from '../tools-common.js';
import { LAYOUT, OUTCOME_ORDER, REASON_ORDER, ROW_H, centre, optionRect, rowRect, type Rect } from './layout.js';

const click = (r: Rect): ComputerArgs => ({ action: 'click', ...centre(r), button: 'left' });
const type = (text: string): ComputerArgs => ({ action: 'type', text });
const key = (...keys: string[]): ComputerArgs => ({ action: 'keypress', keys });
const fill = (r: Rect, value: string | null | undefined): ComputerArgs[] => (value ? [click(r), key('CTRL', 'A'), type(value)] : []);

/** The customers `find_customers` lists for a name, in the back-end's order. */
function searchOrder(state: BankDb, first: string, last: string): string[] {
  return state.ids('customers').filter((id) => {
    const c = state.get('customers', id)!;
    return c.first_name.toLowerCase() === first.toLowerCase() && c.last_name.toLowerCase() === last.toLowerCase();
  });
}

/** The cards of a customer in the order the Cards tab lists them (accounts, then their cards). */
function cardOrder(state: BankDb, customerId: string): string[] {
  const c = state.get('customers', customerId);
  return (c?.account_ids ?? []).flatMap((a) => state.get('accounts', a)?.card_ids ?? []);
}

const args = (a: GoldAction) => a.arguments as Record<string, any>;

/**
 * The oracle's actions for `task` (see the module doc). `state` is the bank the task starts
 * from (search results and card rows are located in it); `transitionMs` is the app's screen
 * transition time. Throws BadInputError for a gold action the app cannot perform.
 */
export function crmOracle(task: Task, opts: { transitionMs: number; state: unknown }): ComputerArgs[] {
  const state = opts.state as BankDb;
  const gold = (task.evaluation_criteria?.actions ?? []).filter((a) => a.requestor === 'assistant');
  const wait: ComputerArgs = { action: 'wait', ms: opts.transitionMs + 150 };
  const customerId = gold.map((a) => args(a).customer_id).find((v) => typeof v === 'string') as string | undefined;
  const tab = (r: Rect): ComputerArgs[] => [click(r), wait];
  const out: ComputerArgs[] = [];
  let blockReason: string | null = null;
  for (const a of gold) {
    const g = args(a);
    switch (a.name) {
      case 'find_customers': {
        const row = searchOrder(state, g.first_name, g.last_name).indexOf(customerId ?? '');
        if (row < 0) throw new BadInputError(`task ${task.id}: customer ${customerId} is not among the search results for ${g.first_name} ${g.last_name}`);
        out.push(...fill(LAYOUT.lastName, g.last_name), ...fill(LAYOUT.firstName, g.first_name), key('F3'), wait);
        out.push(click(rowRect(LAYOUT.results, row, ROW_H)), click(LAYOUT.openBtn), wait);
        break;
      }
      case 'get_customer_profile':
        break; // opening the record reads the profile
      case 'verify_identity':
        out.push(...fill(LAYOUT.dob, g.date_of_birth), ...fill(LAYOUT.ssn, g.ssn_last4), ...fill(LAYOUT.zip, g.zip), ...fill(LAYOUT.phone, g.phone), click(LAYOUT.verifyBtn));
        break;
      case 'update_mailing_address':
        out.push(...tab(LAYOUT.tabAddresses));
        out.push(...fill(LAYOUT.addrLine1, g.line1), ...fill(LAYOUT.addrLine2, g.line2), ...fill(LAYOUT.addrCity, g.city), ...fill(LAYOUT.addrState, g.state), ...fill(LAYOUT.addrZip, g.zip));
        out.push(click(LAYOUT.saveAddrBtn), key('Escape'));
        break;
      case 'block_card':
        blockReason = g.reason;
        break; // the replacement dialog blocks the card as it orders
      case 'order_replacement_card': {
        const row = cardOrder(state, customerId ?? '').indexOf(g.card_id);
        if (row < 0) throw new BadInputError(`task ${task.id}: card ${g.card_id} is not on ${customerId}'s Cards tab`);
        out.push(...tab(LAYOUT.tabCards), click(rowRect(LAYOUT.cardRows, row, ROW_H)), click(LAYOUT.replaceBtn));
        if (blockReason) out.push(click({ ...LAYOUT.reason0, y: LAYOUT.reason0.y + REASON_ORDER.indexOf(blockReason as never) * 24 }));
        out.push(click(g.delivery === 'expedited' ? LAYOUT.delivExpedited : LAYOUT.delivStandard));
        if (g.waive_expedited_fee === true) out.push(click(LAYOUT.waiveFee));
        out.push(click(LAYOUT.dlgOk), key('Escape'));
        blockReason = null;
        break;
      }
      case 'record_call_outcome':
        out.push(...tab(LAYOUT.tabWrapup), click(optionRect(LAYOUT.outcome0, OUTCOME_ORDER.indexOf(g.outcome_code))), ...fill(LAYOUT.notes, g.notes), click(LAYOUT.saveCallBtn), key('Escape'));
        break;
      default:
        throw new BadInputError(`task ${task.id}: TellerLink/32 cannot perform gold action ${a.name}`);
    }
  }
  out.push({ action: 'screenshot' });
  return out;
}
