/**
 * The accessibility snapshot of the web surface: a text outline of the page as assistive
 * technology sees it — one line per node with its role, accessible name, value and state, and an
 * element ref (`[ref=e12]`) on every element the agent can act on, as the field's browser agents
 * give it (Playwright MCP, BrowserGym's AXTree with bids):
 *
 * ```
 * - banner
 *   - link "Home" [ref=e1]
 *   - searchbox "Search the console" [ref=e2]
 * - main
 *   - heading "Case 00012877" [level=1]
 *   - combobox "Status" [ref=e7]: "New"
 *     - option "New" [selected]
 *   - button "Save" [ref=e9]
 * ```
 *
 * Refs live as `data-sg-ref` attributes on the page's elements. An element keeps its ref across
 * snapshots of the same document; new elements get the next number of the episode's counter, so
 * a ref never names two different elements within an episode: a ref from a page that has since
 * been left is reported as stale, never silently matched to another element.
 *
 * The walk runs in the page (`SNAPSHOT_SCRIPT`, plain browser JavaScript): hidden nodes
 * (`hidden`, `aria-hidden`, `display: none`, `visibility: hidden`) are skipped; roles come from
 * `role` or the element's implicit role; names from `aria-labelledby`, `aria-label`, a `<label>`,
 * `alt`, the content (links, buttons, headings, cells, options), `placeholder` or `title`.
 */

/** What one snapshot gave: the outline, the page title and URL, and the episode's next ref number. */
export interface PageSnapshot {
  title: string;
  url: string;
  /** The outline, one node per line (see the module doc). */
  text: string;
  /** The ref counter after this snapshot (pass it to the next one). */
  next: number;
}

/**
 * The in-page walk: `(start: number) => { title, url, text, next }`; refs are numbered from
 * `start + 1`. Kept as a string so the bundle carries no DOM types.
 */
