"use strict";
// A player's profile (/player/<username>): games, ratings, friends and recent
// games.  Everything from the server goes in through textContent only.
// Texts through t/tn (i18n.js), dates and numbers as the language writes them.

const $ = id => document.getElementById(id);
const KIND_NAMES = { play: () => t("Play"), join: () => t("Join"), compete: () => t("Compete") };
const SVG_NS = "http://www.w3.org/2000/svg";

function el(tag, cls, txt) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (txt !== undefined) e.textContent = txt;
  return e;
}

// a game's name from the server's game list (a game it no longer plays: its key)
function gameName(g) { return g ? trumpsGames.title(g) : "?"; }
function kindName(k) { return KIND_NAMES[k] ? KIND_NAMES[k]() : k; }
function pct(n) { return I18n.number(Math.round(n * 10) / 1000, { style: "percent", maximumFractionDigits: 1 }); }
function count(n) { return I18n.number(n); }
// ratings and scores: the language's digits, no grouping (1500, not 1,500)
function num(n) { return I18n.number(n, { useGrouping: false }); }
function day(ts) { return I18n.date(ts * 1000, { year: "numeric", month: "long", day: "numeric" }); }
function when(ts) {
  const d = new Date(ts * 1000);
  const opts = { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" };
  if (d.getFullYear() !== new Date().getFullYear()) opts.year = "numeric";
  return I18n.date(d, opts);
}
// A tournament's day, short (a phone's row keeps room for its Results link).
function shortDay(ts) {
  const d = new Date(ts * 1000);
  const opts = { month: "short", day: "numeric", timeZone: "UTC" };  // (a daily one is a UTC day)
  if (d.getUTCFullYear() !== new Date().getUTCFullYear()) opts.year = "numeric";
  return I18n.date(d, opts);
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
    ? t("Rating after 1 rated game: {rating}", { rating: num(first) })
    : tn("Rating history over the last {n} rated game: from {first} to {last} ({change}), lowest {lowest}, highest {highest}",
      "Rating history over the last {n} rated games: from {first} to {last} ({change}), lowest {lowest}, highest {highest}", n, {
        first: num(first), last: num(last), change: (last >= first ? "+" : "−") + num(Math.abs(last - first)),
        lowest: num(lo), highest: num(hi),
      }));
  if (n > 1) {
    chart.append(svg("polygon", { class: "area", points: `${x(0)},${H} ${points.join(" ")} ${x(n - 1)},${H}` }));
    chart.append(svg("polyline", { class: "line", points: points.join(" ") }));
  } else {
    // one rated game: its point (a round cap that the stretched chart does not
    // turn into an ellipse) on a dashed level line, not an empty box
    chart.append(svg("line", { class: "level", x1: PAD, y1: H / 2, x2: W - PAD, y2: H / 2 }));
    chart.append(svg("polyline", { class: "point", points: `${W / 2},${H / 2} ${W / 2},${H / 2}` }));
  }
  const box = el("div", "spark-box");
  box.append(chart);
  // the chart stretches to the card (preserveAspectRatio none): the numbers go in a caption
  const cap = el("div", "spark-caption");
  cap.setAttribute("aria-hidden", "true");
  cap.append(el("span", "", n === 1 ? tn("{n} game", "{n} games", 1) : num(first)), el("span", "", n === 1 ? num(first) : "→ " + num(last)));
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
  if (st.rating === null || st.rating === undefined) rating.textContent = t("unrated");
  else {
    rating.textContent = num(st.rating);
    rating.title = tn("Rating after {n} rated game", "Rating after {n} rated games", st.rated_games);
    rating.prepend(el("span", "sr-only", t("rating") + " "));
  }
  h.append(title, rating);
  card.append(h);
  if (!st.played && !(st.history && st.history.length)) {
    card.append(el("p", "spark-none", t("No {game} games yet.", { game: gameName(game) })));
    return card;
  }
  const dl = el("dl");
  stat(dl, t("Played"), count(st.played));
  stat(dl, t("Won"), count(st.won), st.played ? "(" + pct((100 * st.won) / st.played) + ")" : undefined);
  if (st.contracts) {
    stat(dl, t("Contracts made"), pct(st.made_pct ?? (100 * st.made) / st.contracts),
      t("({made} of {held})", { made: count(st.made), held: count(st.contracts) }));
  } else stat(dl, t("Contracts made"), "—", t("(none held)"));
  stat(dl, t("Rated games"), count(st.rated_games || 0));
  card.append(dl);
  if (st.history && st.history.length) card.append(sparkline(st.history));
  else card.append(el("p", "spark-none", t("No rating history yet.")));
  return card;
}

function renderGames(games) {
  const box = $("games");
  box.replaceChildren();
  // the server's order of its games, then any game it no longer plays
  const known = trumpsGames.keys();
  const order = known.filter(g => g in games).concat(Object.keys(games).filter(g => !known.includes(g)));
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
    td.colSpan = 6; td.textContent = t("No finished games yet."); td.className = "muted";
    return;
  }
  for (const r of recent) {
    const tr = body.insertRow();
    const date = tr.insertCell(); date.className = "date"; date.textContent = when(r.at);
    tr.insertCell().textContent = gameName(r.game);
    const kind = tr.insertCell(); kind.className = "kind"; kind.textContent = kindName(r.kind);
    const res = tr.insertCell(); res.className = r.won ? "won" : "lost"; res.textContent = r.won ? t("Won") : t("Lost");
    const sc = tr.insertCell(); sc.className = "num"; sc.textContent = num(r.score);
    const a = el("a", "", t("Replay"));
    a.href = "/replay/" + encodeURIComponent(r.table);
    a.setAttribute("aria-label", t("Replay of the {game} game of {date}", { game: gameName(r.game), date: when(r.at) }));
    tr.insertCell().append(a);
  }
}

