/**
 * The console's page frame (Lumen Service Console, Halden Home Appliances): header with global
 * search, object navigation, the workspace tabs (the records opened in this session, loaded over
 * XHR; each closes with its own button), and the small client script every page shares — regions that load
 * their content over XHR (`data-src`, `aria-busy` while loading), forms that submit over XHR
 * (`data-api`; busy and the submit button disabled while the request runs; field errors marked
 * `aria-invalid` and announced in a `role="alert"`), and lookup
 * fields (a combobox whose suggestions come from the back-end as a listbox of options).
 */
import type { ConsoleObject } from '../schema.js';

export const APP_NAME = 'Lumen Service Console';

/** HTML-escapes text. */
export const esc = (s: unknown): string => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Object labels: plural for lists, singular for records. */
export const LABELS: Record<ConsoleObject, [plural: string, singular: string]> = {
  cases: ['Cases', 'Case'], accounts: ['Accounts', 'Account'], contacts: ['Contacts', 'Contact'], assets: ['Assets', 'Asset'],
  entitlements: ['Entitlements', 'Entitlement'], return_orders: ['Return Orders', 'Return Order'], tasks: ['Tasks', 'Task'],
};

const CSS = `
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,sans-serif;background:#eef2f1;color:#1c2b2a}
header{background:#0f4c4a;color:#fff;display:flex;align-items:center;gap:24px;padding:8px 20px}
header .brand{font-weight:700;letter-spacing:.3px}header form{flex:1;max-width:480px}header input{width:100%;padding:6px 10px;border-radius:16px;border:0}
nav.objects{background:#fff;border-bottom:1px solid #cfdad8;padding:0 20px;display:flex;gap:4px}
nav.objects a{padding:10px 12px;color:#0f4c4a;text-decoration:none;border-bottom:3px solid transparent}nav.objects a[aria-current=page]{border-color:#e07a2f;font-weight:600}
main{padding:18px 20px;max-width:1180px}h1{font-size:20px;margin:0 0 12px}h2{font-size:15px;margin:0 0 8px}
.card{background:#fff;border:1px solid #cfdad8;border-radius:8px;padding:14px 16px;margin-bottom:14px}
dl.fields{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:6px 24px;margin:0}dl.fields div{display:flex;gap:8px}dt{color:#5b6f6d;min-width:130px}dd{margin:0;font-weight:500}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e3eae9}th{color:#5b6f6d;font-weight:600;font-size:12px;text-transform:uppercase}
.actions{display:flex;gap:8px;margin-bottom:12px}.btn,button{background:#0f4c4a;color:#fff;border:0;border-radius:6px;padding:7px 14px;text-decoration:none;font:inherit;cursor:pointer}
.btn.secondary{background:#fff;color:#0f4c4a;border:1px solid #0f4c4a}
label{display:block;margin:10px 0 4px;color:#34504d;font-weight:600}input,select,textarea{font:inherit;padding:6px 8px;border:1px solid #9fb3b0;border-radius:5px;width:100%;max-width:440px}
[aria-invalid=true]{border-color:#c0392b;background:#fff5f4}.field-error{color:#c0392b;font-size:12px}.alert{background:#fdecea;border:1px solid #e6a39c;padding:8px 12px;border-radius:6px}
[aria-busy=true]{opacity:.55}[aria-busy=true]::before{content:"Loading…";display:block;color:#5b6f6d;font-style:italic}
ul[role=listbox]{list-style:none;margin:2px 0;padding:0;max-width:440px;border:1px solid #9fb3b0;border-radius:5px;background:#fff}ul[role=listbox] li{padding:6px 8px;cursor:pointer}ul[role=listbox] li:hover{background:#e6f1ef}
.workspace{display:flex;flex-wrap:wrap;gap:2px;padding:6px 20px 0;background:#dfe8e6;min-height:34px}.workspace .ws-tab{display:flex;align-items:center;background:#f5f8f7;border:1px solid #cfdad8;border-bottom:0;border-radius:6px 6px 0 0;max-width:260px}
.workspace a[role=tab]{padding:6px 8px;color:#1c2b2a;text-decoration:none;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}.workspace a[aria-selected=true]{font-weight:600;color:#0f4c4a}.workspace .ws-tab:has(a[aria-selected=true]){background:#fff;border-top:3px solid #e07a2f}
.workspace .ws-empty{margin:0 0 6px;color:#5b6f6d}.workspace button{background:none;color:#5b6f6d;padding:2px 8px}.feed li{margin-bottom:8px}.pill{display:inline-block;padding:1px 8px;border-radius:10px;background:#e6f1ef;font-size:12px}.pager{display:flex;gap:12px;align-items:center;margin-top:8px}`;