export const SNAPSHOT_SCRIPT = String.raw`(start) => {
  let next = start;
  const lines = [];
  const TAG_ROLE = { A: 'link', BUTTON: 'button', SELECT: 'combobox', TEXTAREA: 'textbox', NAV: 'navigation', MAIN: 'main', HEADER: 'banner', FOOTER: 'contentinfo', ASIDE: 'complementary', FORM: 'form', TABLE: 'table', THEAD: 'rowgroup', TBODY: 'rowgroup', TR: 'row', TH: 'columnheader', TD: 'cell', UL: 'list', OL: 'list', LI: 'listitem', DIALOG: 'dialog', IMG: 'img', H1: 'heading', H2: 'heading', H3: 'heading', H4: 'heading', H5: 'heading', H6: 'heading', OPTION: 'option', FIELDSET: 'group', LABEL: 'label', P: 'paragraph', DL: 'list', DT: 'term', DD: 'definition', PROGRESS: 'progressbar' };
  const INPUT_ROLE = { checkbox: 'checkbox', radio: 'radio', search: 'searchbox', button: 'button', submit: 'button', reset: 'button', number: 'spinbutton', range: 'slider' };
  const INTERACTIVE = new Set(['link', 'button', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'option', 'tab', 'menuitem', 'switch', 'spinbutton', 'slider', 'listbox', 'treeitem']);
  const NAME_FROM_CONTENT = new Set(['link', 'button', 'heading', 'cell', 'columnheader', 'rowheader', 'option', 'tab', 'menuitem', 'treeitem', 'term', 'definition', 'label']);
  const LEAF = new Set(['button', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'img', 'spinbutton', 'slider', 'progressbar', 'option', 'label']);
  const clean = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const hidden = (el) => {
    if (el.hidden || el.getAttribute('aria-hidden') === 'true') return true;
    if (el.tagName === 'INPUT' && el.type === 'hidden') return true;
    if (['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'DATALIST'].includes(el.tagName)) return true;
    const cs = getComputedStyle(el);
    return cs.display === 'none' || cs.visibility === 'hidden';
  };
  const roleOf = (el) => {
    const explicit = el.getAttribute('role');
    if (explicit) return explicit.split(' ')[0];
    if (el.tagName === 'INPUT') return INPUT_ROLE[el.type] || 'textbox';
    if (el.tagName === 'A' && !el.hasAttribute('href')) return '';
    if (el.tagName === 'SECTION' && (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby'))) return 'region';
    if (el.tagName === 'SELECT' && (el.multiple || el.size > 1)) return 'listbox';
    return TAG_ROLE[el.tagName] || '';
  };
  const textOf = (el) => {
    if (el.nodeType === 3) return el.textContent;
    if (el.nodeType !== 1 || hidden(el)) return '';
    if (el.tagName === 'IMG') return el.getAttribute('alt') || '';
    if (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA') return '';
    const label = el.getAttribute('aria-label');
    if (label) return label;
    return Array.from(el.childNodes).map(textOf).join(' ');
  };
  const byIds = (ids) => ids.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean).map((e) => clean(e.getAttribute('aria-label') || textOf(e))).join(' ');
  const nameOf = (el, role) => {
    const lb = el.getAttribute('aria-labelledby');
    if (lb) return clean(byIds(lb));
    const al = el.getAttribute('aria-label');
    if (al) return clean(al);
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) {
      if (['submit', 'button', 'reset'].includes(el.type)) return clean(el.value);
      const labels = el.labels ? Array.from(el.labels).map((l) => clean(textOf(l))).filter(Boolean) : [];
      if (labels.length) return labels.join(' ');
      return clean(el.getAttribute('placeholder') || el.getAttribute('title') || '');
    }
    if (el.tagName === 'IMG') return clean(el.getAttribute('alt') || el.getAttribute('title') || '');
    if (el.tagName === 'FIELDSET') { const lg = el.querySelector('legend'); if (lg) return clean(textOf(lg)); }
    if (el.tagName === 'TABLE') { const cap = el.querySelector('caption'); if (cap) return clean(textOf(cap)); }
    if (NAME_FROM_CONTENT.has(role)) return clean(textOf(el)) || clean(el.getAttribute('title') || '');
    return clean(el.getAttribute('title') || '');
  };
  const quote = (s) => JSON.stringify(s.length > 200 ? s.slice(0, 197) + '...' : s);
  const states = (el, role) => {
    const out = [];
    const level = /^H([1-6])$/.exec(el.tagName);
    if (role === 'heading') out.push('level=' + (el.getAttribute('aria-level') || (level ? level[1] : '2')));
    if (el.checked === true || el.getAttribute('aria-checked') === 'true') out.push('checked');
    if (el.disabled === true || el.getAttribute('aria-disabled') === 'true') out.push('disabled');
    if (el.required === true || el.getAttribute('aria-required') === 'true') out.push('required');
    if (el.getAttribute('aria-invalid') === 'true') out.push('invalid');
    if (el.getAttribute('aria-expanded')) out.push(el.getAttribute('aria-expanded') === 'true' ? 'expanded' : 'collapsed');
    if ((role === 'option' && el.selected === true) || el.getAttribute('aria-selected') === 'true') out.push('selected');
    if (el.getAttribute('aria-current') && el.getAttribute('aria-current') !== 'false') out.push('current');
    if (el.getAttribute('aria-busy') === 'true') out.push('busy');
    if (el.readOnly === true) out.push('readonly');
    return out.map((s) => ' [' + s + ']').join('');
  };
  const valueOf = (el, role) => {
    if (el.tagName === 'SELECT') { const o = el.selectedOptions && el.selectedOptions[0]; return o ? clean(o.textContent) : ''; }
    if (el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' && !['checkbox', 'radio', 'submit', 'button', 'reset'].includes(el.type))) return el.value;
    if (role === 'progressbar') return el.getAttribute('aria-valuetext') || el.getAttribute('value') || '';
    return null;
  };
  const refOf = (el) => {
    let ref = el.getAttribute('data-sg-ref');
    if (!ref) { ref = 'e' + (++next); el.setAttribute('data-sg-ref', ref); }
    return ref;
  };
  const walk = (node, depth) => {
    const pad = '  '.repeat(depth);
    if (node.nodeType === 3) {
      const t = clean(node.textContent);
      if (t) lines.push(pad + '- text: ' + (t.length > 300 ? t.slice(0, 297) + '...' : t));
      return;
    }
    if (node.nodeType !== 1 || hidden(node)) return;
    const el = node;
    const role = roleOf(el);
    if (role === 'label' && el.control) {
      // the label's text is its control's name: only the control (and other elements) are shown
      for (const c of el.children) walk(c, depth);
      return;
    }
    if (!role || role === 'presentation' || role === 'none' || role === 'paragraph' || role === 'rowgroup') {
      for (const c of el.childNodes) walk(c, depth);
      return;
    }
    const name = nameOf(el, role);
    let line = pad + '- ' + role + (name ? ' ' + quote(name) : '');
    line += states(el, role);
    if (INTERACTIVE.has(role) || el.hasAttribute('tabindex') && el.tabIndex >= 0) line += ' [ref=' + refOf(el) + ']';
    const value = valueOf(el, role);
    if (value !== null && value !== '') line += ': ' + quote(value);
    const elementKids = Array.from(el.children).some((c) => !hidden(c) && (roleOf(c) || c.querySelector('a,button,input,select,textarea,[role]')));
    if (el.tagName === 'SELECT') {
      lines.push(line);
      for (const o of el.options) lines.push(pad + '  - option ' + quote(clean(o.textContent)) + (o.selected ? ' [selected]' : '') + (o.value !== clean(o.textContent) ? ' (value ' + quote(o.value) + ')' : ''));
      return;
    }
    if (LEAF.has(role) || (NAME_FROM_CONTENT.has(role) && !elementKids)) { lines.push(line); return; }
    if (!elementKids) {
      const t = clean(textOf(el));
      lines.push(t && t !== name ? line + ': ' + (t.length > 300 ? t.slice(0, 297) + '...' : t) : line);
      return;
    }
    lines.push(line);
    for (const c of el.childNodes) walk(c, depth + 1);
  };
  walk(document.body, 0);
  return { title: document.title, url: location.href, text: lines.join('\n'), next };
}`;

export { findRef, refLine } from '../util/snapshot-refs.js';
