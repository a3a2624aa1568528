/**
 * TellerLink/32's page: a 1990s desktop window (grey bevels, a navy title bar, a menu bar, group
 * boxes, tabs, modal dialogs, a status bar with the function keys) laid out from `layout.ts`.
 * The markup is static; the behaviour is in `page-script.ts`. The page has no network: the only
 * way out is `window.sgBackend`, which the pixel surface connects to the banking back-end.
 */
import { LAYOUT, OUTCOME_ORDER, REASON_ORDER, SCREEN, optionRect, type Rect } from './layout.js';
import { PAGE_SCRIPT } from './page-script.js';

/** The product name in the title bar. */
export const APP_NAME = 'TellerLink/32';

const pos = (r: Rect) => `left:${r.x}px;top:${r.y}px;width:${r.w}px;height:${r.h}px`;
const L = LAYOUT;

const CSS = `
*{box-sizing:border-box}
html,body{margin:0;width:${SCREEN.width}px;height:${SCREEN.height}px;overflow:hidden;background:#008080;font:12px 'Liberation Sans',Arial,sans-serif;color:#000;cursor:none}
.abs{position:absolute}
.win{position:absolute;left:0;top:0;width:${SCREEN.width}px;height:${SCREEN.height}px;background:#c0c0c0}
.title{position:absolute;left:0;top:0;width:100%;height:22px;background:linear-gradient(90deg,#000080,#1084d0);color:#fff;font-weight:bold;padding:3px 6px}
.menu{position:absolute;left:0;top:22px;width:100%;height:20px;padding:3px 8px;border-bottom:1px solid #808080}
.menu span{margin-right:18px}
.group{position:absolute;border:2px groove #fff}
.group>.cap{position:absolute;left:8px;top:-9px;background:#c0c0c0;padding:0 4px;font-weight:bold}
input[type=text],textarea{position:absolute;border:2px inset #fff;background:#fff;font:12px 'Liberation Mono',monospace;padding:2px 4px;outline:none}
input[type=text]:focus,textarea:focus{background:#ffffe0}
button{position:absolute;background:#c0c0c0;border:2px outset #fff;font:12px 'Liberation Sans',Arial,sans-serif;padding:0}
button:focus{outline:1px dotted #000;outline-offset:-5px}
button:active{border-style:inset}
.lbl{position:absolute;white-space:nowrap}
.list{position:absolute;border:2px inset #fff;background:#fff;font:12px 'Liberation Mono',monospace;overflow:hidden}
.row{position:absolute;left:2px;height:20px;padding:3px 4px;white-space:pre;width:calc(100% - 4px)}
.row.sel{background:#000080;color:#fff}
.tab{position:absolute;border:2px outset #fff;border-bottom:none;text-align:center;padding-top:4px;background:#c0c0c0}
.tab.on{background:#d4d0c8;font-weight:bold;height:26px;top:94px}
.pagebox{position:absolute;border:2px outset #fff;background:#d4d0c8}
.opt{position:absolute;display:flex;align-items:center;gap:6px;white-space:nowrap}
.opt input{margin:0}
.modalbg{position:absolute;left:0;top:0;width:100%;height:100%;display:none}
.dlg{position:absolute;background:#c0c0c0;border:2px outset #fff;box-shadow:2px 2px 0 #000}
.dlg .dt{height:20px;background:#000080;color:#fff;font-weight:bold;padding:2px 6px}
.busy{position:absolute;display:none;background:#d4d0c8;border:2px outset #fff}
.busy div{position:absolute;left:50%;top:45%;transform:translate(-50%,-50%);border:2px outset #fff;background:#c0c0c0;padding:14px 24px;font-weight:bold}
.status{position:absolute;left:0;top:${SCREEN.height - 24}px;width:100%;height:24px;border-top:2px groove #fff;padding:4px 6px}
.status .keys{position:absolute;right:8px;top:4px}
.vs{font-weight:bold;white-space:pre-wrap}
`;

