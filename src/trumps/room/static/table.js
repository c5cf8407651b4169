"use strict";
// The table page: one socket to the table actor; every state event redraws
// the felt (felt.js), the bidding box (bidbox.js), the strip above the felt,
// the end-of-deal panel and the side panel.  Nothing hidden ever reaches
// here: the server sends each person their own view.
const tid = location.pathname.split("/").pop();
let ws = null, state = null, lastSeq = -1;
let suggestion = null, clockOffset = 0, phrases = [], botLevel = "easy";
let statePres = null;     // how to draw this game (the engine's presentation)
let shownResults = null;   // results already summed up in the panel (null: not yet known)
let gathered = null;       // completed tricks already gathered from the felt
let gatherTimer = null, showingLast = false;
let gatherFor = null, gatherSince = 0;  // the trick (count) being gathered, and since when
const bubbles = {};        // seat -> {text, until}: announcements shown at the seat
let seenBelote = null, seenMelds = null, seenDeal = null;
const $ = id => document.getElementById(id);

function send(msg) {
  if (msg.type === "act") pendingAct = { msg, socket: sockets };
  if (ws && ws.readyState === 1) ws.send(JSON.stringify({ v: 1, ...msg }));
}
// The last move made, until a later state shows it was played.  A socket
// that closes under it (its worker restarting, or dying), or a click made
// while the page reconnects, may lose it: when a new socket shows the very
// state it answered, it is sent again, once (its seq makes a second copy
// harmless), so the player's click is not lost.
// (When the first copy did arrive after all, the table refuses the second
// as out of date: that refusal is not shown, the state that follows says it.)
let pendingAct = null, sockets = 0, resentAt = 0;
function resendLostAct(ev) {
  if (!pendingAct) return;
  if (ev.seq > pendingAct.msg.seq) { pendingAct = null; return; }
  if (ev.seq === pendingAct.msg.seq && pendingAct.socket !== sockets && ev.view && ev.view.legal
      && ev.view.legal.includes(pendingAct.msg.action)) { resentAt = Date.now(); send(pendingAct.msg); }
}
const MOVED_ON = "the table has moved on since your last update; try again";
function refusesTheCopy(ev) { return ev.reason === MOVED_ON && Date.now() - resentAt < 5000; }
function announce(s) { $("announce").textContent = s; }
function callText(c) { return Bidbox.label(c); }
function teamName(v, i) { return teamLabel(v.teams[i]); }
function sideOf(v, seat) { return v.teams.findIndex(team => team.includes(seat)); }

// ----- words of the game that arrive as data, translated where shown -------------------------
// (built on first use: every word is a literal here, so the catalogue has it)
let WORDS = null;
function words() {
  if (WORDS) return WORDS;
  WORDS = {
    // the phase in the status line
    phases: {
      AUCTION: tc("phase", "auction"), BREACH: tc("phase", "breach"), KITTY: tc("phase", "kitty"),
      DISCARD: tc("phase", "discard"), PLAY: tc("phase", "play"), CLAIM: tc("phase", "claim"),
    },
    // a bot's level on its name plate
    levels: { easy: tc("bot level", "easy"), normal: tc("bot level", "normal"), strong: tc("bot level", "strong"),
      rules: tc("bot level", "rules"), random: tc("bot level", "random") },
    // what a rubber bridge deal wrote on the score sheet (the engine's words)
    sheet: {
      honors: tc("score sheet", "honors"), undertricks: tc("score sheet", "undertricks"),
      contract: tc("score sheet", "contract"), overtricks: tc("score sheet", "overtricks"),
      insult: tc("score sheet", "insult"), slam: tc("score sheet", "slam"), rubber: tc("score sheet", "rubber"),
      game: tc("score sheet", "game"), "unfinished game": tc("score sheet", "unfinished game"),
      "unfinished partscore": tc("score sheet", "unfinished partscore"),
      "fourth-deal partscore": tc("score sheet", "fourth-deal partscore"),
    },
    // the unit of a suggestion's value
    units: { tricks: tc("unit", "tricks"), points: tc("unit", "points") },
    // an announcement played with a card ("KH+BELOTE": "with belote")
    announcements: { belote: tc("announcement", "belote"), rebelote: tc("announcement", "rebelote") },
  };
  return WORDS;
}
function word(group, key) { const w = words()[group][key]; return w === undefined ? t(key) : w; }
// A registered player's name as it is; a guest's carries the mark " (guest)" from the server.
const GUEST = " (guest)";
function personName(name) { return name && name.endsWith(GUEST) ? t("{name} (guest)", { name: name.slice(0, -GUEST.length) }) : name; }

// In these phases the legal actions that name a card of the hand to play are card plays.
const CARD_PHASES = new Set(["PLAY", "KITTY", "DISCARD"]);
function isCardAction(v, a) {
  if (!CARD_PHASES.has(v.phase)) return false;
  const cards = v.hands[v.hand_to_play] || [];
  return cards.includes(a.split(/[:+]/)[0]);
}
function legalFor(card, legal, v) {
  if (!CARD_PHASES.has(v.phase)) return [];
  return legal.filter(a => a === card || a.startsWith(card + ":") || a.startsWith(card + "+"));
}

// ----- playing a card: tap (or tap twice with "confirm card play"), or drag it up -----
let armed = null;
function play(card, legal, v, direct) {
  const options = legalFor(card, legal, v);
  if (!direct && confirmPlay() && armed !== card) {
    armed = card;
    for (const b of document.querySelectorAll("button.card.armed")) b.classList.remove("armed");
    for (const b of document.querySelectorAll(`button.card[data-card="${card}"]`)) b.classList.add("armed");
    announce(t("Tap {card} again to play it", { card: cardLabel(card) }));
    return;
  }
  armed = null;
  if (options.length === 1) { send({ type: "act", action: options[0], seq: lastSeq }); return; }
  const calls = $("calls");  // one card, several ways to play it: a joker lead's suit, an announcement
  calls.replaceChildren(el("span", "", t("Play {card}:", { card: cardLabel(card) }) + " "));
  for (const a of options) {
    const rest = a.slice(card.length);
    const label = rest.startsWith(":") ? t("lead as {suit}", { suit: SUIT_SYM[rest.slice(1)] })
      // TRANSLATORS: the ways to play one card: lead a joker as a suit, play it with an announcement (belote), or plain
      : rest ? t("with {announcement}", { announcement: word("announcements", rest.slice(1).toLowerCase()) }) : t("plain");
    const b = el("button", "", label);
    b.setAttribute("aria-label", a);
    b.dataset.call = a;
    b.onclick = () => send({ type: "act", action: a, seq: lastSeq });
    calls.append(b);
  }
  calls.querySelector("button").focus();
}
// ----- the kitty: choose the discards, then confirm them with one button --------------
// (a tap chooses or un-chooses a card; "Undo" clears the choice; nothing is sent
// before "Discard"; then one card per state, each with that state's seq)
const discard = { chosen: new Set(), queue: [] };
function discardNeeded(v) { return Math.max(0, (v.kitty_size || 0) - (v.discards || []).length); }
function discardable(code, v) {
  const ok = v.legal.includes(code) && !discard.queue.length;
  const b = Felt.cardButton(code, ok);
  if (discard.chosen.has(code)) { b.classList.add("chosen"); b.setAttribute("aria-pressed", "true"); }
  else b.setAttribute("aria-pressed", "false");
  if (!ok) return b;
  b.onclick = () => {
    if (discard.chosen.has(code)) discard.chosen.delete(code);
    else if (discard.chosen.size < discardNeeded(v)) discard.chosen.add(code);
    else { announce(t("You have chosen {n} cards: tap one of them to put it back.", { n: discard.chosen.size })); return; }
    redrawState();
    // the hand was drawn again: the keyboard's focus stays on this card
    const again = document.querySelector(`#hand button.card[data-card="${code}"]`);
    if (again) again.focus({ preventScroll: true });
  };
  return b;
}
function renderDiscardBar(v, calls) {
  const need = discardNeeded(v), n = discard.chosen.size;
  const kitty = Bidbox.term("kitty", t("kitty"));
  const bar = el("div", "discard-bar");
  bar.append(el("span", "discard-note", discard.queue.length ? t("Discarding…")
    : t("Choose {n} cards to discard ({chosen} chosen); the cards from the {kitty} are marked.", { n: need, chosen: n, kitty })));
  const go = el("button", "primary", tn("Discard {n} card", "Discard {n} cards", need, { n: need }));
  go.type = "button"; go.id = "discard-go"; go.disabled = n !== need || discard.queue.length > 0;
  go.onclick = () => { discard.queue = [...discard.chosen]; discard.chosen.clear(); sendNextDiscard(); };
  const undo = el("button", "", t("Undo")); undo.type = "button"; undo.id = "discard-undo";
  undo.disabled = !n || discard.queue.length > 0;
  undo.onclick = () => { discard.chosen.clear(); redrawState(); };
  bar.append(go, undo);
  calls.append(bar);
}
function sendNextDiscard() {
  const v = state && state.view;
  if (!discard.queue.length || !v || v.phase !== "KITTY" || !v.legal.includes(discard.queue[0])) { discard.queue = []; redrawState(); return; }
  send({ type: "act", action: discard.queue.shift(), seq: lastSeq });
}
function redrawState() { if (state) render(state, true); }
function playable(code, legal, v, cls) {
  const ok = legalFor(code, legal, v).length > 0;
  const b = Felt.cardButton(code, ok, cls);
  if (!ok) return b;
  b.onclick = () => { if (b.dragged) { b.dragged = false; return; } play(code, legal, v); };
  let y0 = null;  // drag a card up to play it at once
  b.addEventListener("pointerdown", e => { y0 = e.clientY; });
  b.addEventListener("pointerup", e => {
    if (y0 !== null && y0 - e.clientY > 40) { b.dragged = true; play(code, legal, v, true); }
    y0 = null;
  });
  return b;
}

