/**
 * TellerLink/32's behaviour, as the script of its page (plain ES2017 run in the browser). Every
 * back-end read and write goes through `window.sgBackend(name, argsJson)` to the banking tools
 * (find_customers, get_customer_profile, verify_identity, update_mailing_address, block_card,
 * order_replacement_card, record_call_outcome); `window.__sgPending` counts operations in flight
 * so the surface knows when a click's back-end calls are done. Screen changes (search results,
 * opening a customer, switching tabs) show a busy screen for `__sgOptions.transitionMs`.
 *
 * The app enforces what the back-end enforces, and no more: like the legacy systems it imitates,
 * it lets an operator skip verification or pick any delivery option; the call script is the
 * operator's to follow.
 */
export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var T = (window.__sgOptions && window.__sgOptions.transitionMs) || 0;
  var $ = function (id) { return document.getElementById(id); };
  var S = { results: [], sel: -1, customer: null, verification: null, tab: 'profile', card: -1, modal: null };
  window.__sgPending = 0;
  var FIELD_NAMES = { date_of_birth: 'date of birth', ssn_last4: 'SSN last 4', phone: 'phone', zip: 'ZIP code' };

  function call(name, args) {
    return window.sgBackend(name, JSON.stringify(args)).then(function (out) {
      if (out.error) return { ok: false, error: String(out.result).replace(/^Error: /, '') };
      var data; try { data = JSON.parse(out.result); } catch (e) { data = out.result; }
      return { ok: true, data: data };
    });
  }
  function op(fn) {
    window.__sgPending++;
    return Promise.resolve().then(fn).catch(function (e) { showError('System error: ' + e); }).then(function () { window.__sgPending--; });
  }
  function status(text) { $('statusText').textContent = text; }
  function showError(text) {
    $('errText').textContent = text; $('errDlg').style.display = 'block'; S.modal = 'err'; $('errOk').focus();
    status('Error');
  }
  function closeError() { $('errDlg').style.display = 'none'; S.modal = S.cardDlgOpen ? 'card' : null; }
  function transition(text, render) {
    $('busyText').textContent = text; $('busy').style.display = 'block';
    setTimeout(function () { render(); $('busy').style.display = 'none'; }, T);
  }
  function pad(s, n) { s = String(s); while (s.length < n) s += ' '; return s; }
  function addrLines(a) { return [a.line1 + (a.line2 ? ', ' + a.line2 : ''), a.city + ', ' + a.state + ' ' + a.zip].join('\n'); }

  function renderResults() {
    var box = $('results'); box.innerHTML = '';
    S.results.forEach(function (r, i) {
      var d = document.createElement('div'); d.className = 'row' + (i === S.sel ? ' sel' : ''); d.style.top = (2 + i * 20) + 'px';
      d.textContent = pad((r.last_name + ', ' + r.first_name).toUpperCase(), 15) + pad(r.city.toUpperCase(), 13).slice(0, 13) + r.state + ' ' + r.zip;
      d.onmousedown = function () { S.sel = i; renderResults(); };
      d.ondblclick = function () { S.sel = i; openCustomer(); };
      box.appendChild(d);
    });
    if (!S.results.length) box.innerHTML = '<div class="row" style="top:2px;color:#808080">(no customers found)</div>';
  }
  function search() {
    var last = $('lastName').value.trim(), first = $('firstName').value.trim();
    if (!last || !first) { showError('Enter the last name and the first name.'); return; }
    op(function () {
      return call('find_customers', { first_name: first, last_name: last }).then(function (r) {
        if (!r.ok) { showError(r.error); return; }
        status('Searching...');
        transition('Searching customer index...', function () { S.results = r.data; S.sel = r.data.length ? 0 : -1; renderResults(); status(r.data.length + ' customer(s) found'); });
      });
    });
  }
  function loadProfile(id, then) {
    return call('get_customer_profile', { customer_id: id }).then(function (r) {
      if (!r.ok) { showError(r.error); return; }
      S.customer = r.data; if (then) then();
    });
  }
  function openCustomer() {
    if (S.sel < 0 || !S.results[S.sel]) { showError('Select a customer in the search results first.'); return; }
    var id = S.results[S.sel].customer_id;
    op(function () {
      return loadProfile(id, function () {
        S.verification = null; S.card = -1;
        ['dob', 'ssn', 'zip', 'phone', 'addrLine1', 'addrLine2', 'addrCity', 'addrState', 'addrZip', 'notes'].forEach(function (f) { $(f).value = ''; });
        document.querySelectorAll('input[name=outcome]').forEach(function (x) { x.checked = false; });
        transition('Retrieving customer record...', function () { renderCustomer(); showTab('profile', true); status('Customer record opened'); });
      });
    });
  }
  function renderCustomer() {
    var c = S.customer;
    $('header').textContent = c ? (c.first_name + ' ' + c.last_name).toUpperCase() + '    ' + c.customer_id + '    TIER: ' + c.tier.toUpperCase() : 'No customer open';
    renderVerification();
    if (!c) return;
    $('profileText').textContent = [
      'Name           ' + c.first_name + ' ' + c.last_name, 'Customer id    ' + c.customer_id, 'Tier           ' + c.tier,
      'Customer since ' + c.customer_since, 'Phone          ' + c.phone, 'E-mail         ' + c.email,
      'Accounts       ' + c.accounts.map(function (a) { return a.account_id + ' ' + a.product + ' (' + a.status + ')'; }).join('; ')
    ].join('\n');
    $('addrOnFile').textContent = addrLines(c.mailing_address);
    renderCards();
  }
  function renderCards() {
    var box = $('cardRows'); box.innerHTML = '';
    (S.customer ? S.customer.cards : []).forEach(function (k, i) {
      var d = document.createElement('div'); d.className = 'row' + (i === S.card ? ' sel' : ''); d.style.top = (2 + i * 20) + 'px';
      d.textContent = pad(k.network, 12) + pad('**** ' + k.last4, 14) + pad(String(k.status).toUpperCase(), 12) + k.account_id;
      d.onmousedown = function () { S.card = i; renderCards(); };
      box.appendChild(d);
    });
  }
  function renderVerification() {
    var v = S.verification, el = $('verifyStatus');
    if (!S.customer) { el.textContent = ''; return; }
    if (!v) { el.style.color = '#606060'; el.textContent = 'NOT VERIFIED'; return; }
    el.style.color = v.verified ? '#006000' : '#c00000';
    el.textContent = v.verified ? 'VERIFIED (' + v.matched.length + ' fields)' : 'VERIFICATION FAILED\n' + v.mismatched.map(function (f) { return FIELD_NAMES[f]; }).join(', ') + ' did not match';
  }
  function verify() {
    if (!S.customer) { showError('Open a customer record first.'); return; }
    var args = { customer_id: S.customer.customer_id }, n = 0;
    [['dob', 'date_of_birth'], ['ssn', 'ssn_last4'], ['zip', 'zip'], ['phone', 'phone']].forEach(function (p) { var v = $(p[0]).value.trim(); if (v) { args[p[1]] = v; n++; } });
    if (n < 2) { showError('Enter at least two identification fields.'); return; }
    op(function () {
      return call('verify_identity', args).then(function (r) {
        if (!r.ok) { showError(r.error); return; }
        S.verification = r.data; renderVerification(); status(r.data.verified ? 'Caller verified' : 'Verification failed');
      });
    });
  }
  function showTab(name, now) {
    var render = function () {
      S.tab = name;
      ['profile', 'addresses', 'cards', 'wrapup'].forEach(function (t) {
        $('page-' + t).style.display = t === name && S.customer ? 'block' : 'none';
        $('tab' + t[0].toUpperCase() + t.slice(1)).className = 'tab' + (t === name ? ' on' : '');
      });
    };
    if (now) render(); else transition('Loading...', render);
  }
  function saveAddress() {
    if (!S.customer) { showError('Open a customer record first.'); return; }
    var a = { customer_id: S.customer.customer_id, line1: $('addrLine1').value, line2: $('addrLine2').value || null, city: $('addrCity').value, state: $('addrState').value, zip: $('addrZip').value };
    op(function () {
      return call('update_mailing_address', a).then(function (r) {
        if (!r.ok) { showError(r.error); return; }
        return loadProfile(S.customer.customer_id, function () { renderCustomer(); status('Mailing address saved'); });
      });
    });
  }
  function openCardDialog() {
    if (!S.customer) { showError('Open a customer record first.'); return; }
    var k = S.customer.cards[S.card];
    if (!k) { showError('Select a card first.'); return; }
    document.querySelectorAll('input[name=reason],input[name=delivery]').forEach(function (x) { x.checked = false; });
    document.querySelector('input[name=delivery][value=standard]').checked = true;
    $('waiveFee').checked = false;
    $('dlgCard').textContent = k.network + ' debit card **** ' + k.last4 + ' (' + String(k.status).toUpperCase() + ')';
    $('cardDlg').style.display = 'block'; S.cardDlgOpen = true; S.modal = 'card';
  }
  function closeCardDialog() { $('cardDlg').style.display = 'none'; S.cardDlgOpen = false; S.modal = null; }
  function orderCard() {
    var k = S.customer.cards[S.card];
    var reasonEl = document.querySelector('input[name=reason]:checked');
    var delivery = document.querySelector('input[name=delivery]:checked').value;
    var waive = $('waiveFee').checked;
    if (k.status === 'active' && !reasonEl) { showError('Select a block reason: the card is still active.'); return; }
    if (waive && delivery !== 'expedited') { showError('Only the expedited delivery fee can be waived.'); return; }
    closeCardDialog();
    op(function () {
      var first = k.status === 'active' ? call('block_card', { card_id: k.card_id, reason: reasonEl.value }) : Promise.resolve({ ok: true });
      return first.then(function (b) {
        if (!b.ok) { showError(b.error); return; }
        var args = { card_id: k.card_id, delivery: delivery }; if (waive) args.waive_expedited_fee = true;
        return call('order_replacement_card', args).then(function (r) {
          return loadProfile(S.customer.customer_id, function () {
            renderCustomer();
            if (!r.ok) { showError(r.error); return; }
            status('Replacement ordered: ' + r.data.order_id + ', ' + r.data.delivery + ', fee $' + (r.data.fee_cents / 100).toFixed(2));
          });
        });
      });
    });
  }
  function saveCall() {
    if (!S.customer) { showError('Open a customer record first.'); return; }
    var code = document.querySelector('input[name=outcome]:checked');
    if (!code) { showError('Select a call outcome code.'); return; }
    var v = S.verification;
    var args = { customer_id: S.customer.customer_id, outcome_code: code.value, verified_fields: v && v.verified ? v.matched : [], notes: $('notes').value.trim() };
    op(function () {
      return call('record_call_outcome', args).then(function (r) {
        if (!r.ok) { showError(r.error); return; }
        status('Call record ' + r.data.call_id + ' saved');
      });
    });
  }

  var guard = function (fn) { return function () { if (!S.modal) fn(); }; };
  $('searchBtn').onclick = guard(search);
  $('openBtn').onclick = guard(openCustomer);
  $('verifyBtn').onclick = guard(verify);
  $('saveAddrBtn').onclick = guard(saveAddress);
  $('replaceBtn').onclick = guard(openCardDialog);
  $('saveCallBtn').onclick = guard(saveCall);
  $('dlgOk').onclick = function () { if (S.modal === 'card') orderCard(); };
  $('dlgCancel').onclick = function () { if (S.modal === 'card') closeCardDialog(); };
  $('errOk').onclick = closeError;
  [['tabProfile', 'profile'], ['tabAddresses', 'addresses'], ['tabCards', 'cards'], ['tabWrapup', 'wrapup']].forEach(function (p) {
    $(p[0]).onmousedown = guard(function () { if (S.customer) showTab(p[1]); });
  });
  document.addEventListener('keydown', function (e) {
    var k = e.key;
    if (S.modal === 'err') { if (k === 'Enter' || k === 'Escape' || k === ' ') { e.preventDefault(); closeError(); } else if (k !== 'Tab') e.preventDefault(); return; }
    if (S.modal === 'card') {
      if (k === 'Escape') { e.preventDefault(); closeCardDialog(); } else if (k === 'Enter') { e.preventDefault(); orderCard(); }
      return;
    }
    var fkeys = { F3: search, F5: verify, F6: function () { if (S.customer) showTab('profile'); }, F7: function () { if (S.customer) showTab('addresses'); },
      F8: function () { if (S.customer) showTab('cards'); }, F9: function () { if (S.customer) showTab('wrapup'); },
      F12: function () { if (S.tab === 'addresses') saveAddress(); else if (S.tab === 'wrapup') saveCall(); } };
    if (/^F\d+$/.test(k)) { e.preventDefault(); if (fkeys[k]) fkeys[k](); return; }
    if (k === 'Enter' && (e.target.id === 'lastName' || e.target.id === 'firstName')) { e.preventDefault(); search(); return; }
    if (k === 'Enter' && e.target.id === 'results') { e.preventDefault(); openCustomer(); return; }
    if (e.target.id === 'results' && (k === 'ArrowDown' || k === 'ArrowUp') && S.results.length) {
      e.preventDefault(); S.sel = Math.max(0, Math.min(S.results.length - 1, S.sel + (k === 'ArrowDown' ? 1 : -1))); renderResults();
    }
  });
  document.addEventListener('contextmenu', function (e) { e.preventDefault(); });
  renderCustomer(); renderResults(); showTab('profile', true);
  $('results').innerHTML = '';
  $('lastName').focus();
})();
`;