const SCRIPT = `
(function(){
  function load(el){ el.setAttribute('aria-busy','true'); return fetch(el.dataset.src).then(function(r){return r.text()}).then(function(h){ el.innerHTML=h; el.removeAttribute('aria-busy'); init(el); }); }
  function lookup(input){
    var list=document.getElementById(input.getAttribute('aria-controls')); var hidden=document.getElementById(input.dataset.target);
    input.addEventListener('input',function(){
      hidden.value=''; input.setAttribute('aria-busy','true');
      var u=input.dataset.lookup+(input.dataset.lookup.indexOf('?')<0?'?':'&')+'q='+encodeURIComponent(input.value);
      fetch(u).then(function(r){return r.json()}).then(function(rows){
        list.innerHTML=''; rows.forEach(function(row){ var li=document.createElement('li'); li.setAttribute('role','option'); li.textContent=row.title; li.dataset.value=row.id;
          li.addEventListener('click',function(){ hidden.value=row.id; input.value=row.title; list.hidden=true; input.setAttribute('aria-expanded','false'); }); list.appendChild(li); });
        if(!rows.length){ var none=document.createElement('li'); none.textContent='No matches'; list.appendChild(none); }
        list.hidden=false; input.setAttribute('aria-expanded','true'); input.removeAttribute('aria-busy'); });
    });
  }
  function submit(form){
    form.addEventListener('submit',function(ev){ ev.preventDefault(); form.setAttribute('aria-busy','true'); var btn=form.querySelector('button[type=submit]'); btn.disabled=true;
      form.querySelectorAll('[aria-invalid]').forEach(function(e){e.removeAttribute('aria-invalid')}); form.querySelectorAll('.field-error').forEach(function(e){e.remove()});
      var alert=form.querySelector('[role=alert]'); alert.hidden=true;
      fetch(form.dataset.api,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(Object.fromEntries(new FormData(form)))}).then(function(r){return r.json()}).then(function(out){
        if(out.redirect){ location.assign(out.redirect); return; }
        Object.keys(out.errors||{}).forEach(function(name){ var f=form.querySelector('[data-field="'+name+'"]'); if(!f) return; f.setAttribute('aria-invalid','true');
          var p=document.createElement('p'); p.className='field-error'; p.id='err-'+name; p.textContent=out.errors[name]; f.setAttribute('aria-describedby',p.id); f.insertAdjacentElement('afterend',p); });
        alert.textContent=out.message||'Review the errors on this page.'; alert.hidden=false; btn.disabled=false; form.removeAttribute('aria-busy'); });
    });
  }
  function closeTab(btn){ var bar=btn.closest('[data-tabs]'); bar.setAttribute('aria-busy','true');
    fetch('/ui/tabs/close',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({href:btn.dataset.close})}).then(function(r){return r.json()}).then(function(out){
      if(btn.dataset.close===location.pathname){ location.assign(out.next||'/o/cases?view=open'); return; } load(bar); }); }
  function init(root){ root.querySelectorAll('[data-tabs]').forEach(function(t){ t.dataset.src='/frag/tabs?current='+encodeURIComponent(location.pathname); });
    root.querySelectorAll('button[data-close]').forEach(function(b){ b.addEventListener('click',function(){ closeTab(b); }); });
    root.querySelectorAll('[data-src]').forEach(load); root.querySelectorAll('input[data-lookup]').forEach(lookup); root.querySelectorAll('form[data-api]').forEach(submit);
    root.querySelectorAll('select[data-go]').forEach(function(s){ s.addEventListener('change',function(){ location.assign(s.dataset.go+encodeURIComponent(s.value)); }); }); }
  init(document);
})();`;

