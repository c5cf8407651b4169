"use strict";
// The rating and competition leaderboards. Names come from players: text only, never HTML.

async function getJSON(path) {
  const res = await fetch(path);
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

// Numbers as the language writes them ("12,5"), without thousands separators as before ("1054").
function num(x) { return typeof x === "number" ? I18n.number(x, { useGrouping: false }) : x; }

function row(body, cells) {
  const tr = body.insertRow();
  for (const c of cells) tr.insertCell().textContent = c === null || c === undefined ? "—" : String(num(c));
  return tr;
}

function signed(n) { return typeof n === "number" && n > 0 ? "+" + num(n) : num(n); }
// A registered player's name as it is; a guest's carries the mark " (guest)" from the server.
const GUEST = " (guest)";
function personName(name) { return name && name.endsWith(GUEST) ? t("{name} (guest)", { name: name.slice(0, -GUEST.length) }) : name; }

// A game's name, from the server's game list: "Bridge" in the ratings' sentences and
// choices; the competition filter names the games lower case, like "all games".
function gameName(g) { return trumpsGames.title(g); }
function filterName(g) { return trumpsGames.noun(g); }

async function showMe() {
  const me = await getJSON("/api/me");
  if (!me.player) return null;
  let line = t("You are {name}", { name: personName(me.name) });
  try {
    const chips = (await getJSON("/api/me/chips")).chips;
    // English said "1 chips" too: both English forms are kept as they were
    line = tn("You are {name} · {n} chips", "You are {name} · {n} chips", chips, { name: personName(me.name), n: num(chips) });
  } catch (_) { /* no balance yet */ }
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
      td.colSpan = 7; td.textContent = t("No competition results yet.");
    }
    for (const p of data.players) {
      const tr = row(board, [p.rank, p.name, signed(p.won), p.games, p.wins, p.average, p.chips]);
      if (p.player === you) { tr.style.fontWeight = "600"; tr.title = t("you"); }
    }
    const prizes = document.getElementById("prizes");
    prizes.replaceChildren();
    for (const r of data.prizes) row(prizes, [r.buy_in, r.stake, r.fee, r.two_sides, r.three_sides]);
  } catch (ex) { err.textContent = tMsg(ex.message); }
}

let ratingsAsked = 0;  // the latest request wins when the game changes quickly

async function loadRatings(you) {
  const game = document.getElementById("rating-game").value;
  const err = document.getElementById("ratings-error");
  const body = document.getElementById("ratings");
  const asked = ++ratingsAsked;
  err.textContent = "";
  document.getElementById("ratings-caption").textContent = t("Ratings in {game}", { game: gameName(game) });
  try {
    const data = await getJSON("/api/ratings?limit=50&game=" + encodeURIComponent(game));
    if (asked !== ratingsAsked) return;
    body.replaceChildren();
    if (!data.players.length) {
      const td = body.insertRow().insertCell();
      td.colSpan = 4; td.textContent = t("Nobody is rated in {game} yet.", { game: gameName(game) });
    }
    for (const p of data.players) {
      const tr = body.insertRow();
      tr.insertCell().textContent = num(p.rank);
      const a = document.createElement("a");
      a.href = "/player/" + encodeURIComponent(p.name);
      a.textContent = p.name;
      tr.insertCell().append(a);
      const rating = tr.insertCell(); rating.className = "num"; rating.textContent = num(p.display);
      const games = tr.insertCell(); games.className = "num"; games.textContent = num(p.games);
      if (p.player === you) { tr.className = "you"; a.after(" " + t("(you)")); }
    }
  } catch (ex) {
    if (asked !== ratingsAsked) return;
    body.replaceChildren();
    err.textContent = tMsg(ex.message);
  }
}

async function setupRatings(you) {
  const sel = document.getElementById("rating-game");
  await trumpsGames.ready;
  for (const g of trumpsGames.keys()) sel.append(new Option(gameName(g), g));
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
  await setupRatings(you);
  const sel = document.getElementById("game");
  // (without the game list the filter stays at "all games")
  for (const g of trumpsGames.keys()) sel.append(new Option(filterName(g), g));
  sel.addEventListener("change", () => load(you));
  await load(you);
}
main();
