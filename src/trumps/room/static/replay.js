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
// A call as people read it: the presentation's label when the replay carries one
// ("Pass", "Nullo"), else the notation ("7♠", "P").
function callText(c) {
  const labels = data && data.presentation && data.presentation.labels;
  return labels && labels[c] ? t(labels[c]) : prettyCall(c);
}
// Numbers as the language writes them: "1.5" / "1,5" (one decimal at most, as before).
function num(x) {
  const whole = Number.isInteger(x);
  return I18n.number(x, { useGrouping: false, minimumFractionDigits: whole ? 0 : 1, maximumFractionDigits: whole ? 0 : 1 });
}
// An announcement made with a card ("KH+BELOTE"), in words.
function announcement(a) {
  const word = String(a).toLowerCase();
  return { belote: tc("announcement", "belote"), rebelote: tc("announcement", "rebelote") }[word] || word;
}
// The engine's phase names, in words ("auction" in "Deal 1 · auction · dealer N").
function phaseWord(phase) {
  const word = String(phase).toLowerCase();
  return {
    auction: tc("phase", "auction"), breach: tc("phase", "breach"), kitty: tc("phase", "kitty"),
    discard: tc("phase", "discard"), play: tc("phase", "play"), claim: tc("phase", "claim"),
  }[word] || word;
}
// Bridge's vulnerability: "None", "NS", "EW", "Both".
function vulnerableWord(v) { return { None: tc("vulnerable", "None"), Both: tc("vulnerable", "Both") }[v] || v; }
// A bot's level ("bot (easy)"), in the words of the table page.
function botLevel(kind) {
  return { easy: tc("bot level", "easy"), normal: tc("bot level", "normal"), strong: tc("bot level", "strong"),
    rules: tc("bot level", "rules"), random: tc("bot level", "random") }[kind] || kind;
}
// A registered player's name as it is; a guest's carries the mark " (guest)" from the server.
function personName(name) {
  const mark = " (guest)";
  return name && name.endsWith(mark) ? t("{name} (guest)", { name: name.slice(0, -mark.length) }) : name;
}

function cardFace(code, cls, row) {
  const d = el("div", "card small" + (cls ? " " + cls : ""));
  d.append(cardSVG(code));
  d.setAttribute("role", "img");
  let label = cardLabel(code);
  if (cls && cls.includes("gone")) label = t("{card} (played)", { card: label });
  if (row) label = t("{card}, {cost}", { card: label, cost: costWords(row) });
  d.setAttribute("aria-label", label);
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
  return face + (suit ? " (" + (SUIT_SYM[suit] || suit) + ")" : "") + (extra.length ? " + " + extra.map(announcement).join(" ") : "");
}
// "1 trick", "2.5 tricks", "10 points": the analysis' unit ("tricks" or "points")
function amount(x, unit) {
  const u = unit || "tricks";
  if (u === "tricks") return tn("{n} trick", "{n} tricks", x, { n: num(x) });
  if (u === "points") return tn("{n} point", "{n} points", x, { n: num(x) });
  return num(x) + " " + (x === 1 ? u.replace(/s$/, "") : u);
}
function costWords(row) {
  if (!row.analysed) return t("not analysed");
  if (row.cost > 0) return t("cost {amount}", { amount: amount(row.cost, row.unit) });
  return row.value === null ? t("forced") : t("a best card");
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
      const body = await res.json().catch(() => null);
      if (!res.ok) {
        // the server's reason, else the answer's own status, in the reader's language
        const why = body ? (body.error ? tMsg(body.error) : t("the analysis failed")) : res.statusText ? tMsg(res.statusText) : t("no answer");
        reviews.set(deal, { error: why });
        return;
      }
      body.byCard = new Map(body.cards.map(c => [bare(c.card), c]));
      body.byIndex = new Map(body.cards.map(c => [c.index, c]));
      reviews.set(deal, body);
    })
    .catch(() => reviews.set(deal, { error: t("the analysis could not be loaded") }))
    .finally(() => { if (data && analysis && data.steps[at].deal === deal) go(at); });
}

