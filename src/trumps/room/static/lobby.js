"use strict";
let catalogue = [];

async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function text(el, s) { el.textContent = s; return el; }

// Numbers as the language writes them ("12,5"), without thousands separators: the
// English page always showed "1000 chips".
function num(x) { return I18n.number(x, { useGrouping: false }); }
// A registered player's name as it is; a guest's carries the mark " (guest)" from the server.
const GUEST = " (guest)";
function personName(name) { return name && name.endsWith(GUEST) ? t("{name} (guest)", { name: name.slice(0, -GUEST.length) }) : name; }
// A bot's level ("bot (easy)"), in the words of the table page.
function botLevel(kind) {
  return { easy: tc("bot level", "easy"), normal: tc("bot level", "normal"), strong: tc("bot level", "strong"),
    rules: tc("bot level", "rules"), random: tc("bot level", "random") }[kind] || kind;
}

let isAccount = false;  // (a guest cannot take a Compete seat: it is offered the way to register)
async function showMe() {
  const me = await api("/api/me");
  isAccount = !!me.account;
  document.getElementById("name-box").hidden = !!me.player;
  // English said "1 chips" too: both English forms are kept as they were
  text(document.getElementById("me"), !me.player ? ""
    : me.account ? tn("You are {name} · {n} chips", "You are {name} · {n} chips", me.chips, { name: personName(me.name), n: num(me.chips) })
      : t("You are {name}", { name: personName(me.name) }));
  return me;
}

// Every human word about a setting or a house rule comes from the server's metadata
// (/api/settings and /api/games): this page only places it.
let settingsMeta = [];

// A scheduled start: English keeps the browser's own regional format ("Wed 14:05" in
// en-GB), as the page always showed; other languages write it their way.
function when(ts) {
  const d = new Date(ts * 1000), opts = { weekday: "short", hour: "2-digit", minute: "2-digit" };
  return I18n.lang === "en" ? d.toLocaleString([], opts) : I18n.date(d, opts);
}

// A text of the server's metadata in the reader's language (empty stays empty).
function tx(s) { return s ? t(s) : s; }

// The variant's words ({misere: "nullo", kitty: "widow"}) in the reader's language.
function termWords(words) {
  const out = {};
  for (const [k, v] of Object.entries(words || {})) out[k] = typeof v === "string" ? t(v) : v;
  return out;
}

// "{Misere} points" with the words of the rules being shown ({misere} -> "nullo" / "misère").
// The template is translated first (tx), then filled with the translated words (termWords).
function fillTerms(text, words) {
  return String(text ?? "").replace(/\{([A-Za-z_]\w*)\}/g, (m, key) => {
    if (words && key in words) return words[key];
    const low = key.charAt(0).toLowerCase() + key.slice(1);
    if (words && key !== low && low in words) return words[low].charAt(0).toUpperCase() + words[low].slice(1);
    return m;
  });
}

function choiceWords(meta, value) {
  const c = (meta.choice_labels || []).find(c => c.value === value);
  return c ? t(c.label) : String(value);
}

// A table's settings in a few words, from the settings' own summary words: the timers
// ("15 s" when both are the same, else "bid 7 s", "play 15 s"), then the rest.
function settingsWords(tb) {
  const s = tb.settings || {}, timers = [], rest = [];
  const same = s.bid_time && s.bid_time === s.play_time;
  for (const m of settingsMeta) {
    const v = s[m.name];
    if (m.name === "start_at" && tb.status !== "waiting") continue;
    if (same && (m.name === "bid_time" || m.name === "play_time")) {
      if (m.name === "bid_time") timers.push(choiceWords(m, v));
      continue;
    }
    const hit = (m.summary || []).find(x => x.value === v || (x.value === "*" && v !== null && v !== undefined));
    if (!hit) continue;
    const text = fillTerms(tx(hit.text), { value: m.name === "start_at" ? when(v) : choiceWords(m, v) });
    (m.name.endsWith("_time") ? timers : rest).push(text);
  }
  return { timers, rest };
}