const input = (id: string, r: Rect, max = 60) => `<input type="text" id="${id}" maxlength="${max}" autocomplete="off" spellcheck="false" style="${pos(r)}">`;
const button = (id: string, r: Rect, text: string) => `<button id="${id}" style="${pos(r)}">${text}</button>`;
const label = (text: string, x: number, y: number) => `<div class="lbl" style="left:${x}px;top:${y}px">${text}</div>`;
const group = (r: Rect, cap: string) => `<div class="group" style="${pos(r)}"><div class="cap">${cap}</div></div>`;
const radio = (name: string, value: string, r: Rect, text: string) => `<label class="opt" style="${pos(r)}"><input type="radio" name="${name}" value="${value}">${text}</label>`;

const OUTCOME_TEXT: Record<(typeof OUTCOME_ORDER)[number], string> = {
  'RES-FULL': 'RES-FULL   Resolved - all requests completed',
  'RES-PART': 'RES-PART   Partly resolved',
  'ESC-SUP': 'ESC-SUP    Escalated to a supervisor',
  'UNV-FAIL': 'UNV-FAIL   Caller failed verification',
  'INFO-ONLY': 'INFO-ONLY  Information only, no change',
};

function leftPanel(): string {
  return [
    group(L.searchGroup, 'Customer Search'),
    label('Last name', 20, 78), input('lastName', L.lastName),
    label('First name', 20, 106), input('firstName', L.firstName),
    button('searchBtn', L.searchBtn, 'Search [F3]'),
    `<div class="list" id="results" tabindex="0" style="${pos(L.results)}"></div>`,
    button('openBtn', L.openBtn, 'Open'),
    group(L.verifyGroup, 'Caller Verification'),
    label('Date of birth', 20, 386), input('dob', L.dob, 10),
    label('SSN last 4', 20, 414), input('ssn', L.ssn, 4),
    label('ZIP code', 20, 442), input('zip', L.zip, 5),
    label('Phone', 20, 470), input('phone', L.phone, 12),
    button('verifyBtn', L.verifyBtn, 'Verify [F5]'),
    `<div class="lbl vs" id="verifyStatus" style="${pos(L.verifyStatus)}"></div>`,
  ].join('');
}

function tabPages(): string {
  const p = L.page;
  const addr = [
    `<div class="lbl" style="left:340px;top:140px;font-weight:bold">Mailing address on file</div>`,
    `<div class="lbl" id="addrOnFile" style="left:340px;top:162px;white-space:pre;font-family:'Liberation Mono',monospace"></div>`,
    `<div class="lbl" style="left:340px;top:272px;font-weight:bold">New mailing address</div>`,
    label('Street', 340, 304), input('addrLine1', L.addrLine1),
    label('Apt / Suite', 340, 334), input('addrLine2', L.addrLine2),
    label('City', 340, 364), input('addrCity', L.addrCity),
    label('State', 340, 394), input('addrState', L.addrState, 2),
    label('ZIP', 340, 424), input('addrZip', L.addrZip, 10),
    button('saveAddrBtn', L.saveAddrBtn, 'Save Address [F12]'),
  ].join('');
  const cards = [
    `<div class="lbl" style="left:344px;top:146px;font-family:'Liberation Mono',monospace;font-weight:bold;white-space:pre">NETWORK     CARD          STATUS      ACCOUNT</div>`,
    `<div class="list" id="cardRows" tabindex="0" style="${pos(L.cardRows)}"></div>`,
    button('replaceBtn', L.replaceBtn, 'Replace Card...'),
  ].join('');
  const wrap = [
    `<div class="lbl" style="left:340px;top:142px;font-weight:bold">Call outcome code</div>`,
    ...OUTCOME_ORDER.map((c, i) => radio('outcome', c, optionRect(L.outcome0, i), `<span style="font-family:'Liberation Mono',monospace;white-space:pre">${OUTCOME_TEXT[c]}</span>`)),
    `<div class="lbl" style="left:340px;top:310px;font-weight:bold">Call notes</div>`,
    `<textarea id="notes" maxlength="200" spellcheck="false" style="${pos(L.notes)};resize:none"></textarea>`,
    button('saveCallBtn', L.saveCallBtn, 'Save Call Record [F12]'),
  ].join('');
  return [
    `<div class="pagebox" style="${pos(p)}"></div>`,
    `<div id="page-profile" class="tp"><div class="lbl" id="profileText" style="left:340px;top:142px;white-space:pre;font-family:'Liberation Mono',monospace;line-height:22px"></div></div>`,
    `<div id="page-addresses" class="tp">${addr}</div>`,
    `<div id="page-cards" class="tp">${cards}</div>`,
    `<div id="page-wrapup" class="tp">${wrap}</div>`,
  ].join('');
}