// ----- seats around the table ----------------------------------------------------------
// A registered player's name links to their profile (guests are marked "(guest)" and have
// none), with their rating in this game next to it.
const ratings = {};  // name -> rating in this table's game (null: unrated), fetched once
function personLink(name) {
  if (name.endsWith(GUEST)) return el("span", "who", personName(name));
  const span = el("span", "person-box");
  const a = el("a", "person", name); a.href = "/player/" + encodeURIComponent(name); a.target = "_blank";
  a.title = t("Profile of {name} (add as a friend there)", { name });
  span.append(a);
  const game = state && state.table.game;
  if (!(name in ratings)) {
    ratings[name] = undefined;
    fetch("/api/players/" + encodeURIComponent(name)).then(r => r.ok ? r.json() : null).then(p => {
      ratings[name] = p && p.games[game] ? p.games[game].rating : null;
      if (state) render(state, true);
    }).catch(() => {});
  }
  const r = ratings[name];
  if (r !== undefined && r !== null) span.append(el("span", "rating", " " + r));
  return span;
}

function plate(tb, v, seat) {
  const s = tb.seats.find(x => x.seat === seat) || {};
  const p = el("div", "plate");
  // TRANSLATORS: the one-letter mark of the dealer on a name plate (D for dealer)
  if (v.dealer === seat) { const d = el("span", "dealer", tc("dealer mark", "D")); d.title = t("Dealer"); d.setAttribute("aria-label", t("dealer")); p.append(d); }
  const who = el("span", "name");
  if (s.name) who.append(personLink(s.name));
  else if (s.bot) who.append(el("span", "bot", t("Bot")), " ", el("span", "level", word("levels", s.bot)));
  else who.append(el("span", "empty", t("Empty seat")));
  p.append(who, el("span", "seat-code", seatLabel(seat)));
  const contract = v.contract;
  if (contract && contract.seat === seat) {
    const tag = el("span", "tag holder" + suitClassOf(contract.call), callText(contract.call));
    const role = Bidbox.term("declarer", t("declarer"));
    // TRANSLATORS: for screen readers, e.g. "declarer, four spades"
    tag.title = role; tag.setAttribute("aria-label", t("{role}, {contract}", { role, contract: Bidbox.name(contract.call.replace(/X+$/, "")) }));
    p.append(tag);
  }
  if (contract && contract.dummy === seat) p.append(el("span", "tag", Bidbox.term("dummy", t("dummy"))));
  if (v.phase === "PLAY" || (v.tricks && v.tricks.length)) {
    const n = Felt.tricksBySeat(v)[seat] || 0;
    const tr = el("span", "tricks", String(n));
    // TRANSLATORS: English uses one form here; give your language's singular and plural
    tr.title = tn("{n} tricks won this deal", "{n} tricks won this deal", n, { n });
    tr.setAttribute("aria-label", tn("{n} tricks", "{n} tricks", n, { n }));
    p.append(tr);
  }
  if (s.away) p.append(el("span", "away", t("away")));
  if (s.timeouts) {
    const n = el("span", "timeouts");
    n.append(icon("timer"), "×" + s.timeouts);
    n.title = tn("ran out of time {n} time", "ran out of time {n} times", s.timeouts, { n: s.timeouts });
    n.setAttribute("aria-label", n.title);
    p.append(n);
  }
  if ((v.sitting_out || []).includes(seat)) p.append(el("span", "tag", t("sits out")));
  return p;
}

function seatControls(tb, s) {
  const box = el("div", "seat-actions");
  if (s.bot && tb.is_host && tb.status !== "finished" && !(tb.settings.buy_in && tb.status === "playing")) {
    const b = el("button", "small remove", "✕"); b.setAttribute("aria-label", t("Remove the bot from {seat}", { seat: seatLabel(s.seat) })); b.title = t("Remove the bot (the seat becomes free)");
    b.onclick = () => send({ type: "bot", seat: s.seat, kind: null }); box.append(b);
  }
  if (s.bot && !tb.you && tb.status === "playing" && !tb.settings.buy_in) {
    // (short on the button, which a phone's side seat must hold; the timing in its title and name)
    const b = el("button", "small take-over", t("Take over")); b.setAttribute("aria-label", t("Take over {seat} from the bot at the next deal", { seat: seatLabel(s.seat) }));
    b.title = t("Take over next deal");
    b.onclick = () => send({ type: "sit", seat: s.seat }); box.append(b);
  }
  if (s.empty && !tb.you) {
    const b = el("button", "small primary", t("Sit here")); b.onclick = () => send({ type: "sit", seat: s.seat }); box.append(b);
  }
  if (s.empty && tb.is_host) {
    const b = el("button", "small", t("Bot")); b.setAttribute("aria-label", t("Bot at {seat}", { seat: seatLabel(s.seat) }));
    b.onclick = () => send({ type: "bot", seat: s.seat, kind: botLevel }); box.append(b);
  }
  return box.childElementCount ? box : null;
}

// An exposed hand (dummy, open misère, a misère partner's hand) at its seat: suit
// columns at the top (trumps on the left of the declarer's view, as bridge lays the
// dummy), suit rows at the sides.
function exposedHand(tb, v, seat, pos, choosing) {
  const legal = choosing ? v.legal : [];
  const groups = Felt.bySuit(v.hands[seat], v);
  const box = el("div", "exposed " + (pos === "top" ? "columns" : "rows"));
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", t("{seat}'s cards, face up", { seat: seatLabel(seat) }));
  for (const g of groups) {
    const line = el("div", "suit-line");
    for (const c of g.cards) line.append(choosing ? playable(c, legal, v, "mini") : Felt.cardFace(c, "mini"));
    box.append(line);
  }
  return box;
}

function backs(n) {
  const fan = el("div", "backs");
  fan.setAttribute("aria-label", tn("{n} cards", "{n} cards", n, { n }));
  for (let i = 0; i < n; i++) fan.append(Felt.cardBack("mini"));
  if (n) fan.append(el("span", "count", String(n)));  // (an empty hand shows no "0" badge)
  else fan.classList.add("none");
  return fan;
}

function renderSeats(tb, v, myTurn) {
  const felt = $("felt");
  const pos = Felt.positions(tb, v), bottom = Felt.bottomSeat(tb, v);
  felt.dataset.players = v.seats.length;
  for (const old of felt.querySelectorAll(".seat.other")) old.remove();
  const choosing = seat => myTurn && v.hand_to_play === seat && CARD_PHASES.has(v.phase);
  for (const seat of v.seats) {
    if (seat === bottom) continue;
    const s = tb.seats.find(x => x.seat === seat) || { seat };
    const box = el("div", "seat other pos-" + pos[seat] + (v.to_act === seat && tb.status === "playing" ? " turn" : ""));
    box.dataset.seat = seat;
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", t("Seat {seat}", { seat: seatLabel(seat) }));
    box.append(plate(tb, v, seat), el("div", "timer"));
    if (v.hands[seat]) box.append(exposedHand(tb, v, seat, pos[seat], choosing(seat)));
    else if (tb.status !== "waiting" && !(v.sitting_out || []).includes(seat)) box.append(backs(v.hand_sizes[seat] || 0));
    bubble(box, seat, v);
    const c = seatControls(tb, s);
    if (c) {
      const remove = c.querySelector(".remove");  // the host's ✕ sits at the end of the name plate
      if (remove) box.querySelector(".plate").append(remove);
      if (c.childElementCount) box.append(c);
    }
    felt.append(box);
  }
  // the bottom seat: yours, or South's for a spectator
  const mine = $("mine");
  mine.dataset.seat = bottom;
  mine.classList.toggle("turn", v.to_act === bottom && tb.status === "playing");
  mine.classList.toggle("spectating", !tb.you);
  const p = plate(tb, v, bottom);
  p.id = "my-plate";
  $("my-plate").replaceWith(p);
  for (const old of mine.querySelectorAll(".seat-actions, .bubble")) old.remove();
  const s = tb.seats.find(x => x.seat === bottom) || { seat: bottom };
  const c = seatControls(tb, s);
  if (c) mine.querySelector(".plate-row").after(c);
  bubble(mine, bottom, v);
}

