// The account widget on every page: log in / register / log out, the
// language chooser, the person's own channel (/ws/me) with live invitations
// and friend requests, and the friends panel where a page has an element
// #friends.  Every text goes through t/tn/tc (i18n.js); the server's reasons
// and notices through tMsg.
"use strict";
// The games' names for people, from the server's game list (/api/games, the
// engine's registry): no page names a game itself, so a game the server adds
// needs no page change.  `title` heads a line ("Bridge"), `noun` sits inside a
// sentence ("a bridge table"); both are translated here.  `ready` settles once
// the list is read (before it, a game is named by its key).
window.trumpsGames = (function () {
  const known = {};
  const ready = fetch("/api/games")
    .then(res => (res.ok ? res.json() : []))
    .then(list => { for (const g of list) known[g.game] = g; })
    .catch(() => {});
  return {
    ready,
    keys: () => Object.keys(known),
    title: g => (known[g] && known[g].short_title ? t(known[g].short_title) : g),
    noun: g => (known[g] && known[g].noun ? t(known[g].noun) : g),
  };
})();
(function () {
  const PREFS_KEY = "trumps.prefs";
  const post = async (path, body) => {
    const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error ? tMsg(String(data.error)) : res.statusText);
    return data;
  };
  const mk = (tag, cls, txt) => { const e = document.createElement(tag); if (cls) e.className = cls; if (txt !== undefined) e.textContent = txt; return e; };
  // A translated sentence with elements in it: the {placeholders} left in `text`
  // become the given nodes, the words between them spans of class `cls`.
  const sentence = (text, nodes, cls) => {
    const out = [];
    text.split(/\{([A-Za-z_][A-Za-z0-9_]*)\}/).forEach((part, i) => {
      if (i % 2) out.push(nodes[part] || "{" + part + "}");
      else if (part) out.push(mk("span", cls, part));
    });
    return out;
  };
  // A game inside a sentence ("a bridge table"): invitations and friends' tables carry only its key.
  const gameWord = g => window.trumpsGames.noun(g);
  const account = { me: null, friends: null, listeners: [], note: { text: "", error: false } };
  window.trumpsAccount = account;

  function toast(node, ms) {
    let box = document.getElementById("toasts");
    if (!box) { box = mk("div", "toasts"); box.id = "toasts"; box.setAttribute("aria-live", "polite"); document.body.append(box); }
    const item = mk("div", "toast"); item.append(node); box.append(item);
    if (ms) setTimeout(() => item.remove(), ms);
    return item;
  }

  function dialog(mode) {
    const d = mk("dialog", "account-dialog");
    const f = mk("form"); f.method = "dialog";
    const title = mk("h2", "", mode === "login" ? t("Log in") : t("Create an account"));
    const user = mk("input"); user.name = "username"; user.autocomplete = "username"; user.required = true; user.maxLength = 24;
    const pass = mk("input"); pass.type = "password"; pass.name = "password"; pass.required = true;
    pass.autocomplete = mode === "login" ? "current-password" : "new-password"; pass.minLength = mode === "login" ? 1 : 8;
    const lu = mk("label", "", t("Username")); lu.append(user);
    const lp = mk("label", "", t("Password")); lp.append(pass);
    const err = mk("p", "error"); err.setAttribute("role", "alert");
    const hint = mk("p", "note", mode === "login" ? "" : t("3–24 letters, digits, _ . - · password of 8 characters or more. As a guest, your games and results come with you."));
    const ok = mk("button", "primary", mode === "login" ? t("Log in") : t("Register")); ok.type = "submit"; ok.value = "ok";
    const cancel = mk("button", "", t("Cancel")); cancel.type = "button"; cancel.onclick = () => d.close();
    const other = mk("button", "link", mode === "login" ? t("No account? Register") : t("Have an account? Log in"));
    other.type = "button"; other.onclick = () => { d.close(); dialog(mode === "login" ? "register" : "login"); };
    const row = mk("div", "buttons"); row.append(ok, cancel);
    f.append(title, lu, lp, hint, err, row, other);
    f.addEventListener("submit", async e => {
      e.preventDefault();
      try {
        await post(mode === "login" ? "/api/login" : "/api/register", { username: user.value.trim(), password: pass.value });
        d.close(); location.reload();
      } catch (ex) { err.textContent = ex.message; }
    });
    d.append(f); document.body.append(d); d.addEventListener("close", () => d.remove());
    d.showModal(); user.focus();
  }
  account.dialog = dialog;

  function renderWidget() {
    const box = document.getElementById("account");
    if (!box) return;
    const me = account.me;
    box.replaceChildren();
    const shown = !!document.getElementById("me");  // the page says who you are already
    if (me && me.account) {
      const a = mk("a", "who", shown ? t("Profile") : me.name); a.href = "/player/" + encodeURIComponent(me.name);
      const s = mk("a", "", t("Settings")); s.href = "/settings";
      const out = mk("button", "link", t("Log out"));
      out.onclick = async () => { await post("/api/logout"); location.href = "/"; };
      box.append(a);
      if (!shown) {
        const chips = mk("span", "chips", tn("{n} chip", "{n} chips", me.chips, { n: me.chips }));
        chips.title = t("Play chips (no real money)");
        box.append(chips);
      }
      box.append(s, out);
    } else {
      const s = mk("a", "", t("Settings")); s.href = "/settings";
      const login = mk("button", "link", t("Log in")); login.onclick = () => dialog("login");
      const reg = mk("button", "primary small", t("Register")); reg.onclick = () => dialog("register");
      if (me && me.player && !shown) {
        // a guest's name comes with " (guest)": that word is the reader's language
        const guest = me.name.endsWith(" (guest)") ? me.name.slice(0, -8) : null;
        box.append(mk("span", "who", guest === null ? me.name : t("{name} (guest)", { name: guest })));
      }
      box.append(s, login, reg);
    }
    // the language chooser (i18n.js): each language named in itself
    if (window.I18n && typeof I18n.chooser === "function") box.append(I18n.chooser());
  }

  function friendLink(f) {
    const a = mk("a", "", f.name); a.href = "/player/" + encodeURIComponent(f.name); return a;
  }

  function renderFriends() {
    const box = document.getElementById("friends");
    if (!box) return;
    box.replaceChildren();
    const me = account.me, data = account.friends;
    if (!me || !me.account) {
      const p = mk("p", "note", t("Friends are for accounts: register (free) to add friends, see who is online and invite them."));
      const b = mk("button", "primary small", t("Register")); b.onclick = () => dialog("register");
      box.append(p, b); return;
    }
    const form = mk("form", "add-friend");
    const input = mk("input"); input.placeholder = t("Username"); input.setAttribute("aria-label", t("Username to add as a friend")); input.maxLength = 24;
    const add = mk("button", "", t("Add friend"));
    const err = mk("p", account.note.error ? "error" : "note", account.note.text); err.setAttribute("role", "alert");
    form.append(input, add);
    form.addEventListener("submit", async e => {
      e.preventDefault();
      try {
        const r = await post("/api/friends", { player: input.value.trim(), action: "request" });
        account.note = { text: r.result === "friends" ? t("You are now friends.") : t("Request sent."), error: false };
        update(r);
      } catch (ex) { account.note = { text: ex.message, error: true }; renderFriends(); }
    });
    box.append(form, err);
    if (!data) return;
    for (const inc of data.incoming) {
      const row = mk("div", "friend request");
      row.append(...sentence(t("{name} wants to be your friend"), { name: friendLink(inc) }, "note"));
      for (const [label, action] of [[t("Accept"), "accept"], [t("Decline"), "decline"]]) {
        const b = mk("button", action === "accept" ? "primary small" : "small", label);
        b.onclick = async () => update(await post("/api/friends", { player: inc.name, action }));
        row.append(b);
      }
      box.append(row);
    }
    const list = mk("ul", "friend-list");
    for (const f of data.friends) {
      const li = mk("li", "friend" + (f.online ? " online" : ""));
      const dot = mk("span", "dot"); dot.title = f.online ? t("online") : t("offline");
      li.append(dot, friendLink(f));
      if (f.table) {
        const at = mk("a", "at", " " + t("at a {game} table", { game: gameWord(f.table.game) }));
        at.href = "/table/" + f.table.id; li.append(at);
      } else li.append(mk("span", "note", " " + (f.online ? t("online") : t("offline"))));
      list.append(li);
    }
    if (!data.friends.length) list.append(mk("li", "note", t("No friends yet: add one by username, or from a player's name at a table.")));
    box.append(list);
    if (data.outgoing.length) box.append(mk("p", "note", t("Waiting for: {names}", { names: data.outgoing.map(o => o.name).join(", ") })));
  }

  function showInvitation(inv) {
    if (document.querySelector(`[data-invitation="${inv.id}"]`)) return;
    const node = mk("div", "invitation"); node.dataset.invitation = inv.id;
    node.append(...sentence(t("{name} invites you to a {game} table", { game: gameWord(inv.game) }), { name: mk("strong", "", inv.from) }, ""));
    const row = mk("div", "buttons");
    const yes = mk("button", "primary small", t("Accept")), no = mk("button", "small", t("Decline"));
    let item;
    // accepted: seated at the table (beside the inviter if a seat there is free); a
    // table on another worker is sat at by its page (#sit)
    yes.onclick = async () => { const r = await post("/api/invitations/" + inv.id, { answer: "accept" }); location.href = "/table/" + encodeURIComponent(r.table) + (r.seat ? "" : "#sit"); };
    no.onclick = async () => { await post("/api/invitations/" + inv.id, { answer: "decline" }).catch(() => {}); item.remove(); };
    row.append(yes, no); node.append(row);
    item = toast(node);
  }

  function update(data) {
    const waited = account.friends ? (account.friends.outgoing || []).length : 0;
    account.friends = data;
    // "Request sent." is old news once a request was answered
    if (!account.note.error && (data.outgoing || []).length < waited) account.note = { text: "", error: false };
    renderFriends();
    for (const inv of data.invitations || []) showInvitation(inv);
    for (const f of account.listeners) f(data);
  }
  account.update = update;
  account.onFriends = f => { account.listeners.push(f); if (account.friends) f(account.friends); };

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(proto + "//" + location.host + "/ws/me");
    ws.onmessage = m => {
      const ev = JSON.parse(m.data);
      if (ev.type === "me") update(ev);
      else if (ev.type === "invitation") showInvitation(ev.invitation);
      else if (ev.type === "notice" && ev.kind === "friend_request") toast(mk("span", "", t("{name} sent you a friend request", { name: ev.from })), 6000);
      else if (ev.type === "notice" && ev.kind === "declined" && ev.from) toast(mk("span", "", t("{name} declined your invitation", { name: ev.from })), 6000);
      else if (ev.type === "notice" && ev.text) toast(mk("span", "", tMsg(ev.text)), 6000);  // ("{name} declined your invitation" too, by its template)
      else if (ev.type === "error" && ev.reason === "you were logged out") { toast(mk("span", "", t("You were logged out")), 0); setTimeout(() => location.reload(), 1500); }
    };
    ws.onclose = e => { if (e.code !== 4401 && account.me && account.me.player) setTimeout(connect, 2000); };
  }

  account.prefs = () => { try { return JSON.parse(localStorage.getItem(PREFS_KEY) || "{}"); } catch (e) { return {}; } };

  if (!document.querySelector('link[href="/static/account.css"]')) {
    const l = document.createElement("link"); l.rel = "stylesheet"; l.href = "/static/account.css"; document.head.append(l);
  }

  async function start() {
    try { account.me = await (await fetch("/api/me")).json(); } catch (e) { account.me = null; }
    if (account.me && account.me.prefs) localStorage.setItem(PREFS_KEY, JSON.stringify(account.me.prefs));
    renderWidget(); renderFriends();
    if (account.me && account.me.player) connect();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
