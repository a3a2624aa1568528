/**
 * The screen layout of TellerLink/32, Meridian Savings Bank's legacy desktop CRM (seed task T20):
 * every control's rectangle in screen pixels on the fixed 1024x768 screen. The page is built from
 * this table and the oracle clicks the centres of its rectangles, so "scripted coordinates from
 * the app's own layout" cannot drift from what is drawn.
 */

/** A rectangle in screen pixels: left, top, width, height. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The screen (the issue fixes 1024x768). */
export const SCREEN = { width: 1024, height: 768 } as const;

/** Height of one row of the search results and the cards table. */
export const ROW_H = 20;

/** The outcome codes in the order the wrap-up screen lists them (schema OUTCOME_CODES). */
export const OUTCOME_ORDER = ['RES-FULL', 'RES-PART', 'ESC-SUP', 'UNV-FAIL', 'INFO-ONLY'] as const;
/** The block reasons the replacement dialog offers, in order. */
export const REASON_ORDER = ['lost', 'stolen', 'damaged'] as const;

/** Every control, by id. */
export const LAYOUT = {
  // Customer search (left, top)
  searchGroup: { x: 8, y: 50, w: 304, h: 296 },
  lastName: { x: 112, y: 74, w: 188, h: 22 },
  firstName: { x: 112, y: 102, w: 188, h: 22 },
  searchBtn: { x: 112, y: 132, w: 96, h: 26 },
  results: { x: 20, y: 168, w: 280, h: 122 },
  openBtn: { x: 204, y: 300, w: 96, h: 26 },
  // Caller verification (left, bottom)
  verifyGroup: { x: 8, y: 356, w: 304, h: 260 },
  dob: { x: 150, y: 382, w: 150, h: 22 },
  ssn: { x: 150, y: 410, w: 150, h: 22 },
  zip: { x: 150, y: 438, w: 150, h: 22 },
  phone: { x: 150, y: 466, w: 150, h: 22 },
  verifyBtn: { x: 150, y: 498, w: 96, h: 26 },
  verifyStatus: { x: 20, y: 536, w: 280, h: 66 },
  // Customer header and tabs (right)
  header: { x: 322, y: 50, w: 694, h: 40 },
  tabProfile: { x: 322, y: 96, w: 104, h: 24 },
  tabAddresses: { x: 428, y: 96, w: 104, h: 24 },
  tabCards: { x: 534, y: 96, w: 104, h: 24 },
  tabWrapup: { x: 640, y: 96, w: 104, h: 24 },
  page: { x: 322, y: 120, w: 694, h: 616 },
  // Addresses tab
  addrLine1: { x: 470, y: 300, w: 400, h: 22 },
  addrLine2: { x: 470, y: 330, w: 400, h: 22 },
  addrCity: { x: 470, y: 360, w: 220, h: 22 },
  addrState: { x: 470, y: 390, w: 50, h: 22 },
  addrZip: { x: 470, y: 420, w: 100, h: 22 },
  saveAddrBtn: { x: 470, y: 456, w: 150, h: 26 },
  // Cards tab
  cardRows: { x: 340, y: 166, w: 660, h: 160 },
  replaceBtn: { x: 340, y: 340, w: 150, h: 26 },
  // Replacement dialog (modal)
  dialog: { x: 262, y: 180, w: 500, h: 360 },
  reason0: { x: 292, y: 246, w: 200, h: 20 },
  delivStandard: { x: 292, y: 346, w: 420, h: 20 },
  delivExpedited: { x: 292, y: 372, w: 420, h: 20 },
  waiveFee: { x: 292, y: 412, w: 300, h: 20 },
  dlgOk: { x: 546, y: 496, w: 90, h: 26 },
  dlgCancel: { x: 646, y: 496, w: 90, h: 26 },
  // Wrap-up tab
  outcome0: { x: 340, y: 166, w: 460, h: 22 },
  notes: { x: 340, y: 330, w: 600, h: 80 },
  saveCallBtn: { x: 340, y: 424, w: 160, h: 26 },
  // Error dialog (modal)
  errDialog: { x: 312, y: 290, w: 400, h: 170 },
  errOk: { x: 467, y: 420, w: 90, h: 26 },
} satisfies Record<string, Rect>;

export type ControlId = keyof typeof LAYOUT;

/** The centre of a rectangle, in whole pixels (where the oracle clicks). */
export function centre(r: Rect): { x: number; y: number } {
  return { x: r.x + Math.floor(r.w / 2), y: r.y + Math.floor(r.h / 2) };
}

/** The rectangle of row `i` of a list whose first row starts at the top of `list` (rows of {@link ROW_H}, 2 px inset). */
export function rowRect(list: Rect, i: number, h = ROW_H): Rect {
  return { x: list.x + 2, y: list.y + 2 + i * h, w: list.w - 4, h };
}

/** The rectangle of option `i` of a vertical option group starting at `first` with 26 px pitch (radio buttons). */
export function optionRect(first: Rect, i: number, pitch = 26): Rect {
  return { ...first, y: first.y + i * pitch };
}