// ----- speech bubbles: the last call in the auction, belote/rebelote, melds -----
function trackAnnouncements(v) {
  const bel = (v.belote || []).length, melds = v.melds ? (v.melds.announcements || []).length + Object.keys(v.melds.shown || {}).length : 0;
  const until = Date.now() + 3000;
  // a new deal: what was said in the last one is not said in this one
  if (seenDeal !== null && v.deal_number !== seenDeal) for (const k of Object.keys(bubbles)) delete bubbles[k];
  seenDeal = v.deal_number;
  if (seenBelote !== null && bel > seenBelote) {
    const b = v.belote[bel - 1];
    bubbles[b.seat] = { text: b.call === "rebelote" ? t("Rebelote!") : t("Belote!"), until };
  }
  if (seenMelds !== null && melds > seenMelds && v.melds) {
    for (const a of v.melds.announcements || []) bubbles[a.seat] = { text: t("Meld {points}", { points: a.value }), until };
    for (const [seat, shown] of Object.entries(v.melds.shown || {})) bubbles[seat] = { text: [].concat(shown).map(prettyMeld).join(" "), until };
  }
  seenBelote = bel; seenMelds = melds;
}
function prettyMeld(m) { return String(m).replace(/([SHDC])$/, s => SUIT_SYM[s]); }
function bubble(box, seat, v) {
  let text = null;
  const b = bubbles[seat];
  if (b && b.until > Date.now()) text = b.text;
  else if (v.phase === "AUCTION" || v.phase === "BREACH") {
    const mine = v.auction.filter(c => c.seat === seat);
    if (mine.length) text = callText(mine[mine.length - 1].call);
  }
  if (!text) return;
  const d = el("div", "bubble", text);
  d.setAttribute("aria-hidden", "true");
  box.append(d);
}
setInterval(() => {  // let bubbles expire
  if (state && Object.values(bubbles).some(b => b.until && b.until < Date.now())) {
    for (const k of Object.keys(bubbles)) if (bubbles[k].until < Date.now()) delete bubbles[k];
    render(state, true);
  }
}, 500);

// ----- your hand: one overlapping row -------------------------------------------------
function renderHand(tb, v, myTurn) {
  const hand = $("hand");
  hand.replaceChildren();
  const bottom = Felt.bottomSeat(tb, v);
  const cards = v.hands[bottom];
  hand.classList.toggle("empty", !cards || !cards.length);
  if (!cards) {  // a spectator: South's backs
    if (tb.status !== "waiting" && v.hand_sizes && v.hand_sizes[bottom]) hand.append(...Array.from({ length: v.hand_sizes[bottom] }, () => Felt.cardBack()));
    requestAnimationFrame(() => Felt.fitRow(hand));
    return;
  }
  const choosing = myTurn && v.hand_to_play === bottom && CARD_PHASES.has(v.phase);
  const discarding = choosing && v.phase === "KITTY";
  if (!discarding) discard.chosen.clear();
  for (const c of Felt.sortHand(cards, v)) {
    const card = discarding ? discardable(c, v) : choosing ? playable(c, v.legal, v) : Felt.cardFace(c);
    // the cards picked up with the kitty, marked until the discards are made
    if (v.phase === "KITTY" && (v.kitty || []).includes(c)) {
      card.classList.add("from-kitty"); card.dataset.fromKitty = "1";
      card.setAttribute("aria-label", t("{card}, from the {kitty}", { card: cardLabel(c), kitty: Bidbox.term("kitty", t("kitty")) }));
    }
    hand.append(card);
  }
  if (armed) for (const b of hand.querySelectorAll(`button.card[data-card="${armed}"]`)) b.classList.add("armed");
  Felt.fitRow(hand);
}
window.addEventListener("resize", () => Felt.fitRow($("hand")));

// ----- the trick: each card in front of the seat that played it ----------------------------
// A joker led without trumps (500's no trumps and misère) calls the suit the
// others must follow: "RJ:C" draws the joker with a ♣ badge and says
// "red joker, leading clubs"; the state has it as the trick's led suit.
function calledCard(v, card, ledSuit, first) {
  return first && (card === "RJ" || card === "BJ") && ledSuit && v.phase === "PLAY" && v.trump === null ? card + ":" + ledSuit : card;
}
function trickCard(code, seat, pos, shown) {
  const d = Felt.cardFace(shown || code, "played pos-" + pos[seat]);
  d.dataset.card = code;
  d.dataset.seat = seat;
  if (shown && shown !== code) d.dataset.calls = shown.split(":")[1];
  d.setAttribute("aria-label", t("{seat}: {card}", { seat: seatLabel(seat), card: cardLabel(shown || code) }));
  return d;
}
function completedTrick(box, v, tr, pos) {
  const seats = Felt.trickSeats(v, tr.leader, tr.cards.length);
  tr.cards.forEach((c, i) => box.append(trickCard(c, seats[i], pos, calledCard(v, c, tr.led_suit, i === 0))));
}
function renderTrick(tb, v) {
  const box = $("trick");
  const pos = Felt.positions(tb, v);
  // a state that comes during a gather ends it: the box loses the gather
  // classes with the timer that would have removed them (left on, they
  // kept every later trick at opacity 0)
  clearTimeout(gatherTimer);
  box.className = "trick";
  box.replaceChildren();
  box.dataset.players = v.seats.length;
  const done = (v.tricks || []).length;
  if (gathered === null || done < gathered) { gathered = done; gatherFor = null; }  // first state, or a new deal
  if (showingLast && done) {
    const last = v.tricks[done - 1];
    completedTrick(box, v, last, pos);
    box.append(el("div", "trick-label", t("Last trick, won by {seat}", { seat: seatLabel(last.winner) })));
    return;
  }
  if (v.trick.length) {
    gathered = done;
    v.trick.forEach((p, i) => box.append(trickCard(p.card, p.seat, pos, calledCard(v, p.card, v.led_suit, i === 0))));
    return;
  }
  if (done > gathered) {
    // a trick was just completed: it stays a moment, then slides to the
    // winner; timed from when it was first shown, so that a redraw meanwhile
    // (a chat bubble, a spectator) neither restarts nor skips it
    if (gatherFor !== done) { gatherFor = done; gatherSince = Date.now(); }
    const k = motionScale();
    const pause = 1100 * Math.max(k, 0.6), slide = k ? 450 * k : 0;
    const elapsed = Date.now() - gatherSince;
    if (elapsed >= pause + slide) { gathered = done; return; }
    const last = v.tricks[done - 1];
    completedTrick(box, v, last, pos);
    const label = el("div", "trick-label", t("{seat} wins the trick", { seat: seatLabel(last.winner) }));
    box.append(label);
    const finish = () => { gathered = done; box.className = "trick"; box.replaceChildren(); };
    const slideAway = () => {
      box.classList.add("gather", "to-" + pos[last.winner]);
      label.remove();
      gatherTimer = setTimeout(finish, Math.max(0, pause + slide - (Date.now() - gatherSince)));
    };
    if (elapsed >= pause) slideAway();
    else gatherTimer = setTimeout(slideAway, pause - elapsed);
  }
}

// ----- the auction: in the middle while it lasts, in full at the side --------------------
function auctionTable(v, box) {
  const n = v.seats.length, step = v.direction === "anticlockwise" ? n - 1 : 1;
  // the dealer's column first, from the first state on (it used to start at the
  // first caller before the first call and move when it came); a game whose
  // dealer does not call first (500) leaves the dealer's first cell empty
  const start = Math.max(0, v.seats.indexOf(v.dealer));
  const cols = Array.from({ length: n }, (_, k) => v.seats[(start + k * step) % n]);
  box.style.setProperty("--n", n);
  for (const s of cols) {
    const head = el("strong", s === v.dealer ? "dealer-col" : "", seatLabel(s));
    if (s === v.dealer) head.title = t("Dealer");
    box.append(head);
  }
  let col = -1;
  for (const c of v.auction) {
    const target = cols.indexOf(c.seat);
    let gap = target - col - 1;
    if (gap < 0) gap += n;
    for (let i = 0; i < gap; i++) box.append(el("span", "", ""));
    const cell = el("span", "call-text" + suitClassOf(c.call), callText(c.call));
    cell.title = Bidbox.name(c.call);
    box.append(cell);
    col = target;
  }
}
function suitClassOf(call) { const m = /(S|H|D|C)X{0,2}$/.exec(call); return m && call !== "P" ? " s-" + m[1] : ""; }
function renderAuction(v) {
  const box = $("auction");
  box.replaceChildren();
  box.className = "auction";
  auctionTable(v, box);
  const live = $("auction-live");
  const bidding = v.phase === "AUCTION" || v.phase === "BREACH";
  live.hidden = !bidding;
  live.replaceChildren();
  if (bidding) { auctionTable(v, live); live.scrollTop = live.scrollHeight; }
}