function renderTables(all) {
  const kind = tb => (tb.settings || {}).kind || "join";
  const compete = all.filter(tb => kind(tb) === "compete");
  fillTable(document.getElementById("play-tables"), all.filter(tb => kind(tb) === "play"),
    t("None right now: press Play."));
  fillTable(document.getElementById("tables"), all.filter(tb => kind(tb) === "join"),
    t("No tables of yours or your friends: create one below, or press Play."));
  fillTable(document.getElementById("compete-tables"), compete, t("No competition open: create one below."));
}

// Tables waiting for players first (the newest first within each: the server's order).
function byWaiting(tables) {
  const rank = tb => tb.status === "waiting" ? (tb.free ? 0 : 1) : 2;
  return tables.map((tb, i) => [tb, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1]).map(x => x[0]);
}

function el(tag, cls, content) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (content !== undefined) e.append(content);
  return e;
}

function fillTable(body, tables, empty) {
  body.replaceChildren();
  if (!tables.length) {
    const tr = body.insertRow(); tr.className = "empty"; const td = tr.insertCell(); td.colSpan = 6;
    td.textContent = empty;
    return;
  }
  for (const tb of byWaiting(tables)) {
    const tr = body.insertRow();
    tr.className = "t-row " + tb.status;
    const { timers, rest } = settingsWords(tb);
    const game = tr.insertCell(); game.className = "t-game";
    game.append(el("strong", "", tb.game_title ? t(tb.game_title) : tb.game));
    const rules = tr.insertCell(); rules.className = "t-rules";
    // the server's rules line is pieces joined by " · ", each translated by its template
    const rulesText = tb.rules_text ? tb.rules_text.split(" · ").map(tMsg).join(" · ") : tb.preset || "";
    rules.append([rulesText, ...timers].filter(Boolean).join(" · "));
    const table = tr.insertCell(); table.className = "t-table";
    if (tb.spectators && (tb.settings || {}).watching) rest.push(tn("{n} watching", "{n} watching", tb.spectators));
    table.textContent = rest.join(" · ");
    const seats = tr.insertCell(); seats.className = "t-seats";  // a registered player's name leads to their profile
    for (const s of tb.seats) {
      const chip = el("span", "seat-chip" + (s.empty ? " open" : s.bot && !s.name ? " bot" : ""));
      chip.append(el("b", "", seatLabel(s.seat)), " ");
      if (s.name && !s.name.endsWith(GUEST)) {
        const a = document.createElement("a"); a.href = "/player/" + encodeURIComponent(s.name); a.textContent = s.name;
        chip.append(a);
      } else chip.append(personName(s.name) || (s.bot ? t("bot ({kind})", { kind: botLevel(s.bot) }) : tc("seat", "open")));
      seats.append(chip, " ");
    }
    const status = tr.insertCell(); status.className = "t-status";
    const state = tb.status === "waiting" ? (tb.free ? tn("Waiting · {n} free", "Waiting · {n} free", tb.free) : t("Waiting"))
      : tb.status === "playing" ? t("Playing") : tb.status;
    status.append(el("span", "status-pill " + tb.status, state));
    const a = document.createElement("a");
    a.href = "/table/" + tb.id;
    if (tb.you) {  // a seat of one's own there: the way back, whether or not others may watch
      a.textContent = t("Back to your table"); a.className = "t-go join";
    } else if (tb.free && (tb.settings || {}).buy_in && !isAccount) {
      // Compete seats are for accounts: a guest is offered to register, not a Join that fails
      a.textContent = t("Register to play"); a.className = "t-go";
      a.onclick = e => { e.preventDefault(); window.trumpsAccount.dialog("register"); };
    } else {
      a.textContent = tb.free ? t("Join") : t("Watch"); a.className = "t-go" + (tb.free ? " join" : "");
      if (!tb.free && !(tb.settings || {}).watching) a.hidden = true;
    }
    const go = tr.insertCell(); go.className = "t-action"; go.append(a);
  }
}

