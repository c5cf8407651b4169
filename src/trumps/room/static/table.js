"use strict";
const tid = location.pathname.split("/").pop();
let ws = null, state = null, lastSeq = -1, lastTrickTimer = null;
let suggestion = null, clockOffset = 0, phrases = [], botLevel = "easy";
const $ = id => document.getElementById(id);
const SUIT_SYM = { S: "♠", H: "♥", D: "♦", C: "♣" };

function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify({ v: 1, ...msg })); }
function el(tag, cls, txt) { const e = document.createElement(tag); if (cls) e.className = cls; if (txt !== undefined) e.textContent = txt; return e; }
function announce(s) { $("announce").textContent = s; }
function prettyCall(c) { return c.replace(/^(i?\d+)(S|H|D|C)(X{0,2})$/, (m, n, s, x) => n + SUIT_SYM[s] + x); }
// In these phases the legal actions that name a card of the hand to play are card plays.
const CARD_PHASES = new Set(["PLAY", "KITTY", "DISCARD"]);
function isCardAction(v, a) {
  if (!CARD_PHASES.has(v.phase)) return false;
  const cards = v.hands[v.hand_to_play] || [];
  return cards.includes(a.split(/[:+]/)[0]);
}

function cardButton(code, playable, small) {
  const b = el("button", "card" + (playable ? " legal" : "") + (small ? " small" : ""));
  b.type = "button";
  b.append(cardSVG(code));
  b.setAttribute("aria-label", cardLabel(code));
  b.dataset.card = code;
  b.disabled = !playable;
  return b;
}

function cardFace(code, small = true) {
  const d = el("div", "card" + (small ? " small" : ""));
  d.append(cardSVG(code));
  d.setAttribute("role", "img");
  d.setAttribute("aria-label", cardLabel(code));
  return d;
}

function legalFor(card, legal, v) {
  if (!CARD_PHASES.has(v.phase)) return [];
  return legal.filter(a => a === card || a.startsWith(card + ":") || a.startsWith(card + "+"));
}

// personal settings (account or browser): see /settings
const PREFS = (() => { try { return JSON.parse(localStorage.getItem("trumps.prefs") || "{}"); } catch (e) { return {}; } })();
let armed = null;  // with "confirm card play": the card tapped once

function play(card, legal, v) {
  const options = legalFor(card, legal, v);
  if (PREFS.confirm_card && armed !== card) {
    armed = card;
    for (const b of document.querySelectorAll("button.card.armed")) b.classList.remove("armed");
    for (const b of document.querySelectorAll(`button.card[data-card="${card}"]`)) b.classList.add("armed");
    announce("Tap " + cardLabel(card) + " again to play it");
    return;
  }
  armed = null;
  if (options.length === 1) { send({ type: "act", action: options[0], seq: lastSeq }); return; }
  const calls = $("calls");  // one card, several ways to play it: a joker lead's suit, an announcement
  calls.replaceChildren(el("span", "", "Play " + cardLabel(card) + ": "));
  for (const a of options) {
    const rest = a.slice(card.length);
    const label = rest.startsWith(":") ? "lead as " + SUIT_SYM[rest.slice(1)] : rest ? "with " + rest.slice(1).toLowerCase() : "plain";
    const b = el("button", "", label);
    b.setAttribute("aria-label", a);
    b.onclick = () => send({ type: "act", action: a, seq: lastSeq });
    calls.append(b);
  }
  calls.querySelector("button").focus();
}

