"use strict";
// One duplicate tournament (/tournament/{id}): where it stands, the ranking, and each
// deal the reader has played with everyone's result on it (the travelling sheet),
// with the replays the server allows (one's own before the close, anyone's after).
// Names come from players: text only, never HTML.

const tid = decodeURIComponent(location.pathname.split("/").pop());
const GUEST = " (guest)";
function personName(name) { return name && name.endsWith(GUEST) ? t("{name} (guest)", { name: name.slice(0, -GUEST.length) }) : name; }
function num(x) { return I18n.number(x, { useGrouping: false }); }
function mk(tag, cls, txt) { const e = document.createElement(tag); if (cls) e.className = cls; if (txt !== undefined) e.textContent = txt; return e; }
function botWords(kind) {
  return { easy: tc("bot level", "easy"), normal: tc("bot level", "normal"), strong: tc("bot level", "strong"),
    rules: tc("bot level", "rules"), random: tc("bot level", "random") }[kind] || kind;
}
// A deal's value for the reader: a matchpoint percentage or IMPs.
function valueWords(tr, v) { return tr.scoring === "imps" ? tn("{n} IMP", "{n} IMPs", v, { n: num(v) }) : num(v) + " %"; }
function signed(n) { return n > 0 ? "+" + num(n) : num(n); }
// A contract's notation with its suit as a symbol ("110S" -> "110 ♠", "4HX" -> "4 ♥X").
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
function contractWords(c) {
  const m = /^(\d+)([SHDC])(.*)$/.exec(c || "");
  if (m) return m[1] + " " + SUIT_SYMBOL[m[2]] + m[3];
  const capot = /^(CAPOT|GENERALE)-([SHDC]|NT|AT)(.*)$/.exec(c || "");  // a coinche capot or générale bid
  if (capot) return capot[1].toLowerCase() + " " + (SUIT_SYMBOL[capot[2]] || capot[2]) + capot[3];
  return c;
}

function renderSummary(tr) {
  const game = trumpsGames.title(tr.game);
  const name = tr.kind === "daily" ? t("Daily tournament") : t("Instant tournament");
  document.getElementById("title").textContent = t("{game}: {name}", { game, name });
  document.title = t("{game}: {name}", { game, name }) + " — trumps";
  document.getElementById("summary-title").textContent = name;
  const parts = [
    tn("{n} deal", "{n} deals", tr.deals),
    tr.scoring === "imps" ? t("scored in IMPs") : t("scored in matchpoints"),
    t("bots: {level}", { level: botWords(tr.bots) }),
    tn("{n} player", "{n} players", tr.entrants),
    tr.open ? (tr.closes_at ? t("closes {when}", { when: I18n.date(new Date(tr.closes_at * 1000), { weekday: "short", hour: "2-digit", minute: "2-digit" }) }) : "")
      : t("closed"),
    tn("you played {n} deal", "you played {n} deals", tr.played),
  ];
  document.getElementById("summary").textContent = parts.filter(Boolean).join(" · ");
  const play = document.getElementById("play");
  play.hidden = !tr.open || tr.played >= tr.deals;
  play.textContent = tr.played ? t("Play the next deal") : t("Play");
}

function renderRanking(tr) {
  const body = document.getElementById("ranking");
  body.replaceChildren();
  document.getElementById("ranking-note").textContent = tr.open
    ? t("So far: everyone on the deals they have played. Guests are not ranked.")
    : t("Final: the players who played every deal. Guests are not ranked.");
  if (!tr.ranking.length) {
    const row = body.insertRow(); const td = row.insertCell(); td.colSpan = 4; td.textContent = t("Nobody has played yet.");
    return;
  }
  for (const r of tr.ranking) {
    const row = body.insertRow(); if (r.me) row.className = "me";
    row.insertCell().textContent = num(r.position);
    row.insertCell().textContent = personName(r.name);
    const s = row.insertCell(); s.className = "num"; s.textContent = tr.scoring === "imps" ? signed(r.score) : num(r.score) + " %";
    const d = row.insertCell(); d.className = "num"; d.textContent = num(r.deals);
  }
}

function renderDeal(tr, d) {
  const box = mk("section", "deal-result");
  box.dataset.deal = String(d.deal);
  const head = mk("h3", "", t("Deal {n}", { n: num(d.deal) }));
  box.append(head);
  if (!d.results) {
    box.append(mk("p", "note", t("Not played yet: its results show once you have played it.")));
    return box;
  }
  if (d.played) box.append(mk("p", "result-line", t("You scored {score}: {value}", { score: signed(d.score), value: valueWords(tr, d.value) })));
  if (d.par) box.append(mk("p", "note par-line", t("Double-dummy par: {contracts}, {score} for your side", { contracts: d.par.contracts.map(x => { const [c, ...rest] = x.split(" "); return [contractWords(c), ...rest].join(" "); }).join(", ") || t("passed out"), score: signed(d.par.score) })));
  const sheet = mk("table", "tables sheet");
  const cap = mk("caption", "", t("Results on this deal")); sheet.append(cap);
  const h = sheet.createTHead().insertRow();
  for (const c of [t("Score"), t("Players"), tr.scoring === "imps" ? t("IMPs") : t("Matchpoints")]) h.append(mk("th", "", c));
  const sb = sheet.createTBody();
  for (const f of d.sheet) {
    const row = sb.insertRow();
    row.insertCell().textContent = signed(f.score);
    row.insertCell().textContent = num(f.count);
    row.insertCell().textContent = tr.scoring === "imps" ? num(f.value) : num(f.value) + " %";
  }
  box.append(sheet);
  const list = mk("table", "tables travellers");
  const lh = list.createTHead().insertRow();
  for (const c of [t("Player"), t("Contract"), t("Score"), "", ""]) lh.append(mk("th", "", c));
  lh.lastChild.className = "go";
  const lb = list.createTBody();
  for (const r of d.results) {
    const row = lb.insertRow(); if (r.me) row.className = "me";
    const who = row.insertCell();  // the name leads to the replay too (a phone hides the Replay column)
    if (r.replay) { const a = mk("a", "", personName(r.name)); a.href = r.replay; who.append(a); }
    else who.textContent = personName(r.name);
    row.insertCell().textContent = r.contract ? contractWords(r.contract) : t("passed out");
    row.insertCell().textContent = signed(r.score);
    const value = row.insertCell(); value.className = "value"; value.textContent = valueWords(tr, r.value);
    const rep = row.insertCell(); rep.className = "go";
    if (r.replay) { const a = mk("a", "", t("Replay")); a.href = r.replay; rep.append(a); }
  }
  const scroll = mk("div", "games-scroll"); scroll.append(list);
  box.append(scroll);
  return box;
}

async function load() {
  let tr;
  try { tr = await api("/api/tournaments/" + encodeURIComponent(tid)); } catch (ex) {
    document.getElementById("summary").textContent = ex.message;
    return;
  }
  await trumpsGames.ready;
  renderSummary(tr);
  renderRanking(tr);
  const deals = document.getElementById("deals");
  deals.replaceChildren(...tr.sheets.map(d => renderDeal(tr, d)));
}

document.getElementById("play").addEventListener("click", async e => {
  const err = document.getElementById("play-error");
  err.textContent = "";
  e.target.disabled = true;
  try {
    const r = await api("/api/tournaments/" + encodeURIComponent(tid) + "/play", {});
    location.href = "/table/" + encodeURIComponent(r.table);
  } catch (ex) { err.textContent = ex.message; e.target.disabled = false; }
});
load();
