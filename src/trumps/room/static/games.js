// A player's own game list: finished games link to their replay and exports,
// games under way to their table.  Text goes in through textContent only.
"use strict";
const $ = id => document.getElementById(id);

function el(tag, cls, txt) { const e = document.createElement(tag); if (cls) e.className = cls; if (txt !== undefined) e.textContent = txt; return e; }
function link(href, text, download) { const a = el("a", "", text); a.href = href; if (download) a.setAttribute("download", ""); return a; }
function when(t) { return t ? new Date(t * 1000).toLocaleString() : ""; }

function rules(g) {
  const o = g.options || {};
  return [g.game, g.preset, o.variation, o.players, o.scoring].filter(Boolean).join(" · ");
}

function score(g) {
  if (!g.scores || !g.teams) return "";
  return g.teams.map((t, i) => t.join("") + " " + g.scores[i]).join(", ");
}

function statusText(g) {
  if (g.status !== "finished") return g.status === "waiting" ? "waiting for players" : "being played";
  return g.result ? "finished: you " + g.result : "finished";
}

function render(me) {
  $("me").textContent = "You are " + me.name;
  const body = $("games");
  body.replaceChildren();
  if (!me.games.length) {
    const td = body.insertRow().insertCell(); td.colSpan = 7;
    td.append("No games yet: ", link("/", "create or join a table in the lobby"), ".");
    return;
  }
  for (const g of me.games) {
    const tr = body.insertRow();
    tr.className = "game " + g.status;
    tr.dataset.table = g.id;
    tr.insertCell().textContent = when(g.finished || g.created);
    tr.insertCell().textContent = rules(g);
    tr.insertCell().textContent = g.seats.map(s => s.seat + ": " + (s.name || (s.bot ? "bot" : "—"))).join(", ");
    tr.insertCell().textContent = g.seat ? "seat " + g.seat + (g.host ? " (host)" : "") : "host";
    tr.insertCell().textContent = statusText(g);
    tr.insertCell().textContent = score(g);
    const links = tr.insertCell();
    links.className = "game-links";
    const parts = [];
    if (g.links.replay) parts.push(link(g.links.replay, "Replay"));
    if (g.links.table) parts.push(link(g.links.table, g.status === "waiting" ? "Open table" : "Watch"));
    if (g.links.json) parts.push(link(g.links.json, "JSON", true));
    if (g.links.pbn) parts.push(link(g.links.pbn, "PBN", true));
    parts.forEach((p, i) => { if (i) links.append(" · "); links.append(p); });
  }
}

fetch("/api/me/games")
  .then(async res => {
    const body = await res.json().catch(() => ({ error: res.statusText }));
    if (res.status === 401) {
      $("games").replaceChildren();
      $("games-note").append("Choose a name in the ", link("/", "lobby"), " first: your games are kept under it.");
      return;
    }
    if (!res.ok) { $("error").textContent = body.error || "the game list could not be loaded"; return; }
    render(body);
  })
  .catch(() => { $("error").textContent = "the game list could not be loaded"; });
