"use strict";
// Personal settings (/settings): the form is built from the server's schema
// (/api/prefs).  Accounts save on the server and mirror the values into
// localStorage ("trumps.prefs") so the table page can read them at once;
// guests keep them in localStorage only.  Text goes in through textContent.
// Labels, help texts and choices come from the server in English: t() each.
// Saving another language also sets the header's cookie (trumps_lang) and
// reloads, so the page switches at once.

const $ = id => document.getElementById(id);
const STORE_KEY = "trumps.prefs";
// Readable names of the choices, per setting (anything else: the value, capitalised).
// A language is named in itself (never translated).
const CHOICE_NAMES = {
  card_order: () => ({ alternate: t("Alternate colours"), suits: t("Suit order") }),
  // TRANSLATORS: speeds of the card animation (the setting "Animation speed")
  animation: () => ({ off: t("Off"), fast: t("Fast"), normal: t("Normal"), slow: t("Slow") }),
  language: () => ({ auto: t("Automatic (your browser's)"), ...LANGUAGE_NAMES }),
};
const LANGUAGE_NAMES = { en: "English", de: "Deutsch", fr: "Français", ...((window.I18n && I18n.languages) || {}) };
const LANGS = { en: "en", de: "de", fr: "fr" };
const LANG_COOKIE = "trumps_lang";

let schema = [];
let account = false;
let savedLanguage;  // the language setting as loaded (a change reloads the page)

function el(tag, cls, txt) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (txt !== undefined) e.textContent = txt;
  return e;
}

function choiceName(setting, value) {
  const names = CHOICE_NAMES[setting] ? CHOICE_NAMES[setting]() : {};
  if (names[value]) return names[value];
  const s = String(value).replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// ----- localStorage -----------------------------------------------------------------
function readLocal() {
  try {
    const v = JSON.parse(localStorage.getItem(STORE_KEY) || "{}");
    return v && typeof v === "object" && !Array.isArray(v) ? v : {};
  } catch (_) { return {}; }
}

function writeLocal(values) {
  localStorage.setItem(STORE_KEY, JSON.stringify(values));
}

// A guest's language is the header's choice, kept in the cookie (null: none).
function cookieLanguage() {
  const m = document.cookie.match(/(?:^|;\s*)trumps_lang=([^;]*)/);
  const code = m ? decodeURIComponent(m[1]) : null;
  return code && LANGS[code] ? code : null;
}

// The header's language cookie follows the saved setting (cleared for "auto").
// True when the page must reload to show the language chosen.
function followLanguage(before, after) {
  if (after === undefined || after === before) return false;
  document.cookie = after === "auto" || !LANGS[after]
    ? `${LANG_COOKIE}=; path=/; max-age=0; samesite=lax`
    : `${LANG_COOKIE}=${encodeURIComponent(after)}; path=/; max-age=31536000; samesite=lax`;
  return true;
}

// Stored values checked against the schema, defaults for the rest.
function withDefaults(stored) {
  const out = {};
  for (const s of schema) {
    const v = stored ? stored[s.name] : undefined;
    const ok = s.type === "bool" ? typeof v === "boolean" : (s.choices || []).includes(v);
    out[s.name] = ok ? v : s.default;
  }
  return out;
}

// ----- the form ---------------------------------------------------------------------
function renderForm(values) {
  const box = $("prefs");
  box.replaceChildren();
  for (const s of schema) {
    const id = "pref-" + s.name, helpId = id + "-help";
    const row = el("div", "pref " + (s.type === "bool" ? "bool" : "choice"));
    const label = el("label", "", s.label ? t(s.label) : s.name);
    label.htmlFor = id;
    let input;
    if (s.type === "bool") {
      input = el("input");
      input.type = "checkbox";
      input.checked = !!values[s.name];
      row.append(input, label);
    } else {
      input = el("select");
      for (const c of s.choices || []) {
        const o = new Option(choiceName(s.name, c), String(c), false, c === values[s.name]);
        if (s.name === "language" && LANGS[c]) o.lang = LANGS[c];
        input.append(o);
      }
      row.append(label, input);
    }
    input.id = id;
    input.name = s.name;
    if (s.help) {
      row.append(el("p", "help", t(s.help)));
      row.lastChild.id = helpId;
      input.setAttribute("aria-describedby", helpId);
    }
    box.append(row);
  }
  $("save").disabled = false;
}

function readForm() {
  const out = {};
  for (const s of schema) {
    const input = $("pref-" + s.name);
    if (!input) continue;
    if (s.type === "bool") out[s.name] = input.checked;
    else out[s.name] = (s.choices || []).find(c => String(c) === input.value) ?? s.default;
  }
  return out;
}

async function save(e) {
  e.preventDefault();
  const status = $("prefs-status"), err = $("prefs-error");
  status.textContent = ""; err.textContent = "";
  const values = readForm();
  const language = savedLanguage;
  let reload = false;
  $("save").disabled = true;
  try {
    if (account) {
      const r = await api("/api/prefs", values);
      try { writeLocal({ ...readLocal(), ...r.values }); } catch (_) { /* the server has them */ }
      status.textContent = t("Saved");
      reload = followLanguage(language, (r.values || values).language);
    } else {
      try { writeLocal({ ...readLocal(), ...values }); }
      catch (_) { throw new Error(t("This browser refused to store the settings (private mode?)")); }
      status.textContent = t("Saved in this browser");
      reload = followLanguage(language, values.language);
    }
  } catch (ex) {
    if (ex.status === 403 || ex.status === 401) {  // logged out meanwhile: keep them here
      account = false;
      showGuest();
      try {
        writeLocal({ ...readLocal(), ...values }); status.textContent = t("Saved in this browser");
        reload = followLanguage(language, values.language);
      } catch (_) { err.textContent = ex.message; }
    } else err.textContent = ex.message;
  } finally {
    $("save").disabled = false;
  }
  if (reload) { savedLanguage = values.language; location.reload(); }
}

function showGuest() {
  $("guest-note").hidden = false;
  $("account-box").hidden = true;
}

// ----- account: password and sessions ------------------------------------------------
async function changePassword(e) {
  e.preventDefault();
  const old = $("pw-old"), neu = $("pw-new"), rep = $("pw-repeat");
  const status = $("pw-status"), err = $("pw-error");
  status.textContent = ""; err.textContent = "";
  for (const i of [old, neu, rep]) i.removeAttribute("aria-invalid");
  const fail = (input, msg) => { input.setAttribute("aria-invalid", "true"); err.textContent = msg; input.focus(); };
  if (!old.value) return fail(old, t("Enter your current password."));
  if (neu.value.length < 8) return fail(neu, t("The new password needs at least 8 characters."));
  if (neu.value !== rep.value) return fail(rep, t("The two new passwords are not the same."));
  if (neu.value === old.value) return fail(neu, t("The new password is the same as the current one."));
  const button = e.target.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const r = await api("/api/password", { old: old.value, new: neu.value });
    for (const i of [old, neu, rep]) i.value = "";
    const n = r.ended || 0;
    status.textContent = n
      ? tn("Password changed: {n} other session logged out.", "Password changed: {n} other sessions logged out.", n, { n })
      : t("Password changed.");
  } catch (ex) {
    err.textContent = ex.message;
  } finally {
    button.disabled = false;
  }
}