function renderSeats(t, v) {
  const box = $("seats");
  box.replaceChildren();
  for (const s of t.seats) {
    const d = el("div", "seat" + (v.to_act === s.seat ? " turn" : ""));
    d.append(el("strong", "", s.seat + " "), s.name ? personLink(s.name) : s.bot ? "bot (" + s.bot + ")" : "empty");
    if (s.away) d.append(" (away)");
    if (s.timeouts) d.append(el("span", "timeouts", " ⏱×" + s.timeouts));
    if (s.bot && t.is_host && t.status !== "finished" && !(t.settings.buy_in && t.status === "playing")) {
      const b = el("button", "", "Empty seat"); b.setAttribute("aria-label", "Remove the bot from " + s.seat);
      b.onclick = () => send({ type: "bot", seat: s.seat, kind: null }); d.append(" ", b);
    }
    if (s.bot && !t.you && t.status === "playing" && !t.settings.buy_in) {
      const b = el("button", "", "Take over next deal"); b.setAttribute("aria-label", "Take over " + s.seat + " from the bot at the next deal");
      b.onclick = () => send({ type: "sit", seat: s.seat }); d.append(" ", b);
    }
    if (s.empty && !t.you) {
      const b = el("button", "", "Sit here"); b.onclick = () => send({ type: "sit", seat: s.seat }); d.append(" ", b);
    }
    if (s.empty && t.is_host) {
      const b = el("button", "", "Bot"); b.onclick = () => send({ type: "bot", seat: s.seat, kind: botLevel }); d.append(" ", b);
    }
    box.append(d);
  }
  if (t.is_host && t.free) {
    const b = el("button", "", "Fill empty seats with bots"); b.onclick = () => send({ type: "fill", kind: botLevel }); box.append(b);
    const level = el("select"); level.id = "bot-level"; level.setAttribute("aria-label", "Bot level");
    for (const [k, label] of [["easy", "easy bots"], ["normal", "normal bots"], ["strong", "strong bots"]]) level.append(new Option(label, k));
    level.value = botLevel; level.onchange = () => { botLevel = level.value; };
    box.append(level);
  }
  if (t.you && t.status === "waiting") {
    const b = el("button", "", "Stand up"); b.onclick = () => send({ type: "stand" }); box.append(b);
  }
}

// A registered player's name links to their profile (guests are marked "(guest)" and have none),
// with their rating in this game next to it.
const ratings = {};  // name -> rating in this table's game (null: unrated), fetched once
function personLink(name) {
  if (name.endsWith(" (guest)")) return name;
  const span = el("span", "person-box");
  const a = el("a", "person", name); a.href = "/player/" + encodeURIComponent(name); a.target = "_blank";
  a.title = "Profile of " + name + " (add as a friend there)";
  span.append(a);
  const game = state && state.table.game;
  if (!(name in ratings)) {
    ratings[name] = undefined;
    fetch("/api/players/" + encodeURIComponent(name)).then(r => r.ok ? r.json() : null).then(p => {
      ratings[name] = p && p.games[game] ? p.games[game].rating : null;
      if (state) renderSeats(state.table, state.view);
    }).catch(() => {});
  }
  const r = ratings[name];
  if (r !== undefined) span.append(el("span", "rating", r === null ? " (unrated)" : " (" + r + ")"));
  return span;
}

let autoSuggest = true;  // the personal setting turns suggestions on once, where the table allows
function applySuggestPref(t) {
  if (!autoSuggest || !PREFS.suggestions || !t.you || !t.settings.suggestions || t.status !== "playing") return;
  autoSuggest = false;
  if (!t.suggesting) send({ type: "suggest", on: true });
}

// ----- invite friends (any player of the table with an account) -----
function renderInviteFriends(t) {
  const box = $("friends-invite");
  if (!box) return;
  const acct = window.trumpsAccount;
  const friends = acct && acct.friends ? acct.friends.friends : [];
  const member = !!t.you || t.is_host;
  box.hidden = !(member && friends.length && t.status !== "finished");
  if (box.hidden) return;
  const sel = $("invite-who");
  const keep = sel.value;
  sel.replaceChildren(...friends.map(f => new Option(f.name + (f.online ? " (online)" : ""), f.name)));
  if (keep) sel.value = keep;
}

