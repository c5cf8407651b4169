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

async function showMe() {
  const me = await api("/api/me");
  document.getElementById("name-box").hidden = !!me.player;
  text(document.getElementById("me"), me.player ? "You are " + me.name + (me.account ? " · " + me.chips + " chips" : "") : "");
  return me;
}

const SETTING_LABELS = {
  kind: "Kind of game", bid_time: "Bid time", play_time: "Play time", chat: "Chat during the game", spectator_chat: "Spectators may chat",
  watching: "Allow watching", private: "Must be invited", suggestions: "Allow suggestions", start_at: "Start",
  buy_in: "Competition buy-in",
};

function when(ts) { return new Date(ts * 1000).toLocaleString([], { weekday: "short", hour: "2-digit", minute: "2-digit" }); }

// The table settings in a few words, for the lobby list.
function settingsText(t) {
  const s = t.settings || {}, parts = [];
  if (s.bid_time || s.play_time) parts.push("⏱ bid " + (s.bid_time || "∞") + "s / play " + (s.play_time || "∞") + "s");
  if (s.buy_in) parts.push("compete " + s.buy_in + " chips");
  if (s.chat !== "text") parts.push("chat: " + s.chat);
  if (!s.watching) parts.push("no spectators");
  else if (t.spectators) parts.push(t.spectators + " watching");
  if (s.start_at && t.status === "waiting") parts.push("starts " + when(s.start_at));
  return parts.join(" · ");
}

function renderTables(all) {
  const kind = t => (t.settings || {}).kind || "join";
  const compete = all.filter(t => kind(t) === "compete");
  fillTable(document.getElementById("play-tables"), all.filter(t => kind(t) === "play"),
    "None right now: press Play.");
  fillTable(document.getElementById("tables"), all.filter(t => kind(t) === "join"),
    "No tables of yours or your friends: create one below, or press Play.");
  fillTable(document.getElementById("compete-tables"), compete, "No competition open: create one below.");
}

function fillTable(body, tables, empty) {
  body.replaceChildren();
  if (!tables.length) {
    const tr = body.insertRow(); const td = tr.insertCell(); td.colSpan = 6;
    td.textContent = empty;
    return;
  }
  for (const t of tables) {
    const tr = body.insertRow();
    text(tr.insertCell(), t.game);
    const o = t.options || {};
    text(tr.insertCell(), [t.preset, o.variation, o.players, o.scoring].filter(Boolean).join(" · "));
    text(tr.insertCell(), settingsText(t));
    const seats = tr.insertCell();  // a registered player's name leads to their profile (add a friend there)
    t.seats.forEach((s, i) => {
      if (i) seats.append(", ");
      seats.append(s.seat + ": ");
      if (s.name && !s.name.endsWith(" (guest)")) {
        const a = document.createElement("a"); a.href = "/player/" + encodeURIComponent(s.name); a.textContent = s.name;
        seats.append(a);
      } else seats.append(s.name || (s.bot ? "bot" : "—"));
    });
    text(tr.insertCell(), t.status + (t.free ? ` (${t.free} free)` : ""));
    const a = document.createElement("a");
    a.href = "/table/" + t.id; a.textContent = t.free ? "Join" : "Watch";
    if (!t.free && !(t.settings || {}).watching) a.hidden = true;
    tr.insertCell().append(a);
  }
}

// Table settings form, built from /api/settings (the server's own metadata).
function renderSettings(meta) {
  const box = document.getElementById("settings");
  box.replaceChildren();
  for (const opt of meta.settings) {
    if (opt.name === "kind") continue;  // the tab chooses it (a buy-in makes a Compete table)
    const label = document.createElement("label");
    label.title = opt.doc;
    label.append(SETTING_LABELS[opt.name] || opt.name);
    let input;
    if (opt.type === "bool") {
      input = document.createElement("input"); input.type = "checkbox"; input.checked = opt.default;
      label.classList.add("check");
    } else if (opt.type === "time") {
      input = document.createElement("input"); input.type = "datetime-local";
      input.setAttribute("aria-label", "Scheduled start (leave empty to start when the seats are filled)");
    } else {
      input = document.createElement("select");
      for (const v of opt.choices) {
        const shown = opt.name.endsWith("_time") ? (v ? v + " s" : "off") : opt.name === "buy_in" ? (v ? v + " chips" : "friendly game") : String(v);
        input.append(new Option(shown, String(v), v === opt.default, v === opt.default));
      }
    }
    input.name = opt.name;
    input.dataset.setting = opt.type;
    label.append(input);
    box.append(label);
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
  } catch (ex) { err.textContent = ex.message; }
}

function renderOptions() {
  const game = catalogue.find(g => g.game === document.getElementById("game").value);
  const preset = document.getElementById("preset");
  preset.replaceChildren(new Option("(defaults)", ""));
  for (const name of Object.keys(game.presets)) preset.append(new Option(name, name));
  const box = document.getElementById("options");
  box.replaceChildren();
  for (const opt of game.options) {
    const label = document.createElement("label");
    label.title = opt.doc;
    label.append(opt.name);
    let input;
    if (opt.type === "bool" || opt.choices) {
      input = document.createElement("select");
      input.append(new Option("(default)", ""));
      const values = opt.type === "bool" ? [true, false] : opt.choices;
      for (const v of values) input.append(new Option(String(v), String(v)));
    } else {
      input = document.createElement("input");
      input.placeholder = String(opt.default);
    }
    input.name = opt.name;
    input.dataset.option = "1";
    label.append(input);
    box.append(label);
  }
}

