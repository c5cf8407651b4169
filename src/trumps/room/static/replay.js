// The replay of a finished game: step through every call and card with all
// hands shown (the server only serves finished games).  Text goes in through
// textContent only; card pictures come from cards.js.
"use strict";
const tid = location.pathname.split("/").pop();
const $ = id => document.getElementById(id);
const SUIT_SYM = { S: "♠", H: "♥", D: "♦", C: "♣" };
let data = null, at = 0;
// the post-game analysis: shown or not, and per deal its answer ({pending}, {error} or the review)
let analysis = false;
const reviews = new Map();

function el(tag, cls, txt) { const e = document.createElement(tag); if (cls) e.className = cls; if (txt !== undefined) e.textContent = txt; return e; }
function prettyCall(c) { return c.replace(/^(i?\d+)(S|H|D|C)(X{0,2})$/, (m, n, s, x) => n + SUIT_SYM[s] + x); }

function cardFace(code, cls, row) {
  const d = el("div", "card small" + (cls ? " " + cls : ""));
  d.append(cardSVG(code));
  d.setAttribute("role", "img");
  d.setAttribute("aria-label", cardLabel(code) + (cls && cls.includes("gone") ? " (played)" : "") + (row ? ", " + costWords(row) : ""));
  d.dataset.card = code;
  if (row) d.append(costBadge(row));
  return d;
}

// ----- the post-game analysis ---------------------------------------------------------
function bare(action) { return action.split(/[:+]/)[0]; }
function shortCard(action) {
  // "Q♥", "RJ (♣)" for a joker lead naming its suit, "K♥ + belote"
  const [card, ...extra] = action.split("+");
  const [c, suit] = card.split(":");
  const face = c === "RJ" || c === "BJ" ? c : c.slice(0, -1) + (SUIT_SYM[c.slice(-1)] || c.slice(-1));
  return face + (suit ? " (" + (SUIT_SYM[suit] || suit) + ")" : "") + (extra.length ? " + " + extra.join(" ").toLowerCase() : "");
}
function num(x) { return Number.isInteger(x) ? String(x) : x.toFixed(1); }
function amount(x, unit) {
  const u = unit || "tricks";
  return num(x) + " " + (x === 1 ? u.replace(/s$/, "") : u);
}
function costWords(row) {
  if (!row.analysed) return "not analysed";
  if (row.cost > 0) return "cost " + amount(row.cost, row.unit);
  return row.value === null ? "forced" : "a best card";
}
function costBadge(row) {
  const bad = row.analysed && row.cost > 0;
  const b = el("span", "cost-badge" + (bad ? " bad" : row.analysed ? "" : " unknown"), bad ? "−" + num(row.cost) : row.analysed ? "✓" : "?");
  b.setAttribute("aria-hidden", "true");
  return b;
}

// the analysis of a deal, once loaded: {byCard, byIndex, review}, else null
function reviewOf(deal) {
  const r = reviews.get(deal);
  return r && r.cards ? r : null;
}
function rowFor(deal, card, step) {
  // the analysed row of a card of this deal, once the card has been played at this step
  const r = analysis && reviewOf(deal);
  if (!r || step.action_index === null) return null;
  const row = r.byCard.get(card);
  return row && row.index < step.action_index ? row : null;
}

function loadReview(deal) {
  if (reviews.has(deal)) return;
  reviews.set(deal, { pending: true });
  fetch("/api/tables/" + encodeURIComponent(tid) + "/review?deal=" + deal)
    .then(async res => {
      const body = await res.json().catch(() => ({ error: res.statusText || "no answer" }));
      if (!res.ok) { reviews.set(deal, { error: body.error || "the analysis failed" }); return; }
      body.byCard = new Map(body.cards.map(c => [bare(c.card), c]));
      body.byIndex = new Map(body.cards.map(c => [c.index, c]));
      reviews.set(deal, body);
    })
    .catch(() => reviews.set(deal, { error: "the analysis could not be loaded" }))
    .finally(() => { if (data && analysis && data.steps[at].deal === deal) go(at); });
}