// One labelled control with its one-line help under it.
function field(name, labelText, control, help, check) {
  const box = el("div", "field" + (check ? " check" : ""));
  box.dataset.name = name;
  const label = document.createElement("label");
  const span = el("span", "field-label", labelText);
  if (check) label.append(control, span); else label.append(span, control);
  box.append(label);
  if (help) {
    const small = el("small", "help", help);
    small.id = "help-" + (control.id || name);
    control.setAttribute("aria-describedby", small.id);
    box.append(small);
  }
  return box;
}

// Table settings form, built from /api/settings (the server's own metadata), in the
// seed room's groups: When, Winnings, Limits.
function renderSettings(meta) {
  settingsMeta = meta.settings;
  const box = document.getElementById("settings");
  box.replaceChildren();
  const groups = new Map();
  for (const opt of meta.settings) {
    if (opt.name === "kind") continue;  // the tab chooses it (a buy-in makes a Compete table)
    let input;
    if (opt.type === "bool") {
      input = document.createElement("input"); input.type = "checkbox"; input.checked = opt.default;
    } else if (opt.type === "time") {
      input = document.createElement("input"); input.type = "datetime-local";
    } else {
      input = document.createElement("select");
      for (const c of opt.choice_labels) {
        const isDefault = c.value === opt.default;
        const words = isDefault && opt.name !== "buy_in" ? t("{value} (default)", { value: t(c.label) }) : t(c.label);
        input.append(new Option(words, String(c.value), isDefault, isDefault));
      }
    }
    input.id = "set-" + opt.name;
    input.name = opt.name;
    input.dataset.setting = opt.type;
    if (!groups.has(opt.group)) {
      const fs = el("fieldset", "group group-" + opt.group);
      fs.append(el("legend", "", tx(opt.group_label)), el("div", "fields"));
      groups.set(opt.group, fs);
    }
    groups.get(opt.group).querySelector(".fields").append(field(opt.name, tx(opt.label), input, tx(opt.help), opt.type === "bool"));
  }
  // a group of one setting (When, Winnings) sits next to the game and its rules
  const head = document.getElementById("create-head");
  head.querySelectorAll(".field.setting").forEach(f => f.remove());
  for (const fs of groups.values()) {
    const fields = fs.querySelectorAll(".field");
    if (fields.length === 1) { fields[0].classList.add("setting"); head.append(fields[0]); } else box.append(fs);
  }
}

function readSettings() {
  const out = {};
  for (const el of document.querySelectorAll("[data-setting]")) {
    if (el.dataset.setting === "bool") out[el.name] = el.checked;
    else if (el.dataset.setting === "time") { if (el.value) out[el.name] = new Date(el.value).getTime() / 1000; }
    else out[el.name] = /^\d+$/.test(el.value) ? Number(el.value) : el.value;
  }
  return out;
}

async function joinByCode(code) {
  const err = document.getElementById("join-error");
  try {
    const r = await api("/api/join", { code: code.trim() });
    location.href = "/table/" + r.table;
  } catch (ex) { err.textContent = tMsg(ex.message); }
}

// ----- the house rules -------------------------------------------------------------
// The form keeps what the user chose (`touched`) apart from what the chosen preset and
// the game's defaults give (`base`), as the server resolves them: preset values, then
// the user's, then the defaults (which may follow one option: 500's variation).  Only
// the user's changes are sent, as the option keys and engine values.
const form = { game: null, preset: "", touched: {}, controls: {} };

function currentGame() { return catalogue.find(g => g.game === document.getElementById("game").value); }

