// A player's own game list: finished games link to their replay and exports,
// games under way to their table.  Text goes in through textContent only.
"use strict";
const $ = id => document.getElementById(id);

function el(tag, cls, txt) { const e = document.createElement(tag); if (cls) e.className = cls; if (txt !== undefined) e.textContent = txt; return e; }
function link(href, text, download) { const a = el("a", "", text); a.href = href; if (download) a.setAttribute("download", ""); return a; }
// English keeps the browser's own regional format, as the page always showed; other
// languages write the same date and time their way.
function when(ts) {
  if (!ts) return "";
  const d = new Date(ts * 1000);
  return I18n.lang === "en" ? d.toLocaleString()
    : I18n.date(d, { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
}
function num(x) { return I18n.number(x, { useGrouping: false }); }
// A registered player's name as it is; a guest's carries the mark " (guest)" from the server.
const GUEST = " (guest)";
function personName(name) { return name && name.endsWith(GUEST) ? t("{name} (guest)", { name: name.slice(0, -GUEST.length) }) : name; }
// "No games yet: <a>…</a>." : a sentence around a link, in the translator's word order
function withLink(sentence, a) {
  const [before, after] = sentence.split("\u0001");
  return [before, a, after || ""];
}

// The game and its rules in words, from the engine's option metadata (/api/games):
// "500 · Australian rules · 2v2, 4 players"; identifiers when the metadata is missing.
let catalogue = {};
function rules(g) {
  const o = g.options || {};
  const meta = catalogue[g.game];
  if (!meta) return [g.game, g.preset, o.variation, o.players, o.scoring].filter(Boolean).join(" · ");
  const words = name => {
    const spec = meta.options.find(x => x.name === name);
    if (!spec || o[name] === undefined || o[name] === null) return null;
    const choice = (spec.choice_labels || []).find(c => c.value === o[name]);
    return choice ? t(choice.label) : String(o[name]);
  };
  const preset = g.preset && meta.preset_info && meta.preset_info[g.preset];
  const parts = [t(meta.title), preset ? t(preset.label) : g.preset];
  // the variation is in the preset's name already when they agree (American rules, American)
  if (!(g.preset && o.variation === g.preset)) parts.push(words("variation"));
  parts.push(words("players"), words("scoring"));
  return parts.filter(Boolean).join(" · ");
}

function score(g) {
  if (!g.scores || !g.teams) return "";
  return g.teams.map((team, i) => teamLabel(team) + " " + num(g.scores[i])).join(", ");
}

function statusText(g) {
  if (g.status !== "finished") return g.status === "waiting" ? t("waiting for players") : t("being played");
  if (g.result === "won") return t("finished: you won");
  if (g.result === "lost") return t("finished: you lost");
  if (g.result === "drawn") return t("finished: you drawn");
  return g.result ? t("finished: you {result}", { result: g.result }) : t("finished");
}

function render(me) {
  $("me").textContent = t("You are {name}", { name: personName(me.name) });
  const body = $("games");
  body.replaceChildren();
  if (!me.games.length) {
    const td = body.insertRow().insertCell(); td.colSpan = 7;
    td.append(...withLink(t("No games yet: {link}.", { link: "\u0001" }), link("/", t("create or join a table in the lobby"))));
    return;
  }
  for (const g of me.games) {
    const tr = body.insertRow();
    tr.className = "game " + g.status;
    tr.dataset.table = g.id;
    // the first cells lead to the game too: on a phone the links' column is
    // scrolled out of sight
    const go = g.links.replay || g.links.table;
    const first = tr.insertCell();
    if (go) first.append(link(go, when(g.finished || g.created))); else first.textContent = when(g.finished || g.created);
    tr.insertCell().textContent = rules(g);
    tr.insertCell().textContent = g.seats.map(s => seatLabel(s.seat) + ": " + (personName(s.name) || (s.bot ? t("bot") : "—"))).join(", ");
    tr.insertCell().textContent = g.seat ? (g.host ? t("seat {seat} (host)", { seat: seatLabel(g.seat) }) : t("seat {seat}", { seat: seatLabel(g.seat) })) : t("host");
    tr.insertCell().textContent = statusText(g);
    tr.insertCell().textContent = score(g);
    const links = tr.insertCell();
    links.className = "game-links";
    const parts = [];
    if (g.links.replay) parts.push(link(g.links.replay, t("Replay")));
    if (g.links.table) parts.push(link(g.links.table, g.status === "waiting" ? t("Open table") : t("Watch")));
    if (g.links.json) parts.push(link(g.links.json, "JSON", true));
    if (g.links.pbn) parts.push(link(g.links.pbn, "PBN", true));
    parts.forEach((p, i) => { if (i) links.append(" · "); links.append(p); });
  }
}

fetch("/api/games")
  .then(res => (res.ok ? res.json() : []))
  .then(list => { for (const game of list) catalogue[game.game] = game; })
  .catch(() => {})
  .then(() => fetch("/api/me/games"))
  .then(async res => {
    const body = await res.json().catch(() => ({ error: res.statusText }));
    if (res.status === 401) {
      $("games").replaceChildren();
      $("games-note").append(...withLink(t("Choose a name in the {lobby} first: your games are kept under it.", { lobby: "\u0001" }), link("/", t("lobby"))));
      return;
    }
    if (!res.ok) { $("error").textContent = body.error ? tMsg(body.error) : t("the game list could not be loaded"); return; }
    render(body);
  })
  .catch(() => { $("error").textContent = t("the game list could not be loaded"); });