function stepAnalysis(step) {
  // what the analysis says of this step's card: [text, class]
  if (!analysis || step.kind !== "card" || step.phase !== "PLAY") return null;
  const r = reviews.get(step.deal);
  if (!r || r.pending) return ["Analysing deal " + step.deal + "…", ""];
  if (r.error) return ["Analysis: " + r.error, "bad"];
  const row = r.byIndex.get(step.action_index - 1);
  if (!row) return null;
  if (!row.analysed) return ["Not analysed (the time limit of the deal's analysis was reached).", ""];
  const best = row.best.length ? " (best: " + row.best.map(shortCard).join(", ") + ")" : "";
  if (row.cost > 0) return ["✗ Cost " + amount(row.cost, row.unit) + " double dummy" + best + ".", "bad"];
  if (row.value === null) return ["✓ Forced: the only legal card.", "good"];
  const others = row.best.filter(c => c !== row.card);
  return ["✓ A best card" + (others.length ? " (as good: " + others.map(shortCard).join(", ") + ")" : "") + ".", "good"];
}

function renderAnalysis(step) {
  const panel = $("analysis-panel"), box = $("analysis-summary");
  panel.hidden = !analysis;
  document.body.classList.toggle("analysis-on", analysis);
  if (!analysis) return;
  loadReview(step.deal);
  const r = reviews.get(step.deal);
  box.replaceChildren(el("p", "note", "Deal " + step.deal + ": what each card played cost double dummy, all hands open."));
  if (!r || r.pending) { box.append(el("p", "note", "Analysing deal " + step.deal + "…")); return; }
  if (r.error) { box.append(el("p", "note error", r.error)); return; }
  if (!r.cards.length) { box.append(el("p", "note", "No card was played in this deal.")); return; }
  const tbl = el("table");
  const head = tbl.insertRow();
  head.append(el("th", "", "Seat"), el("th", "", "Cards"), el("th", "", "Mistakes"), el("th", "", "Cost"));
  for (const seat of data.seats) {
    const t = r.totals[seat];
    if (!t || !t.cards) continue;
    const tr = tbl.insertRow();
    tr.dataset.seat = seat;
    tr.append(el("td", "", seat + " · " + occupant(seat)), el("td", "", String(t.cards)), el("td", "", String(t.mistakes)),
      el("td", t.cost > 0 ? "bad" : "", t.cost > 0 ? "−" + amount(t.cost, r.unit) : "0"));
  }
  box.append(tbl);
  const missing = r.cards.filter(c => !c.analysed).length;
  if (missing) box.append(el("p", "note", missing + " card" + (missing === 1 ? " was" : "s were") + " not analysed: the analysis stops after " + num(r.limit) + " s (the first tricks of a big deal are the slowest)."));
  box.append(el("p", "note", "Costs in " + (r.unit || "tricks") + " lost by the side that played the card, against its best card; a dummy's cards count for its declarer."));
}

function toggleAnalysis() {
  analysis = !analysis;
  for (const [deal, r] of reviews) if (r.error) reviews.delete(deal);  // a failed analysis is asked again
  $("analysis").setAttribute("aria-pressed", String(analysis));
  if (data) go(at);
}

function occupant(seat) {
  const p = data.players.find(o => o.seat === seat);
  return p ? (p.name || (p.bot ? "bot (" + p.bot + ")" : "—")) : "—";
}

// ----- one step -------------------------------------------------------------------
function stepText(step) {
  const p = data.players.find(o => o.seat === step.seat) || {};
  const who = step.seat ? step.seat + (p.name ? " (" + p.name + ")" : p.bot ? " (bot)" : "") : "";
  if (step.kind === "deal") {
    const d = data.deals[step.deal - 1];
    return "Deal " + step.deal + " is dealt" + (d && d.dealer ? " by " + d.dealer : "") + ".";
  }
  const auto = step.auto && !p.bot ? " (played automatically)" : "";
  if (step.kind === "card") {
    const verb = step.phase === "KITTY" ? " discards " : " plays ";
    const from = step.hand && step.hand !== step.seat ? " from " + step.hand + "'s hand" : "";
    const extra = step.action.includes("+") ? " with " + step.action.split("+").slice(1).join(" ").toLowerCase() : "";
    return who + verb + cardLabel(step.action.includes(":") ? step.action : step.card) + from + extra + auto;
  }
  return who + " calls " + prettyCall(step.action) + auto;
}

