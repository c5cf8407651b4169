// The pages' language.  /i18n/catalog.js (loaded just before this file) sets
// window.I18N = {lang, messages, plural(n), languages} for the
// person's language (their setting, else the header's choice kept in a
// cookie, else the browser's Accept-Language, else English).
//
//   t("Lobby")                              a text
//   t("{name} joined", {name})              with values (never glue sentences together)
//   tn("{n} trick", "{n} tricks", n)        plural forms from the catalogue
//   tc("call", "Pass")                      the same English word in another sense
//   tMsg(reason)                            a finished message from the server (an error,
//                                           a notice), recognised by its template
//   I18n.number(1234.5), I18n.date(d)       numbers and dates as the language writes them
//
// The static text of each page (text nodes, title, aria-label, placeholder,
// alt) is translated here as soon as this script runs.  Babel extracts every
// t/tn/tc literal (docs/translating.md): only literals, never a built string.
"use strict";
(function () {
  const C = window.I18N || {
    lang: "en", messages: {}, languages: { en: "English" }, plural: n => Number(n !== 1),
  };
  const PH = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
  const fill = (s, p) => (p ? s.replace(PH, (m, k) => (k in p && p[k] !== undefined && p[k] !== null ? String(p[k]) : m)) : s);
  const found = key => { const s = C.messages[key]; return typeof s === "string" && s ? s : null; };

  function t(msgid, params) { return fill(found(msgid) || msgid, params); }
  function tc(context, msgid, params) { return fill(found(context + "\u0004" + msgid) || msgid, params); }
  function tn(singular, plural, n, params) {
    const p = Object.assign({ n: number(n) }, params || {});
    const forms = C.messages[singular];
    if (Array.isArray(forms)) {
      const s = forms[Math.min(C.plural(n), forms.length - 1)];
      if (s) return fill(s, p);
    }
    return fill(n === 1 ? singular : plural, p);
  }

  // Messages with values: "invite at most {n} people at once" matches
  // "invite at most 8 people at once"; the most specific template wins.
  let templates = null;
  function compile() {
    templates = [];
    const esc = s => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    for (const [msgid, text] of Object.entries(C.messages)) {
      if (typeof text !== "string" || !text || msgid.includes("\u0004") || !/\{[A-Za-z_]\w*\}/.test(msgid)) continue;
      const names = [];
      const parts = msgid.split(/\{([A-Za-z_][A-Za-z0-9_]*)\}/);
      let rx = "";
      parts.forEach((p, i) => {
        if (i % 2 === 0) { rx += esc(p); return; }
        rx += "(.+?)";
        names.push(p);
      });
      const literal = msgid.replace(PH, "");
      templates.push({ rx: new RegExp("^" + rx + "$", "s"), names, text, weight: literal.length, loose: !/\p{L}/u.test(literal) });
    }
    templates.sort((a, b) => b.weight - a.weight);
  }
  function tMsg(english) {
    if (!english) return english;
    const s = found(english);
    if (s) return s;
    if (!templates) compile();
    for (const tp of templates) {
      const m = tp.rx.exec(english);
      if (!m) continue;
      // a template of values only ("{misere} {points}") matches only known words
      if (tp.loose && m.slice(1).some(v => /\p{L}/u.test(v) && !found(v))) continue;
      // a variant's word ({Misere}, capitalised) is a word, never a number
      if (tp.names.some((n, i) => /^[A-Z]/.test(n) && !/\p{L}/u.test(m[i + 1]))) continue;
      const p = {};
      // a value that is itself a known word ("misère" in "{misere} 250") is translated too
      tp.names.forEach((n, i) => { if (!(n in p)) p[n] = found(m[i + 1]) || m[i + 1]; });
      return fill(tp.text, p);
    }
    return english;
  }

  // The browser's own variant of the page language (en-GB, de-AT, fr-CA) writes numbers and dates.
  const nav = (navigator.languages || [navigator.language || ""]).find(l => l.split("-")[0] === C.lang);
  const LOCALE = C.lang === "qps" ? "en" : nav || C.lang;
  function number(n, options) {
    try { return new Intl.NumberFormat(LOCALE, options).format(n); } catch (_) { return String(n); }
  }
  function date(d, options) {
    const when = d instanceof Date ? d : new Date(d);
    try { return new Intl.DateTimeFormat(LOCALE, options || { dateStyle: "medium", timeStyle: "short" }).format(when); }
    catch (_) { return when.toLocaleString(); }
  }

  // ----- the static text of the page ---------------------------------------------------
  const ATTRS = ["title", "aria-label", "placeholder", "alt"];
  function translateNode(root) {
    if (C.lang === "en") return;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const nodes = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
    for (const n of nodes) {
      const p = n.parentNode && n.parentNode.nodeName;
      if (p === "SCRIPT" || p === "STYLE") continue;
      const raw = n.nodeValue, key = raw.replace(/\s+/g, " ").trim();
      if (!key) continue;
      const s = found(key);
      if (s) n.nodeValue = raw.replace(raw.trim(), s);
    }
    const els = root.querySelectorAll ? root.querySelectorAll(ATTRS.map(a => `[${a}]`).join(",")) : [];
    for (const el of els) {
      for (const a of ATTRS) {
        const v = el.getAttribute(a);
        if (!v) continue;
        const s = found(v.replace(/\s+/g, " ").trim());
        if (s) el.setAttribute(a, s);
      }
    }
  }

  // ----- choosing a language --------------------------------------------------------------
  const COOKIE = "trumps_lang";
  async function setLanguage(code) {
    document.cookie = `${COOKIE}=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
    try { localStorage.setItem("trumps.lang", code); } catch (_) { /* private mode */ }
    const me = window.trumpsAccount && window.trumpsAccount.me;
    if (me && me.account) {  // the personal setting comes first, so it follows the choice
      await fetch("/api/prefs", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ language: code }),
      }).catch(() => {});
    }
    location.reload();
  }
  // The header's chooser: each language named in itself.
  function chooser() {
    const wrap = document.createElement("label");
    wrap.className = "lang-choice";
    const sel = document.createElement("select");
    sel.id = "lang-choice";
    sel.setAttribute("aria-label", t("Language"));
    for (const [code, name] of Object.entries(C.languages || {})) {
      const o = document.createElement("option");
      o.value = code; o.textContent = name; o.lang = code;
      if (code === C.lang) o.selected = true;
      sel.append(o);
    }
    sel.onchange = () => setLanguage(sel.value);
    wrap.append(sel);
    return wrap;
  }

  document.documentElement.lang = C.lang === "qps" ? "en" : C.lang;
  translateNode(document.head);
  if (document.body) translateNode(document.body);

  window.t = t; window.tn = tn; window.tc = tc; window.tMsg = tMsg;
  window.I18n = { lang: C.lang, number, date, translateNode, setLanguage, chooser, languages: C.languages };
})();
