"use strict";
const tid = location.pathname.split("/").pop();
let ws = null, state = null, lastSeq = -1, lastTrickTimer = null;
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

function play(card, legal, v) {
  const options = legalFor(card, legal, v);
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
    d.append(el("strong", "", s.seat + " "), s.name ? s.name : s.bot ? "bot (" + s.bot + ")" : "empty");
    if (s.empty && !t.you) {
      const b = el("button", "", "Sit here"); b.onclick = () => send({ type: "sit", seat: s.seat }); d.append(" ", b);
    }
    if (s.empty && t.is_host) {
      const b = el("button", "", "Bot"); b.onclick = () => send({ type: "bot", seat: s.seat, kind: "rules" }); d.append(" ", b);
    }
    box.append(d);
  }
  if (t.is_host && t.free) {
    const b = el("button", "", "Fill empty seats with bots"); b.onclick = () => send({ type: "fill" }); box.append(b);
  }
  if (t.you && t.status === "waiting") {
    const b = el("button", "", "Stand up"); b.onclick = () => send({ type: "stand" }); box.append(b);
  }
}

function renderHands(t, v, myTurn) {
  const legal = myTurn ? v.legal : [];
  const hand = $("hand");
  hand.replaceChildren();
  const mine = t.you ? v.hands[t.you] : null;
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

function renderScore(v) {
  const box = $("score");
  box.replaceChildren();
  const tbl = el("table");
  const head = tbl.insertRow();
  head.append(el("th", "", "Deal"));
  v.teams.forEach(team => head.append(el("th", "", team.join(""))));
  for (const r of v.results || []) {
    const row = tbl.insertRow();
    const who = r.contractor || r.declarer || r.taker || "";
    row.append(el("td", "", r.contract ? prettyCall(r.contract) + " " + who : (r.thrown_in || r.passed_out ? "passed out" : "—")));
    (r.points || []).forEach(p => row.append(el("td", "", (p > 0 ? "+" : "") + p)));
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
  renderHands(t, v, myTurn);
  renderTrick(v);
  renderCalls(v, myTurn);
  renderAuction(v);
  renderScore(v);
  const chat = $("chat");
  chat.replaceChildren(...(ev.chat || []).map(c => el("div", "", c.name + ": " + c.text)));
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
