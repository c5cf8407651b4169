// The bidding box: a grid of every call the game can ever make, laid out as
// the game's own presentation says (levels by denominations, Pass / X / XX,
// 500's misère popup and inkle row).  Calls that are not legal now are
// disabled, never hidden, so the grid never jumps.  Nothing here knows a
// game: the layout, labels and spelled-out names come from the engine, in
// English, and are translated here where they are shown (a label like "7♥"
// has no words and stays as it is).
"use strict";
const Bidbox = (() => {
  let pres = null;
  let popupOpen = false;
  // called after the box redraws itself (the misère popup opened or closed), so
  // the page can mark again what it marks on the box's buttons (the suggestion)
  let redrawn = () => {};

  function setPresentation(p) { pres = p; }
  function onRedraw(f) { redrawn = f; }
  // a call's label and spelled-out name, translated; a call the presentation does not
  // know (a bridge claim) gets its notation, the words of which are translated too
  function label(call) { const s = pres && pres.labels && pres.labels[call]; return s ? t(s) : claimText(call) || prettyCall(call); }
  function name(call) { const s = pres && pres.names && pres.names[call]; return s ? t(s) : claimText(call) || call; }
  // a variant's word ("kitty" / "widow", "declarer" / "contractor"), translated; the
  // fallback is given translated by the caller
  function term(key, fallback) { const s = pres && pres.terms && pres.terms[key]; return s ? t(s) : fallback; }
  function claimText(call) {
    const m = /^CLAIM(\d+)$/.exec(call);
    // TRANSLATORS: buttons of the bridge claim procedure, shown as the notation of the action
    // (CLAIM7: claim 7 of the remaining tricks; ACCEPT / REJECT a claim)
    if (m) return tc("bridge claim", "CLAIM{n}", { n: m[1] });
    if (call === "ACCEPT") return tc("bridge claim", "ACCEPT");
    if (call === "REJECT") return tc("bridge claim", "REJECT");
    return null;
  }

  // every call the grid shows
  function calls() {
    const box = pres && pres.box;
    if (!box) return [];
    const out = [];
    for (const r of box.rows) for (const c of r.calls) if (c) out.push(c);
    for (const s of box.side) out.push(s.call);
    if (box.popup) out.push(...box.popup.calls);
    if (box.inkles) out.push(...box.inkles.calls);
    return out;
  }
  function has(call) { return calls().includes(call); }

  function suitClass(call) {
    const m = /(S|H|D|C|NT|AT)(X{0,2})$/.exec(call.replace(/^[A-Z]+-/, ""));
    return m ? " s-" + m[1] : "";
  }

  function button(call, legal, text, cls, act) {
    const b = el("button", "call" + (cls || "") + suitClass(call), text);
    b.type = "button";
    b.dataset.call = call;
    b.setAttribute("aria-label", name(call));
    b.disabled = !legal.has(call);
    b.onclick = () => act(call);
    return b;
  }

  function cell(child) { const d = el("div", "cell"); d.setAttribute("role", "gridcell"); if (child) d.append(child); return d; }
  function row(cls) { const r = el("div", "brow" + (cls ? " " + cls : "")); r.setAttribute("role", "row"); return r; }

  // Draw the box for the legal calls; `act(call)` sends one.
  function render(legalList, act) {
    const grid = $("bidbox");
    grid.replaceChildren();
    const box = pres && pres.box;
    if (!box) return;
    const legal = new Set(legalList);
    const n = box.columns.length;
    grid.style.setProperty("--cols", n);
    const head = row("head");
    const corner = el("div", "rh"); corner.setAttribute("role", "columnheader"); head.append(corner);
    head.append(...box.columns.map(c => {
      const h = el("div", "ch" + suitClass(c.key), t(c.label)); h.setAttribute("role", "columnheader"); h.setAttribute("aria-label", t(c.name)); return h;
    }));
    grid.append(head);
    for (const r of box.rows) {
      const line = row(r.calls.every(c => !c || !legal.has(c)) ? "spent" : "");
      const rh = el("div", "rh", t(String(r.label))); rh.setAttribute("role", "rowheader"); line.append(rh);
      r.calls.forEach((c, i) => line.append(cell(c ? button(c, legal, t(box.columns[i].label), "", act) : null)));
      grid.append(line);
    }
    if (box.inkles) {
      const line = row("inkles");
      const rh = el("div", "rh", t(box.inkles.label)); rh.setAttribute("role", "rowheader"); line.append(rh);
      box.inkles.calls.forEach((c, i) => line.append(cell(button(c, legal, "6" + t(box.columns[i].label), " inkle", act))));
      grid.append(line);
    }
    const side = row("bside");
    side.style.setProperty("--n", box.side.length + (box.popup ? 1 : 0));
    for (const s of box.side) side.append(cell(button(s.call, legal, t(s.label), " " + s.kind, act)));
    if (box.popup) {
      const p = box.popup;
      const any = p.calls.some(c => legal.has(c));
      const open = el("button", "call misere", t(p.label) + " ▾");
      open.type = "button";
      open.setAttribute("aria-label", t(p.name));
      open.setAttribute("aria-haspopup", "true");
      open.setAttribute("aria-expanded", String(popupOpen && any));
      open.disabled = !any;
      open.dataset.popup = "1";
      const menu = el("div", "misere-menu");
      menu.hidden = !(popupOpen && any);
      for (const c of p.calls) menu.append(button(c, legal, label(c), " misere-choice", call => { popupOpen = false; act(call); }));
      open.onclick = () => { popupOpen = !popupOpen; render(legalList, act); redrawn(); const first = $("bidbox").querySelector(".misere-menu button:not([disabled])"); if (popupOpen && first) first.focus(); };
      const c = cell(open); c.classList.add("popup-cell"); c.append(menu);
      side.append(c);
    }
    grid.append(side);
  }

  function close() { popupOpen = false; }

  return { setPresentation, onRedraw, render, label, name, term, has, close, calls };
})();