// The person's latest duplicate tournaments: the place (final once closed, so far before).
function renderTournaments(list) {
  const body = $("tournaments");
  body.replaceChildren();
  if (!list.length) {
    const td = body.insertRow().insertCell();
    td.colSpan = 6; td.textContent = t("No tournaments yet."); td.className = "muted";
    return;
  }
  for (const x of list) {
    const tr = body.insertRow();
    const date = tr.insertCell(); date.className = "date"; date.textContent = shortDay(x.opens_at);
    const results = "/tournament/" + encodeURIComponent(x.id);
    const game = el("a", "", gameName(x.game)); game.href = results;  // (a phone shows no Results column)
    tr.insertCell().append(game);
    const kind = tr.insertCell(); kind.className = "kind";
    kind.textContent = x.kind === "daily" ? t("Daily tournament") : t("Instant tournament");
    const place = tr.insertCell();
    place.textContent = x.position ? t("{position} of {of}", { position: num(x.position), of: num(x.of) })
      : tn("{n} of {deals} deals played", "{n} of {deals} deals played", x.played, { deals: num(x.deals) });
    const sc = tr.insertCell(); sc.className = "num";
    sc.textContent = x.score === undefined ? "" : x.scoring === "imps" ? num(x.score) : num(x.score) + " %";
    const a = el("a", "", t("Results")); a.href = results;
    const go = tr.insertCell(); go.className = "go"; go.append(a);
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
    box.append(el("span", "tag", t("This is you")));
    const a = el("a", "", t("Your settings"));
    a.href = "/settings";
    box.append(a);
    return;
  }
  if (!me || !me.account) {
    const widget = window.trumpsAccount;
    if (widget && typeof widget.dialog === "function") {  // the account widget can log in from here
      const b = el("button", "link", t("Log in to add friends"));
      b.type = "button";
      b.addEventListener("click", () => widget.dialog("login"));
      box.append(b);
    } else box.append(el("span", "muted", t("Log in to add friends")));
    return;
  }
  const name = p.name;
  switch (relationOf(p)) {
    case "blocked":
      box.append(el("span", "tag blocked", t("Blocked")), button(t("Unblock"), "unblock"));
      break;
    case "friend":
      box.append(el("span", "tag", t("✓ Friends")), button(t("Remove friend"), "remove"), button(t("Block"), "block", "danger"));
      break;
    case "requested":
      box.append(el("span", "tag", t("Request sent")), button(t("Cancel request"), "cancel"), button(t("Block"), "block", "danger"));
      break;
    case "incoming":
      box.append(el("span", "tag", t("{name} asked to be your friend", { name })), button(t("Accept"), "accept", "primary"),
        button(t("Decline"), "decline"), button(t("Block"), "block", "danger"));
      break;
    default:
      box.append(button(t("Add friend"), "request", "primary"), button(t("Block"), "block", "danger"));
  }
}

const DONE = {
  requested: name => t("Friend request sent to {name}.", { name }),
  friends: name => t("You and {name} are friends.", { name }),
  declined: name => t("Request from {name} declined.", { name }),
  cancelled: name => t("Request to {name} cancelled.", { name }),
  removed: name => t("{name} is no longer your friend.", { name }),
  blocked: name => t("{name} is blocked.", { name }),
  unblocked: name => t("{name} is unblocked.", { name }),
};

async function act(action) {
  const name = current.name;
  if (action === "block" && !confirm(t("Block {name}? You will no longer be friends, and they cannot send you requests or invitations.", { name }))) return;
  if (action === "remove" && !confirm(t("Remove {name} from your friends?", { name }))) return;
  const box = $("relation");
  for (const b of box.querySelectorAll("button")) b.disabled = true;
  $("error").textContent = "";
  $("relation-status").textContent = "";
  try {
    const r = await api("/api/friends", { player: name, action });
    social = r;
    await load(false);
    $("relation-status").textContent = (DONE[r.result] || (() => t("Done.")))(name);
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
  $("missing-text").textContent = name ? t("There is no account called “{name}”.", { name }) : t("There is no account with that name.");
  const page = t("No such player");
  document.title = t("{page} — trumps", { page });
}

function render(p) {
  current = p;
  document.title = t("{page} — trumps", { page: p.name });
  $("name-text").textContent = p.name;
  const online = p.online || p.you;  // you are here, whether or not your live channel is up yet
  $("dot").classList.toggle("online", !!online);
  $("presence").textContent = online ? t("online") : t("offline");
  $("since").textContent = p.member_since ? t("Member since {date}", { date: day(p.member_since) }) : "";
  renderRelation();
  renderGames(p.games || {});
  renderFriends(p.friends || []);
  renderTournaments(p.tournaments || []);
  renderRecent(p.recent || []);
}

async function load(first) {
  const name = username();
  if (!name) { showMissing(""); return; }
  try {
    render(await api("/api/players/" + encodeURIComponent(name)));
  } catch (ex) {
    if (ex.status === 404) showMissing(name);
    else if (first) { $("name-text").textContent = name; $("error").textContent = t("Could not load this profile: {error}", { error: ex.message }); }
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
  await trumpsGames.ready;
  await load(true);
}
main();
