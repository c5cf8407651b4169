"use strict";
// The rating and competition leaderboards. Names come from players: text only, never HTML.

async function getJSON(path) {
  const res = await fetch(path);
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function row(body, cells) {
  const tr = body.insertRow();
  for (const c of cells) tr.insertCell().textContent = c === null || c === undefined ? "—" : String(c);
  return tr;
}

function signed(n) { return n > 0 ? "+" + n : String(n); }

async function showMe() {
  const me = await getJSON("/api/me");
  if (!me.player) return null;
  let line = "You are " + me.name;
  try { line += " · " + (await getJSON("/api/me/chips")).chips + " chips"; } catch (_) { /* no balance yet */ }
  document.getElementById("me").textContent = line;
  return me.player;
}

async function load(you) {
  const game = document.getElementById("game").value;
  const err = document.getElementById("error");
  err.textContent = "";
  try {
    const data = await getJSON("/api/leaderboard?limit=50" + (game ? "&game=" + encodeURIComponent(game) : ""));
    const board = document.getElementById("board");
    board.replaceChildren();
    if (!data.players.length) {
      const td = board.insertRow().insertCell();
      td.colSpan = 7; td.textContent = "No competition results yet.";
    }
    for (const p of data.players) {
      const tr = row(board, [p.rank, p.name, signed(p.won), p.games, p.wins, p.average, p.chips]);
      if (p.player === you) { tr.style.fontWeight = "600"; tr.title = "you"; }
    }
    const prizes = document.getElementById("prizes");
    prizes.replaceChildren();
    for (const r of data.prizes) row(prizes, [r.buy_in, r.stake, r.fee, r.two_sides, r.three_sides]);
  } catch (ex) { err.textContent = ex.message; }
}

const GAME_NAMES = { "500": "500", bridge: "Bridge", coinche: "Coinche" };
let ratingsAsked = 0;  // the latest request wins when the game changes quickly

async function loadRatings(you) {
  const game = document.getElementById("rating-game").value;
  const err = document.getElementById("ratings-error");
  const body = document.getElementById("ratings");
  const asked = ++ratingsAsked;
  err.textContent = "";
  document.getElementById("ratings-caption").textContent = "Ratings in " + (GAME_NAMES[game] || game);
  try {
    const data = await getJSON("/api/ratings?limit=50&game=" + encodeURIComponent(game));
    if (asked !== ratingsAsked) return;
    body.replaceChildren();
    if (!data.players.length) {
      const td = body.insertRow().insertCell();
      td.colSpan = 4; td.textContent = "Nobody is rated in " + (GAME_NAMES[game] || game) + " yet.";
    }
    for (const p of data.players) {
      const tr = body.insertRow();
      tr.insertCell().textContent = String(p.rank);
      const a = document.createElement("a");
      a.href = "/player/" + encodeURIComponent(p.name);
      a.textContent = p.name;
      tr.insertCell().append(a);
      const rating = tr.insertCell(); rating.className = "num"; rating.textContent = String(p.display);
      const games = tr.insertCell(); games.className = "num"; games.textContent = String(p.games);
      if (p.player === you) { tr.className = "you"; a.after(" (you)"); }
    }
  } catch (ex) {
    if (asked !== ratingsAsked) return;
    body.replaceChildren();
    err.textContent = ex.message;
  }
}

function setupRatings(you) {
  const sel = document.getElementById("rating-game");
  const asked = new URLSearchParams(location.search).get("rating");
  if (asked && [...sel.options].some(o => o.value === asked)) sel.value = asked;
  sel.addEventListener("change", () => {
    const url = new URL(location.href);
    url.searchParams.set("rating", sel.value);
    history.replaceState(null, "", url);
    loadRatings(you);
  });
  return loadRatings(you);
}

async function main() {
  const you = await showMe().catch(() => null);
  setupRatings(you);
  const sel = document.getElementById("game");
  try {
    for (const g of await getJSON("/api/games")) sel.append(new Option(g.game, g.game));
  } catch (_) { /* the filter stays at "all games" */ }
  sel.addEventListener("change", () => load(you));
  await load(you);
}
main();