// ----- the bidding box, and calls that are not on it (melds, a joker's suit) ----------------
// A box taller than the room above your hand scrolls (table.css): at each new
// call it is scrolled to the lowest bid you may make (not at a mere redraw,
// which would undo your own scrolling).
let bidboxScrolledAt = null;
function scrollBidbox() {
  if (bidboxScrolledAt === lastSeq) return;
  bidboxScrolledAt = lastSeq;
  const wrap = $("bidbox-wrap");
  const first = wrap.querySelector(".brow:not(.head):not(.bside) button.call:not([disabled])");
  if (!first) return;
  const head = wrap.querySelector(".brow.head");
  const top = first.closest(".brow").getBoundingClientRect().top - wrap.getBoundingClientRect().top + wrap.scrollTop;
  wrap.scrollTop = Math.max(0, top - (head ? head.offsetHeight : 0) - 6);
}
function renderCalls(tb, v, myTurn) {
  const act = a => { Bidbox.close(); send({ type: "act", action: a, seq: lastSeq }); };
  const legal = myTurn ? v.legal.filter(a => !isCardAction(v, a)) : [];
  const onBox = legal.filter(a => Bidbox.has(a));
  const inAuction = myTurn && (v.phase === "AUCTION" || v.phase === "BREACH") && onBox.length > 0;
  $("bidbox-wrap").hidden = !inAuction;
  if (inAuction) { Bidbox.render(v.legal, act); scrollBidbox(); }
  else { Bidbox.close(); $("bidbox").replaceChildren(); }
  const calls = $("calls");
  calls.replaceChildren();
  const mine = tb.you ? tb.seats.find(x => x.seat === tb.you) : null;
  if (mine && mine.idle && tb.status === "playing") {
    // marked away after two timeouts in a row: a bot plays (and passes) for you
    const note = el("span", "idle-note", t("You ran out of time twice: a bot plays your seat (it passes in the auction)."));
    const b = el("button", "primary", t("I'm back"));
    b.type = "button";
    b.dataset.back = "1";
    b.onclick = () => send({ type: "back" });
    calls.append(note, b);
  }
  if (myTurn && v.phase === "KITTY" && v.hand_to_play === tb.you) renderDiscardBar(v, calls);
  for (const a of legal) {
    if (inAuction && Bidbox.has(a)) continue;
    const b = el("button", "", a.startsWith("MELD:") ? meldText(a) : callText(a));
    b.setAttribute("aria-label", Bidbox.name(a));
    b.dataset.call = a;
    b.onclick = () => act(a);
    calls.append(b);
  }
}
// A timer's move, in the reader's language: the call or card in words
// ("Bob ran out of time: Pass was made for them"), never a code like "P" or
// "7C"; a move the reader may not see keeps the server's wording.
function noticeText(ev) {
  if (ev.timeout && ev.who && ev.action) {
    const a = String(ev.action);
    const who = personName(ev.who);  // "Ann (Gast)": the reader's word for a guest
    const upper = w => w.charAt(0).toUpperCase() + w.slice(1);  // it starts the clause
    if (ev.kind === "call") return t("{who} ran out of time: {call} was made for them", { who, call: upper(Bidbox.name(a)) });
    const words = a.startsWith("MELD") ? meldText(a) : /^(10|[2-9TJQKA])[SHDC]|^[RB]J/.test(a) ? cardLabel(a.split("+")[0]) : Bidbox.name(a);
    return t("{who} ran out of time: {action} was played automatically", { who, action: upper(words) });
  }
  return tMsg(ev.text);
}
// A notice stays a while under the hand, then goes (it told of one move, not the
// deals after it); a newer notice replaces it.
let noticeTimer = null;
function showNotice(text) {
  const box = $("notice");
  box.textContent = text;
  announce(text);
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { if (box.textContent === text) box.textContent = ""; }, 15000);
}
function meldText(a) {
  const body = a.slice(5);
  return body === "-" ? t("No meld") : t("Meld {melds}", { melds: body.split("+").map(prettyMeld).join(" ") });
}

// ----- the strip above the felt: contract, progress, vulnerability, match score ------------
function chip(label, value, cls) {
  const d = el("div", "chip" + (cls ? " " + cls : ""));
  d.append(el("span", "k", label), el("span", "v", value));
  return d;
}
function contractText(v) {
  const c = v.contract;
  if (!c) return null;
  return callText(c.call) + " · " + seatLabel(c.seat);  // "SE" at six, not the seat's number
}
function progressText(v) {
  const c = v.contract;
  if (!c || !c.goal) return null;
  const side = c.team, g = c.goal;
  const mine = teamName(v, side);
  if (g.unit === "points") {
    const have = (v.card_points || [])[side] || 0;
    const other = (v.card_points || [])[1 - side] || 0;
    const p = { team: mine, n: have, need: g.need, other: teamName(v, 1 - side), points: other };
    return g.beat_opponents ? t("{team} {n} of {need} card points (and more than {other} {points})", p)
      : t("{team} {n} of {need} card points · {other} {points}", p);
  }
  const have = (v.tricks_won || [])[side] || 0;
  if (g.misere) return t("{misere}: {seat} must take no trick · {n} taken", { misere: Bidbox.term("misere", t("Misère")), seat: seatLabel(c.seat), n: have });
  const others = v.teams.map((_, i) => i).filter(i => i !== side).map(i => teamName(v, i) + " " + ((v.tricks_won || [])[i] || 0));
  return [t("{team} {n} of {need} tricks", { team: mine, n: have, need: g.need }), ...others].join(" · ");
}
function inkles(v) {
  const ink = v.auction.filter(c => c.call.startsWith("i"));
  // "i6S" is the inkle of "6S": shown as the bid's own label
  return ink.length ? ink.map(c => seatLabel(c.seat) + " " + callText(c.call.slice(1))).join(", ") : null;
}
function renderStrip(tb, v) {
  const box = $("strip");
  box.replaceChildren();
  if (tb.status === "waiting") {
    box.append(chip(t("Table"), t("waiting for players")));
    const s = tb.settings;
    if (s.start_at) {  // a scheduled table: when (empty seats then get bots), counting down live
      const at = I18n.date(new Date(s.start_at * 1000), { hour: "2-digit", minute: "2-digit" });
      const c = chip(t("Starts"), at);
      const left = el("span", "v countdown"); left.id = "countdown"; left.setAttribute("aria-live", "off");
      c.append(left);
      box.append(c);
      tickCountdown();
    }
    if (s.buy_in) box.append(chip(t("Buy-in"), tn("{n} chip", "{n} chips", s.buy_in)));
    return;
  }
  box.append(chip(t("Deal"), String(v.board || v.deal_number)));
  const ct = contractText(v);
  if (ct) {
    const c = chip(t("Contract"), ct, "contract" + suitClassOf(v.contract.call));
    const p = { contract: Bidbox.name(v.contract.call.replace(/X+$/, "")), seat: seatLabel(v.contract.seat) };
    c.querySelector(".v").setAttribute("aria-label", /XX$/.test(v.contract.call) ? t("{contract} redoubled by {seat}", p)
      : /X$/.test(v.contract.call) ? t("{contract} doubled by {seat}", p) : t("{contract} by {seat}", p));
    box.append(c);
  } else if (v.phase === "AUCTION") box.append(chip(t("Auction"), t("dealer {seat}", { seat: seatLabel(v.dealer) })));
  const ink = inkles(v);
  if (ink) box.append(chip(t("Inkles"), ink));
  // TRANSLATORS: "Vul" is short for vulnerability (bridge), a small heading above "none", "both", "NS" or "EW"
  if (v.vulnerable) box.append(chip(t("Vul"), v.vulnerable === "None" ? tc("vulnerable", "none") : v.vulnerable === "Both" ? tc("vulnerable", "both") : v.vulnerable, "vul"));
  const pr = v.phase === "PLAY" ? progressText(v) : null;
  if (pr) box.append(chip(t("Now"), pr, "progress"));
  const target = statePres && statePres.target;
  let score = v.teams.map((_, i) => teamName(v, i) + " " + v.scores[i]).join(" · ");
  const games = (v.results || []).length && v.results[v.results.length - 1].games;
  if (games) score = t("{score} (games {games})", { score, games: games.join("–") });
  // (a tournament's table plays one deal: no match target)
  if (target && target.text && tb.settings.kind !== "tournament") score += " → " + targetText(target);
  box.append(chip(t("Score"), score, "score"));
  if (v.tricks && v.tricks.length && !v.over) {
    // on a phone the side panel (and its Last trick button) is below the felt: this one is at hand
    const last = el("button", "chip last-chip phone-only", showingLast ? t("Back to the trick") : t("Last trick"));
    last.type = "button"; last.setAttribute("aria-pressed", String(showingLast));
    last.onclick = () => $("show-last").click();
    box.append(last);
  }
}

// The match target in words: coinche's "1000 points" is its number of points; the
// others ("500 or −500", "rubber (2 games)") are fixed texts of the engine, looked up
// as they are (not by template: "{Misere} points" would take "1000 points" for its own).
function targetText(target) {
  const n = target.points;
  if (n !== null && n !== undefined && target.text === n + " points") return tn("{n} point", "{n} points", n, { n });
  return t(target.text);
}

