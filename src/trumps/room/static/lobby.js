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
  text(document.getElementById("me"), me.player ? "You are " + me.name + (me.chips !== undefined ? " · " + me.chips + " chips" : "") : "");
  return me;
}

const SETTING_LABELS = {
  bid_time: "Bid time", play_time: "Play time", chat: "Chat during the game", spectator_chat: "Spectators may chat",
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

function renderTables(tables) {
  const body = document.getElementById("tables");
  body.replaceChildren();
  if (!tables.length) {
    const tr = body.insertRow(); const td = tr.insertCell(); td.colSpan = 6;
    td.textContent = "No tables yet: create one below.";
    return;
  }
  for (const t of tables) {
    const tr = body.insertRow();
    text(tr.insertCell(), t.game);
    const o = t.options || {};
    text(tr.insertCell(), [t.preset, o.variation, o.players, o.scoring].filter(Boolean).join(" · "));
    text(tr.insertCell(), settingsText(t));
    text(tr.insertCell(), t.seats.map(s => s.seat + ": " + (s.name || (s.bot ? "bot" : "—"))).join(", "));
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

async function main() {
  const me = await showMe();
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
      const t = await api("/api/tables", { game: gameSel.value, preset: document.getElementById("preset").value || null, options, settings: readSettings() });
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