function ruleValues(game) {
  const preset = form.preset ? game.presets[form.preset] || {} : {};
  const chosen = { ...preset, ...form.touched };
  const spec = name => game.options.find(o => o.name === name);
  const v = game.variants;
  const variant = v ? String(v.option in chosen ? chosen[v.option] : spec(v.option).default) : null;
  const defaults = v ? v.defaults[variant] || {} : {};
  const base = {}, current = {};
  for (const o of game.options) {
    base[o.name] = o.name in preset ? preset[o.name] : o.name in defaults ? defaults[o.name] : o.default;
    current[o.name] = o.name in form.touched ? form.touched[o.name] : base[o.name];
  }
  const words = v ? v.terms[variant] || game.terms : game.terms;
  return { base, current, words };
}

function applies(opt, values) {
  return !opt.when || Object.entries(opt.when).every(([k, allowed]) => allowed.includes(values[k]));
}

// The options to send: the user's changes, and the defaults of rules that no longer
// apply when the preset set them otherwise (raise own bid under American rules...).
function changedOptions(game) {
  const { base, current } = ruleValues(game), out = {};
  for (const o of game.options) {
    if (!applies(o, current)) { if (base[o.name] !== o.default) out[o.name] = o.default; }
    else if (o.name in form.touched && form.touched[o.name] !== base[o.name]) out[o.name] = form.touched[o.name];
  }
  return out;
}

function buildOptions() {
  const game = currentGame();
  form.game = game.game; form.touched = {}; form.controls = {};
  const preset = document.getElementById("preset");
  preset.replaceChildren();
  const names = Object.keys(game.presets);
  const plain = names.find(n => !game.preset_info[n].changes.length);
  if (!plain) preset.append(new Option(t("Standard rules"), ""));
  for (const n of names) preset.append(new Option(t(game.preset_info[n].label), n));
  form.preset = plain || "";
  preset.value = form.preset;
  document.getElementById("preset-field").hidden = !names.length;
  const box = document.getElementById("options");
  box.replaceChildren();
  // a game without groups: one group, its legend already in the reader's language
  const groups = game.groups.length ? game.groups : [{ key: "", label: "", shown: t("House rules"), doc: "", advanced: false }];
  let more = null;
  for (const g of groups) {
    const members = game.options.filter(o => !game.groups.length || o.group === g.key);
    if (!members.length) continue;
    const fs = el("fieldset", "group" + (g.advanced ? " advanced" : ""));
    fs.dataset.group = g.key;
    const legend = el("legend", "");
    fs.append(legend);
    if (g.doc) fs.append(el("p", "group-doc"));
    const fields = el("div", "fields");
    for (const o of members) {
      const values = o.choice_labels.map(c => c.value);
      let input;
      if (values.length) {
        input = document.createElement("select");
        for (const v of values) input.append(new Option(String(v), String(v)));
      } else {
        input = document.createElement("input");
        input.type = "number"; input.inputMode = "numeric";
        if (o.bounds) { input.min = o.bounds[0]; if (o.bounds[1] !== null) input.max = o.bounds[1]; input.step = o.bounds[2]; }
      }
      input.id = "opt-" + o.name;
      input.name = o.name;
      input.dataset.option = "1";
      input.addEventListener("change", () => {
        let value;
        if (values.length) value = values.find(v => String(v) === input.value);
        else if (input.value === "") value = undefined;
        else value = Number(input.value);
        if (value === undefined) delete form.touched[o.name]; else form.touched[o.name] = value;
        updateOptions();
      });
      const f = field(o.name, "", input, " ", false);
      form.controls[o.name] = { opt: o, input, box: f };
      fields.append(f);
    }
    fs.append(fields);
    if (g.advanced) {
      if (!more) {
        more = el("details", "more-rules");
        more.append(el("summary", "", t("More rules")));
        box.append(more);
      }
      more.append(fs);
    } else box.append(fs);
    fs._group = g;
  }
  updateOptions();
}