// ----- end of a deal, end of the game: the panel in the middle ----------------------------
function resultLine(v, r) {
  if (!r.contract) return r.thrown_in || r.passed_out ? t("Passed out: nobody bid") : t("No contract");
  const who = r.contractor || r.declarer || r.taker || "";
  let made = r.made;
  if (made === undefined && r.sheet) made = !r.sheet.items.some(i => i.what === "undertricks");
  const p = { contract: callText(r.contract), seat: seatLabel(who) };
  // bridge: by how much, in words ("4♠ by S, made with an overtrick", "down 2")
  const level = /^[1-7]/.test(r.contract) ? Number(r.contract[0]) : null;
  if (r.declarer && level && typeof r.tricks === "number") {
    const over = r.tricks - (level + 6);
    if (over > 0) return tn("{contract} by {seat}, made with an overtrick", "{contract} by {seat}, made with {n} overtricks", over, { ...p, n: over });
    if (over === 0) return t("{contract} by {seat}, made exactly", p);
    return t("{contract} by {seat}, down {n}", { ...p, n: -over });
  }
  return made === undefined ? t("{contract} by {seat}", p) : made ? t("{contract} by {seat} — made", p) : t("{contract} by {seat} — down", p);
}
function renderPanel(tb, v) {
  const panel = $("panel");
  const results = v.results || [];
  if (shownResults === null) shownResults = results.length;  // opened mid-game: no old news
  const fresh = results.length > shownResults;
  if (!v.over && !fresh) return;
  if (panel.dataset.deal === String(results.length) && !panel.hidden) return;  // already open
  if (panel.dataset.closed === String(results.length) && !v.over) return;
  panel.dataset.deal = String(results.length);
  panel.replaceChildren();
  panel.classList.remove("compact");
  const r = results[results.length - 1];
  const tournament = tb.settings.kind === "tournament" && tb.settings.tournament ? tb.settings : null;
  if (v.over && tournament) {  // one deal of a duplicate tournament: how it compares, and the next deal
    const title = el("h2", "", t("Deal {n} of the tournament", { n: tournament.tournament_deal + 1 }));
    title.id = "panel-title";
    panel.append(title);
    const line = el("p", "result-line tournament-line", t("Comparing with the field…"));
    line.id = "tournament-line";
    panel.append(line);
    // (a moment later: the score is stored as the deal ends)
    setTimeout(() => tournamentLine(tournament, line), 600);
  } else if (v.over) {
    const team = v.winner === null || v.winner === undefined ? null : teamName(v, v.winner);
    const title = el("h2", "", team === null ? t("Game over")
      : tb.you && v.teams[v.winner].includes(tb.you) ? t("You win! {team} wins", { team }) : t("{team} wins", { team }));
    title.id = "panel-title";
    panel.append(title);
    if (tb.settings.buy_in && tb.you) {  // a Compete game: where the player's chips stand now
      const line = el("p", "result-line chips-line", "");
      panel.append(line);
      // (a moment later: the prize is paid as the game ends)
      setTimeout(() => fetch("/api/me/chips").then(res => (res.ok ? res.json() : null)).then(c => {
        if (c) line.textContent = t("Buy-in {buy_in} · your chips now: {chips}",
          { buy_in: tn("{n} chip", "{n} chips", tb.settings.buy_in), chips: tn("{n} chip", "{n} chips", c.chips) });
      }).catch(() => {}), 800);
    }
  } else {
    const title = el("h2", "", t("Deal {n}", { n: r ? r.deal || results.length : results.length }));
    title.id = "panel-title";
    panel.append(title);
  }
  if (r) {
    panel.append(el("p", "result-line", resultLine(v, r)));
    const tbl = el("table", "deal-score");
    const head = tbl.insertRow();
    head.append(el("th", "", ""));
    v.teams.forEach((_, i) => head.append(el("th", "", teamName(v, i))));
    const rows = [];
    if (Array.isArray(r.tricks)) rows.push([t("Tricks"), r.tricks]);
    else if (typeof r.tricks === "number") rows.push([t("Declarer's tricks"), v.teams.map((_, i) => sideOf(v, r.declarer) === i ? r.tricks : "")]);
    if (Array.isArray(r.card_points)) rows.push([t("Card points"), r.card_points]);
    if (Array.isArray(r.belote) && r.belote.some(Boolean)) rows.push([t("Belote"), r.belote]);
    if (Array.isArray(r.melds) && r.melds.some(Boolean)) rows.push([t("Melds"), r.melds]);
    if (r.sheet) {
      rows.push([t("Below the line"), r.sheet.below]);
      rows.push([t("Above the line"), r.sheet.above]);
    }
    rows.push([t("This deal"), (r.points || []).map(p => (p > 0 ? "+" : "") + p)]);
    rows.push([t("Total"), r.scores || v.scores]);
    for (const [label, vals] of rows) {
      const tr = tbl.insertRow();
      tr.append(el("th", "", label));
      vals.forEach(x => tr.append(el("td", "", String(x))));
    }
    panel.append(tbl);
    if (r.sheet && r.sheet.items && r.sheet.items.length) {
      const ul = el("ul", "sheet-items");
      // TRANSLATORS: a line of the rubber bridge score sheet, e.g. "EW: undertricks 50"
      for (const it of r.sheet.items) ul.append(el("li", "", t("{side}: {what} {points}", { side: it.side, what: word("sheet", it.what), points: it.points })));
      panel.append(ul);
    }
    if (r.kitty && r.kitty.length) {
      const kit = el("div", "kitty-row");
      // TRANSLATORS: {Kitty} is the variant's word for the kitty (kitty, widow), capitalised
      kit.append(el("span", "k", t("{Kitty}:", { Kitty: Bidbox.term("kitty", t("kitty")).replace(/^./, x => x.toUpperCase()) })));
      for (const c of r.kitty) kit.append(Felt.cardFace(c, "mini"));
      if (r.discards && r.discards.length) {
        kit.append(el("span", "k", t("Discards:")));
        for (const c of r.discards) kit.append(Felt.cardFace(c, "mini"));
      }
      panel.append(kit);
    }
  }
  const buttons = el("div", "panel-buttons");
  if (v.over && tournament) {
    const results = el("a", "button", t("Tournament results")); results.href = "/tournament/" + encodeURIComponent(tournament.tournament);
    results.id = "tournament-results";
    if (tb.you) {
      const next = el("button", "primary", t("Next deal")); next.id = "next-deal"; next.type = "button"; next.hidden = true;
      next.onclick = () => nextTournamentDeal(tournament, next);
      buttons.append(next);
    }
    const rep = el("a", "button", t("Replay the deal")); rep.href = "/replay/" + tb.id;
    const back = el("a", "button", t("Back to the lobby")); back.href = "/#tournaments";
    buttons.append(results, rep, back);
    const note = el("p", "error"); note.id = "tournament-error"; note.setAttribute("role", "alert");
    panel.append(note);
  } else if (v.over) {
    const rep = el("a", "button primary", t("Replay the game")); rep.href = "/replay/" + tb.id;
    buttons.append(rep);
    if (tb.you) { const again = el("button", "", t("Play again")); again.id = "again"; again.type = "button"; again.onclick = playAgain; buttons.append(again); }
    else { const next = el("a", "button", t("Watch the next game")); next.id = "watch-next"; next.hidden = !tb.rematch; buttons.append(next); }
    const back = el("a", "button", t("Back to the lobby")); back.href = "/";
    buttons.append(back);
    const note = el("p", "again-note"); note.id = "again-note"; note.setAttribute("role", "status");
    panel.append(note);
  } else {
    const go = el("button", "primary", t("Continue")); go.type = "button";
    go.onclick = () => { panel.hidden = true; panel.dataset.closed = String(results.length); shownResults = results.length; };
    buttons.append(go);
  }
  panel.append(buttons);
  panel.hidden = false;
  if (!v.over) announce(resultLine(v, r));
}
// A tournament deal's end: the reader's score on it against the field so far (matchpoints
// or IMPs), and the way to the next deal while there is one.
async function tournamentLine(tournament, line, tries = 0) {
  let data = null;
  try {
    const res = await fetch("/api/tournaments/" + encodeURIComponent(tournament.tournament));
    if (res.ok) data = await res.json();
  } catch (_) { /* said below */ }
  const deal = data && data.sheets[tournament.tournament_deal];
  if (!deal || !deal.played) {
    if (tries < 8) { setTimeout(() => tournamentLine(tournament, line, tries + 1), 500); return; }
    line.textContent = t("Your score is being stored: see the tournament's results.");
    return;
  }
  const signed = deal.score > 0 ? "+" + deal.score : String(deal.score);
  line.textContent = data.scoring === "imps"
    ? tn("You scored {score}: {n} IMP against the field so far", "You scored {score}: {n} IMPs against the field so far", deal.value, { score: signed, n: deal.value })
    : t("You scored {score}: {percent} % of the field so far", { score: signed, percent: deal.value });
  const next = $("next-deal");
  if (next) {
    const left = data.open && data.played < data.deals;
    next.hidden = !left;
    if (!left) { const res = $("tournament-results"); if (res) res.classList.add("primary"); }
  }
}
async function nextTournamentDeal(tournament, button) {
  button.disabled = true;
  try {
    const res = await fetch("/api/tournaments/" + encodeURIComponent(tournament.tournament) + "/play", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: "{}",
    });
    const data = await res.json();
    if (!res.ok) throw new Error(data.error || res.statusText);
    location.href = "/table/" + encodeURIComponent(data.table);
  } catch (ex) {
    $("tournament-error").textContent = tMsg(ex.message);
    button.disabled = false;
  }
}
// A rubber bridge sheet: points above the line (bonuses, overtricks, penalties)
// stack upwards, trick points below it, a line under each game won.
function renderRubber(v, box) {
  const tbl = el("table", "rubber");
  const head = tbl.insertRow();
  v.teams.forEach((_, i) => head.append(el("th", "", teamName(v, i))));
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
  box.append(el("div", "note", t("Rubber: points above and below the line")), tbl);
}

