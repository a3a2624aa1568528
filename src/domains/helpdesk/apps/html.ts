/**
 * Page helpers shared by the helpdesk and shop admin apps: HTML escaping, money and date
 * formatting, the page frame with each product's look, flash messages, and the small client script
 * every page carries (a submitted form shows a loading state and cannot be sent twice).
 */

/** Escapes text for HTML element content and attribute values. */
export function esc(v: unknown): string {
  return String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** `$1,234.56` for integer cents. */
export function usd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const a = Math.abs(cents);
  return `${sign}$${Math.floor(a / 100).toLocaleString('en-US')}.${String(a % 100).padStart(2, '0')}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `Nov 15, 2026` for an ISO date or time (UTC); an em dash for null. */
export function day(iso: string | null): string {
  if (!iso) return '—';
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number);
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

/** `Nov 15, 2026, 08:12` for an ISO time (UTC). */
export function stamp(iso: string): string {
  return `${day(iso)}, ${iso.slice(11, 16)}`;
}

/** A product's look: its name, accent colour and navigation links. */
export interface Brand {
  product: string;
  accent: string;
  nav: [href: string, label: string][];
}

/** The loading-state script: on submit, the form is marked busy and its buttons disabled and relabelled. */
const CLIENT_JS = `document.addEventListener('submit', function (e) {
  var f = e.target; if (f.getAttribute('aria-busy') === 'true') { e.preventDefault(); return; }
  f.setAttribute('aria-busy', 'true');
  setTimeout(function () { f.querySelectorAll('button').forEach(function (b) { b.disabled = true; if (b === e.submitter) b.textContent = 'Working…'; }); }, 0);
});`;

const CSS = (accent: string) => `*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,sans-serif;color:#1d2430;background:#f4f5f7}
header.top{display:flex;gap:18px;align-items:center;background:${accent};color:#fff;padding:8px 16px}header.top a{color:#fff;text-decoration:none;opacity:.9;margin-right:16px}
header.top .product{font-weight:700;margin-right:12px}main{padding:16px}.cols{display:flex;gap:16px;align-items:flex-start}
.panel{background:#fff;border:1px solid #d8dce3;border-radius:6px;padding:12px 14px;margin-bottom:12px}.grow{flex:1;min-width:0}aside.side{width:360px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #eceef2;vertical-align:top}th{font-size:12px;color:#5b6576;text-transform:uppercase}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;background:#e8ebf0}.badge.open{background:#ffe8c2}.badge.closed{background:#d8f1dc}.badge.pending{background:#dfe8ff}
.msg{border-left:3px solid #c9ced8;padding:6px 10px;margin:8px 0;white-space:pre-wrap}.msg.agent{border-color:${accent}}.msg.note{background:#fff8dc;border-color:#e0b400}
.flash{padding:8px 12px;border-radius:4px;margin-bottom:12px}.flash.ok{background:#dff3e4}.flash.error{background:#fde2e1;color:#8a1c14}
label{display:block;margin:6px 0 2px;font-weight:600}input,select,textarea{font:inherit;padding:5px 7px;border:1px solid #b9c0cc;border-radius:4px}textarea{width:100%;min-height:150px}
button{font:inherit;padding:6px 12px;border-radius:4px;border:1px solid ${accent};background:${accent};color:#fff;cursor:pointer}button.secondary{background:#fff;color:${accent}}a[role=button]{display:inline-block;padding:5px 12px;border-radius:4px;border:1px solid ${accent};background:${accent};color:#fff;text-decoration:none;margin:2px 4px 2px 0}button[disabled]{opacity:.6}
.row{display:flex;gap:8px;align-items:flex-end;flex-wrap:wrap}.muted{color:#6b7486}nav.views a{display:block;padding:4px 0}nav.views a[aria-current=page]{font-weight:700}
fieldset{border:1px solid #d8dce3;border-radius:4px}`;

/** A whole page: the product's top bar, an optional flash, and `body` (already HTML). */
export function page(brand: Brand, title: string, body: string, flash?: { kind: 'ok' | 'error'; text: string } | null): string {
  const nav = brand.nav.map(([href, label]) => `<a href="${esc(href)}">${esc(label)}</a>`).join('');
  const note = flash ? `<div class="flash ${flash.kind}" role="${flash.kind === 'error' ? 'alert' : 'status'}">${esc(flash.text)}</div>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · ${esc(brand.product)}</title><style>${CSS(brand.accent)}</style></head>
<body><header class="top" role="banner"><span class="product">${esc(brand.product)}</span><nav aria-label="Main">${nav}</nav></header>
<main>${note}<div class="cols">${body}</div></main><script>${CLIENT_JS}</script></body></html>`;
}

/** A flash message carried in the query string after a redirect (`?ok=…` or `?error=…`). */
export function flashOf(q: (k: string) => string | undefined): { kind: 'ok' | 'error'; text: string } | null {
  const ok = q('ok');
  const error = q('error');
  return error ? { kind: 'error', text: error } : ok ? { kind: 'ok', text: ok } : null;
}

/** `path?key=value…`, skipping empty values. */
export function withQuery(path: string, params: Record<string, string | undefined>): string {
  const q = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => !!e[1])).toString();
  return q ? `${path}${path.includes('?') ? '&' : '?'}${q}` : path;
}

/** The text of a back-end error result (`Error: …` → `…`). */
export const errorText = (result: string): string => result.replace(/^Error:\s*/, '');