function stepAnalysis(step) {
  // what the analysis says of this step's card: [text, class]
  if (!analysis || step.kind !== "card" || step.phase !== "PLAY") return null;
  const r = reviews.get(step.deal);
  if (!r || r.pending) return [t("Analysing deal {deal}…", { deal: num(step.deal) }), ""];
  if (r.error) return [t("Analysis: {error}", { error: r.error }), "bad"];
  const row = r.byIndex.get(step.action_index - 1);
  if (!row) return null;
  if (!row.analysed) return [t("Not analysed (the time limit of the deal's analysis was reached)."), ""];
  if (row.cost > 0) {
    const cost = amount(row.cost, row.unit);
    return [row.best.length
      ? t("✗ Cost {amount} double dummy (best: {cards}).", { amount: cost, cards: row.best.map(shortCard).join(", ") })
      : t("✗ Cost {amount} double dummy.", { amount: cost }), "bad"];
  }
  if (row.value === null) return [t("✓ Forced: the only legal card."), "good"];
  const others = row.best.filter(c => c !== row.card);
  return [others.length ? t("✓ A best card (as good: {cards}).", { cards: others.map(shortCard).join(", ") }) : t("✓ A best card."), "good"];
}

function renderAnalysis(step) {
  const panel = $("analysis-panel"), box = $("analysis-summary");
  panel.hidden = !analysis;
  document.body.classList.toggle("analysis-on", analysis);
  if (!analysis) return;
  loadReview(step.deal);
  const r = reviews.get(step.deal);
  const deal = num(step.deal);
  box.replaceChildren(el("p", "note", t("Deal {deal}: what each card played cost double dummy, all hands open.", { deal })));
  if (!r || r.pending) { box.append(el("p", "note", t("Analysing deal {deal}…", { deal }))); return; }
  if (r.error) { box.append(el("p", "note error", r.error)); return; }
  if (!r.cards.length) { box.append(el("p", "note", t("No card was played in this deal."))); return; }
  const tbl = el("table");
  const head = tbl.insertRow();
  head.append(el("th", "", t("Seat")), el("th", "", t("Cards")), el("th", "", t("Mistakes")), el("th", "", t("Cost")));
  for (const seat of data.seats) {
    const tot = r.totals[seat];
    if (!tot || !tot.cards) continue;
    const tr = tbl.insertRow();
    tr.dataset.seat = seat;
    tr.append(el("td", "", seatLabel(seat) + " · " + occupant(seat)), el("td", "", num(tot.cards)), el("td", "", num(tot.mistakes)),
      el("td", tot.cost > 0 ? "bad" : "", tot.cost > 0 ? "−" + amount(tot.cost, r.unit) : num(0)));
  }
  box.append(tbl);
  const missing = r.cards.filter(c => !c.analysed).length;
  if (missing) {
    box.append(el("p", "note", tn(
      "{n} card was not analysed: the analysis stops after {limit} s (the first tricks of a big deal are the slowest).",
      "{n} cards were not analysed: the analysis stops after {limit} s (the first tricks of a big deal are the slowest).",
      missing, { limit: num(r.limit) })));
  }
  const unit = r.unit || "tricks";
  box.append(el("p", "note", unit === "tricks"
    ? t("Costs in tricks lost by the side that played the card, against its best card; a dummy's cards count for its declarer.")
    : unit === "points"
      ? t("Costs in points lost by the side that played the card, against its best card; a dummy's cards count for its declarer.")
      : t("Costs in {unit} lost by the side that played the card, against its best card; a dummy's cards count for its declarer.", { unit })));
}

function toggleAnalysis() {
  analysis = !analysis;
  for (const [deal, r] of reviews) if (r.error) reviews.delete(deal);  // a failed analysis is asked again
  $("analysis").setAttribute("aria-pressed", String(analysis));
  if (data) go(at);
}

function occupant(seat) {
  const p = data.players.find(o => o.seat === seat);
  return p ? (personName(p.name) || (p.bot ? t("bot ({kind})", { kind: botLevel(p.bot) }) : "—")) : "—";
}

// ----- one step -------------------------------------------------------------------
function stepText(step) {
  const p = data.players.find(o => o.seat === step.seat) || {};
  const who = !step.seat ? "" : p.name ? seatLabel(step.seat) + " (" + personName(p.name) + ")" : p.bot ? t("{seat} (bot)", { seat: seatLabel(step.seat) }) : seatLabel(step.seat);
  if (step.kind === "deal") {
    const d = data.deals[step.deal - 1];
    return d && d.dealer ? t("Deal {deal} is dealt by {dealer}.", { deal: num(step.deal), dealer: d.dealer })
      : t("Deal {deal} is dealt.", { deal: num(step.deal) });
  }
  let text;
  if (step.kind === "card") {
    const card = cardLabel(step.action.includes(":") ? step.action : step.card);
    const hand = step.hand && step.hand !== step.seat ? step.hand : null;
    if (step.phase === "KITTY") {
      text = hand ? t("{who} discards {card} from {hand}'s hand", { who, card, hand }) : t("{who} discards {card}", { who, card });
    } else {
      text = hand ? t("{who} plays {card} from {hand}'s hand", { who, card, hand }) : t("{who} plays {card}", { who, card });
    }
    if (step.action.includes("+")) text = t("{text} with {extra}", { text, extra: step.action.split("+").slice(1).map(announcement).join(" ") });
  } else {
    text = t("{who} calls {call}", { who, call: callText(step.action) });
  }
  return step.auto && !p.bot ? t("{text} (played automatically)", { text }) : text;
}

