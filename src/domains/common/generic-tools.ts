/**
 * tau2's generic tools, present in every tau2 domain with the same behaviour: `calculate` and
 * `transfer_to_human_agents`. Built per domain because each domain words the transfer condition
 * for its own policy; the behaviour never changes.
 */
import { z } from 'zod';
import type { ToolDef } from '../../spec/tool.js';
import { pyCalculate } from './python-calc.js';

/** Default model-facing description of `calculate`. */
export const CALCULATE_DESCRIPTION =
  "Evaluate an arithmetic expression made of numbers, + - * /, parentheses and spaces, for example '2 * (120 + 35)'. The result is rounded to two decimals.";

/**
 * `calculate(expression)`: Python arithmetic on `0-9 + - * / ( ) .` and spaces, the result
 * printed as Python prints `round(float(value), 2)` (`"4.0"`, `"3.33"`). Errors: `Invalid
 * characters in expression`, Python's syntax and arithmetic messages (see `python-calc.ts`).
 * Kind `generic`: never changes the state.
 */
export function makeCalculateTool<S>(description: string = CALCULATE_DESCRIPTION): ToolDef<S, { expression: string }> {
  return {
    name: 'calculate',
    description,
    parameters: z.strictObject({ expression: z.string().describe('The arithmetic expression to evaluate.') }),
    kind: 'generic',
    requestor: 'assistant',
    invoke: ({ expression }) => pyCalculate(expression),
  };
}

/**
 * `transfer_to_human_agents(summary)`: always returns `Transfer successful` and changes nothing
 * (kind `generic`). `description` tells the model when the domain's policy allows a transfer.
 */
export function makeTransferToHumanAgentsTool<S>(description: string): ToolDef<S, { summary: string }> {
  return {
    name: 'transfer_to_human_agents',
    description,
    parameters: z.strictObject({ summary: z.string().describe("A short summary of the customer's issue.") }),
    kind: 'generic',
    requestor: 'assistant',
    invoke: () => 'Transfer successful',
  };
}