function detail(r, i) {
  const bits = [];
  // TRANSLATORS: the side's tricks in this deal, abbreviated (a small note in the score table)
  if (Array.isArray(r.tricks)) bits.push(t("{n} tr", { n: r.tricks[i] }));
  // TRANSLATORS: the side's card points in this deal, abbreviated (a small note in the score table)
  if (Array.isArray(r.card_points)) bits.push(t("{n} cp", { n: r.card_points[i] }));
  if (Array.isArray(r.belote) && r.belote[i]) bits.push(t("belote {n}", { n: r.belote[i] }));
  if (Array.isArray(r.melds) && r.melds[i]) bits.push(t("melds {n}", { n: r.melds[i] }));
  return bits.join(", ");
}

function renderScore(v) {
  const box = $("score");
  box.replaceChildren();
  if ((v.results || []).some(r => r.sheet)) { renderRubber(v, box); return; }
  const tbl = el("table");
  const head = tbl.insertRow();
  head.append(el("th", "", t("Deal")));
  v.teams.forEach((_, i) => head.append(el("th", "", teamName(v, i))));
  for (const r of v.results || []) {
    const row = tbl.insertRow();
    const who = r.contractor || r.declarer || r.taker || "";
    const p = { contract: r.contract ? callText(r.contract) : "", seat: seatLabel(who) };
    let what = r.contract ? p.contract + " " + who : (r.thrown_in || r.passed_out ? t("passed out") : "—");
    if (r.contract && r.made !== undefined) what = r.made ? t("{contract} {seat} made", p) : t("{contract} {seat} down", p);
    else if (r.contract && typeof r.tricks === "number") what = tn("{contract} {seat} · {n} tricks", "{contract} {seat} · {n} tricks", r.tricks, { ...p, n: r.tricks });
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
  tot.append(el("th", "", t("Total")));
  v.scores.forEach(s => tot.append(el("th", "", String(s))));
  box.append(tbl);
}


// ----- the status line in the middle, and the waiting room -------------------------------
function statusText(tb, v) {
  if (tb.status === "waiting") return tn("Waiting for players: {n} seat free.", "Waiting for players: {n} seats free.", tb.free, { n: tb.free });
  // a tournament's table is one deal of several: its end is not a game won
  if (v.over && tb.settings.kind === "tournament") return t("The deal is over: the tournament goes on.");
  if (v.over) return v.winner === null ? t("Game over. No winner.") : t("Game over. Team {team} wins.", { team: teamName(v, v.winner) });
  const phase = words().phases[v.phase];
  const parts = [t("Deal {n}", { n: v.deal_number }), phase === undefined ? v.phase.toLowerCase() : phase];
  const lead = v.trick && v.trick.length ? calledCard(v, v.trick[0].card, v.led_suit, true) : "";
  if (lead.includes(":")) { const s = lead.split(":")[1]; parts.push(t("Joker led, calling {suit}", { suit: SUIT_SYM[s] + " " + suitWord(s) })); }
  if (v.to_act) parts.push(v.to_act === tb.you ? t("your turn") : v.phase === "PLAY" ? t("{seat} to play", { seat: seatLabel(v.to_act) }) : t("{seat} to call", { seat: seatLabel(v.to_act) }));
  if (v.phase === "KITTY" || v.phase === "DISCARD") {
    const kitty = Bidbox.term("kitty", t("kitty"));
    const n = v.kitty_size || "";
    parts.push(v.to_act === tb.you ? tn("discard {n} cards face down (the {kitty} is in your hand)", "discard {n} cards face down (the {kitty} is in your hand)", Number(n) || 0, { n, kitty })
      : t("{seat} takes the {kitty}", { seat: v.contract ? seatLabel(v.contract.seat) : "", kitty }));
  }
  return parts.join(" · ");
}
function renderWaiting(tb) {
  const box = $("waiting");
  box.hidden = tb.status !== "waiting";
  box.replaceChildren();
  if (box.hidden) return;
  if (tb.is_host && tb.free) {
    const b = el("button", "primary", t("Fill empty seats with bots")); b.type = "button"; b.onclick = () => send({ type: "fill", kind: botLevel }); box.append(b);
    const level = el("select"); level.id = "bot-level"; level.setAttribute("aria-label", t("Bot level"));
    for (const [k, label] of [["easy", t("easy bots")], ["normal", t("normal bots")], ["strong", t("strong bots")]]) level.append(new Option(label, k));
    level.value = botLevel; level.onchange = () => { botLevel = level.value; };
    box.append(level);
  }
  if (tb.you) { const b = el("button", "", t("Stand up")); b.type = "button"; b.onclick = () => send({ type: "stand" }); box.append(b); }
}

function announceChange(prev, v) {
  if (!prev) return;
  if (v.auction.length > prev.auction.length) {
    const c = v.auction[v.auction.length - 1]; announce(t("{seat} calls {call}", { seat: seatLabel(c.seat), call: Bidbox.name(c.call) }));
  } else if (v.trick.length > prev.trick.length) {
    const p = v.trick[v.trick.length - 1];
    announce(t("{seat} plays {card}", { seat: seatLabel(p.seat), card: cardLabel(calledCard(v, p.card, v.led_suit, v.trick.length === 1)) }));
  } else if (v.tricks.length > prev.tricks.length) {
    const tr = v.tricks[v.tricks.length - 1];
    announce(t("{seat} plays {card}; trick won by {winner}", { seat: seatLabel(tr.winner), card: cardLabel(tr.cards[tr.cards.length - 1]), winner: seatLabel(tr.winner) }));
  }
}

let autoSuggest = true;  // the personal setting turns suggestions on once, where the table allows
function applySuggestPref(tb) {
  if (!autoSuggest || !PREFS.suggestions || !tb.you || !tb.settings.suggestions || tb.status !== "playing") return;
  autoSuggest = false;
  if (!tb.suggesting) send({ type: "suggest", on: true });
}

// ----- one state: draw everything ---------------------------------------------------------
function render(ev, redraw) {
  const prev = state && state.view;
  state = ev; lastSeq = ev.seq;
  const tb = ev.table, v = ev.view;
  if (!redraw) { trackAnnouncements(v); if (armed && !(v.hands[tb.you] || []).includes(armed)) armed = null; }
  // the game as players name it ("Belote Coinche", "500"), in the tab's title too
  $("title").textContent = t("{game} · table {id}", { game: tb.game_title ? t(tb.game_title) : v.game, id: tb.id });
  document.title = t("{page} — trumps", { page: $("title").textContent });
  $("me").textContent = tb.you ? t("You sit {seat}", { seat: seatLabel(tb.you) }) : t("Watching");
  const myTurn = !!tb.you && v.to_act === tb.you && tb.status === "playing";
  document.body.classList.toggle("my-turn", myTurn);
  document.body.classList.toggle("playing", tb.status === "playing");
  renderSeats(tb, v, myTurn);
  renderHand(tb, v, myTurn);
  if (!redraw) renderTrick(tb, v);
  renderStrip(tb, v);
  sizeFelt();
  $("status").textContent = statusText(tb, v);
  renderWaiting(tb);
  $("replay-link").hidden = !v.over;
  $("replay-link").href = "/replay/" + tb.id;
  clockOffset = tb.now - Date.now() / 1000;
  if (suggestion && suggestion.seq !== ev.seq) suggestion = null;
  renderSuggestBox(tb, myTurn);
  applySuggestPref(tb);
  renderInviteFriends(tb);
  renderHost(tb);
  renderChatControls(tb);
  renderCalls(tb, v, myTurn);
  renderAuction(v);
  renderScore(v);
  renderRules(tb);
  if (!redraw) renderPanel(tb, v);
  renderAgain(tb);
  sitOnArrival(tb);
  // the last deal's result still open when the next one wants a call or a card
  // from this player (their clock runs), or once the next deal is under way
  // (someone called or played in it: a spectator, a player who is away or
  // not first to act would otherwise read an old result over the new deal):
  // it shrinks to one line at the top, off the bidding box and the hand; a
  // tap on it opens it again
  const panel = $("panel");
  const underWay = (v.auction || []).length > 0 || (v.tricks || []).length > 0 || (v.trick || []).length > 0;
  if ((myTurn || underWay) && !v.over && !panel.hidden && !panel.classList.contains("compact") && panel.dataset.opened !== panel.dataset.deal) {
    panel.classList.add("compact");
    panel.onclick = e => { if (!e.target.closest("button")) { panel.classList.remove("compact"); panel.dataset.opened = panel.dataset.deal; } };
  }
  const chat = $("chat");
  // a preset phrase (`phrase` set) in the reader's language, a typed line as it was typed;
  // the earlier states of a replay carry no chat (the last one does): keep what is shown
  if (ev.chat) chat.replaceChildren(...ev.chat.map(c => {
    const line = el("div", c.channel === "spectators" ? "spectator-line" : "");
    if (c.channel === "spectators") { const i = icon("eye"); i.setAttribute("aria-hidden", "false"); i.setAttribute("role", "img"); i.setAttribute("aria-label", t("spectator")); line.append(i, " "); }
    line.append(t("{name}: {text}", { name: personName(c.name), text: c.phrase ? t(c.text) : c.text }));
    return line;
  }));
  markSuggestion();
  if (redraw) return;
  if (discard.queue.length && myTurn && v.phase === "KITTY") sendNextDiscard();
  else if (discard.queue.length && v.phase !== "KITTY") discard.queue = [];
  announceChange(prev, v);
  $("error").textContent = "";
  if (myTurn && (!document.activeElement || document.activeElement === document.body)) {
    const first = document.querySelector(playableSelector);
    if (first) first.focus({ preventScroll: true });
  }
  tickClock();
}
const playableSelector = "#felt button.card.legal, #bidbox button.call:not([disabled]), #calls button";

// Behind a proxy that routes table sockets (docs/scaling.md), a worker that
// does not run this table says which one does (a "route" event); the page
// then connects again with ?worker= that one, once per worker named, so a
// proxy that does not route costs one reconnect, not a loop.  A named worker
// that cannot be reached (it died) is forgotten: the next try goes anywhere.
// "again": the worker this socket is on runs the table now (it arrived just
// after the socket, which was relayed meanwhile): connect to it anew.
let routeTo = null, routeTried = null, rerouting = false;
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // after a reconnect, ask for the events missed since the last one seen
  const query = new URLSearchParams();
  if (lastSeq >= 0) query.set("since", lastSeq);
  if (routeTo) query.set("worker", routeTo);
  const q = query.toString();
  ws = new WebSocket(proto + "//" + location.host + "/ws/table/" + tid + (q ? "?" + q : ""));
  let opened = false;
  sockets += 1;
  // a socket that opened with no name asked for may be told any owner again
  // (one it was told before, gone and back): only a named one holds routeTried
  ws.onopen = () => { opened = true; if (!routeTo) routeTried = null; };
  ws.onmessage = m => {
    const ev = JSON.parse(m.data);
    if (ev.type === "route") {
      if (ev.worker && (ev.worker !== routeTried || ev.again)) { routeTried = routeTo = ev.worker; rerouting = true; ws.close(); }
      return;
    }
    if (ev.type === "state" && ev.presentation) { statePres = ev.presentation; Bidbox.setPresentation(ev.presentation); }
    if (ev.type === "state") { if (ev.seq >= lastSeq) render(ev); resendLostAct(ev); }
    else if (ev.type === "error") {
      if (refusesTheCopy(ev)) return;
      pendingAct = null;  // (a refused move is not sent again after a reconnect)
      $("error").textContent = tMsg(ev.reason);
    }
    else if (ev.type === "notice") { showNotice(noticeText(ev)); }
    else if (ev.type === "suggestion") { if (ev.seq === lastSeq) { suggestion = ev; markSuggestion(); } }
  };
  // 1012: the worker is restarting and has handed the table over: come back at once
  ws.onclose = e => {
    // a named worker that could not be reached (it died): try any worker at once
    if (!opened && routeTo) { routeTo = null; rerouting = true; }
    // 1012: this worker is going away (it has handed its tables over): not by
    // name again, unless it named the heir just before (a "route" event)
    if (e.code === 1012 && !rerouting) routeTo = null;
    const delay = rerouting ? 0 : e.code === 1012 ? 100 + Math.random() * 200 : 1000;
    rerouting = false;
    setTimeout(connect, delay);
  };
}

