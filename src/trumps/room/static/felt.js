// The felt: the seats around the table as people sit (you at the bottom,
// partner at the top, opponents left and right; six players as a hexagon),
// the trick with each card in front of the seat that played it, exposed
// hands at their seats, and speech bubbles for announcements.
"use strict";
const SUIT_SYM = { S: "♠", H: "♥", D: "♦", C: "♣" };
function el(tag, cls, txt) { const e = document.createElement(tag); if (cls) e.className = cls; if (txt !== undefined) e.textContent = txt; return e; }
// Small line icons drawn as SVG (an emoji such as the stopwatch or the eye
// is an empty box on a machine without an emoji font); decorative: the
// text or label beside them says what they mean.
const ICONS = {
  timer: '<circle cx="12" cy="13" r="8"/><path d="M12 9v4l2.5 2.5M9.5 2.5h5M12 2.5V5"/>',
  eye: '<path d="M1.5 12S5.5 5 12 5s10.5 7 10.5 7-4 7-10.5 7S1.5 12 1.5 12z"/><circle cx="12" cy="12" r="3"/>',
};
function icon(name) {
  const s = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  s.setAttribute("viewBox", "0 0 24 24");
  s.setAttribute("class", "icon-svg");
  s.setAttribute("aria-hidden", "true");
  s.innerHTML = ICONS[name];
  return s;
}
function prettyCall(c) { return c.replace(/^(i?\d+)(S|H|D|C)(X{0,2})$/, (m, n, s, x) => n + SUIT_SYM[s] + x); }

// personal settings (account or browser): see /settings and the table's ⚙ menu
const PREFS = (() => { try { return JSON.parse(localStorage.getItem("trumps.prefs") || "{}"); } catch (e) { return {}; } })();
const COARSE = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
// on a touch screen a tap selects and a second tap plays, unless turned off
function confirmPlay() { return PREFS.confirm_card === undefined ? COARSE : !!PREFS.confirm_card; }
function motionScale() {
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return 0;
  return { off: 0, fast: 0.5, slow: 1.6 }[PREFS.animation] ?? 1;
}

const POSITIONS = {
  4: ["bottom", "left", "top", "right"],
  6: ["bottom", "lower-left", "upper-left", "top", "upper-right", "lower-right"],
};

const Felt = (() => {
  // ----- who sits where -------------------------------------------------------
  // The seat list is in clockwise order; the next seat clockwise sits on your left.
  function bottomSeat(t, v) {
    if (t.you) return t.you;
    return v.seats.includes("S") ? "S" : v.seats[0];
  }
  function positions(t, v) {
    const n = v.seats.length, me = v.seats.indexOf(bottomSeat(t, v));
    const names = POSITIONS[n] || POSITIONS[4];
    const out = {};
    v.seats.forEach((s, i) => { out[s] = names[(i - me + n) % n]; });
    return out;
  }

  // who played each card of a completed trick, in playing order from its leader
  function trickSeats(v, leader, count) {
    const n = v.seats.length, step = v.direction === "anticlockwise" ? n - 1 : 1;
    const out = [];
    let i = v.seats.indexOf(leader);
    const out_ = new Set(v.sitting_out || []);
    for (let k = 0; out.length < count && k < 2 * n; k++) {
      const s = v.seats[i];
      if (!out_.has(s)) out.push(s);
      i = (i + step) % n;
    }
    return out;
  }

  // tricks each seat has won this deal
  function tricksBySeat(v) {
    const out = {};
    for (const s of v.seats) out[s] = 0;
    for (const tr of v.tricks || []) out[tr.winner] = (out[tr.winner] || 0) + 1;
    return out;
  }

  // ----- cards ---------------------------------------------------------------------
  function cardFace(code, cls) {
    const d = el("div", "card" + (cls ? " " + cls : ""));
    d.append(cardSVG(code));
    d.setAttribute("role", "img");
    d.setAttribute("aria-label", cardLabel(code));
    d.dataset.card = code;
    return d;
  }
  function cardButton(code, playable, cls) {
    const b = el("button", "card" + (playable ? " legal" : "") + (cls ? " " + cls : ""));
    b.type = "button";
    b.append(cardSVG(code));
    b.setAttribute("aria-label", cardLabel(code));
    b.dataset.card = code;
    b.disabled = !playable;
    return b;
  }
  function cardBack(cls) {
    const d = el("div", "card back" + (cls ? " " + cls : ""));
    d.append(typeof cardBackSVG === "function" ? cardBackSVG() : cardSVG("AS"));
    d.setAttribute("aria-hidden", "true");
    return d;
  }

  // The personal card order: suits with colours alternating (or in plain suit
  // order), the trump suit first; jokers lead; within a suit the engine's order.
  const RED = new Set(["H", "D"]);
  function suitOrder(trump) {
    const first = PREFS.trumps_first === false ? null : trump;
    if (PREFS.card_order === "suits") return [first, ..."SHDC"].filter((x, i, a) => x && a.indexOf(x) === i);
    const out = first ? [first] : [];
    const rest = [..."SHCD"].filter(x => x !== first);
    while (rest.length) {
      const last = out[out.length - 1];
      const i = last ? rest.findIndex(x => RED.has(x) !== RED.has(last)) : 0;
      out.push(rest.splice(i < 0 ? 0 : i, 1)[0]);
    }
    return out;
  }
  function trumpOf(v) {
    if (v.trump !== undefined && v.trump !== null) return v.trump;
    const c = v.contract || {};
    if (c.denom && "SHDC".includes(c.denom)) return c.denom;
    const m = /^i?\d+([SHDC])X{0,2}$/.exec(c.call || "");
    return m ? m[1] : null;
  }
  function sortHand(cards, v) {
    const order = suitOrder(trumpOf(v));
    const key = c => (c === "RJ" || c === "BJ" ? -1 : order.indexOf(c.slice(-1)));
    return cards.map((c, i) => [c, i]).sort((a, b) => key(a[0]) - key(b[0]) || a[1] - b[1]).map(x => x[0]);
  }
  function bySuit(cards, v) {
    const order = suitOrder(trumpOf(v));
    const groups = order.map(s => ({ suit: s, cards: [] }));
    const jokers = { suit: "J", cards: [] };
    for (const c of cards) {
      if (c === "RJ" || c === "BJ") { jokers.cards.push(c); continue; }
      const g = groups.find(x => x.suit === c.slice(-1));
      if (g) g.cards.push(c);
    }
    return [jokers, ...groups].filter(g => g.cards.length);
  }

  // Fit a hand in one overlapping row: the step between cards shrinks to the width.
  function fitRow(row) {
    const cards = row.querySelectorAll(":scope > .card");
    if (!cards.length) return;
    const w = row.clientWidth, cw = cards[0].getBoundingClientRect().width || 60;
    const n = cards.length;
    const step = n > 1 ? Math.min(cw * 0.62, (w - cw - 4) / (n - 1)) : cw;
    row.style.setProperty("--overlap", (step - cw) + "px");
  }

  return { bottomSeat, positions, trickSeats, tricksBySeat, cardFace, cardButton, cardBack, sortHand, bySuit, fitRow, trumpOf };
})();
