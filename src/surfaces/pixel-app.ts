/**
 * What a GUI application gives the pixel surface: a page rendered headless in Chromium whose
 * every back-end call goes through `window.sgBackend(name, argsJson)` (the surface turns it into
 * `ToolContext.act`, so the action log records it), a fixed screen size, the call-script document
 * of each task it fronts, and an oracle made from its own layout (scripted coordinates). GUI apps
 * live with the domain they front; a domain offers its app as `pixelApp` on the domain object
 * (see {@link pixelAppOf}), so this layer never names a domain.
 */
import type { Domain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import type { ComputerArgs } from './pixel-actions.js';

/** One line of a document: text, optional bold, font size in points (default 11). */
export interface DocLine {
  text: string;
  bold?: boolean;
  size?: number;
}

/** A document handed to the agent with a task (a call script): a title and its lines, paginated by the renderer. */
export interface TaskDocument {
  /** File name, e.g. `call_script.pdf`. */
  fileName: string;
  title: string;
  lines: DocLine[];
}

/** The app's page options the surface passes in (as `window.__sgOptions`). */
export interface PixelAppPageOptions {
  /** How long a screen change takes (ms): the app shows a busy screen meanwhile. */
  transitionMs: number;
}

/** A GUI app the pixel surface can stream. */
export interface PixelApp {
  /** The product name shown in its title bar (e.g. a legacy CRM's name). */
  name: string;
  /** The fixed screen in pixels (the issue fixes 1024x768). */
  screen: { width: number; height: number };
  /**
   * The page: a complete HTML document with its script (no network; styles and script inline),
   * laid out on the fixed screen; the document itself never scrolls (a desktop screen: lists and
   * panes scroll inside it), since frames are the screen's rectangle at the document's origin.
   */
  html(): string;
  /** The back-end operations (domain tool names) the page may call; any other is refused. */
  operations: readonly string[];
  /** Whether the app fronts `task` (a pixel run refuses the others). */
  fronts(task: Task): boolean;
  /** The document the agent gets with `task` (the call script), or null. */
  document(task: Task): TaskDocument | null;
  /**
   * The oracle's computer actions for `task`, from the app's own layout: clicks at the known
   * coordinates of its controls, typed values and waits after screen transitions of
   * `transitionMs`. Throws BadInputError for a task it does not front or a gold action it cannot
   * perform.
   */
  oracle(task: Task, opts: PixelAppPageOptions & { state: unknown }): ComputerArgs[];
}

/** A domain object that offers a GUI app. */
export interface PixelAppHost {
  pixelApp?: PixelApp;
}

/** The GUI app a domain offers, or null. */
export function pixelAppOf(domain: Domain<any>): PixelApp | null {
  return (domain as Domain<any> & PixelAppHost).pixelApp ?? null;
}
