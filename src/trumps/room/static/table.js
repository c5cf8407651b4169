"use strict";
const tid = location.pathname.split("/").pop();
let ws = null, state = null, lastSeq = -1, lastTrickTimer = null;
const $ = id => document.getElementById(id);
const SUIT_SYM = { S: "♠", H: "♥", D: "♦", C: "♣" };

function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify({ v: 1, ...msg })); }
function el(tag, cls, txt) { const e = document.createElement(tag); if (cls) e.className = cls; if (txt !== undefined) e.textContent = txt; return e; }
function announce(s) { $("announce").textContent = s; }
function prettyCall(c) { return c.replace(/(S|H|D|C)$/, m => SUIT_SYM[m]); }

function cardButton(code, playable, small) {
  const b = el("button", "card" + (playable ? " legal" : "") + (small ? " small" : ""));
  b.type = "button";
  b.append(cardSVG(code));
  b.setAttribute("aria-label", cardLabel(code));
  b.dataset.card = code;
  b.disabled = !playable;
  return b;
}

function legalFor(card, legal) { return legal.filter(a => a === card || a.startsWith(card + ":")); }

function play(card, legal) {
  const options = legalFor(card, legal);
  if (options.length === 1) { send({ type: "act", action: options[0], seq: lastSeq }); return; }
  const calls = $("calls");  // a joker lead: choose the suit to follow
  calls.replaceChildren(el("span", "", "Lead " + cardLabel(card) + " as: "));
  for (const a of options) {
    const b = el("button", "", SUIT_SYM[a.split(":")[1]] + " " + a.split(":")[1]);
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
  if (mine) for (const c of mine) {
    const ok = myTurn && handToPlay === t.you && legalFor(c, legal).length > 0;
    const b = cardButton(c, ok);
    if (ok) b.onclick = () => play(c, legal);
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
        const ok = myTurn && handToPlay === seat && legalFor(c, legal).length > 0;
        const b = cardButton(c, ok, true);
        if (ok) b.onclick = () => play(c, legal);
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
    d.append(cardButton(p.card, false, true), el("div", "", p.seat || ""));
    box.append(d);
  }
  if (label) box.append(el("div", "", label));
}

function renderCalls(v, myTurn) {
  const calls = $("calls");
  calls.replaceChildren();
  if (!myTurn) return;
  const cardLike = /^(RJ|BJ|(A|K|Q|J|T|\d{1,2})[SHDC])(:[SHDC])?$/;
  for (const a of v.legal) {
    if (cardLike.test(a)) continue;
    const b = el("button", "", prettyCall(a));
    b.setAttribute("aria-label", "call " + a);
    b.onclick = () => send({ type: "act", action: a, seq: lastSeq });
    calls.append(b);
  }
}

function renderAuction(v) {
  const box = $("auction");
  box.className = "auction" + (v.players === 6 ? " six" : "");
  box.replaceChildren();
  for (const s of v.seats) box.append(el("strong", "", s));
  if (!v.auction.length) return;
  const first = v.seats.indexOf(v.auction[0].seat);
  for (let i = 0; i < first; i++) box.append(el("span", "", ""));
  for (const c of v.auction) box.append(el("span", "", prettyCall(c.call)));
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
    row.append(el("td", "", r.contract ? r.contract + " " + (r.contractor || "") : (r.thrown_in ? "thrown in" : "—")));
    (r.points || []).forEach(p => row.append(el("td", "", (p > 0 ? "+" : "") + p)));
  }
  const tot = tbl.insertRow();
  tot.append(el("th", "", "Total"));
  v.scores.forEach(s => tot.append(el("th", "", String(s))));
  box.append(tbl);
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
  renderHands(t, v, myTurn);
  renderTrick(v);
  renderCalls(v, myTurn);
  renderAuction(v);
  renderScore(v);
  const chat = $("chat");
  chat.replaceChildren(...(ev.chat || []).map(c => el("div", "", c.name + ": " + c.text)));
  announceChange(prev, v);
  $("error").textContent = "";
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(proto + "//" + location.host + "/ws/table/" + tid);
  ws.onopen = () => send({ type: "hello", since: Math.max(lastSeq, 0) });
  ws.onmessage = m => {
    const ev = JSON.parse(m.data);
    if (ev.type === "state") { if (ev.seq >= lastSeq) render(ev); }
    else if (ev.type === "error") { $("error").textContent = ev.reason; }
  };
  ws.onclose = () => setTimeout(connect, 1000);
}

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
  box.replaceChildren(el("div", "", "Last trick (won by " + last.winner + "):"), ...last.cards.map(c => cardButton(c, false, true)));
});
fetch("/api/me").then(r => r.json()).then(me => {
  if (!me.player) {
    const name = prompt("Your name at the table:");
    if (name) return fetch("/api/guest", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
  }
}).finally(connect);