// The personal card order: suits with colours alternating (or in plain suit order), the
// trump suit first; jokers lead; within a suit the engine's order is kept.
const RED = new Set(["H", "D"]);
function trumpOf(v) {
  const m = /^i?\d+([SHDC])X{0,2}$/.exec(((v.contract || {}).call) || "");
  return m ? m[1] : null;
}
function suitOrder(trump) {
  const first = PREFS.trumps_first === false ? null : trump;
  if (PREFS.card_order === "suits") return [first, ..."SHDC"].filter((x, i, a) => x && a.indexOf(x) === i);
  const out = first ? [first] : [];
  const rest = [..."SHCD"].filter(x => x !== first);
  while (rest.length) {  // alternate colours where the suits left allow it
    const last = out[out.length - 1];
    const i = last ? rest.findIndex(x => RED.has(x) !== RED.has(last)) : 0;
    out.push(rest.splice(i < 0 ? 0 : i, 1)[0]);
  }
  return out;
}
function sortHand(cards, v) {
  const order = suitOrder(trumpOf(v));
  const key = c => (c === "RJ" || c === "BJ" ? -1 : order.indexOf(c.slice(-1)));
  return cards.map((c, i) => [c, i]).sort((a, b) => key(a[0]) - key(b[0]) || a[1] - b[1]).map(x => x[0]);
}

function renderHands(t, v, myTurn) {
  const legal = myTurn ? v.legal : [];
  const hand = $("hand");
  hand.replaceChildren();
  const mine = t.you && v.hands[t.you] ? sortHand(v.hands[t.you], v) : null;
  const handToPlay = v.hand_to_play;
  const choosing = seat => myTurn && handToPlay === seat && CARD_PHASES.has(v.phase);
  if (mine) for (const c of mine) {
    if (!choosing(t.you)) { hand.append(cardFace(c, false)); continue; }
    const ok = legalFor(c, legal, v).length > 0;
    const b = cardButton(c, ok);
    if (ok) b.onclick = () => play(c, legal, v);
    hand.append(b);
  }
  const others = $("others");
  others.replaceChildren();
  for (const seat of v.seats) {
    if (seat === t.you) continue;
    const d = el("div", "other" + (v.hand_to_play === seat ? " turn" : ""));
    const occupant = t.seats.find(s => s.seat === seat);
    d.append(el("div", "", seat + " · " + (occupant.name || (occupant.bot ? "bot" : "—"))));
    const cards = v.hands[seat];
    if (cards) {
      const row = el("div", "hand");
      for (const c of cards) {
        if (!choosing(seat)) { row.append(cardFace(c, true)); continue; }
        const ok = legalFor(c, legal, v).length > 0;
        const b = cardButton(c, ok, true);
        if (ok) b.onclick = () => play(c, legal, v);
        row.append(b);
      }
      d.append(row);
    } else {
      d.append(el("div", "", (v.hand_sizes[seat] || 0) + " cards" + ((v.sitting_out || []).includes(seat) ? " (sits out)" : "")));
    }
    others.append(d);
  }
}

function renderTrick(v) {
  const box = $("trick");
  box.replaceChildren();
  let cards = v.trick, label = "";
  if (!cards.length && v.tricks && v.tricks.length && lastTrickTimer !== "done") {
    const last = v.tricks[v.tricks.length - 1];
    cards = last.cards.map((c, i) => ({ seat: null, card: c }));
    label = "won by " + last.winner;
    clearTimeout(lastTrickTimer);
    lastTrickTimer = setTimeout(() => { lastTrickTimer = "done"; renderTrick(v); }, 1500);
  }
  for (const p of cards) {
    const d = el("div", "played");
    d.append(cardFace(p.card), el("div", "", p.seat || ""));
    box.append(d);
  }
  if (label) box.append(el("div", "", label));
}

function renderCalls(v, myTurn) {
  const calls = $("calls");
  calls.replaceChildren();
  if (!myTurn) return;
  for (const a of v.legal) {
    if (isCardAction(v, a)) continue;
    const b = el("button", "", prettyCall(a));
    b.setAttribute("aria-label", "call " + a);
    b.onclick = () => send({ type: "act", action: a, seq: lastSeq });
    calls.append(b);
  }
}

