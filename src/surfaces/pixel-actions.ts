/**
 * The pixel surface's computer actions: one canonical vocabulary (screenshot, click, move, drag,
 * type, key, scroll, wait) and the mapping onto it of the two vocabularies computer-use models are
 * trained on — the OpenAI computer-use actions (`click {x, y, button}`, `double_click`, `drag
 * {path}`, `keypress {keys}`, `move`, `scroll {scroll_x, scroll_y}`, `type`, `wait`, `screenshot`)
 * and the Anthropic computer tool actions (`left_click {coordinate}`, `right_click`,
 * `double_click`, `triple_click`, `middle_click`, `mouse_move`, `left_click_drag
 * {start_coordinate, coordinate}`, `key {text: "ctrl+s"}`, `type`, `scroll {scroll_direction,
 * scroll_amount}`, `wait {duration}` in seconds, `screenshot`, `cursor_position`). Coordinates are
 * screen pixels from the top-left corner; a malformed action is a tool error the agent sees.
 */
import { z } from 'zod';
import { ToolError } from '../spec/tool.js';

/** A point on the screen, in pixels from the top-left corner. */
export interface Point {
  x: number;
  y: number;
}

/** One canonical computer action. `wait.ms` is milliseconds; scroll deltas are pixels (positive: down / right). */
export type ComputerAction =
  | { action: 'screenshot' }
  | { action: 'click'; x: number; y: number; button: 'left' | 'right' | 'middle'; count: 1 | 2 | 3 }
  | { action: 'move'; x: number; y: number }
  | { action: 'drag'; path: Point[] }
  | { action: 'type'; text: string }
  | { action: 'key'; keys: string[] }
  | { action: 'scroll'; x: number; y: number; dx: number; dy: number }
  | { action: 'wait'; ms: number };

/** The computer tool's arguments: a loose object so that both vocabularies validate; {@link normalizeAction} checks each action's fields. */
export const ComputerArgsSchema = z.looseObject({
  action: z.string().describe(
    'One of: screenshot, click, double_click, right_click, move, drag, type, key, scroll, wait (OpenAI computer-use names such as keypress, and Anthropic computer tool names such as left_click, mouse_move, left_click_drag, are accepted too).',
  ),
  x: z.number().optional().describe('Horizontal pixel from the left edge (click, double_click, right_click, move, scroll).'),
  y: z.number().optional().describe('Vertical pixel from the top edge.'),
  coordinate: z.array(z.number()).optional().describe('[x, y], as an alternative to x and y.'),
  start_coordinate: z.array(z.number()).optional().describe('drag: [x, y] where the drag starts (coordinate is where it ends).'),
  path: z.array(z.object({ x: z.number(), y: z.number() })).optional().describe('drag: the points of the drag, first to last.'),
  button: z.string().optional().describe('click: left (default), right or middle.'),
  text: z.string().optional().describe('type: the text to type; key: a key combination such as "ctrl+a", "Tab", "Return", "F5".'),
  keys: z.array(z.string()).optional().describe('key: the keys pressed together, e.g. ["CTRL", "A"] or ["F5"].'),
  scroll_x: z.number().optional().describe('scroll: horizontal pixels (positive: right).'),
  scroll_y: z.number().optional().describe('scroll: vertical pixels (positive: down).'),
  scroll_direction: z.string().optional().describe('scroll: up, down, left or right (with scroll_amount clicks of 100 pixels).'),
  scroll_amount: z.number().optional(),
  ms: z.number().optional().describe('wait: milliseconds.'),
  duration: z.number().optional().describe('wait: seconds.'),
});
export type ComputerArgs = z.infer<typeof ComputerArgsSchema>;

/** Pixels one scroll "click" moves (Anthropic's `scroll_amount` counts clicks). */
export const SCROLL_CLICK_PX = 100;
/** The longest single wait (ms); longer waits are refused so an episode cannot stall. */
export const MAX_WAIT_MS = 10_000;

