// SVG playing cards drawn from the card notation: "AS", "TD", "13H", "RJ",
// "BJ", and a joker lead naming its suit, "RJ:C".  Everything but the index
// letters is drawn with paths (pips, court figures, jesters, the back), so a
// card looks the same in every browser.  The markup is built once per card
// and mode, and each call clones the cached element.
//
// API (globals of this plain script, used by table.js and replay.js):
//   SUITS, SUIT_NAMES, RANK_NAMES, RANK_LETTERS, FOUR_COLOURS, HIGH_CONTRAST
//   cardParts(code), cardLabel(code)          the words for a card (in the page's language)
//   suitWord(suit), localRankLetters()        a suit's name; the index letters of the language
//   cardSVG(code), cardBackSVG()              a new <svg viewBox="0 0 70 100">
//   cardMarkup(code), cardBackMarkup()        the same as a string
//   setCardPrefs({four_colours, high_contrast}), setRankLetters({K: "R", ...}),
//   refreshCards(root)                        switch live and redraw cards on the page
//   seatLabel(seat), teamLabel(team)          a seat's and a side's name on screen ("NE", "N+S")
"use strict";
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten" };
// The letters printed in the index corners: a translation replaces them
// (setRankLetters); the drawings never depend on them.
const RANK_LETTERS = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };

function readCardPrefs() {
  try {
    const p = JSON.parse(localStorage.getItem("trumps.prefs") || "{}") || {};
    return { four_colours: !!p.four_colours, high_contrast: !!p.high_contrast };
  } catch (e) { return { four_colours: false, high_contrast: false }; }
}
// the "four-colour deck" (clubs green, diamonds blue) and "high contrast" personal settings
let FOUR_COLOURS = readCardPrefs().four_colours;
let HIGH_CONTRAST = readCardPrefs().high_contrast;

function cardParts(code) {
  if (code === "RJ" || code === "BJ") return { rank: "★", suit: "", joker: code };
  const nominated = String(code).split(":");  // a joker lead "RJ:C"
  if (nominated.length === 2) return { ...cardParts(nominated[0]), nominate: nominated[1] };
  const r = code.slice(0, -1);
  return { rank: RANK_LETTERS[r] || r, suit: code.slice(-1) };
}

// The words of the cards in the page's language (i18n.js is loaded before this
// file on every page; a page without it, like the card gallery of the tests,
// gets the English words).  Built on first use, so the catalogue is there.
const CARD_I18N = (() => {
  const PH = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
  const english = (s, p) => (p ? s.replace(PH, (m, k) => (k in p ? String(p[k]) : m)) : s);
  return {
    t: (msgid, params) => (typeof window.t === "function" ? window.t(msgid, params) : english(msgid, params)),
    tc: (context, msgid, params) => (typeof window.tc === "function" ? window.tc(context, msgid, params) : english(msgid, params)),
  };
})();
let CARD_WORDS = null;
function cardWords() {
  if (CARD_WORDS) return CARD_WORDS;
  const { t } = CARD_I18N;
  CARD_WORDS = {
    suits: { S: t("spades"), H: t("hearts"), D: t("diamonds"), C: t("clubs") },
    ranks: { A: t("ace"), K: t("king"), Q: t("queen"), J: t("jack"), T: t("ten") },
  };
  return CARD_WORDS;
}
function suitWord(suit) { return cardWords().suits[suit] || suit; }

function cardLabel(code) {
  const { t } = CARD_I18N;
  const p = cardParts(code);
  if (p.joker) {
    const red = p.joker === "RJ";
    if (!p.nominate) return red ? t("red joker") : t("black joker");
    const suit = suitWord(p.nominate);
    return red ? t("red joker, leading {suit}", { suit }) : t("black joker, leading {suit}", { suit });
  }
  const r = code.slice(0, -1);
  return t("{rank} of {suit}", { rank: cardWords().ranks[r] || r, suit: suitWord(p.suit) });
}

// The index letters as the language's decks print them (German K D B A, French
// R D V A): the catalogue gives them; English keeps K Q J A.
function localRankLetters() {
  const { tc } = CARD_I18N;
  // TRANSLATORS: the letter printed in the corner of the king, queen, jack and ace
  // (German K, D, B, A; French R, D, V, A)
  return { K: tc("card letter", "K"), Q: tc("card letter", "Q"), J: tc("card letter", "J"), A: tc("card letter", "A") };
}

