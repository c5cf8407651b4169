"use strict";
// A player's profile (/player/<username>): games, ratings, friends and recent
// games.  Everything from the server goes in through textContent only.

const $ = id => document.getElementById(id);
const GAME_NAMES = { "500": "500", bridge: "Bridge", coinche: "Coinche" };
const KIND_NAMES = { play: "Play", join: "Join", compete: "Compete" };
const SVG_NS = "http://www.w3.org/2000/svg";

function el(tag, cls, txt) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (txt !== undefined) e.textContent = txt;
  return e;
}

function gameName(g) { return GAME_NAMES[g] || (g ? g.charAt(0).toUpperCase() + g.slice(1) : "?"); }
function pct(n) { return (Math.round(n * 10) / 10).toLocaleString() + "%"; }
function day(ts) { return new Date(ts * 1000).toLocaleDateString([], { year: "numeric", month: "long", day: "numeric" }); }
function when(ts) {
  const d = new Date(ts * 1000);
  const opts = { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" };
  if (d.getFullYear() !== new Date().getFullYear()) opts.year = "numeric";
  return d.toLocaleString([], opts);
}
function profileHref(name) { return "/player/" + encodeURIComponent(name); }

// The username is the last segment of the path (/player/<username>).
function username() {
  const last = location.pathname.split("/").filter(Boolean).pop() || "";
  try { return decodeURIComponent(last); } catch (_) { return last; }
}

// ----- the rating sparkline ---------------------------------------------------------
function svg(tag, attrs) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function sparkline(history) {
  const W = 240, H = 48, PAD = 4;
  const values = history.map(h => h.rating);
  const lo = Math.min(...values), hi = Math.max(...values);
  const span = hi - lo || 1;
  const x = i => values.length === 1 ? W / 2 : PAD + (i * (W - 2 * PAD)) / (values.length - 1);
  const y = v => hi === lo ? H / 2 : PAD + ((hi - v) * (H - 2 * PAD)) / span;
  const points = values.map((v, i) => x(i).toFixed(1) + "," + y(v).toFixed(1));
  const first = values[0], last = values[values.length - 1];
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", class: "spark", role: "img", focusable: "false" });
  const n = values.length;
  chart.setAttribute("aria-label", n === 1
    ? `Rating after 1 rated game: ${first}`
    : `Rating history over the last ${n} rated games: from ${first} to ${last} (${last >= first ? "+" : "−"}${Math.abs(last - first)}), lowest ${lo}, highest ${hi}`);
  if (n > 1) {
    chart.append(svg("polygon", { class: "area", points: `${x(0)},${H} ${points.join(" ")} ${x(n - 1)},${H}` }));
    chart.append(svg("polyline", { class: "line", points: points.join(" ") }));
  }
  const box = el("div", "spark-box");
  box.append(chart);
  // the chart stretches to the card (preserveAspectRatio none): the numbers go in a caption
  const cap = el("div", "spark-caption");
  cap.setAttribute("aria-hidden", "true");
  cap.append(el("span", "", n === 1 ? "1 game" : String(first)), el("span", "", n === 1 ? String(first) : "→ " + last));
  box.append(cap);
  return box;
}

// ----- rendering --------------------------------------------------------------------
function stat(dl, term, value, small) {
  const dd = el("dd", "", value);
  if (small) dd.append(" ", el("small", "", small));
  dl.append(el("dt", "", term), dd);
}

function gameCard(game, st) {
  const card = el("article", "panel game-card" + (st.played ? "" : " empty"));
  const h = el("h3");
  const title = el("span", "", gameName(game));
  title.id = "game-" + game;
  card.setAttribute("aria-labelledby", title.id);
  const rating = el("span", "rating" + (st.rating === null || st.rating === undefined ? " none" : ""));
  if (st.rating === null || st.rating === undefined) rating.textContent = "unrated";
  else {
    rating.textContent = String(st.rating);
    rating.title = "Rating after " + st.rated_games + " rated game" + (st.rated_games === 1 ? "" : "s");
    rating.prepend(el("span", "sr-only", "rating "));
  }
  h.append(title, rating);
  card.append(h);
  if (!st.played && !(st.history && st.history.length)) {
    card.append(el("p", "spark-none", "No " + gameName(game) + " games yet."));
    return card;
  }
  const dl = el("dl");
  stat(dl, "Played", String(st.played));
  stat(dl, "Won", String(st.won), st.played ? "(" + pct((100 * st.won) / st.played) + ")" : undefined);
  if (st.contracts) stat(dl, "Contracts made", pct(st.made_pct ?? (100 * st.made) / st.contracts), "(" + st.made + " of " + st.contracts + ")");
  else stat(dl, "Contracts made", "—", "(none held)");
  stat(dl, "Rated games", String(st.rated_games || 0));
  card.append(dl);
  if (st.history && st.history.length) card.append(sparkline(st.history));
  else card.append(el("p", "spark-none", "No rating history yet."));
  return card;
}

function renderGames(games) {
  const box = $("games");
  box.replaceChildren();
  const order = Object.keys(GAME_NAMES).filter(g => g in games).concat(Object.keys(games).filter(g => !(g in GAME_NAMES)));
  for (const g of order) box.append(gameCard(g, games[g]));
}

function renderFriends(friends) {
  const list = $("profile-friends");
  list.replaceChildren();
  for (const name of friends) {
    const a = el("a", "", name);
    a.href = profileHref(name);
    const li = el("li");
    li.append(a);
    list.append(li);
  }
  $("no-friends").hidden = friends.length > 0;
  list.hidden = !friends.length;
}

function renderRecent(recent) {
  const body = $("recent");
  body.replaceChildren();
  if (!recent.length) {
    const td = body.insertRow().insertCell();
    td.colSpan = 6; td.textContent = "No finished games yet."; td.className = "muted";
    return;
  }
  for (const r of recent) {
    const tr = body.insertRow();
    const date = tr.insertCell(); date.className = "date"; date.textContent = when(r.at);
    tr.insertCell().textContent = gameName(r.game);
    const kind = tr.insertCell(); kind.className = "kind"; kind.textContent = KIND_NAMES[r.kind] || r.kind;
    const res = tr.insertCell(); res.className = r.won ? "won" : "lost"; res.textContent = r.won ? "Won" : "Lost";
    const sc = tr.insertCell(); sc.className = "num"; sc.textContent = String(r.score);
    const a = el("a", "", "Replay");
    a.href = "/replay/" + encodeURIComponent(r.table);
    a.setAttribute("aria-label", "Replay of the " + gameName(r.game) + " game of " + when(r.at));
    tr.insertCell().append(a);
  }
}

// ----- friendship -------------------------------------------------------------------
let current = null;   // the profile shown
let me = null;        // /api/me
let social = null;    // /api/friends of the viewer (accounts only), or null

function relationOf(p) {
  const has = list => ((social && social[list]) || []).some(e => e.player === p.player);
  if (social && has("blocked")) return "blocked";
  if (p.friend || has("friends")) return "friend";
  if (p.requested || has("outgoing")) return "requested";
  if (has("incoming")) return "incoming";
  return "none";
}

function button(label, action, cls) {
  const b = el("button", cls || "", label);
  b.type = "button";
  b.dataset.action = action;
  return b;
}

function renderRelation() {
  const box = $("relation");
  box.replaceChildren();
  const p = current;
  if (p.you) {
    box.append(el("span", "tag", "This is you"));
    const a = el("a", "", "Your settings");
    a.href = "/settings";
    box.append(a);
    return;
  }
  if (!me || !me.account) {
    const widget = window.trumpsAccount;
    if (widget && typeof widget.dialog === "function") {  // the account widget can log in from here
      const b = el("button", "link", "Log in to add friends");
      b.type = "button";
      b.addEventListener("click", () => widget.dialog("login"));
      box.append(b);
    } else box.append(el("span", "muted", "Log in to add friends"));
    return;
  }
  const name = p.name;
  switch (relationOf(p)) {
    case "blocked":
      box.append(el("span", "tag blocked", "Blocked"), button("Unblock", "unblock"));
      break;
    case "friend":
      box.append(el("span", "tag", "✓ Friends"), button("Remove friend", "remove"), button("Block", "block", "danger"));
      break;
    case "requested":
      box.append(el("span", "tag", "Request sent"), button("Cancel request", "cancel"), button("Block", "block", "danger"));
      break;
    case "incoming":
      box.append(el("span", "tag", name + " asked to be your friend"), button("Accept", "accept", "primary"),
        button("Decline", "decline"), button("Block", "block", "danger"));
      break;
    default:
      box.append(button("Add friend", "request", "primary"), button("Block", "block", "danger"));
  }
}

const DONE = {
  requested: n => "Friend request sent to " + n + ".",
  friends: n => "You and " + n + " are friends.",
  declined: n => "Request from " + n + " declined.",
  cancelled: n => "Request to " + n + " cancelled.",
  removed: n => n + " is no longer your friend.",
  blocked: n => n + " is blocked.",
  unblocked: n => n + " is unblocked.",
};

async function act(action) {
  const name = current.name;
  if (action === "block" && !confirm("Block " + name + "? You will no longer be friends, and they cannot send you requests or invitations.")) return;
  if (action === "remove" && !confirm("Remove " + name + " from your friends?")) return;
  const box = $("relation");
  for (const b of box.querySelectorAll("button")) b.disabled = true;
  $("error").textContent = "";
  $("relation-status").textContent = "";
  try {
    const r = await api("/api/friends", { player: name, action });
    social = r;
    await load(false);
    $("relation-status").textContent = (DONE[r.result] || (() => "Done."))(name);
    const first = box.querySelector("button:not([disabled]), a");
    if (first) first.focus();
  } catch (ex) {
    $("error").textContent = ex.message;
    renderRelation();
  }
}

// ----- loading ----------------------------------------------------------------------
function showMissing(name) {
  $("profile").hidden = true;
  $("missing").hidden = false;
  $("missing-text").textContent = name ? "There is no account called “" + name + "”." : "There is no account with that name.";
  document.title = "trumps — no such player";
}

function render(p) {
  current = p;
  document.title = "trumps — " + p.name;
  $("name-text").textContent = p.name;
  const online = p.online || p.you;  // you are here, whether or not your live channel is up yet
  $("dot").classList.toggle("online", !!online);
  $("presence").textContent = online ? "online" : "offline";
  $("since").textContent = p.member_since ? "Member since " + day(p.member_since) : "";
  renderRelation();
  renderGames(p.games || {});
  renderFriends(p.friends || []);
  renderRecent(p.recent || []);
}

async function load(first) {
  const name = username();
  if (!name) { showMissing(""); return; }
  try {
    render(await api("/api/players/" + encodeURIComponent(name)));
  } catch (ex) {
    if (ex.status === 404) showMissing(name);
    else if (first) { $("name-text").textContent = name; $("error").textContent = "Could not load this profile: " + ex.message; }
    else $("error").textContent = ex.message;
  } finally {
    $("profile").setAttribute("aria-busy", "false");
  }
}

async function main() {
  $("relation").addEventListener("click", e => {
    const b = e.target.closest("button[data-action]");
    if (b && b.dataset.action !== "none" && current) act(b.dataset.action);
  });
  // live changes (a request accepted elsewhere) come through the account widget, when there is one
  if (window.trumpsAccount && typeof window.trumpsAccount.onFriends === "function") {
    window.trumpsAccount.onFriends(data => { social = data; if (current) renderRelation(); });
  }
  me = await api("/api/me").catch(() => null);
  if (me && me.account) social = await api("/api/friends").catch(() => null);
  await load(true);
}
main();