// Words, values and visibility of every control for the rules now chosen.
function updateOptions() {
  const game = currentGame();
  const values = ruleValues(game), { base, current } = values, words = termWords(values.words);
  for (const { opt, input, box } of Object.values(form.controls)) {
    const tpl = opt.templates || opt;
    box.querySelector(".field-label").textContent = fillTerms(tx(tpl.label), words);
    box.querySelector(".help").textContent = fillTerms(tx(tpl.help), words);
    const labels = tpl.choice_labels || [];
    if (input.tagName === "SELECT") {
      [...input.options].forEach((option, i) => {
        const c = labels[i], label = fillTerms(tx(c.label), words);
        option.textContent = c.value === base[opt.name] ? t("{value} (default)", { value: label }) : label;
      });
      input.value = String(current[opt.name]);
    } else {
      input.placeholder = t("{value} (default)", { value: String(base[opt.name]) });
      input.value = opt.name in form.touched ? String(form.touched[opt.name]) : "";
    }
    box.hidden = !applies(opt, current);
    box.classList.toggle("changed", opt.name in form.touched && form.touched[opt.name] !== base[opt.name]);
  }
  for (const fs of document.querySelectorAll("#options fieldset.group")) {
    const g = fs._group, tpl = g.templates || g;
    fs.querySelector("legend").textContent = g.shown || fillTerms(tx(tpl.label), words);
    const doc = fs.querySelector(".group-doc");
    if (doc) doc.textContent = fillTerms(tx(tpl.doc), words);
    fs.hidden = ![...fs.querySelectorAll(".field")].some(f => !f.hidden);
  }
  showPreset(game, words);
}

// The chosen preset in one line, what it changes from the defaults, and the user's own changes.
function showPreset(game, words) {
  const box = document.getElementById("preset-info");
  box.replaceChildren();
  const info = form.preset ? game.preset_info[form.preset] : null;
  if (info && info.doc) box.append(el("p", "preset-doc", t(info.doc)));
  const list = (title, items, cls) => {
    if (!items.length) return;
    const p = el("p", "changes " + cls);
    p.append(el("span", "changes-title", title));
    const ul = el("ul", "chips");
    for (const [label, value] of items) {
      // "Misère points: <b>±230</b>": the sentence is the translator's, the value stays bold
      const [before, after] = t("{rule}: {value}", { rule: label, value: "\u0001" }).split("\u0001");
      const li = el("li", "", before); li.append(el("b", "", value), after || ""); ul.append(li);
    }
    p.append(ul);
    box.append(p);
  };
  const plain = Object.keys(game.presets).find(n => !game.preset_info[n].changes.length);
  if (info && info.changes.length) {
    const from = plain ? t("Changes from {rules}", { rules: t(game.preset_info[plain].label) }) : t("Changes from the defaults");
    list(from, info.changes.map(c => [t(c.label), t(c.words)]), "preset");
  }
  const mine = changedOptions(game);
  const yours = Object.entries(mine).filter(([k]) => k in form.touched).map(([k, v]) => {
    const o = form.controls[k].opt, tpl = o.templates || o;
    const c = (tpl.choice_labels || []).find(c => c.value === v);
    return [fillTerms(tx(tpl.label), words), c ? fillTerms(tx(c.label), words) : String(v)];
  });
  list(t("Your house rules"), yours, "mine");
  const count = document.getElementById("rules-count");
  count.textContent = yours.length ? tn("{n} changed", "{n} changed", yours.length) : "";
  document.getElementById("rules-reset").hidden = !yours.length;
}

// ----- tabs: Play / Join / Compete / Tournaments ---------------------------------------------
const TABS = ["play", "join", "compete", "tournaments"];
function selectTab(name) {
  for (const tab of TABS) {
    const on = tab === name;
    document.getElementById("tab-" + tab).setAttribute("aria-selected", String(on));
    document.getElementById("panel-" + tab).hidden = !on;
  }
  const box = document.getElementById("create-box");
  box.hidden = name === "play" || name === "tournaments";
  if (name === "tournaments") loadTournaments();
  document.getElementById("create-title").textContent = name === "compete" ? t("Create a competition") : t("Create a table");
  const buyIn = document.querySelector("#create-form [data-setting][name=buy_in]");
  if (buyIn) {
    buyIn.closest(".field").hidden = name !== "compete";
    if (name === "compete" && buyIn.value === "0") buyIn.value = "110";
    if (name === "join") buyIn.value = "0";
  }
  const sugg = document.querySelector("#create-form [data-setting][name=suggestions]");
  if (sugg) sugg.closest(".field").hidden = name === "compete";
  if (location.hash !== "#" + name) history.replaceState(null, "", "#" + name);
}