function renderAuction(v) {
  // columns in calling order from the first caller, each call under its seat
  const box = $("auction");
  box.className = "auction" + (v.players === 6 ? " six" : "");
  box.replaceChildren();
  const n = v.seats.length, step = v.direction === "anticlockwise" ? n - 1 : 1;
  const start = v.auction.length ? v.seats.indexOf(v.auction[0].seat) : (v.seats.indexOf(v.dealer) + step) % n;
  const cols = Array.from({ length: n }, (_, k) => v.seats[(start + k * step) % n]);
  for (const s of cols) box.append(el("strong", "", s));
  let col = -1;
  for (const c of v.auction) {
    const target = cols.indexOf(c.seat);
    let gap = target - col - 1;
    if (gap < 0) gap += n;
    for (let i = 0; i < gap; i++) box.append(el("span", "", ""));
    box.append(el("span", "", prettyCall(c.call)));
    col = target;
  }
}

// A rubber bridge sheet: points above the line (bonuses, overtricks, penalties)
// stack upwards, trick points below it, a line under each game won.
function renderRubber(v, box) {
  const tbl = el("table", "rubber");
  const head = tbl.insertRow();
  v.teams.forEach(team => head.append(el("th", "", team.join(""))));
  const above = v.teams.map(() => []), below = v.teams.map(() => []);
  for (const r of v.results || []) {
    if (!r.sheet) continue;
    r.sheet.above.forEach((p, i) => { if (p) above[i].push(p); });
    r.sheet.below.forEach((p, i) => { if (p) below[i].push({ p, game: r.sheet.game_won !== null && r.sheet.game_won !== undefined }); });
    if (r.sheet.game_won !== null && r.sheet.game_won !== undefined) below.forEach(col => col.push({ line: true }));
  }
  const tall = Math.max(0, ...above.map(a => a.length));
  for (let k = tall - 1; k >= 0; k--) {
    const row = tbl.insertRow();
    above.forEach(col => row.append(el("td", "above", col[k] !== undefined ? String(col[k]) : "")));
  }
  const line = tbl.insertRow(); line.className = "the-line";
  v.teams.forEach(() => line.append(el("td", "", "")));
  const deep = Math.max(0, ...below.map(b => b.length));
  for (let k = 0; k < deep; k++) {
    const row = tbl.insertRow();
    below.forEach(col => {
      const item = col[k];
      const td = el("td", item && item.line ? "game-line" : "below", item && !item.line ? String(item.p) : "");
      row.append(td);
    });
  }
  const tot = tbl.insertRow();
  v.teams.forEach((_, i) => tot.append(el("th", "", String(v.scores[i]))));
  box.append(el("div", "note", "Rubber: points above and below the line"), tbl);
}

function detail(r, i) {
  const bits = [];
  if (Array.isArray(r.tricks)) bits.push(r.tricks[i] + " tr");
  if (Array.isArray(r.card_points)) bits.push(r.card_points[i] + " cp");
  if (Array.isArray(r.belote) && r.belote[i]) bits.push("belote " + r.belote[i]);
  if (Array.isArray(r.melds) && r.melds[i]) bits.push("melds " + r.melds[i]);
  return bits.join(", ");
}

function renderScore(v) {
  const box = $("score");
  box.replaceChildren();
  if ((v.results || []).some(r => r.sheet)) { renderRubber(v, box); return; }
  const tbl = el("table");
  const head = tbl.insertRow();
  head.append(el("th", "", "Deal"));
  v.teams.forEach(team => head.append(el("th", "", team.join(""))));
  for (const r of v.results || []) {
    const row = tbl.insertRow();
    const who = r.contractor || r.declarer || r.taker || "";
    let what = r.contract ? prettyCall(r.contract) + " " + who : (r.thrown_in || r.passed_out ? "passed out" : "—");
    if (r.contract && r.made !== undefined) what += r.made ? " made" : " down";
    else if (r.contract && typeof r.tricks === "number") what += " · " + r.tricks + " tricks";
    row.append(el("td", "", what));
    (r.points || []).forEach((p, i) => {
      const td = el("td", "", (p > 0 ? "+" : "") + p);
      const extra = detail(r, i);
      if (extra) td.append(el("div", "note", extra));
      if (r.scores) td.append(el("div", "note", "= " + r.scores[i]));
      row.append(td);
    });
  }
  const tot = tbl.insertRow();
  tot.append(el("th", "", "Total"));
  v.scores.forEach(s => tot.append(el("th", "", String(s))));
  box.append(tbl);
}