/** A full page: header (brand, global search), object tabs (`current` marked), the body. */
export function page(title: string, body: string, current?: ConsoleObject): string {
  const tabs = (Object.keys(LABELS) as ConsoleObject[]).map((o) => `<a href="/o/${o}"${o === current ? ' aria-current="page"' : ''}>${LABELS[o][0]}</a>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} | ${APP_NAME}</title><style>${CSS}</style></head><body>
<header><span class="brand">${APP_NAME}</span><form role="search" action="/search" method="get"><input type="search" name="q" aria-label="Search the console" placeholder="Search cases, accounts, assets…"></form><span>Agent: Sam Ortega</span></header>
<nav class="objects" aria-label="Objects">${tabs}</nav><div class="workspace" role="tablist" aria-label="Workspace tabs" data-tabs aria-busy="true"></div><main>${body}</main><script>${SCRIPT}</script></body></html>`;
}

/** A region whose content loads over XHR from `src` (busy until it has). */
export const lazy = (label: string, src: string): string => `<section class="card" aria-label="${esc(label)}"><h2>${esc(label)}</h2><div data-src="${esc(src)}" aria-busy="true"></div></section>`;

/** A link to a record page. */
export const recordLink = (object: ConsoleObject, id: string, text: string): string => `<a href="/r/${object}/${encodeURIComponent(id)}">${esc(text)}</a>`;

/** A read-only field of a record page. */
export const field = (label: string, value: string): string => `<div><dt>${esc(label)}</dt><dd>${value || '<span aria-label="empty">—</span>'}</dd></div>`;

/** A drop-down of `values` (picklist), `current` selected; the empty value shows as `--None--`. */
export function picklist(name: string, label: string, values: readonly string[], current: string): string {
  const opts = values.map((v) => `<option value="${esc(v)}"${v === current ? ' selected' : ''}>${v === '' ? '--None--' : esc(v)}</option>`).join('');
  return `<label for="f-${name}">${esc(label)}</label><select id="f-${name}" name="${name}" data-field="${name}">${opts}</select>`;
}

/** A lookup field: a combobox searching `src`, the chosen id in a hidden input `name`. */
export function lookupField(name: string, label: string, src: string, current: { id: string; title: string } | null): string {
  return `<label for="f-${name}-q">${esc(label)}</label><input id="f-${name}-q" name="${name}_q" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="f-${name}-list" data-lookup="${esc(src)}" data-target="f-${name}" data-field="${name}" value="${esc(current?.title ?? '')}" placeholder="Search…" autocomplete="off">
<input type="hidden" id="f-${name}" name="${name}" value="${esc(current?.id ?? '')}"><ul id="f-${name}-list" role="listbox" aria-label="${esc(label)} suggestions" hidden></ul>`;
}

/** A form that submits over XHR to `api`, with its alert region and buttons. */
export function apiForm(label: string, api: string, inner: string, submitText: string, cancelHref: string): string {
  return `<form class="card" aria-label="${esc(label)}" data-api="${esc(api)}" novalidate><p role="alert" class="alert" hidden></p>${inner}<div class="actions" style="margin-top:14px"><button type="submit">${esc(submitText)}</button><a class="btn secondary" href="${esc(cancelHref)}">Cancel</a></div></form>`;
}
