"use strict";
// The competition leaderboard. Names come from players: text only, never HTML.

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

async function main() {
  const you = await showMe().catch(() => null);
  const sel = document.getElementById("game");
  try {
    for (const g of await getJSON("/api/games")) sel.append(new Option(g.game, g.game));
  } catch (_) { /* the filter stays at "all games" */ }
  sel.addEventListener("change", () => load(you));
  await load(you);
}
main();
