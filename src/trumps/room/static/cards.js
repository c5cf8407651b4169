// SVG playing cards drawn from the card notation: "AS", "TD", "13H", "RJ", "BJ".
"use strict";
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten" };
// the "four-colour deck" personal setting (clubs green, diamonds blue)
const FOUR_COLOURS = (() => { try { return !!JSON.parse(localStorage.getItem("trumps.prefs") || "{}").four_colours; } catch (e) { return false; } })();

function cardParts(code) {
  if (code === "RJ" || code === "BJ") return { rank: "★", suit: "", joker: code };
  const nominated = code.split(":");  // a joker lead "RJ:C"
  if (nominated.length === 2) return { ...cardParts(nominated[0]), nominate: nominated[1] };
  return { rank: code.slice(0, -1).replace("T", "10"), suit: code.slice(-1) };
}

function cardLabel(code) {
  const p = cardParts(code);
  if (p.joker) return (p.joker === "RJ" ? "red joker" : "black joker") + (p.nominate ? ", leading " + SUIT_NAMES[p.nominate] : "");
  const r = code.slice(0, -1);
  return (RANK_NAMES[r] || r) + " of " + SUIT_NAMES[p.suit];
}

function cardSVG(code) {
  const p = cardParts(code);
  const red = p.joker ? p.joker === "RJ" : (p.suit === "H" || p.suit === "D");
  let colour = red ? "#c0262d" : "#1b1b1b";
  if (FOUR_COLOURS && !p.joker && (p.suit === "C" || p.suit === "D")) colour = p.suit === "C" ? "#1d7a34" : "#1f5fbf";
  const sym = p.joker ? "JOKER" : SUITS[p.suit];
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 70 100");
  svg.setAttribute("aria-hidden", "true");
  const parts = [
    `<rect class="face" x="1" y="1" width="68" height="98" rx="6" fill="#fff" stroke="#999"/>`,
    `<text x="6" y="18" font-size="15" font-weight="700" fill="${colour}">${p.rank}</text>`,
    p.joker
      ? `<text x="35" y="60" font-size="11" text-anchor="middle" fill="${colour}">${sym}</text>`
      : `<text x="6" y="33" font-size="14" fill="${colour}">${sym}</text>` +
        `<text x="35" y="70" font-size="34" text-anchor="middle" fill="${colour}">${sym}</text>`,
  ];
  if (p.nominate) parts.push(`<text x="64" y="94" font-size="14" text-anchor="end" fill="#333">→${SUITS[p.nominate]}</text>`);
  svg.innerHTML = parts.join("");
  return svg;
}