const CARD_ART = (() => {
  const FONT = "Arial, 'Liberation Sans', Helvetica, 'DejaVu Sans', sans-serif";
  // Suit shapes in a 100 × 100 box centred on (50, 50); every subpath runs
  // the same way round, so the club's lobes and stem fill as one shape.
  const SHAPES = {
    H: "M50 97C40 82 2 62 2 32C2 14 15 3 29 3C39 3 46 9 50 19C54 9 61 3 71 3C85 3 98 14 98 32C98 62 60 82 50 97Z",
    D: "M50 1C42 17 30 34 14 50C30 66 42 83 50 99C58 83 70 66 86 50C70 34 58 17 50 1Z",
    S: "M50 2C44 17 3 40 3 63C3 77 13 86 26 86C35 86 42 82 46 76C45 86 41 93 31 98L69 98C59 93 55 86 54 76C58 82 65 86 74 86C87 86 97 77 97 63C97 40 56 17 50 2Z",
    C: "M28 26a22 22 0 1 0 44 0a22 22 0 1 0-44 0ZM3 61a22 22 0 1 0 44 0a22 22 0 1 0-44 0ZM53 61a22 22 0 1 0 44 0a22 22 0 1 0-44 0Z" +
       "M50 38L34 64L66 64ZM47 62C47 80 42 90 31 98L69 98C58 90 53 80 53 62Z",
  };
  const n = v => String(Math.round(v * 100) / 100);
  const esc = s => String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

  function pip(suit, x, y, size, flip = false, extra = "") {
    if (!SHAPES[suit]) return "";
    const turn = flip ? " rotate(180)" : "";
    return `<path d="${SHAPES[suit]}" transform="translate(${n(x)} ${n(y)})${turn} scale(${n(size / 100)}) translate(-50 -50)"${extra}/>`;
  }

  // ----- colours --------------------------------------------------------------------
  function palette() {
    const hc = HIGH_CONTRAST;
    return {
      hc,
      red: hc ? "#b00000" : "#c0262d",
      black: hc ? "#000" : "#1b1b1b",
      edge: hc ? "#000" : "#9b9b9b", edgeW: hc ? 1.8 : 0.8,
      line: hc ? "#000" : "#2b2118", lineW: hc ? 0.7 : 0.45,
      gold: "#e6b02e", goldDark: hc ? "#000" : "#94660f",
      blue: hc ? "#0030a8" : "#2d5fb8",
      skin: "#fbdcc2",
      panel: hc ? "#fff" : "#fffaf0",
    };
  }
  function suitColour(suit, pal) {
    if (FOUR_COLOURS && suit === "C") return pal.hc ? "#005f20" : "#1d7a34";
    if (FOUR_COLOURS && suit === "D") return pal.hc ? "#0033b0" : "#1f5fbf";
    return suit === "H" || suit === "D" ? pal.red : pal.black;
  }

  // ----- the parts of a face ----------------------------------------------------------
  function faceRect(pal) {
    return `<rect class="face" x=".6" y=".6" width="68.8" height="98.8" rx="5.5" fill="#fff" stroke="${pal.edge}" stroke-width="${pal.edgeW}"/>`;
  }

  // The index: rank above suit, in the top-left corner (and turned round in
  // the bottom-right one); it fits the left 25% of the card.
  function index(text, suit, colour, pal) {
    const hc = pal.hc, cx = hc ? 9.1 : 8.7, base = hc ? 18.4 : 16.6, size = hc ? 17.8 : 15.5;
    const fit = text.length > 1 ? ` textLength="${hc ? 15.8 : 14.6}" lengthAdjust="spacingAndGlyphs"` : "";
    const rank = `<text x="${cx}" y="${base}" font-size="${size}"${fit}>${esc(text)}</text>`;
    const mark = pip(suit, cx, base + (hc ? 8 : 7.2), hc ? 11 : 10);
    return `<g class="index" fill="${colour}">${rank}${mark}</g>`;
  }
  function jokerIndex(colour, pal) {
    const hc = pal.hc, size = hc ? 11.4 : 10.4, step = hc ? 10.4 : 9.6, cx = hc ? 8.2 : 7.8, top = hc ? 13.2 : 12.6;
    const letters = [..."JOKER"].map((c, i) => `<text x="${cx}" y="${n(top + i * step)}" font-size="${size}">${c}</text>`).join("");
    return `<g class="index" fill="${colour}">${letters}${star(cx, top + 5 * step - 2.4, hc ? 4.4 : 4)}</g>`;
  }
  function bothCorners(part) {
    return part + `<g transform="rotate(180 35 50)">${part}</g>`;
  }

  function star(cx, cy, r, extra = "") {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const a = Math.PI / 5 * i - Math.PI / 2, rr = i % 2 ? r * 0.42 : r;
      pts.push(n(cx + rr * Math.cos(a)) + "," + n(cy + rr * Math.sin(a)));
    }
    return `<polygon points="${pts.join(" ")}"${extra}/>`;
  }

  // ----- number cards -----------------------------------------------------------------
  const ROW4 = [19, 39.67, 60.33, 81];
  function grid(cols, rows) { return cols.flatMap(x => rows.map(y => [x, y])); }
  const L = 24, C = 35, R = 46, T = 19, M = 50, B = 81;
  const LAYOUTS = {
    2: [[C, T], [C, B]],
    3: [[C, T], [C, M], [C, B]],
    4: grid([L, R], [T, B]),
    5: [...grid([L, R], [T, B]), [C, M]],
    6: grid([L, R], [T, M, B]),
    7: [...grid([L, R], [T, M, B]), [C, 34.5]],
    8: [...grid([L, R], [T, M, B]), [C, 34.5], [C, 65.5]],
    9: [...grid([L, R], ROW4), [C, M]],
    T: [...grid([L, R], ROW4), [C, 29.3], [C, 70.7]],
    11: [...grid([23.5, 46.5], ROW4), ...grid([C], [29.3, M, 70.7])],
    12: grid([23.5, C, 46.5], ROW4),
    13: [...grid([23.5, 46.5], ROW4), ...grid([C], [T, 34.5, M, 65.5, B])],
  };
  const PIP_SIZE = { 9: 10.6, T: 10.6, 11: 10, 12: 10, 13: 10 };
  function pips(rank, suit) {
    const size = PIP_SIZE[rank] || 13;
    return LAYOUTS[rank].map(([x, y]) => pip(suit, x, y, size, y > M)).join("");
  }

  // ----- aces -------------------------------------------------------------------------
  function ace(suit, colour, pal) {
    if (suit !== "S") return `<g fill="${colour}">${pip(suit, 35, 50, 30)}</g>`;
    // the ace of spades: a big spade in a double ring, a white inlay, scrolls
    const s = 40, inner = 27;
    const ring = `<g fill="none" stroke="${colour}"><circle cx="35" cy="50" r="24.5" stroke-width=".9"/><circle cx="35" cy="50" r="22.6" stroke-width=".35"/></g>`;
    const gems = [[35, 25.5], [35, 74.5], [10.5, 50], [59.5, 50]]
      .map(([x, y]) => `<path d="M${x} ${n(y - 2.2)}l1.6 2.2l-1.6 2.2l-1.6-2.2Z"/>`).join("");
    const scrolls = `<path d="M31.5 69.5C27 72.5 21 71.5 20.5 67C20.2 64 23.5 62.8 25 64.6C26 65.8 25 67.4 23.8 67M38.5 69.5C43 72.5 49 71.5 49.5 67C49.8 64 46.5 62.8 45 64.6C44 65.8 45 67.4 46.2 67" fill="none" stroke="${colour}" stroke-width=".8" stroke-linecap="round"/>`;
    const inlay = pip("S", 35, 48.6, inner, false, ` fill="none" stroke="#fff" stroke-width="${n(1 / (inner / 100))}"`);
    const dot = `<circle cx="35" cy="52" r="2.1" fill="${pal.gold}" stroke="#fff" stroke-width=".6"/>`;
    return ring + `<g fill="${colour}">${gems}</g>` + scrolls + pip("S", 35, 48, s) + inlay + dot;
  }

  // ----- court cards: a framed, double-ended figure -------------------------------------
  // Drawn in the top half of the panel (x 16.5–53.5, y 8–50) and repeated
  // turned round; a crown (king), a tiara and a flower (queen), a feathered
  // cap and a halberd (jack).
  function figure(rank, suit, colour, pal) {
    // the blue accents turn red on the four-colour deck's blue diamonds
    const accent = FOUR_COLOURS && suit === "D" ? pal.red : pal.blue;
    const ln = `stroke="${pal.line}" stroke-width="${pal.lineW}"`;
    const gold = `fill="${pal.gold}" stroke="${pal.goldDark}" stroke-width="${pal.lineW}"`;
    const skin = `fill="${pal.skin}" ${ln}`;
    const robe = `<path d="M20.5 50L19.6 44C19.2 39 24 36 29 35L41 35C46 36 50.8 39 50.4 44L49.5 50Z" fill="${colour}" ${ln}/>`;
    const band = (fill) => `<path d="M32.5 35.3L37.5 35.3L37.5 50L32.5 50Z" fill="${fill}" stroke="${pal.goldDark}" stroke-width="${pal.lineW}"/>`;
    const head = `<path d="M35 20.8C38.2 20.8 40.3 23.6 40.3 27.6C40.3 31.5 38 34.6 35 34.6C32 34.6 29.7 31.5 29.7 27.6C29.7 23.6 31.8 20.8 35 20.8Z" ${skin}/>`;
    const eyes = `<g fill="${pal.line}"><circle cx="33" cy="27" r=".62"/><circle cx="37" cy="27" r=".62"/></g>` +
      `<path d="M35 27.6L34.2 29.7L35.3 29.7" fill="none" ${ln}/>`;
    const hand = (x, y) => `<circle cx="${x}" cy="${y}" r="1.9" ${skin}/>`;
    const mark = `<g fill="${colour}">${pip(suit, 47.5, 22, 7.6)}</g>`;
    const parts = [];
    if (rank === "K") {
      const beard = `<path d="M29.8 28.6C29.8 34.6 32.4 37.8 35 38.1C37.6 37.8 40.2 34.6 40.2 28.6C38.6 31.6 37 32.2 35 32.2C33 32.2 31.4 31.6 29.8 28.6Z" fill="#8a5427" ${ln}/>`;
      const tache = `<path d="M31.7 31.2C33 30.1 34.3 30.3 35 30.9C35.7 30.3 37 30.1 38.3 31.2C37 31.9 35.8 31.8 35 31.4C34.2 31.8 33 31.9 31.7 31.2Z" fill="#6e3f1a"/>`;
      const ermine = `<path d="M22.5 40.6C27 35.4 43 35.4 47.5 40.6L46 43.2C42 39.1 28 39.1 24 43.2Z" fill="#fff" ${ln}/>` +
        `<g fill="${pal.line}"><circle cx="27.4" cy="40" r=".6"/><circle cx="32" cy="38.5" r=".6"/><circle cx="38" cy="38.5" r=".6"/><circle cx="42.6" cy="40" r=".6"/></g>`;
      const crown = `<path d="M28.8 22.3L27.7 12.6L31.5 16.9L35 10.4L38.5 16.9L42.3 12.6L41.2 22.3Z" ${gold}/>` +
        `<path d="M28.6 19.6L41.4 19.6L41.2 22.5L28.8 22.5Z" ${gold}/>` +
        `<g ${gold}><circle cx="27.7" cy="12.4" r="1.15"/><circle cx="35" cy="10.2" r="1.25"/><circle cx="42.3" cy="12.4" r="1.15"/></g>` +
        `<circle cx="31.8" cy="21.05" r=".85" fill="${pal.blue}"/><circle cx="35" cy="21.05" r="1" fill="${pal.red}"/><circle cx="38.2" cy="21.05" r=".85" fill="${pal.blue}"/>`;
      const sceptre = `<path d="M22.5 49.5L22.5 17" stroke="${pal.goldDark}" stroke-width="1.9"/><path d="M22.5 49.5L22.5 17" stroke="${pal.gold}" stroke-width="1.1"/>` +
        `<circle cx="22.5" cy="15.3" r="2.3" ${gold}/><path d="M22.5 13V9.6M20.9 11.2H24.1" stroke="${pal.goldDark}" stroke-width="1"/>`;
      parts.push(robe, band(pal.gold), ermine, head, beard, tache, eyes, crown, sceptre, hand(22.5, 42.5));
    } else if (rank === "Q") {
      const hair = "#dca640";
      const back = `<path d="M28.4 25C26.8 32 28 37 25.4 41.6L44.6 41.6C42 37 43.2 32 41.6 25C40.5 19.2 29.5 19.2 28.4 25Z" fill="${hair}" ${ln}/>`;
      const neck = `<path d="M30 35.2C31 39.4 39 39.4 40 35.2Z" ${skin}/>` +
        `<path d="M30.6 36.4C32 39.4 38 39.4 39.4 36.4" fill="none" stroke="${pal.gold}" stroke-width=".9"/><circle cx="35" cy="39" r="1" fill="${accent}"/>`;
      const trim = `<path d="M18.5 45.2C25 42.2 45 42.2 51.5 45.2" fill="none" stroke="${pal.gold}" stroke-width="1.1"/>`;
      const fringe = `<path d="M29.6 25.8C30 22.2 33 21 35 21.6C37 21 40 22.2 40.4 25.8C38.6 23.6 36.6 23.2 35 23.7C33.4 23.2 31.4 23.6 29.6 25.8Z" fill="${hair}" ${ln}/>`;
      const lips = `<path d="M33.9 31.1Q35 32 36.1 31.1" fill="none" stroke="${pal.red}" stroke-width=".8" stroke-linecap="round"/>`;
      const tiara = `<path d="M29.4 22.2C31.4 19.6 33 18 35 14.2C37 18 38.6 19.6 40.6 22.2C37 21.2 33 21.2 29.4 22.2Z" ${gold}/>` +
        `<g fill="#fff" stroke="${pal.goldDark}" stroke-width=".3"><circle cx="31.2" cy="20.1" r=".75"/><circle cx="38.8" cy="20.1" r=".75"/></g>` +
        `<circle cx="35" cy="14" r="1.25" fill="${pal.blue}" ${ln}/><circle cx="35" cy="19.2" r="1.05" fill="${pal.red}"/>`;
      const petals = [0, 72, 144, 216, 288].map(a => {
        const r = a * Math.PI / 180;
        return `<circle cx="${n(22.5 + 2.1 * Math.sin(r))}" cy="${n(18.5 - 2.1 * Math.cos(r))}" r="1.85"/>`;
      }).join("");
      const flower = `<path d="M22.5 49.5C21.4 40 23.6 30 22.5 21" fill="none" stroke="#2e7d32" stroke-width="1"/>` +
        `<path d="M22.3 35C19 33.2 18.3 31 18.8 29.3C21 30.3 22.3 32.4 22.3 35Z" fill="#2e7d32"/>` +
        `<g fill="${pal.hc ? pal.red : "#e0457b"}" ${ln}>${petals}</g><circle cx="22.5" cy="18.5" r="1.3" fill="${pal.gold}"/>`;
      parts.push(back, robe, band(accent), neck, trim, head, fringe, eyes, lips, tiara, flower, hand(22.5, 42.5));
    } else {  // J
      const hair = "#6b3f1d";
      const locks = `<path d="M29.8 25C28.6 29 29 32.2 30.6 33.8C30.6 30 31 27 31.6 25.4ZM40.2 25C41.4 29 41 32.2 39.4 33.8C39.4 30 39 27 38.4 25.4Z" fill="${hair}" ${ln}/>`;
      const collar = `<path d="M22.6 40.4L25.3 37.6L28 40.4L30.7 37.6L33.3 40.4L35 37.6L36.7 40.4L39.3 37.6L42 40.4L44.7 37.6L47.4 40.4" fill="none" stroke="${pal.gold}" stroke-width="1.2" stroke-linejoin="round"/>`;
      const smile = `<path d="M33.6 31.2Q35 32.2 36.4 31.2" fill="none" ${ln}/>`;
      const cap = `<path d="M27.8 23.6C27 17.6 31.5 14.4 36.5 14.7C41.5 15.1 44.6 18.5 42.8 23.6Z" fill="${colour}" ${ln}/>` +
        `<path d="M27.8 21.2L42.9 21.2L42.8 23.6L27.8 23.6Z" ${gold}/>`;
      const feather = `<path d="M39 17.2C42 12 46 9.4 50.6 8.9C48.2 11 45.6 13.6 41.6 18.2Z" fill="${accent}" ${ln}/>` +
        `<path d="M40.4 17.6C43.4 13.6 46.4 11 50.2 9.2" fill="none" stroke="#fff" stroke-width=".35"/>`;
      const steel = `fill="#cdd6e3" ${ln}`;
      const halberd = `<path d="M22.5 49.5L22.5 12.5" stroke="#7a4a22" stroke-width="1.2"/>` +
        `<path d="M22.5 14.6L18 12.6C17 15.6 17 19 18 21.6L22.5 19.6Z" ${steel}/>` +
        `<path d="M22.5 16.2L25.6 17.2L22.5 18.2Z" ${steel}/><path d="M21.8 12.6L22.5 8.8L23.2 12.6Z" ${steel}/>`;
      parts.push(robe, band(accent), collar, head, locks, eyes, smile, cap, feather, halberd, hand(22.5, 42.5));
    }
    return parts.join("") + mark;
  }
  function court(rank, suit, colour, pal) {
    const frame = `<rect x="16.5" y="8" width="37" height="84" rx="1.6" fill="${pal.panel}" stroke="${colour}" stroke-width="${pal.hc ? 1.2 : 0.8}"/>`;
    const half = figure(rank, suit, colour, pal);
    const divider = `<path d="M16.5 50H53.5" stroke="${pal.gold}" stroke-width=".7"/>`;
    return frame + half + `<g transform="rotate(180 35 50)">${half}</g>` + divider;
  }

  // ----- jokers -----------------------------------------------------------------------
  function jester(big, pal) {
    const a = big ? pal.red : pal.black, b = big ? pal.gold : "#fff";
    const ln = `stroke="${pal.line}" stroke-width="${pal.lineW}"`;
    const bell = big ? pal.gold : "#fff";
    return [
      `<path d="M26 46C22 38.5 18 33 15.5 26C21.5 27 28.5 31 33.5 39.5Z" fill="${a}" ${ln}/>`,
      `<path d="M44 46C48 38.5 52 33 54.5 26C48.5 27 41.5 31 36.5 39.5Z" fill="${a}" ${ln}/>`,
      `<path d="M29.6 42C29.8 32.5 32 24.5 35 17.5C38 24.5 40.2 32.5 40.4 42Z" fill="${b}" ${ln}/>`,
      `<g fill="${bell}" stroke="${pal.goldDark}" stroke-width=".6"><circle cx="15.5" cy="26" r="2.6"/><circle cx="35" cy="17.2" r="2.6"/><circle cx="54.5" cy="26" r="2.6"/></g>`,
      `<path d="M23 63L26 68.5L29 63.8L32 69L35 64.2L38 69L41 63.8L44 68.5L47 63C42 60.5 28 60.5 23 63Z" fill="${b}" ${ln}/>`,
      `<path d="M35 44.6C40 44.6 43.6 48.6 43.6 54C43.6 59.4 40 63.2 35 63.2C30 63.2 26.4 59.4 26.4 54C26.4 48.6 30 44.6 35 44.6Z" fill="${pal.skin}" ${ln}/>`,
      `<path d="M25 47.2C30 42.8 40 42.8 45 47.2L45 49.6C40 45.6 30 45.6 25 49.6Z" fill="${big ? pal.gold : pal.black}" ${ln}/>`,
      `<g fill="none" stroke="${pal.line}" stroke-width=".8" stroke-linecap="round"><path d="M30.6 52.6Q32 51.2 33.4 52.6M36.6 52.6Q38 51.2 39.4 52.6"/><path d="M30.4 57Q35 62 39.6 57"/></g>`,
      `<circle cx="35" cy="55.4" r="1.5" fill="${big ? pal.red : pal.black}"/>`,
      pal.hc ? "" : `<g fill="${big ? "#f08a8a" : "#d0d0d0"}" opacity=".7"><circle cx="29.6" cy="56.2" r="1.4"/><circle cx="40.4" cy="56.2" r="1.4"/></g>`,
      `<path d="M24.5 87C24.5 76.5 28.5 69.4 35 68.6L35 87Z" fill="${a}" ${ln}/><path d="M45.5 87C45.5 76.5 41.5 69.4 35 68.6L35 87Z" fill="${b}" ${ln}/>`,
      star(35, 79.2, 5.6, ` fill="${big ? pal.gold : pal.black}" stroke="${big ? pal.goldDark : "#fff"}" stroke-width=".6"`),
    ].join("");
  }

  // ----- whole cards --------------------------------------------------------------------
  function cardMarkup(code) {
    const pal = palette();
    const p = cardParts(code);
    let body;
    if (p.joker) {
      const colour = p.joker === "RJ" ? pal.red : pal.black;
      body = jester(p.joker === "RJ", pal) + bothCorners(jokerIndex(colour, pal));
      if (p.nominate && SHAPES[p.nominate]) {
        const c = suitColour(p.nominate, pal);
        body += `<g class="nominated"><circle cx="57.6" cy="12.6" r="9.2" fill="#fff" stroke="${c}" stroke-width="${pal.hc ? 1.8 : 1.2}"/>` +
          `<g fill="${c}">${pip(p.nominate, 57.6, 12.6, 10.6)}</g></g>`;
      }
    } else {
      const r = code.slice(0, -1) === "10" ? "T" : code.slice(0, -1), colour = suitColour(p.suit, pal);
      let centre;
      if (r === "A") centre = ace(p.suit, colour, pal);
      else if (r === "K" || r === "Q" || r === "J") centre = court(r, p.suit, colour, pal);
      else if (LAYOUTS[r]) centre = `<g fill="${colour}">${pips(r, p.suit)}</g>`;
      else centre = `<text x="35" y="58" font-size="22" fill="${colour}">${esc(p.rank)}</text>`;
      body = centre + bothCorners(index(p.rank, p.suit, colour, pal));
    }
    return svgOpen(code) + faceRect(pal) + body + "</svg>";
  }

  function svgOpen(name) {
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 70 100" aria-hidden="true" focusable="false" ` +
      `class="card-art" data-face="${esc(name)}" font-family="${FONT}" font-weight="700" text-anchor="middle">`;
  }

  // The back: a white border round a deep blue (or red) diamond lattice and a medallion.
  function backMarkup() {
    const pal = palette();
    const ground = pal.hc ? "#001a66" : "#1d3c8f", lines = pal.hc ? "#fff" : "#6f8fe0";
    const x0 = 4.5, y0 = 4.5, x1 = 65.5, y1 = 95.5, w = 6.1, h = 7.6;
    const segs = [];
    const clip = (ax, ay, dx, dy) => {  // the line a + t·d inside the ground, or nothing
      let t0 = -1e9, t1 = 1e9;
      for (const [p, q] of [[-dx, ax - x0], [dx, x1 - ax], [-dy, ay - y0], [dy, y1 - ay]]) {
        if (p === 0) { if (q < 0) return; continue; }
        const t = q / p;
        if (p < 0) t0 = Math.max(t0, t); else t1 = Math.min(t1, t);
      }
      if (t0 < t1) segs.push(`M${n(ax + t0 * dx)} ${n(ay + t0 * dy)}L${n(ax + t1 * dx)} ${n(ay + t1 * dy)}`);
    };
    for (let k = -20; k <= 20; k++) {
      clip(35 + k * w, 50, w, h);
      clip(35 + k * w, 50, w, -h);
    }
    const medallion = `<ellipse cx="35" cy="50" rx="13" ry="16.5" fill="${ground}" stroke="#fff" stroke-width="1.4"/>` +
      `<ellipse cx="35" cy="50" rx="10.6" ry="14" fill="none" stroke="${pal.gold}" stroke-width=".7"/>` +
      `<g fill="#fff">${pip("S", 35, 41.6, 6.8)}${pip("H", 35, 58.4, 6.8)}${pip("C", 28.4, 50, 6.8)}${pip("D", 41.6, 50, 6.8)}</g>` +
      star(35, 50, 2.2, ` fill="${pal.gold}"`);
    return svgOpen("back") +
      `<rect class="face" x=".6" y=".6" width="68.8" height="98.8" rx="5.5" fill="#fff" stroke="${pal.edge}" stroke-width="${pal.edgeW}"/>` +
      `<rect x="${x0}" y="${y0}" width="${x1 - x0}" height="${y1 - y0}" rx="2.5" fill="${ground}"/>` +
      `<path d="${segs.join("")}" stroke="${lines}" stroke-width=".55" fill="none"/>` +
      `<rect x="${x0 + 1.6}" y="${y0 + 1.6}" width="${x1 - x0 - 3.2}" height="${y1 - y0 - 3.2}" rx="1.5" fill="none" stroke="#fff" stroke-width=".6"/>` +
      `<rect x="${x0}" y="${y0}" width="${x1 - x0}" height="${y1 - y0}" rx="2.5" fill="none" stroke="${ground}" stroke-width="1"/>` +
      medallion + "</svg>";
  }

  // ----- the cache ------------------------------------------------------------------------
  const cache = new Map();
  const modeKey = () => (FOUR_COLOURS ? "4" : "2") + (HIGH_CONTRAST ? "h" : "n");
  function element(key, build) {
    let proto = cache.get(key);
    if (!proto) {
      const t = document.createElement("template");
      t.innerHTML = build();
      proto = t.content.firstElementChild;
      cache.set(key, proto);
    }
    return proto.cloneNode(true);
  }
  return {
    cardSVG: code => element(code + "|" + modeKey(), () => cardMarkup(code)),
    cardBackSVG: () => element("back|" + modeKey(), backMarkup),
    cardMarkup, backMarkup,
    clear: () => cache.clear(),
  };
})();