function statusText(s, step) {
  if (s.over && step.index === data.steps.length - 1) {
    const w = data.sheet.winner;
    return "Game over. " + (w === null ? "No winner." : "Team " + data.teams[w].join("") + " wins.");
  }
  const parts = ["Deal " + step.deal, String(s.phase).toLowerCase(), "dealer " + s.dealer];
  if (s.contract) parts.push("contract " + prettyCall(s.contract.call) + " by " + s.contract.seat);
  if (s.to_act) parts.push(s.hand_to_play && s.hand_to_play !== s.to_act ? s.to_act + " to play from " + s.hand_to_play : s.to_act + " to act");
  return parts.join(" · ");
}

function extrasText(s, deal) {
  const parts = [];
  if (s.tricks_won && s.contract) parts.push("tricks " + data.teams.map((t, i) => t.join("") + " " + s.tricks_won[i]).join(", "));
  if (s.vulnerable) parts.push("vulnerable: " + s.vulnerable);
  if (s.trump) parts.push("trumps: " + (SUIT_SYM[s.trump] || s.trump));
  if (deal && deal.kitty) parts.push("kitty as dealt: " + deal.kitty.join(" "));
  if (s.discards && s.discards.length) parts.push("discarded: " + s.discards.join(" "));
  if (Array.isArray(s.belote) && s.belote.length)
    parts.push("belote: " + s.belote.map(b => typeof b === "string" ? b : (b.seat || "") + " " + (b.call || "")).join(", "));
  return parts.join(" · ");
}

function handBox(seat, s, deal, step) {
  const box = el("div", "rhand seat-" + seat.toLowerCase() + (s.hand_to_play === seat ? " turn" : ""));
  box.dataset.seat = seat;
  box.append(el("div", "rhand-name", seat + " · " + occupant(seat)));
  const left = s.hands[seat] || [];
  const dealt = (deal && deal.hands && deal.hands[seat]) || [];
  const discards = new Set(s.discards || []);
  const row = el("div", "rhand-cards");
  // the hand as dealt, cards no longer held greyed; then cards taken in (the 500 kitty)
  const shown = [...dealt, ...left.filter(c => !dealt.includes(c))];
  for (const c of shown) {
    let cls = left.includes(c) ? "" : discards.has(c) ? "gone discarded" : "gone";
    if (step.card === c && !left.includes(c)) cls += " just";  // the card of this step
    if (!dealt.includes(c)) cls += " taken";
    row.append(cardFace(c, cls.trim(), left.includes(c) ? null : rowFor(step.deal, c, step)));
  }
  box.append(row);
  box.append(el("div", "rhand-count", left.length + " card" + (left.length === 1 ? "" : "s") + " left"));
  return box;
}

function trickBox(s, four, step) {
  const box = el("div", "rtrick" + (four ? " four" : ""));
  box.setAttribute("aria-label", "Trick");
  let cards = s.trick, label = "";
  if (!cards.length && s.last_trick) {
    const last = s.last_trick;
    cards = last.cards.map((c, i) => ({ seat: last.seats ? last.seats[i] : (i ? "" : last.leader), card: c }));
    label = "trick " + s.trick_count + " won by " + last.winner;
  }
  for (const p of cards) {
    const d = el("div", "played seat-" + String(p.seat).toLowerCase());
    d.append(cardFace(p.card, "", rowFor(step.deal, bare(p.card), step)), el("div", "", p.seat || ""));
    box.append(d);
  }
  box.append(el("div", "rtrick-label", label || (cards.length ? "" : "no cards on the table")));
  return box;
}

function renderTable(s, step) {
  const deal = data.deals[step.deal - 1];
  const four = data.seats.length === 4;
  const box = $("replay-table");
  // once the deal is over its hands are shown whole again, as dealt (played cards stay marked)
  const ended = s.results_count >= step.deal && step.kind !== "deal";
  box.className = "replay-table " + (four ? "four" : "six") + (ended ? " ended" : "");
  box.replaceChildren(trickBox(s, four, step), ...data.seats.map(seat => handBox(seat, s, deal, step)));
}