function extrasText(v) {
  const parts = [];
  if (v.tricks_won && v.phase === "PLAY") parts.push("tricks " + v.teams.map((team, i) => team.join("") + " " + v.tricks_won[i]).join(", "));
  if (v.vulnerable) parts.push("vulnerable: " + v.vulnerable);
  if (v.melds && v.melds.announcements && v.melds.announcements.length)
    parts.push("melds: " + v.melds.announcements.map(a => typeof a === "string" ? a : (a.seat || "") + " " + (a.text || a.call || a.meld || JSON.stringify(a))).join(", "));
  if (v.melds && v.melds.shown && Object.keys(v.melds.shown).length)
    parts.push("shown: " + Object.entries(v.melds.shown).map(([s, m]) => s + " " + [].concat(m).join(" ")).join("; "));
  if (Array.isArray(v.belote) && v.belote.length) parts.push("belote: " + v.belote.map(b => typeof b === "string" ? b : JSON.stringify(b)).join(", "));
  if (v.phase === "KITTY" && v.kitty_size) parts.push("discard " + v.kitty_size + " cards face down (the kitty: " + (v.kitty || []).join(" ") + ")");
  return parts.join(" · ");
}

function statusText(t, v) {
  if (t.status === "waiting") return "Waiting for players: " + t.free + " seat(s) free.";
  if (v.over) return "Game over. " + (v.winner === null ? "No winner." : "Team " + v.teams[v.winner].join("") + " wins.");
  const parts = ["Deal " + v.deal_number, v.phase.toLowerCase(), "dealer " + v.dealer];
  if (v.contract) parts.push("contract " + prettyCall(v.contract.call) + " by " + v.contract.seat);
  if (v.to_act) parts.push(v.to_act === t.you ? "your turn" : v.to_act + " to act");
  return parts.join(" · ");
}

function announceChange(prev, v) {
  if (!prev) return;
  if (v.auction.length > prev.auction.length) {
    const c = v.auction[v.auction.length - 1]; announce(c.seat + " calls " + c.call);
  } else if (v.trick.length > prev.trick.length) {
    const p = v.trick[v.trick.length - 1]; announce(p.seat + " plays " + cardLabel(p.card));
  } else if (v.tricks.length > prev.tricks.length) {
    const tr = v.tricks[v.tricks.length - 1]; announce("Trick won by " + tr.winner);
  }
}