function setupTabs() {
  const tabs = TABS;
  for (const tab of tabs) {
    const b = document.getElementById("tab-" + tab);
    b.addEventListener("click", () => selectTab(tab));
    b.addEventListener("keydown", e => {
      const i = tabs.indexOf(tab), d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (d) { const n = tabs[(i + d + tabs.length) % tabs.length]; selectTab(n); document.getElementById("tab-" + n).focus(); }
    });
  }
  const start = new URLSearchParams(location.search).has("join") ? "join" : location.hash.slice(1);
  selectTab(tabs.includes(start) ? start : "play");
  // a link to another tab of this page (#tournaments) changes only the hash
  window.addEventListener("hashchange", () => { const h = location.hash.slice(1); if (tabs.includes(h)) selectTab(h); });
}

// ----- Play -------------------------------------------------------------------------------
// A game's short name (Play's choices), from the server's game list.
function gameName(g) { return trumpsGames.title(g); }
async function setupPlay() {
  const info = await api("/api/play");
  await trumpsGames.ready;
  const games = document.getElementById("play-games"), rules = document.getElementById("play-rules");
  const saved = JSON.parse(localStorage.getItem("trumps.play") || "{}");
  const radio = (group, value, label, checked) => {
    const l = document.createElement("label"); l.className = "choice";
    const i = document.createElement("input"); i.type = "radio"; i.name = group; i.value = value; i.checked = checked;
    l.append(i, " " + label); return l;
  };
  const showRules = () => {
    const g = document.querySelector("input[name=play-game]:checked").value;
    rules.replaceChildren();
    info.rule_sets[g].forEach((r, i) => rules.append(radio("play-rules", r.key, t(r.label), saved.game === g ? saved.rules === r.key : i === 0)));
    if (!document.querySelector("input[name=play-rules]:checked")) rules.querySelector("input").checked = true;
  };
  Object.keys(info.rule_sets).forEach((g, i) => games.append(radio("play-game", g, gameName(g), saved.game ? saved.game === g : i === 0)));
  if (!document.querySelector("input[name=play-game]:checked")) games.querySelector("input").checked = true;
  games.addEventListener("change", showRules);
  showRules();
  const status = document.getElementById("play-status"), button = document.getElementById("play-button"), cancel = document.getElementById("play-cancel");
  cancel.addEventListener("click", async () => {
    await fetch("/api/play", { method: "DELETE" });
  });
  const seated = document.getElementById("play-seated");
  const play = async leave => {
    const me = await showMe();
    if (!me.player) { document.getElementById("name").focus(); status.textContent = t("Choose a name first (or log in)."); return; }
    const game = document.querySelector("input[name=play-game]:checked").value;
    const key = document.querySelector("input[name=play-rules]:checked").value;
    localStorage.setItem("trumps.play", JSON.stringify({ game, rules: key }));
    seated.hidden = true;
    button.disabled = true; cancel.hidden = false;
    status.textContent = t("Looking for players… bots fill the empty seats within 10 seconds.");
    try {
      const res = await fetch("/api/play", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ game, rules: key, leave }) });
      const r = await res.json().catch(() => ({}));
      if (res.status === 409 && r.seated) { askLeave(r.seated, game); return; }
      if (!res.ok) throw new Error(r.error || res.statusText);
      status.textContent = t("Found a table!");
      location.href = "/table/" + r.table;
    } catch (ex) {
      status.textContent = ex.message === "cancelled" ? t("Cancelled.") : tMsg(ex.message);
    } finally { button.disabled = false; cancel.hidden = true; }
  };
  // seated at another table: ask, rather than send the player back there unasked
  const askLeave = (at, game) => {
    status.textContent = "";
    const other = gameName(at.game), wanted = gameName(game);
    document.getElementById("play-seated-text").textContent = at.status === "playing"
      ? t("You are playing at a {game} table. Leave it (a bot plays your seat until you come back) and look for {wanted}?", { game: other, wanted })
      : t("You have a seat at a {game} table. Leave it and look for {wanted}?", { game: other, wanted });
    document.getElementById("play-leave").textContent = t("Leave it and play {wanted}", { wanted });
    const back = document.getElementById("play-back");
    back.href = "/table/" + encodeURIComponent(at.table);
    seated.hidden = false;
    document.getElementById("play-leave").focus();
  };
  document.getElementById("play-leave").addEventListener("click", () => play(true));
  document.getElementById("play-form").addEventListener("submit", e => { e.preventDefault(); play(false); });
}