function statusText(s, step) {
  if (s.over && step.index === data.steps.length - 1) {
    const w = data.sheet.winner;
    return w === null ? t("Game over. No winner.") : t("Game over. Team {team} wins.", { team: teamLabel(data.teams[w]) });
  }
  const parts = [t("Deal {deal}", { deal: num(step.deal) }), phaseWord(s.phase), t("dealer {seat}", { seat: seatLabel(s.dealer) })];
  if (s.contract) parts.push(t("contract {call} by {seat}", { call: callText(s.contract.call), seat: seatLabel(s.contract.seat) }));
  if (s.to_act) {
    parts.push(s.hand_to_play && s.hand_to_play !== s.to_act ? t("{seat} to play from {hand}", { seat: seatLabel(s.to_act), hand: seatLabel(s.hand_to_play) })
      : t("{seat} to act", { seat: seatLabel(s.to_act) }));
  }
  return parts.join(" · ");
}

// a card as a short text, "K♣", "10♥" (the language's rank letters); a joker in words
function cardShort(code) { const p = cardParts(code); return p.joker ? cardLabel(code) : p.rank + (SUIT_SYM[p.suit] || p.suit); }
function extrasText(s, deal) {
  const parts = [];
  if (s.tricks_won && s.contract) {
    parts.push(t("tricks {sides}", { sides: data.teams.map((team, i) => teamLabel(team) + " " + num(s.tricks_won[i])).join(", ") }));
  }
  if (s.vulnerable) parts.push(t("vulnerable: {sides}", { sides: vulnerableWord(s.vulnerable) }));
  if (s.trump) parts.push(t("trumps: {suit}", { suit: SUIT_SYM[s.trump] || s.trump }));
  if (deal && deal.kitty) parts.push(t("kitty as dealt: {cards}", { cards: deal.kitty.map(cardShort).join(" ") }));
  if (s.discards && s.discards.length) parts.push(t("discarded: {cards}", { cards: s.discards.map(cardShort).join(" ") }));
  if (Array.isArray(s.belote) && s.belote.length) {
    const said = s.belote.map(b => typeof b === "string" ? announcement(b) : seatLabel(b.seat || "") + " " + (b.call ? announcement(b.call) : ""));
    parts.push(t("belote: {calls}", { calls: said.join(", ") }));
  }
  return parts.join(" · ");
}

function handBox(seat, s, deal, step) {
  const box = el("div", "rhand seat-" + seat.toLowerCase() + (s.hand_to_play === seat ? " turn" : ""));
  box.dataset.seat = seat;
  box.append(el("div", "rhand-name", seatLabel(seat) + " · " + occupant(seat)));
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
  box.append(el("div", "rhand-count", tn("{n} card left", "{n} cards left", left.length)));
  return box;
}

// a joker led without trumps (500) calls a suit: "RJ:C" draws its badge
function called(s, card, ledSuit, first) {
  return first && (card === "RJ" || card === "BJ") && ledSuit && s.trump === null ? card + ":" + ledSuit : card;
}
function trickBox(s, four, step) {
  const box = el("div", "rtrick" + (four ? " four" : ""));
  box.setAttribute("aria-label", t("Trick"));
  let cards = s.trick, label = "", led = s.led_suit;
  if (!cards.length && s.last_trick) {
    const last = s.last_trick;
    cards = last.cards.map((c, i) => ({ seat: last.seats ? last.seats[i] : (i ? "" : last.leader), card: c }));
    label = t("trick {number} won by {seat}", { number: num(s.trick_count), seat: seatLabel(last.winner) });
    led = last.led_suit;
  }
  for (const [i, p] of cards.entries()) {
    const d = el("div", "played seat-" + String(p.seat).toLowerCase());
    const code = called(s, p.card, led, i === 0);
    d.append(cardFace(code, "", rowFor(step.deal, bare(p.card), step)), el("div", "", seatLabel(p.seat || "")));
    box.append(d);
  }
  box.append(el("div", "rtrick-label", label || (cards.length ? "" : t("no cards on the table"))));
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
    box.append(el("span", "", callText(c.call)));
    col = target;
  }
}

