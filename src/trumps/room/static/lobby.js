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
  text(document.getElementById("me"), me.player ? "You are " + me.name : "");
  return me;
}

function renderTables(tables) {
  const body = document.getElementById("tables");
  body.replaceChildren();
  if (!tables.length) {
    const tr = body.insertRow(); const td = tr.insertCell(); td.colSpan = 5;
    td.textContent = "No tables yet: create one below.";
    return;
  }
  for (const t of tables) {
    const tr = body.insertRow();
    text(tr.insertCell(), t.game);
    const o = t.options || {};
    text(tr.insertCell(), [t.preset, o.variation, o.players, o.scoring].filter(Boolean).join(" · "));
    text(tr.insertCell(), t.seats.map(s => s.seat + ": " + (s.name || (s.bot ? "bot" : "—"))).join(", "));
    text(tr.insertCell(), t.status + (t.free ? ` (${t.free} free)` : ""));
    const a = document.createElement("a");
    a.href = "/table/" + t.id; a.textContent = t.free ? "Join" : "Watch";
    tr.insertCell().append(a);
  }
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
  await showMe();
  document.getElementById("name-form").addEventListener("submit", async e => {
    e.preventDefault();
    await api("/api/guest", { name: document.getElementById("name").value });
    await showMe();
  });
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
      const t = await api("/api/tables", { game: gameSel.value, preset: document.getElementById("preset").value || null, options });
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
