/**
 * Finding and readying the element of a browser action in one call into the page
 * ({@link TARGET_SCRIPT}), so that an action costs the input events themselves and little more:
 * the element of the ref is looked up, waited for until it can take the action (attached,
 * visible, enabled; for a click, scrolled into view and not covered by another element at its
 * centre; for typing, editable), and then
 *
 * - `click`: answers the point to click (CSS pixels of the viewport); the surface sends real
 *   mouse events there;
 * - `fill`: focuses the field and selects its text, as playwright's `fill` does (date-like inputs
 *   get their value set directly, with `input` and `change` events); the surface then inserts
 *   the text as real keyboard input, or presses Delete for an empty text;
 * - `select`: chooses the option named by label (first) or value in a drop-down and fires
 *   `input` and `change`, as playwright's `selectOption` does.
 *
 * A ref that is not on the page answers at once (`gone`); an element that does not become
 * actionable within the wait answers why (`disabled`, `not visible`, `covered by ...`).
 */

/** What {@link TARGET_SCRIPT} answers. */
export type TargetAnswer =
  | { ok: true; x?: number; y?: number; needsInput?: boolean }
  | { ok: false; gone?: true; reason?: string; options?: { label: string; value: string }[]; notSelect?: true };

/** What an action needs of its element. */
export type TargetKind = 'click' | 'fill' | 'select';

/**
 * The in-page script: `(ref, kind, arg, waitMs) => TargetAnswer`; `arg` is the text for `fill`
 * and the wanted option for `select`. Kept as a string so the bundle carries no DOM types.
 */
export const TARGET_SCRIPT = String.raw`async (ref, kind, arg, waitMs) => {
  const find = () => document.querySelector('[data-sg-ref="' + ref + '"]');
  if (!find()) return { ok: false, gone: true };
  const describe = (el) => {
    const role = el.getAttribute('role') || el.tagName.toLowerCase();
    const name = (el.getAttribute('aria-label') || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 60);
    return role + (name ? ' "' + name + '"' : '');
  };
  const disabled = (el) => el.disabled === true || el.getAttribute('aria-disabled') === 'true' || !!el.closest('fieldset[disabled]');
  const visible = (el) => {
    if (!el.isConnected) return false;
    if (el.checkVisibility && !el.checkVisibility({ visibilityProperty: true })) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const check = () => {
    const el = find();
    if (!el) return { reason: 'is no longer on the page' };
    if (!visible(el)) return { reason: 'is not visible' };
    if (kind === 'select') {
      if (el.tagName !== 'SELECT') return { answer: { ok: false, notSelect: true } };
      if (disabled(el)) return { reason: 'is disabled' };
      return { el };
    }
    if (disabled(el)) return { reason: 'is disabled' };
    if (kind === 'fill') {
      if (el.readOnly === true || el.getAttribute('aria-readonly') === 'true') return { reason: 'is read-only' };
      return { el };
    }
    const rects = Array.from(el.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
    let r = rects[0] || el.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      const again = Array.from(el.getClientRects()).filter((q) => q.width > 0 && q.height > 0);
      r = again[0] || el.getBoundingClientRect();
    }
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (hit && hit !== el && !el.contains(hit) && !(el.tagName === 'LABEL' && el.control === hit)) return { reason: 'is covered by ' + describe(hit) };
    return { el, x, y };
  };
  const t0 = performance.now();
  let c = check();
  while (!c.el && !c.answer && performance.now() - t0 < waitMs) {
    await new Promise((r) => setTimeout(r, 16));
    c = check();
  }
  if (c.answer) return c.answer;
  if (!c.el) return { ok: false, reason: c.reason };
  const el = c.el;
  const fire = (type) => el.dispatchEvent(new Event(type, { bubbles: true, composed: true }));
  if (kind === 'click') return { ok: true, x: c.x, y: c.y };
  if (kind === 'select') {
    const options = Array.from(el.options).map((o) => ({ label: o.label.trim(), value: o.value }));
    const want = String(arg).trim();
    let i = options.findIndex((o) => o.label === want);
    if (i < 0) i = options.findIndex((o) => o.value === arg);
    if (i < 0) return { ok: false, options };
    Array.from(el.options).forEach((o, j) => { o.selected = j === i; });
    fire('input');
    fire('change');
    return { ok: true };
  }
  if (el.tagName === 'INPUT') {
    const type = (el.type || '').toLowerCase();
    const setValue = ['color', 'date', 'time', 'datetime-local', 'month', 'range', 'week'];
    const typeInto = ['', 'email', 'number', 'password', 'search', 'tel', 'text', 'url'];
    if (!setValue.includes(type) && !typeInto.includes(type)) return { ok: false, reason: 'is an input of type "' + type + '", which cannot be typed into' };
    if (type === 'number' && isNaN(Number(String(arg).trim()))) return { ok: false, reason: 'is a number field and "' + arg + '" is not a number' };
    if (setValue.includes(type)) {
      el.focus();
      el.value = String(arg).trim();
      if (el.value !== String(arg).trim()) return { ok: false, reason: 'does not take the value "' + arg + '"' };
      fire('input');
      fire('change');
      return { ok: true, needsInput: false };
    }
    el.focus();
    el.select();
    return { ok: true, needsInput: true };
  }
  if (el.tagName === 'TEXTAREA') {
    el.focus();
    el.select();
    return { ok: true, needsInput: true };
  }
  if (!el.isContentEditable) return { ok: false, reason: 'is not a text field (an input, a textarea or an editable element)' };
  el.focus();
  const range = document.createRange();
  range.selectNodeContents(el);
  const sel = getSelection();
  sel.removeAllRanges();
  sel.addRange(range);
  return { ok: true, needsInput: true };
}`;