function dialogs(): string {
  const d = L.dialog;
  const card = [
    `<div class="dlg" style="${pos(d)}"><div class="dt">Order Replacement Card</div></div>`,
    `<div class="lbl" id="dlgCard" style="left:292px;top:212px;font-weight:bold"></div>`,
    label('Block reason (cards that are still active):', 292, 230),
    ...REASON_ORDER.map((r, i) => radio('reason', r, { ...optionRect(L.reason0, i, 24), y: L.reason0.y + i * 24 }, r[0].toUpperCase() + r.slice(1))),
    label('Delivery:', 292, 328),
    radio('delivery', 'standard', L.delivStandard, 'Standard - free, 7-10 business days'),
    radio('delivery', 'expedited', L.delivExpedited, 'Expedited - $25.00, 2 business days'),
    `<label class="opt" style="${pos(L.waiveFee)}"><input type="checkbox" id="waiveFee">Waive expedited fee</label>`,
    label('Card ships to the mailing address on file.', 292, 450),
    button('dlgOk', L.dlgOk, 'OK'),
    button('dlgCancel', L.dlgCancel, 'Cancel'),
  ].join('');
  const e = L.errDialog;
  const err = [
    `<div class="dlg" style="${pos(e)}"><div class="dt">${APP_NAME}</div></div>`,
    `<div class="abs" style="left:${e.x + 20}px;top:${e.y + 40}px;width:32px;height:32px;border-radius:16px;background:#c00000;color:#fff;font:bold 20px Arial;text-align:center;line-height:32px">X</div>`,
    `<div class="lbl" id="errText" style="left:${e.x + 66}px;top:${e.y + 44}px;width:${e.w - 86}px;white-space:normal"></div>`,
    button('errOk', L.errOk, 'OK'),
  ].join('');
  return `<div class="modalbg" id="cardDlg">${card}</div><div class="modalbg" id="errDlg">${err}</div>`;
}

/** The complete page (HTML with inline style and script). */
export function crmPageHtml(): string {
  const tabs = [
    ['tabProfile', 'Profile [F6]'],
    ['tabAddresses', 'Addresses [F7]'],
    ['tabCards', 'Cards [F8]'],
    ['tabWrapup', 'Wrap-up [F9]'],
  ] as const;
  const body = [
    `<div class="win">`,
    `<div class="title">${APP_NAME} - Meridian Savings Bank - Customer Service [TEST REGION]</div>`,
    `<div class="menu"><span>File</span><span>Edit</span><span>Customer</span><span>Call</span><span>Window</span><span>Help</span></div>`,
    leftPanel(),
    `<div class="lbl" id="header" style="${pos(L.header)};border:2px inset #fff;background:#fff;padding:10px;font-weight:bold;font-size:14px;white-space:pre"></div>`,
    ...tabs.map(([id, text]) => `<div class="tab" id="${id}" style="${pos(L[id])}">${text}</div>`),
    tabPages(),
    `<div class="busy" id="busy" style="${pos({ x: L.page.x, y: L.header.y, w: L.page.w, h: L.page.y + L.page.h - L.header.y })}"><div id="busyText">Please wait...</div></div>`,
    `<div class="status"><span id="statusText">Ready</span><span class="keys">F3 Search  F5 Verify  F6-F9 Tabs  F12 Save  Esc Cancel</span></div>`,
    dialogs(),
    `</div>`,
  ].join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${APP_NAME}</title><style>${CSS}</style></head><body>${body}<script>${PAGE_SCRIPT}</script></body></html>`;
}