function render(ev) {
  const prev = state && state.view;
  state = ev; lastSeq = ev.seq;
  const t = ev.table, v = ev.view;
  if (prev && v.tricks.length !== prev.tricks.length) lastTrickTimer = null;
  $("title").textContent = v.game + " · table " + t.id;
  $("me").textContent = t.you ? "You sit " + t.you : "Watching";
  const myTurn = !!t.you && v.to_act === t.you && t.status === "playing";
  renderSeats(t, v);
  $("status").textContent = statusText(t, v);
  $("extras").textContent = extrasText(v);
  $("again").hidden = !(v.over && t.you);
  $("replay-link").hidden = !v.over;
  $("replay-link").href = "/replay/" + t.id;
  clockOffset = t.now - Date.now() / 1000;
  if (suggestion && suggestion.seq !== ev.seq) suggestion = null;
  renderSuggestBox(t, myTurn);
  applySuggestPref(t);
  renderInviteFriends(t);
  renderHost(t);
  renderChatControls(t);
  renderHands(t, v, myTurn);
  renderTrick(v);
  renderCalls(v, myTurn);
  renderAuction(v);
  renderScore(v);
  const chat = $("chat");
  chat.replaceChildren(...(ev.chat || []).map(c => el("div", c.channel === "spectators" ? "spectator-line" : "", (c.channel === "spectators" ? "👁 " : "") + c.name + ": " + c.text)));
  markSuggestion();
  announceChange(prev, v);
  $("error").textContent = "";
  if (myTurn && (!document.activeElement || document.activeElement === document.body)) {
    const first = document.querySelector("#hand button.card.legal, #others button.card.legal, #calls button");
    if (first) first.focus({ preventScroll: true });
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // after a reconnect, ask for the events missed since the last one seen
  ws = new WebSocket(proto + "//" + location.host + "/ws/table/" + tid + (lastSeq >= 0 ? "?since=" + lastSeq : ""));
  ws.onmessage = m => {
    const ev = JSON.parse(m.data);
    if (ev.type === "state") { if (ev.seq >= lastSeq) render(ev); }
    else if (ev.type === "error") { $("error").textContent = ev.reason; }
    else if (ev.type === "notice") { $("notice").textContent = ev.text; announce(ev.text); }
    else if (ev.type === "suggestion") { if (ev.seq === lastSeq) { suggestion = ev; markSuggestion(); } }
  };
  ws.onclose = () => setTimeout(connect, 1000);
}

// Keyboard: arrow keys move between the cards and calls you can choose; Enter/Space plays.
document.addEventListener("keydown", e => {
  if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(e.key)) return;
  if (document.activeElement && document.activeElement.tagName === "INPUT") return;
  const items = [...document.querySelectorAll("#hand button.card.legal, #others button.card.legal, #calls button")];
  if (!items.length) return;
  const i = items.indexOf(document.activeElement);
  const step = e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 1;
  items[(i < 0 ? 0 : i + step + items.length) % items.length].focus();
  e.preventDefault();
});