function renderAuction(s) {
  // columns in calling order from the first caller, each call under its seat
  const box = $("auction");
  const seats = data.seats, n = seats.length;
  box.className = "auction" + (n === 6 ? " six" : "");
  box.replaceChildren();
  const step = s.direction === "anticlockwise" ? n - 1 : 1;
  const start = s.auction.length ? seats.indexOf(s.auction[0].seat) : (seats.indexOf(s.dealer) + step) % n;
  const cols = Array.from({ length: n }, (_, k) => seats[(start + k * step) % n]);
  for (const c of cols) box.append(el("strong", "", c));
  let col = -1;
  for (const c of s.auction) {
    const target = cols.indexOf(c.seat);
    let gap = target - col - 1;
    if (gap < 0) gap += n;
    for (let i = 0; i < gap; i++) box.append(el("span", "", ""));
    box.append(el("span", "", prettyCall(c.call)));
    col = target;
  }
}

function resultText(r) {
  const who = r.contractor || r.declarer || r.taker || "";
  if (r.contract) {
    const how = r.made === true ? ", made" : r.made === false ? ", down" : typeof r.tricks === "number" ? ", " + r.tricks + " tricks" : "";
    return prettyCall(r.contract) + (who ? " by " + who : "") + how;
  }
  return r.thrown_in || r.passed_out ? "passed out" : "—";
}

function renderScore(s, step) {
  // the running score sheet: the deals finished by this step, then the totals
  const box = $("score");
  const tbl = el("table");
  const head = tbl.insertRow();
  head.append(el("th", "", "Deal"), el("th", "", "Contract"));
  data.teams.forEach(t => head.append(el("th", "", t.join(""))));
  const rows = data.sheet.results.slice(0, s.results_count);
  rows.forEach((r, i) => {
    const tr = tbl.insertRow();
    if (i + 1 === step.deal && step.kind !== "deal") tr.className = "current";
    tr.append(el("td", "", String(r.deal || i + 1)), el("td", "", resultText(r)));
    // the running total, with what the deal added
    (r.points || []).forEach((p, k) => {
      const td = el("td", "", r.scores ? String(r.scores[k]) : "");
      td.append(el("small", "delta", " (" + (p > 0 ? "+" : "") + p + ")"));
      tr.append(td);
    });
  });
  const tot = tbl.insertRow();
  tot.append(el("th", "", "Total"), el("th", "", ""));
  s.scores.forEach(v => tot.append(el("th", "", String(v))));
  box.replaceChildren(tbl);
}

function go(i) {
  if (!data) return;
  at = Math.max(0, Math.min(data.steps.length - 1, i));
  const step = data.steps[at], s = step.state;
  $("scrub").value = String(at);
  $("step-label").textContent = "Step " + at + " of " + (data.steps.length - 1) + " · deal " + step.deal + " of " + data.deals.length;
  $("step-text").textContent = stepText(step);
  const said = stepAnalysis(step);
  if (said) $("step-text").append(el("span", "step-analysis " + said[1], said[0]));
  renderAnalysis(step);
  $("status").textContent = statusText(s, step);
  $("extras").textContent = extrasText(s, data.deals[step.deal - 1]);
  renderTable(s, step);
  renderAuction(s);
  renderScore(s, step);
  $("first").disabled = $("prev").disabled = at === 0;
  $("last").disabled = $("next").disabled = at === data.steps.length - 1;
  for (const d of document.querySelectorAll("#deals .deal")) d.classList.toggle("current", Number(d.dataset.deal) === step.deal);
  history.replaceState(null, "", "#step=" + at + (analysis ? "&analysis" : ""));
}

function dealStart(n) { return data.deals[Math.max(0, Math.min(data.deals.length - 1, n - 1))].first_step; }
function prevDeal() { const d = data.steps[at].deal; go(at > dealStart(d) ? dealStart(d) : dealStart(d - 1)); }
function nextDeal() { const d = data.steps[at].deal; go(d < data.deals.length ? dealStart(d + 1) : data.steps.length - 1); }