async function logoutAll() {
  $("logout-error").textContent = "";
  if (!confirm(t("Log out everywhere? Every device, this browser included, will need to log in again."))) return;
  const b = $("logout-all");
  b.disabled = true;
  try {
    await api("/api/logout-all", {});
    location.href = "/";
  } catch (ex) {
    $("logout-error").textContent = ex.message;
    b.disabled = false;
  }
}

// ----- start ------------------------------------------------------------------------
async function main() {
  $("prefs-form").addEventListener("submit", save);
  $("prefs-form").addEventListener("change", () => { $("prefs-status").textContent = ""; });
  $("password-form").addEventListener("submit", changePassword);
  $("logout-all").addEventListener("click", logoutAll);
  let data;
  try {
    data = await api("/api/prefs");
  } catch (ex) {
    $("prefs").replaceChildren();
    $("prefs-error").textContent = t("Could not load the settings: {error}", { error: ex.message });
    return;
  }
  schema = data.schema || [];
  account = !!data.account && data.values !== null;
  let values;
  if (account) {
    values = withDefaults(data.values);
    try { writeLocal({ ...readLocal(), ...values }); } catch (_) { /* no storage: the server has them */ }
    $("account-box").hidden = false;
    const me = await api("/api/me").catch(() => null);
    if (me && me.username) {
      $("pw-user").value = me.username;  // for password managers
      const line = $("account-line");
      // "Logged in as {name} · {profile}": the name in bold, the profile a link
      const parts = t("Logged in as {name} · {profile}").split(/\{(name|profile)\}/);
      line.replaceChildren();
      parts.forEach((part, i) => {
        if (i % 2 === 0) { if (part) line.append(part); return; }
        if (part === "name") line.append(el("strong", "", me.username));
        else {
          const a = el("a", "", t("your profile"));
          a.href = "/player/" + encodeURIComponent(me.username);
          line.append(a);
        }
      });
    }
  } else {
    values = withDefaults(readLocal());
    const chosen = cookieLanguage();
    if (chosen && "language" in values) values.language = chosen;  // chosen in a page header
    showGuest();
  }
  savedLanguage = values.language;
  renderForm(values);
}
main();