function cardSVG(code) { return CARD_ART.cardSVG(code); }
function cardBackSVG() { return CARD_ART.cardBackSVG(); }
function cardMarkup(code) { return CARD_ART.cardMarkup(code); }
function cardBackMarkup() { return CARD_ART.backMarkup(); }

// Switch the four-colour deck or high contrast on or off (missing keys stay as they are).
function setCardPrefs(prefs) {
  const p = prefs || {};
  if ("four_colours" in p) FOUR_COLOURS = !!p.four_colours;
  if ("high_contrast" in p) HIGH_CONTRAST = !!p.high_contrast;
  CARD_ART.clear();
}

// Replace the letters of the index corners, e.g. {K: "R", Q: "D", J: "V"}.
function setRankLetters(letters) {
  Object.assign(RANK_LETTERS, letters || {});
  CARD_ART.clear();
}

// Every page drawing cards prints the letters of its language.
if (typeof window.tc === "function") setRankLetters(localRankLetters());

// Redraw every card picture under root (after setCardPrefs or setRankLetters).
function refreshCards(root) {
  for (const svg of (root || document).querySelectorAll("svg.card-art[data-face]")) {
    const face = svg.dataset.face;
    svg.replaceWith(face === "back" ? cardBackSVG() : cardSVG(face));
  }
}

// Settings changed in another tab of this browser: follow them.
window.addEventListener("storage", e => {
  if (e.key !== "trumps.prefs") return;
  const p = readCardPrefs();
  if (p.four_colours === FOUR_COLOURS && p.high_contrast === HIGH_CONTRAST) return;
  setCardPrefs(p);
  refreshCards(document);
});

// Six players sit around a hexagon: the engine names their seats 0-5 (clockwise),
// the page by their places, partners opposite (2v2v2: N+S, NE+SW, SE+NW) as a
// player of Trickster sees them.  Four-player seats keep their letters.
const SIX_SEATS = ["N", "NE", "SE", "S", "SW", "NW"];
function seatLabel(seat) { return /^[0-5]$/.test(String(seat)) ? SIX_SEATS[Number(seat)] : seat; }
// A side's name: "NS" with four players, "N+S" (2v2v2) or "N+SE+SW" (3v3) with six.
function teamLabel(team) { return team.some(s => /^[0-5]$/.test(String(s))) ? team.map(seatLabel).join("+") : team.join(""); }