function resultText(r) {
  const who = r.contractor || r.declarer || r.taker || "";
  if (r.contract) {
    const call = callText(r.contract);
    const result = who ? t("{contract} by {seat}", { contract: call, seat: seatLabel(who) }) : call;
    if (r.made === true) return t("{result}, made", { result });
    if (r.made === false) return t("{result}, down", { result });
    // English said "1 tricks" too: both English forms are kept as they were
    if (typeof r.tricks === "number") return tn("{result}, {n} tricks", "{result}, {n} tricks", r.tricks, { result });
    return result;
  }
  return r.thrown_in || r.passed_out ? t("passed out") : "—";
}

function renderScore(s, step) {
  // the running score sheet: the deals finished by this step, then the totals
  const box = $("score");
  const tbl = el("table");
  const head = tbl.insertRow();
  head.append(el("th", "", t("Deal")), el("th", "", t("Contract")));
  data.teams.forEach(t => head.append(el("th", "", t.join(""))));
  const rows = data.sheet.results.slice(0, s.results_count);
  rows.forEach((r, i) => {
    const tr = tbl.insertRow();
    if (i + 1 === step.deal && step.kind !== "deal") tr.className = "current";
    tr.append(el("td", "", num(r.deal || i + 1)), el("td", "", resultText(r)));
    // the running total, with what the deal added
    (r.points || []).forEach((p, k) => {
      const td = el("td", "", r.scores ? num(r.scores[k]) : "");
      td.append(el("small", "delta", " (" + (p > 0 ? "+" : "") + num(p) + ")"));
      tr.append(td);
    });
  });
  const tot = tbl.insertRow();
  tot.append(el("th", "", t("Total")), el("th", "", ""));
  s.scores.forEach(v => tot.append(el("th", "", num(v))));
  box.replaceChildren(tbl);
}

function go(i) {
  if (!data) return;
  at = Math.max(0, Math.min(data.steps.length - 1, i));
  const step = data.steps[at], s = step.state;
  $("scrub").value = String(at);
  $("step-label").textContent = t("Step {step} of {steps} · deal {deal} of {deals}",
    { step: num(at), steps: num(data.steps.length - 1), deal: num(step.deal), deals: num(data.deals.length) });
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
    const words = [t("Deal {deal}", { deal: num(d.number) }), t("dealer {seat}", { seat: seatLabel(d.dealer) })];
    if (d.result) words.push(resultText(d.result));
    const head = el("button", "deal-head", words.join(" · "));
    head.type = "button";
    head.onclick = () => go(d.first_step);
    item.append(head);
    const list = el("dl", "deal-hands");
    for (const seat of data.seats) {
      list.append(el("dt", "", seatLabel(seat) + " " + occupant(seat)), el("dd", "", handText((d.hands || {})[seat] || [])));
    }
    if (d.kitty) list.append(el("dt", "", t("kitty")), el("dd", "", handText(d.kitty)));
    item.append(list);
    box.append(item);
  }
}

function renderFixed() {
  $("title").textContent = t("Replay · {game} · table {table}", { game: data.game, table: data.id });
  const page = t("Replay of {game} table {table}", { game: data.game_title ? t(data.game_title) : data.game, table: data.id });
  document.title = t("{page} — trumps", { page });
  $("players").replaceChildren(...data.players.map(p => el("div", "", seatLabel(p.seat) + " · " + occupant(p.seat))));
  const ex = $("exports");
  ex.replaceChildren();
  const link = (href, text) => { const a = el("a", "", text); a.href = href; a.setAttribute("download", ""); return a; };
  ex.append(link(data.exports.json, t("JSON record")));
  if (data.exports.pbn) ex.append(" · ", link(data.exports.pbn, t("PBN (bridge)")));
  const scrub = $("scrub");
  scrub.max = String(data.steps.length - 1);
  renderDeals();
}

function showError(message, status) {
  $("error").textContent = message;
  if (status === 409) {
    const a = el("a", "", t("Watch the table"));
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
    if (!res.ok) { showError(body.error ? tMsg(body.error) : t("the replay could not be loaded"), res.status); return; }
    data = body;
    renderFixed();
    const m = /step=(\d+)/.exec(location.hash);
    if (/analysis/.test(location.hash)) { analysis = true; $("analysis").setAttribute("aria-pressed", "true"); }
    go(m ? Number(m[1]) : 0);
  })
  .catch(() => showError(t("the replay could not be loaded"), 0));
