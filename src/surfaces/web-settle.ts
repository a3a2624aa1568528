/**
 * How the web surface knows a page has settled after a browser action, from signals the page
 * itself gives rather than fixed idle windows (no `networkidle`-style 500 ms of silence):
 *
 * - **the page's own requests**: {@link PAGE_PROBE_SCRIPT} runs in every document before the
 *   app's scripts (a context init script) and counts the `fetch` and `XMLHttpRequest` calls the
 *   page has started and whose answer (body included) has not arrived yet;
 * - **a navigation**: the same probe notes when the document is being left (a link, a form's
 *   submit or redirect, `location.assign`), so the wait goes on in the next document;
 * - **the app's loading states**: no element is `aria-busy="true"`;
 * - **the document**: `readyState` is `complete` (the load event has fired).
 *
 * {@link OBSERVE_SCRIPT} waits in the page for all four (looked at first after a task turn, so
 * handlers the action triggered have run, then every {@link POLL_MS} ms) and takes the snapshot
 * in the same call: one round trip per observation.
 */

/** How often the in-page wait looks again, in ms. */
export const POLL_MS = 10;

/**
 * The probe (a context init script; plain browser JavaScript): defines `window.__sgProbe` with
 * `inflight` (the page's requests without a full answer) and `leaving` (the document is being
 * left). Idempotent per document.
 */
export const PAGE_PROBE_SCRIPT = String.raw`(() => {
  if (window.__sgProbe) return;
  const probe = { inflight: 0, leaving: false };
  Object.defineProperty(window, '__sgProbe', { value: probe });
  const done = () => { probe.inflight = Math.max(0, probe.inflight - 1); };
  const fetch0 = window.fetch;
  if (fetch0) {
    window.fetch = function (...args) {
      probe.inflight++;
      let p;
      try { p = fetch0.apply(this, args); } catch (e) { done(); throw e; }
      return p.then((res) => {
        // the request is over when its body has arrived (as the app's own .text()/.json() sees it)
        try { res.clone().arrayBuffer().then(done, done); } catch { done(); }
        return res;
      }, (e) => { done(); throw e; });
    };
  }
  const send0 = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function (...args) {
    probe.inflight++;
    this.addEventListener('loadend', done, { once: true });
    try { return send0.apply(this, args); } catch (e) { done(); throw e; }
  };
  const leave = () => { probe.leaving = true; };
  if (window.navigation && window.navigation.addEventListener) {
    window.navigation.addEventListener('navigate', (e) => { if (!e.destination || !e.destination.sameDocument) leave(); });
  }
  window.addEventListener('beforeunload', leave);
  window.addEventListener('pagehide', leave);
})()`;

/**
 * The in-page observation: `(timeoutMs, start, snapshot) => { settled, settleMs, snapshotMs,
 * ...snapshot(start) }`. Waits until the page has settled (see the module doc) or `timeoutMs`
 * has passed, then takes the snapshot. While the document is being left it keeps waiting (the
 * call then ends with the document; the caller takes the next one).
 */
export const OBSERVE_SCRIPT = String.raw`async (timeoutMs, start, snapshot) => {
  const t0 = performance.now();
  const probe = window.__sgProbe || { inflight: 0, leaving: false };
  const idle = () => document.readyState === 'complete' && !probe.leaving && probe.inflight <= 0 && !document.querySelector('[aria-busy="true"]');
  const turn = (ms) => new Promise((r) => setTimeout(r, ms));
  await turn(0);
  let settled = idle();
  while (!settled && performance.now() - t0 < timeoutMs) {
    await turn(${POLL_MS});
    settled = idle();
  }
  const t1 = performance.now();
  const snap = snapshot(start);
  return Object.assign(snap, { settled, settleMs: t1 - t0, snapshotMs: performance.now() - t1 });
}`;