/** Key names of both vocabularies (xdotool / X11 keysyms and upper-case names) mapped to the browser's key names. */
const KEY_ALIASES: Record<string, string> = {
  ctrl: 'Control', control: 'Control', alt: 'Alt', option: 'Alt', shift: 'Shift', cmd: 'Meta', super: 'Meta', meta: 'Meta', win: 'Meta',
  return: 'Enter', enter: 'Enter', kp_enter: 'Enter', tab: 'Tab', escape: 'Escape', esc: 'Escape', space: ' ', backspace: 'Backspace',
  delete: 'Delete', del: 'Delete', home: 'Home', end: 'End', pageup: 'PageUp', page_up: 'PageUp', prior: 'PageUp', pagedown: 'PageDown', page_down: 'PageDown', next: 'PageDown',
  up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight', arrowup: 'ArrowUp', arrowdown: 'ArrowDown', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight',
  insert: 'Insert',
};

/** The browser key name of one key of either vocabulary (`ctrl` → `Control`, `Return` → `Enter`, `f5` → `F5`, `a` → `a`); throws ToolError for an unknown name. */
export function keyName(raw: string): string {
  const k = raw.trim();
  const lower = k.toLowerCase();
  if (KEY_ALIASES[lower]) return KEY_ALIASES[lower];
  const f = /^f([1-9]|1[0-2])$/.exec(lower);
  if (f) return `F${f[1]}`;
  if (k.length === 1) return k;
  throw new ToolError(`unknown key '${raw}' (use names such as Enter, Tab, Escape, Backspace, F1-F12, ctrl, alt, shift, arrow keys, or one character)`);
}

/** The keys of a combination given as `ctrl+s` / `Return` text or as a list. */
export function keyCombination(text: string | undefined, keys: string[] | undefined): string[] {
  const parts = keys?.length ? keys : text ? text.split('+').filter((p) => p !== '') : [];
  if (text === '+') return ['+'];
  if (parts.length === 0) throw new ToolError('key needs keys (e.g. ["CTRL", "A"]) or text (e.g. "ctrl+a", "F5")');
  const names = parts.map(keyName);
  // In a combination a letter names the key, not the character: `CTRL+A` is Control and the A key (a).
  return names.length > 1 ? names.map((n) => (/^[A-Z]$/.test(n) ? n.toLowerCase() : n)) : names;
}

/** The point of an action: `x`/`y` or `coordinate`; throws ToolError when absent or off the screen. */
function pointOf(args: ComputerArgs, screen: { width: number; height: number }, what: string, coord: number[] | undefined = args.coordinate): Point {
  const x = coord ? coord[0] : args.x;
  const y = coord ? coord[1] : args.y;
  if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) throw new ToolError(`${what} needs a point: x and y (or coordinate [x, y])`);
  return inScreen({ x: Math.round(x), y: Math.round(y) }, screen);
}

function inScreen(p: Point, screen: { width: number; height: number }): Point {
  if (p.x < 0 || p.y < 0 || p.x >= screen.width || p.y >= screen.height) throw new ToolError(`point (${p.x}, ${p.y}) is off the ${screen.width}x${screen.height} screen`);
  return p;
}

const BUTTONS: Record<string, 'left' | 'right' | 'middle'> = { left: 'left', right: 'right', middle: 'middle', wheel: 'middle' };

function scrollOf(args: ComputerArgs, screen: { width: number; height: number }): ComputerAction {
  const at = args.x !== undefined || args.coordinate ? pointOf(args, screen, 'scroll') : { x: Math.floor(screen.width / 2), y: Math.floor(screen.height / 2) };
  if (args.scroll_direction !== undefined) {
    const n = (args.scroll_amount ?? 3) * SCROLL_CLICK_PX;
    const d = { up: [0, -n], down: [0, n], left: [-n, 0], right: [n, 0] }[args.scroll_direction.toLowerCase()];
    if (!d) throw new ToolError(`scroll_direction must be up, down, left or right, not '${args.scroll_direction}'`);
    return { action: 'scroll', ...at, dx: d[0], dy: d[1] };
  }
  return { action: 'scroll', ...at, dx: args.scroll_x ?? 0, dy: args.scroll_y ?? 0 };
}