// ----- tabs: Play / Join / Compete -------------------------------------------------
function selectTab(name) {
  for (const t of ["play", "join", "compete"]) {
    const on = t === name;
    document.getElementById("tab-" + t).setAttribute("aria-selected", String(on));
    document.getElementById("panel-" + t).hidden = !on;
  }
  const box = document.getElementById("create-box");
  box.hidden = name === "play";
  document.getElementById("create-title").textContent = name === "compete" ? "Create a competition" : "Create a table";
  const buyIn = document.querySelector("#settings [name=buy_in]");
  if (buyIn) {
    buyIn.closest("label").hidden = name !== "compete";
    if (name === "compete" && buyIn.value === "0") buyIn.value = "110";
    if (name === "join") buyIn.value = "0";
  }
  const sugg = document.querySelector("#settings [name=suggestions]");
  if (sugg) sugg.closest("label").hidden = name === "compete";
  if (location.hash !== "#" + name) history.replaceState(null, "", "#" + name);
}

function setupTabs() {
  const tabs = ["play", "join", "compete"];
  for (const t of tabs) {
    const b = document.getElementById("tab-" + t);
    b.addEventListener("click", () => selectTab(t));
    b.addEventListener("keydown", e => {
      const i = tabs.indexOf(t), d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (d) { const n = tabs[(i + d + tabs.length) % tabs.length]; selectTab(n); document.getElementById("tab-" + n).focus(); }
    });
  }
  const start = new URLSearchParams(location.search).has("join") ? "join" : location.hash.slice(1);
  selectTab(tabs.includes(start) ? start : "play");
}

// ----- Play -------------------------------------------------------------------------------
const GAME_NAMES = { "500": "500", bridge: "Bridge", coinche: "Coinche" };
async function setupPlay() {
  const info = await api("/api/play");
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
    info.rule_sets[g].forEach((r, i) => rules.append(radio("play-rules", r.key, r.label, saved.game === g ? saved.rules === r.key : i === 0)));
    if (!document.querySelector("input[name=play-rules]:checked")) rules.querySelector("input").checked = true;
  };
  Object.keys(info.rule_sets).forEach((g, i) => games.append(radio("play-game", g, GAME_NAMES[g] || g, saved.game ? saved.game === g : i === 0)));
  if (!document.querySelector("input[name=play-game]:checked")) games.querySelector("input").checked = true;
  games.addEventListener("change", showRules);
  showRules();
  const status = document.getElementById("play-status"), button = document.getElementById("play-button"), cancel = document.getElementById("play-cancel");
  cancel.addEventListener("click", async () => {
    await fetch("/api/play", { method: "DELETE" });
  });
  document.getElementById("play-form").addEventListener("submit", async e => {
    e.preventDefault();
    const me = await showMe();
    if (!me.player) { document.getElementById("name").focus(); status.textContent = "Choose a name first (or log in)."; return; }
    const game = document.querySelector("input[name=play-game]:checked").value;
    const key = document.querySelector("input[name=play-rules]:checked").value;
    localStorage.setItem("trumps.play", JSON.stringify({ game, rules: key }));
    button.disabled = true; cancel.hidden = false;
    status.textContent = "Looking for players… bots fill the empty seats within 10 seconds.";
    try {
      const r = await api("/api/play", { game, rules: key });
      status.textContent = "Found a table!";
      location.href = "/table/" + r.table;
    } catch (ex) {
      status.textContent = ex.message === "cancelled" ? "Cancelled." : ex.message;
    } finally { button.disabled = false; cancel.hidden = true; }
  });
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
    await api("/api/guest", { name: document.getElementById("name").value });
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
  for (const g of catalogue) gameSel.append(new Option(g.game, g.game));
  gameSel.addEventListener("change", renderOptions);
  renderOptions();
  document.getElementById("create-form").addEventListener("submit", async e => {
    e.preventDefault();
    const options = {};
    for (const el of document.querySelectorAll("[data-option]")) if (el.value !== "") options[el.name] = el.value;
    const err = document.getElementById("create-error");
    try {
      const invite = [...document.querySelectorAll("#invite-friends input:checked")].map(i => i.value);
      const t = await api("/api/tables", { game: gameSel.value, preset: document.getElementById("preset").value || null, options, settings: readSettings(), invite });
      location.href = "/table/" + t.id;
    } catch (ex) { err.textContent = ex.message; }
  });
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const connect = () => {
    const ws = new WebSocket(proto + "//" + location.host + "/ws/lobby");
    ws.onmessage = m => { const ev = JSON.parse(m.data); if (ev.type === "lobby") renderTables(ev.tables); };
    ws.onclose = () => setTimeout(connect, 1000);
  };
  connect();
}
main();