function renderInviteFriends(data) {
  const box = document.getElementById("invite-friends");
  document.getElementById("invite-box").hidden = !data.friends.length;
  const chosen = new Set([...box.querySelectorAll("input:checked")].map(i => i.value));
  box.replaceChildren();
  for (const f of data.friends) {
    const l = document.createElement("label"); l.className = "check";
    const i = document.createElement("input"); i.type = "checkbox"; i.value = f.name; i.checked = chosen.has(f.name);
    l.append(i, " " + f.name + (f.online ? " ●" : ""));
    box.append(l);
  }
}

// ----- Tournaments ------------------------------------------------------------------------
// The open tournaments (the server makes the day's daily ones): each with its game, its
// deals and scoring, how many play it, when it closes, where the reader stands, and the
// way in (Play: the table of the reader's next deal).
function tournamentName(tr) {
  return tr.kind === "daily" ? t("Daily tournament") : t("Instant tournament");
}
function scoringWords(tr) {
  return tr.scoring === "imps" ? t("IMPs") : t("matchpoints");
}
function closesWords(tr) {
  if (tr.kind === "instant" && tr.target) return tn("after {n} players", "after {n} players", tr.target);
  return tr.closes_at ? when(tr.closes_at) : "";
}
function myPlace(tr) {
  const me = tr.me;
  if (!me) return "";
  if (me.position) return t("{position} of {of} · {score}", { position: num(me.position), of: num(me.of), score: tr.scoring === "imps" ? num(me.score) : num(me.score) + " %" });
  if (!me.ranked && me.played) return tn("{n} deal played (not ranked)", "{n} deals played (not ranked)", me.played);
  return tn("{n} deal played", "{n} deals played", me.played);
}
async function playTournament(tr, button) {
  const err = document.getElementById("tournament-error");
  err.textContent = "";
  button.disabled = true;
  try {
    const r = await api("/api/tournaments/" + encodeURIComponent(tr.id) + "/play", {});
    location.href = "/table/" + encodeURIComponent(r.table);
  } catch (ex) {
    err.textContent = tMsg(ex.message);
    button.disabled = false;
  }
}
async function loadTournaments() {
  const body = document.getElementById("tournament-list");
  let rows;
  try { rows = (await api("/api/tournaments")).tournaments; } catch (ex) { return; }
  body.replaceChildren();
  if (!rows.length) {
    const tr = body.insertRow(); tr.className = "empty"; const td = tr.insertCell(); td.colSpan = 7;
    td.textContent = t("No tournament open right now.");
    return;
  }
  for (const tr of rows) {
    const row = body.insertRow(); row.className = "t-row tournament-row"; row.dataset.tournament = tr.id;
    row.insertCell().append(el("strong", "", gameName(tr.game)));
    const name = row.insertCell(); name.className = "t-rules";
    const link = document.createElement("a"); link.href = "/tournament/" + encodeURIComponent(tr.id); link.textContent = tournamentName(tr);
    name.append(link, el("span", "t-sub", " · " + t("bots: {level}", { level: botLevel(tr.bots) })));
    row.insertCell().textContent = tn("{n} deal · {scoring}", "{n} deals · {scoring}", tr.deals, { scoring: scoringWords(tr) });
    row.insertCell().textContent = tn("{n} player", "{n} players", tr.entrants);
    row.insertCell().textContent = closesWords(tr);
    const mine = row.insertCell(); mine.className = "t-you"; mine.textContent = myPlace(tr);
    const go = row.insertCell(); go.className = "t-action";
    const me = tr.me;
    if (me && me.finished) {
      const a = document.createElement("a"); a.className = "t-go"; a.href = "/tournament/" + encodeURIComponent(tr.id); a.textContent = t("Results");
      go.append(a);
    } else if (tr.kind === "daily" && !isAccount) {
      const a = document.createElement("a"); a.className = "t-go"; a.href = "#tournaments"; a.textContent = t("Register to play");
      a.onclick = e => { e.preventDefault(); window.trumpsAccount.dialog("register"); };
      go.append(a);
    } else {
      const b = el("button", "t-go join", me && (me.played || me.in_deal) ? t("Continue") : t("Play"));
      b.type = "button"; b.onclick = () => playTournament(tr, b);
      go.append(b);
    }
  }
}