$("again").addEventListener("click", async () => {
  const t = state.table;
  const res = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ game: t.game, preset: t.preset, options: t.options }) });
  const data = await res.json();
  if (res.ok) location.href = "/table/" + data.id; else $("error").textContent = data.error;
});
$("chat-form").addEventListener("submit", e => {
  e.preventDefault();
  const input = $("chat-text");
  if (input.value.trim()) send({ type: "chat", text: input.value });
  input.value = "";
});
$("show-last").addEventListener("click", () => {
  const v = state && state.view; if (!v || !v.tricks.length) return;
  const last = v.tricks[v.tricks.length - 1];
  const box = $("last-trick");
  box.hidden = !box.hidden;
  box.replaceChildren(el("div", "", "Last trick (won by " + last.winner + "):"), ...last.cards.map(c => cardFace(c)));
});
fetch("/api/me").then(r => r.json()).then(me => {
  if (!me.player) {
    const name = prompt("Your name at the table:");
    if (name) return fetch("/api/guest", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
  }
}).finally(connect);

// ----- move clock: the server keeps the deadline; this only shows it -----
function tickClock() {
  const box = $("clock");
  const t = state && state.table, v = state && state.view;
  if (!t || !t.deadline || t.status !== "playing" || !v.to_act) { box.textContent = ""; return; }
  const left = Math.max(0, Math.ceil(t.deadline - (Date.now() / 1000 + clockOffset)));
  box.textContent = (v.to_act === t.you ? "Your time: " : v.to_act + "'s time: ") + left + " s";
  box.classList.toggle("low", left <= 5);
}
setInterval(tickClock, 250);

// ----- suggestions: the bot's choice from your own view, marked in yellow -----
function renderSuggestBox(t, myTurn) {
  const allowed = !!t.you && t.settings.suggestions && t.status === "playing";
  $("suggest-box").hidden = !allowed;
  $("suggest-on").checked = !!t.suggesting;
  $("why").hidden = !(suggestion && suggestion.reasons && suggestion.reasons.length && myTurn);
  if (!myTurn) $("reasons").hidden = true;
}

function markSuggestion() {
  for (const b of document.querySelectorAll(".suggested")) b.classList.remove("suggested");
  if (!suggestion || !state || suggestion.seq !== state.seq) return;
  const a = suggestion.action;
  const card = a.split(/[:+]/)[0];
  for (const b of document.querySelectorAll("#hand button.card, #others button.card")) {
    if (b.dataset.card === card) { b.classList.add("suggested"); b.setAttribute("aria-description", "suggested"); }
  }
  for (const b of document.querySelectorAll("#calls button")) {
    if (b.getAttribute("aria-label") === "call " + a || b.getAttribute("aria-label") === a) b.classList.add("suggested");
  }
  $("why").hidden = !(suggestion.reasons && suggestion.reasons.length);
}

$("suggest-on").addEventListener("change", e => send({ type: "suggest", on: e.target.checked }));
$("why").addEventListener("click", () => {
  const box = $("reasons");
  box.hidden = !box.hidden;
  if (box.hidden || !suggestion) return;
  const rows = (suggestion.reasons || []).map(r => {
    const value = r.value === null || r.value === undefined ? "" : " — " + r.value + " " + (r.unit || "");
    const n = r.samples ? " (" + r.samples + " samples)" : "";
    return el("div", r.action === suggestion.action ? "best" : "", prettyCall(r.action) + value + n + (r.reason ? ": " + r.reason : ""));
  });
  box.replaceChildren(...rows);
});

// ----- host: invitation and spectators -----
function renderHost(t) {
  const show = !!t.is_host && (t.invite || (t.watchers && t.watchers.length));
  $("host-box").hidden = !show;
  const inv = $("invite");
  inv.replaceChildren();
  if (t.invite) {
    const link = location.origin + "/join/" + t.invite;
    const input = el("input"); input.readOnly = true; input.value = link; input.setAttribute("aria-label", "Invitation link");
    const revoke = el("button", "", "Revoke link"); revoke.onclick = () => send({ type: "invite", action: "revoke" });
    inv.append(el("div", "", "Invitation code: " + t.invite), input, revoke);
  }
  const w = $("watchers");
  w.replaceChildren();
  for (const s of t.watchers || []) {
    const row = el("div", "", "👁 " + s.name + " ");
    const b = el("button", "", "Remove"); b.setAttribute("aria-label", "Remove spectator " + s.name);
    b.onclick = () => send({ type: "kick", player: s.player });
    row.append(b); w.append(row);
  }
}

// ----- chat: always open before and after the game; during it the table's setting -----
function renderChatControls(t) {
  const playing = t.status === "playing";
  const spectator = !t.you && !t.is_host;
  const mode = spectator ? (t.settings.spectator_chat ? "text" : "none") : playing ? t.settings.chat : "text";
  $("chat-title").textContent = spectator ? "Chat (spectators)" : "Chat";
  $("chat-form").hidden = mode !== "text";
  const box = $("phrases");
  box.replaceChildren();
  if (mode === "preset") for (const ph of phrases) {
    const b = el("button", "", ph); b.type = "button"; b.onclick = () => send({ type: "chat", text: ph }); box.append(b);
  }
  $("chat-note").textContent = mode === "none" ? (spectator ? "Spectator chat is off at this table." : "Chat is off during the game.") : mode === "preset" ? "Chat during the game: phrases only." : "";
}
fetch("/api/settings").then(r => r.json()).then(m => { phrases = m.phrases; if (state) renderChatControls(state.table); });

// invite friends from the table
if ($("invite-form")) {
  $("invite-form").addEventListener("submit", async e => {
    e.preventDefault();
    const note = $("invite-note");
    try {
      const res = await fetch("/api/tables/" + tid + "/invite", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ players: [$("invite-who").value] }),
      });
      const data = await res.json();
      if (!res.ok) throw new Error(data.error);
      note.textContent = "Invited " + data.invited.map(i => i.name).join(", ") + ".";
    } catch (ex) { note.textContent = ex.message; }
  });
  if (window.trumpsAccount) window.trumpsAccount.onFriends(() => { if (state) renderInviteFriends(state.table); });
}