// Keyboard: arrow keys move between the cards and calls you can choose; Enter/Space plays.
document.addEventListener("keydown", e => {
  if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(e.key)) return;
  if (document.activeElement && ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName)) return;
  // (only what is on screen: 500's closed Misère menu holds calls too, and
  // stepping onto one hid the focus, so Left never left the first call)
  const items = [...document.querySelectorAll(playableSelector)].filter(b => !b.disabled && b.getClientRects().length > 0);
  if (!items.length) return;
  const i = items.indexOf(document.activeElement);
  const step = e.key === "ArrowLeft" || e.key === "ArrowUp" ? -1 : 1;
  items[(i < 0 ? 0 : i + step + items.length) % items.length].focus();
  e.preventDefault();
});

// The Rules panel: the preset's name and every rule the table changes from it, in
// words ("Widow size: 5 cards", "Must bid to win: no"), from the engine's option
// metadata (templates translated first, then filled with the rules' own words)
function fillTerms(text, terms) {
  return String(text ?? "").replace(/\{([A-Za-z_]\w*)\}/g, (m, key) => {
    if (key in terms) return terms[key];
    const low = key.charAt(0).toLowerCase() + key.slice(1);
    return low in terms ? terms[low].charAt(0).toUpperCase() + terms[low].slice(1) : m;
  });
}
let rulesShown = null;
function renderRules(tb) {
  const r = tb.rules;
  const key = r && JSON.stringify(r) + I18n.lang;
  if (!r || rulesShown === key) return;
  rulesShown = key;
  const terms = {};
  for (const [k, v] of Object.entries(r.terms || {})) terms[k] = t(v);
  const body = $("rules-body");
  body.replaceChildren();
  body.append(el("p", "rules-preset", r.label
    ? t("{rules}, with these changes:", { rules: fillTerms(t(r.label), terms) })
    : t("The default rules of {game}, with these changes:", { game: trumpsGames.noun(tb.game) })));
  const list = el("ul", "rules-changes");
  for (const c of r.changes) {
    const li = el("li");
    const [before, after] = t("{rule}: {value}", { rule: fillTerms(t(c.label), terms), value: "\u0001" }).split("\u0001");
    li.append(before, el("b", "", fillTerms(t(c.words), terms)), after || "");
    list.append(li);
  }
  if (!r.changes.length) {
    body.lastChild.textContent = r.label ? fillTerms(t(r.label), terms) + "." : t("The default rules of {game}.", { game: trumpsGames.noun(tb.game) });
    list.append(el("li", "note", t("No house rules.")));
  }
  body.append(list);
}
// Play again: the server seats this player at the table the players go on to
// (made by the first of them to press it: the same rules, settings and bots),
// in their own seat; a table on another worker is sat at by the page (#sit=)
async function playAgain() {
  const button = $("again"); if (button) button.disabled = true;
  const res = await fetch("/api/tables/" + encodeURIComponent(tid) + "/again", { method: "POST",
    headers: { "Content-Type": "application/json" }, body: "{}" });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) { if (button) button.disabled = false; $("again-note").textContent = tMsg(data.error || "the table did not answer; try again"); return; }
  location.href = "/table/" + encodeURIComponent(data.table) + (data.seat ? "" : "#sit=" + encodeURIComponent(data.wanted || ""));
}
// the end panel once somebody pressed Play again: players are told the new
// table waits for them, spectators get the way to watch it
function renderAgain(tb) {
  const note = $("again-note");
  if (!note || tb.status !== "finished") return;
  note.textContent = !tb.rematch ? "" : tb.you
    ? t("The next game is ready: Play again takes you to your seat.")
    : t("The players went on to the next game.");
  const again = $("again");
  if (again) again.classList.toggle("primary", !!tb.rematch);
  const next = $("watch-next");
  if (next) { next.hidden = !tb.rematch; if (tb.rematch) next.href = "/table/" + encodeURIComponent(tb.rematch); }
}
// arriving with #sit=S (Play again on another worker, an accepted invitation):
// take seat S if it is free, else the first free seat, once
let sitWanted = (/^#sit=?(.*)$/.exec(location.hash) || [])[1];
function sitOnArrival(tb) {
  if (sitWanted === undefined) return;
  const wanted = decodeURIComponent(sitWanted); sitWanted = undefined;
  history.replaceState(null, "", location.pathname + location.search);
  if (tb.you || tb.status === "finished") return;
  const free = tb.seats.filter(s => s.empty);
  const seat = free.find(s => s.seat === wanted) || free.find(s => s.empty);
  if (seat) send({ type: "sit", seat: seat.seat });
}
$("chat-form").addEventListener("submit", e => {
  e.preventDefault();
  const input = $("chat-text");
  if (input.value.trim()) send({ type: "chat", text: input.value });
  input.value = "";
});
$("show-last").addEventListener("click", () => {
  const v = state && state.view; if (!v || !v.tricks.length) { $("error").textContent = t("No trick has been played yet in this deal."); return; }
  showingLast = !showingLast;
  $("show-last").setAttribute("aria-pressed", String(showingLast));
  renderTrick(state.table, v);
  renderStrip(state.table, v);
});
fetch("/api/me").then(r => r.json()).then(me => {
  if (!me.player) {
    const name = prompt(t("Your name at the table:"));
    if (name) return fetch("/api/guest", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
  }
})
  // behind a routing proxy the table's summary names its worker: the first socket goes there
  .then(() => fetch("/api/tables/" + encodeURIComponent(tid)))
  .then(r => (r.ok ? r.json() : null))
  .then(s => { if (s && s.worker) routeTo = routeTried = s.worker; })
  .catch(() => {})
  .finally(connect);

// ----- move clock: the server keeps the deadline; this only shows it ---------------------
// "in 4:05" beside a scheduled table's start time, every tick until it starts
function tickCountdown() {
  const box = $("countdown"), tb = state && state.table;
  if (!box || !tb || tb.status !== "waiting" || !tb.settings.start_at) return;
  const left = Math.max(0, Math.round(tb.settings.start_at - (Date.now() / 1000 + clockOffset)));
  const h = Math.floor(left / 3600), m = Math.floor(left / 60) % 60, sec = left % 60;
  const clock = (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + String(sec).padStart(2, "0");
  box.textContent = left ? " " + t("in {time}", { time: clock }) : " " + t("now");
}
function tickClock() {
  tickCountdown();
  const box = $("clock");
  const tb = state && state.table, v = state && state.view;
  for (const bar of document.querySelectorAll(".timer")) bar.style.removeProperty("--left");
  if (!tb || !tb.deadline || tb.status !== "playing" || !v.to_act) { box.textContent = ""; return; }
  const left = Math.max(0, tb.deadline - (Date.now() / 1000 + clockOffset));
  const secs = Math.ceil(left);
  box.textContent = v.to_act === tb.you ? t("Your time: {n} s", { n: secs }) : t("{seat}'s time: {n} s", { seat: seatLabel(v.to_act), n: secs });
  box.classList.toggle("low", secs <= 5);
  const cardTurn = CARD_PHASES.has(v.phase) && (v.legal.length === 0 || v.legal.some(a => isCardAction(v, a)));
  const total = (cardTurn ? tb.settings.play_time : tb.settings.bid_time) || tb.settings.play_time || tb.settings.bid_time || 30;
  const seatBox = v.to_act === Felt.bottomSeat(tb, v) ? $("mine") : document.querySelector(`.seat.other[data-seat="${v.to_act}"]`);
  const bar = seatBox && seatBox.querySelector(".timer");
  if (bar) { bar.style.setProperty("--left", Math.min(1, left / total)); bar.classList.toggle("low", secs <= 5); }
}
setInterval(tickClock, 250);

// ----- the display menu: stored in the browser (and the account, when logged in) -----------
(function setupMenu() {
  const button = $("menu-button"), menu = $("table-menu");
  button.addEventListener("click", () => { menu.hidden = !menu.hidden; button.setAttribute("aria-expanded", String(!menu.hidden)); });
  for (const input of menu.querySelectorAll("[data-pref]")) {
    const key = input.dataset.pref;
    if (input.type === "checkbox") input.checked = key === "confirm_card" ? confirmPlay() : !!PREFS[key];
    else input.value = PREFS[key] || "normal";
    input.addEventListener("change", () => {
      PREFS[key] = input.type === "checkbox" ? input.checked : input.value;
      localStorage.setItem("trumps.prefs", JSON.stringify(PREFS));
      const acct = window.trumpsAccount && window.trumpsAccount.me;
      if (acct && acct.account) fetch("/api/prefs", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ [key]: PREFS[key] }) }).catch(() => {});
      if (typeof setCardPrefs === "function") setCardPrefs({ four_colours: !!PREFS.four_colours, high_contrast: !!PREFS.high_contrast });
      applyLook();
      if (state) render(state, true);
    });
  }
  applyLook();
})();
function applyLook() {
  document.body.classList.toggle("high-contrast", !!PREFS.high_contrast);
  document.body.classList.toggle("four-colours", !!PREFS.four_colours);
}