async function main() {
  setupTabs();
  const me = await showMe();
  document.getElementById("name-login").addEventListener("click", () => window.trumpsAccount.dialog("login"));
  document.getElementById("name-register").addEventListener("click", () => window.trumpsAccount.dialog("register"));
  setupPlay();
  window.trumpsAccount.onFriends(renderInviteFriends);
  const pendingCode = new URLSearchParams(location.search).get("join");
  document.getElementById("name-form").addEventListener("submit", async e => {
    e.preventDefault();
    const err = document.getElementById("name-error");
    err.textContent = "";
    try {
      await api("/api/guest", { name: document.getElementById("name").value });
    } catch (ex) { err.textContent = tMsg(ex.message); return; }  // (a blank or too long name: said, not swallowed)
    await showMe();
    if (pendingCode) joinByCode(pendingCode);
  });
  if (pendingCode && me.player) joinByCode(pendingCode);
  document.getElementById("join-form").addEventListener("submit", e => {
    e.preventDefault();
    joinByCode(document.getElementById("join-code").value);
  });
  renderSettings(await api("/api/settings"));
  selectTab(new URLSearchParams(location.search).has("join") ? "join" : location.hash.slice(1) || "play");
  catalogue = await api("/api/games");
  const gameSel = document.getElementById("game");
  for (const g of catalogue) gameSel.append(new Option(g.title ? t(g.title) : g.game, g.game));
  gameSel.addEventListener("change", buildOptions);
  document.getElementById("preset").addEventListener("change", e => {
    form.preset = e.target.value; form.touched = {};  // a preset sets every rule it names
    updateOptions();
  });
  document.getElementById("rules-reset").addEventListener("click", () => { form.touched = {}; updateOptions(); });
  buildOptions();
  document.getElementById("create-form").addEventListener("submit", async e => {
    e.preventDefault();
    const options = changedOptions(currentGame());
    const err = document.getElementById("create-error");
    try {
      const invite = [...document.querySelectorAll("#invite-friends input:checked")].map(i => i.value);
      const made = await api("/api/tables", { game: gameSel.value, preset: document.getElementById("preset").value || null, options, settings: readSettings(), invite });
      location.href = "/table/" + made.id;
    } catch (ex) { err.textContent = tMsg(ex.message); }
  });
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const connect = () => {
    const ws = new WebSocket(proto + "//" + location.host + "/ws/lobby");
    ws.onmessage = m => { const ev = JSON.parse(m.data); if (ev.type === "lobby") renderTables(ev.tables); };
    ws.onclose = e => setTimeout(connect, e.code === 1012 ? 100 + Math.random() * 200 : 1000);
  };
  connect();
}
main();