// ----- the parts that do not change from step to step -------------------------------
function handText(cards) {
  // "♠ A K 7  ♥ Q J" : by suit in the dealt order, jokers last
  const groups = new Map();
  for (const c of cards) {
    const suit = c === "RJ" || c === "BJ" ? "★" : c.slice(-1);
    if (!groups.has(suit)) groups.set(suit, []);
    groups.get(suit).push(suit === "★" ? c : c.slice(0, -1));
  }
  // ranks run together (AKT9) unless a rank has two characters (the 11s to 13s of six-handed 500)
  const sep = [...groups].some(([suit, ranks]) => suit !== "★" && ranks.some(r => r.length > 1)) ? " " : "";
  return [...groups].map(([suit, ranks]) => (SUIT_SYM[suit] || suit) + " " + ranks.join(suit === "★" ? " " : sep)).join("  ");
}

function renderDeals() {
  const box = $("deals");
  box.replaceChildren();
  for (const d of data.deals) {
    const item = el("div", "deal");
    item.dataset.deal = String(d.number);
    const head = el("button", "deal-head", "Deal " + d.number + " · dealer " + d.dealer + (d.result ? " · " + resultText(d.result) : ""));
    head.type = "button";
    head.onclick = () => go(d.first_step);
    item.append(head);
    const list = el("dl", "deal-hands");
    for (const seat of data.seats) {
      list.append(el("dt", "", seat + " " + occupant(seat)), el("dd", "", handText((d.hands || {})[seat] || [])));
    }
    if (d.kitty) list.append(el("dt", "", "kitty"), el("dd", "", handText(d.kitty)));
    item.append(list);
    box.append(item);
  }
}

function renderFixed() {
  $("title").textContent = "Replay · " + data.game + " · table " + data.id;
  document.title = "trumps — replay of " + data.game + " table " + data.id;
  $("players").replaceChildren(...data.players.map(p => el("div", "", p.seat + " · " + occupant(p.seat))));
  const ex = $("exports");
  ex.replaceChildren();
  const link = (href, text) => { const a = el("a", "", text); a.href = href; a.setAttribute("download", ""); return a; };
  ex.append(link(data.exports.json, "JSON record"));
  if (data.exports.pbn) ex.append(" · ", link(data.exports.pbn, "PBN (bridge)"));
  const scrub = $("scrub");
  scrub.max = String(data.steps.length - 1);
  renderDeals();
}

function showError(message, status) {
  $("error").textContent = message;
  if (status === 409) {
    const a = el("a", "", "Watch the table");
    a.href = "/table/" + tid;
    $("error").append(" ", a);
  }
  document.querySelector(".replay-page").classList.add("failed");
}

// ----- wiring -----------------------------------------------------------------------
$("first").onclick = () => go(0);
$("prev").onclick = () => go(at - 1);
$("next").onclick = () => go(at + 1);
$("last").onclick = () => go(data.steps.length - 1);
$("prev-deal").onclick = prevDeal;
$("next-deal").onclick = nextDeal;
$("analysis").onclick = toggleAnalysis;
$("scrub").addEventListener("input", e => go(Number(e.target.value)));
document.addEventListener("keydown", e => {
  if (!data || e.altKey || e.ctrlKey || e.metaKey) return;
  if (document.activeElement === $("scrub")) return;  // the slider moves by itself
  const keys = {
    ArrowLeft: () => go(at - 1), ArrowRight: () => go(at + 1), Home: () => go(0),
    End: () => go(data.steps.length - 1), PageUp: prevDeal, PageDown: nextDeal,
    a: toggleAnalysis,
  };
  const fn = keys[e.key];
  if (!fn) return;
  fn();
  e.preventDefault();
});

fetch("/api/tables/" + encodeURIComponent(tid) + "/replay")
  .then(async res => {
    const body = await res.json().catch(() => ({ error: res.statusText }));
    if (!res.ok) { showError(body.error || "the replay could not be loaded", res.status); return; }
    data = body;
    renderFixed();
    const m = /step=(\d+)/.exec(location.hash);
    if (/analysis/.test(location.hash)) { analysis = true; $("analysis").setAttribute("aria-pressed", "true"); }
    go(m ? Number(m[1]) : 0);
  })
  .catch(() => showError("the replay could not be loaded", 0));