function waitOf(args: ComputerArgs): ComputerAction {
  const ms = args.ms ?? (args.duration !== undefined ? args.duration * 1000 : 1000);
  if (!(ms >= 0) || ms > MAX_WAIT_MS) throw new ToolError(`wait must be 0..${MAX_WAIT_MS} ms (duration 0..${MAX_WAIT_MS / 1000} s)`);
  return { action: 'wait', ms: Math.round(ms) };
}

/**
 * The canonical action of a call in either vocabulary, on a `screen` of the given size. Throws
 * ToolError naming what is missing or wrong (an unknown action, a point off the screen, an
 * unknown key), which the agent sees as `Error: …`.
 */
export function normalizeAction(args: ComputerArgs, screen: { width: number; height: number }): ComputerAction {
  const a = args.action.trim().toLowerCase();
  const click = (button: 'left' | 'right' | 'middle', count: 1 | 2 | 3): ComputerAction => ({ action: 'click', ...pointOf(args, screen, a), button, count });
  switch (a) {
    case 'screenshot':
    case 'cursor_position':
      return { action: 'screenshot' };
    case 'click': {
      const button = BUTTONS[(args.button ?? 'left').toLowerCase()];
      if (!button) throw new ToolError(`button must be left, right or middle, not '${args.button}'`);
      return click(button, 1);
    }
    case 'left_click':
      return click('left', 1);
    case 'right_click':
      return click('right', 1);
    case 'middle_click':
      return click('middle', 1);
    case 'double_click':
      return click('left', 2);
    case 'triple_click':
      return click('left', 3);
    case 'move':
    case 'mouse_move':
      return { action: 'move', ...pointOf(args, screen, a) };
    case 'drag':
    case 'left_click_drag': {
      const path = args.path?.length ? args.path.map((p) => inScreen({ x: Math.round(p.x), y: Math.round(p.y) }, screen)) : [pointOf(args, screen, a, args.start_coordinate), pointOf(args, screen, a)];
      if (path.length < 2) throw new ToolError('drag needs at least two points (path, or start_coordinate and coordinate)');
      return { action: 'drag', path };
    }
    case 'type':
      if (typeof args.text !== 'string') throw new ToolError('type needs text');
      return { action: 'type', text: args.text };
    case 'key':
    case 'keypress':
      return { action: 'key', keys: keyCombination(args.text, args.keys) };
    case 'scroll':
      return scrollOf(args, screen);
    case 'wait':
      return waitOf(args);
    default:
      throw new ToolError(`unknown action '${args.action}' (screenshot, click, double_click, right_click, move, drag, type, key, scroll, wait)`);
  }
}

/** A short description of an action for captions and the filmstrip (no screen content). */
export function describeAction(a: ComputerAction): string {
  switch (a.action) {
    case 'click':
      return `${a.count === 2 ? 'double-click' : a.count === 3 ? 'triple-click' : a.button === 'left' ? 'click' : `${a.button}-click`} at (${a.x}, ${a.y})`;
    case 'move':
      return `move to (${a.x}, ${a.y})`;
    case 'drag':
      return `drag from (${a.path[0].x}, ${a.path[0].y}) to (${a.path[a.path.length - 1].x}, ${a.path[a.path.length - 1].y})`;
    case 'type':
      return `type ${JSON.stringify(a.text)}`;
    case 'key':
      return `key ${a.keys.join('+')}`;
    case 'scroll':
      return `scroll (${a.dx}, ${a.dy}) at (${a.x}, ${a.y})`;
    case 'wait':
      return `wait ${a.ms} ms`;
    default:
      return 'screenshot';
  }
}