// On a phone the felt takes the screen below the strip: hand, trick and bidding box at once.
function sizeFelt() {
  const felt = $("felt");
  if (window.matchMedia("(max-width: 60rem)").matches) felt.style.setProperty("--felt-h", Math.max(420, window.innerHeight - felt.getBoundingClientRect().top - window.scrollY - 4) + "px");
  else felt.style.removeProperty("--felt-h");
}
window.addEventListener("resize", sizeFelt);

// ----- invite friends (any player of the table with an account) -----
function renderInviteFriends(tb) {
  const box = $("friends-invite");
  if (!box) return;
  const acct = window.trumpsAccount;
  const friends = acct && acct.friends ? acct.friends.friends : [];
  const member = !!tb.you || tb.is_host;
  box.hidden = !(member && friends.length && tb.status !== "finished");
  if (box.hidden) return;
  const sel = $("invite-who");
  const keep = sel.value;
  sel.replaceChildren(...friends.map(f => new Option(f.online ? t("{name} (online)", { name: f.name }) : f.name, f.name)));
  if (keep) sel.value = keep;
}

// ----- suggestions: the bot's choice from your own view, marked in yellow -----
function renderSuggestBox(tb, myTurn) {
  const allowed = !!tb.you && tb.settings.suggestions && tb.status === "playing";
  $("suggest-box").hidden = !allowed;
  $("suggest-on").checked = !!tb.suggesting;
  $("why").hidden = !(suggestion && suggestion.reasons && suggestion.reasons.length && myTurn);
  if (!myTurn) $("reasons").hidden = true;
}

function markSuggestion() {
  for (const b of document.querySelectorAll(".suggested")) b.classList.remove("suggested");
  if (!suggestion || !state || suggestion.seq !== state.seq) return;
  const a = suggestion.action;
  const card = a.split(/[:+]/)[0];
  for (const b of document.querySelectorAll("#felt button.card")) {
    if (b.dataset.card === card) { b.classList.add("suggested"); b.dataset.suggestedLabel = t("suggested"); b.setAttribute("aria-description", t("suggested")); }
  }
  for (const b of document.querySelectorAll("#bidbox button.call, #calls button")) {
    if (b.dataset.call === a) b.classList.add("suggested");
    if (b.dataset.popup && Bidbox.calls().includes(a) && (statePres.box.popup || {calls: []}).calls.includes(a)) b.classList.add("suggested");
  }
  $("why").hidden = !(suggestion.reasons && suggestion.reasons.length);
}

Bidbox.onRedraw(markSuggestion);
$("suggest-on").addEventListener("change", e => send({ type: "suggest", on: e.target.checked }));
$("why").addEventListener("click", () => {
  const box = $("reasons");
  box.hidden = !box.hidden;
  if (box.hidden || !suggestion) return;
  const rows = (suggestion.reasons || []).map(r => {
    let text = callText(r.action);
    if (r.value !== null && r.value !== undefined) text = t("{action} — {value} {unit}", { action: text, value: r.value, unit: r.unit ? word("units", r.unit) : "" });
    if (r.samples) text = tn("{text} ({n} samples)", "{text} ({n} samples)", r.samples, { text, n: r.samples });
    // the bot's reason is the engine's English: translated when the catalogue has it as it is
    if (r.reason) text = t("{text}: {reason}", { text, reason: t(r.reason) });
    return el("div", r.action === suggestion.action ? "best" : "", text);
  });
  box.replaceChildren(...rows);
});

// ----- host: invitation and spectators -----
function renderHost(tb) {
  const show = !!tb.is_host && (tb.invite || (tb.watchers && tb.watchers.length));
  $("host-box").hidden = !show;
  const inv = $("invite");
  inv.replaceChildren();
  if (tb.invite) {
    const link = location.origin + "/join/" + tb.invite;
    const input = el("input"); input.readOnly = true; input.value = link; input.setAttribute("aria-label", t("Invitation link"));
    const revoke = el("button", "", t("Revoke link")); revoke.onclick = () => send({ type: "invite", action: "revoke" });
    inv.append(el("div", "", t("Invitation code: {code}", { code: tb.invite })), input, revoke);
  }
  const w = $("watchers");
  w.replaceChildren();
  for (const s of tb.watchers || []) {
    const row = el("div");
    row.append(icon("eye"), " " + personName(s.name) + " ");
    const b = el("button", "", t("Remove")); b.setAttribute("aria-label", t("Remove spectator {name}", { name: personName(s.name) }));
    b.onclick = () => send({ type: "kick", player: s.player });
    row.append(b); w.append(row);
  }
}

// ----- chat: always open before and after the game; during it the table's setting -----
function renderChatControls(tb) {
  const playing = tb.status === "playing";
  const spectator = !tb.you && !tb.is_host;
  const mode = spectator ? (tb.settings.spectator_chat ? "text" : "none") : playing ? tb.settings.chat : "text";
  $("chat-title").textContent = spectator ? t("Chat (spectators)") : t("Chat");
  $("chat-form").hidden = mode !== "text";
  const box = $("phrases");
  box.replaceChildren();
  // a preset phrase is shown in the reader's language and travels as its key
  if (mode === "preset") for (const ph of phrases) {
    const b = el("button", "", t(ph.text)); b.type = "button"; b.onclick = () => send({ type: "chat", phrase: ph.key }); box.append(b);
  }
  $("chat-note").textContent = mode === "none" ? (spectator ? t("Spectator chat is off at this table.") : t("Chat is off during the game.")) : mode === "preset" ? t("Chat during the game: phrases only.") : "";
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
      note.textContent = t("Invited {names}.", { names: data.invited.map(i => personName(i.name)).join(", ") });
    } catch (ex) { note.textContent = tMsg(ex.message); }
  });
  if (window.trumpsAccount) window.trumpsAccount.onFriends(() => { if (state) renderInviteFriends(state.table); });
}
