// The account widget on every page: log in / register / log out, the
// person's own channel (/ws/me) with live invitations and friend requests,
// and the friends panel where a page has an element #friends.
"use strict";
(function () {
  const PREFS_KEY = "trumps.prefs";
  const post = async (path, body) => {
    const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || res.statusText);
    return data;
  };
  const mk = (tag, cls, txt) => { const e = document.createElement(tag); if (cls) e.className = cls; if (txt !== undefined) e.textContent = txt; return e; };
  const account = { me: null, friends: null, listeners: [], note: { text: "", error: false } };
  window.trumpsAccount = account;

  function toast(node, ms) {
    let box = document.getElementById("toasts");
    if (!box) { box = mk("div", "toasts"); box.id = "toasts"; box.setAttribute("aria-live", "polite"); document.body.append(box); }
    const t = mk("div", "toast"); t.append(node); box.append(t);
    if (ms) setTimeout(() => t.remove(), ms);
    return t;
  }

  function dialog(mode) {
    const d = mk("dialog", "account-dialog");
    const f = mk("form"); f.method = "dialog";
    const title = mk("h2", "", mode === "login" ? "Log in" : "Create an account");
    const user = mk("input"); user.name = "username"; user.autocomplete = "username"; user.required = true; user.maxLength = 24;
    const pass = mk("input"); pass.type = "password"; pass.name = "password"; pass.required = true;
    pass.autocomplete = mode === "login" ? "current-password" : "new-password"; pass.minLength = mode === "login" ? 1 : 8;
    const lu = mk("label", "", "Username"); lu.append(user);
    const lp = mk("label", "", "Password"); lp.append(pass);
    const err = mk("p", "error"); err.setAttribute("role", "alert");
    const hint = mk("p", "note", mode === "login" ? "" : "3–24 letters, digits, _ . - · password of 8 characters or more. As a guest, your games and results come with you.");
    const ok = mk("button", "primary", mode === "login" ? "Log in" : "Register"); ok.type = "submit"; ok.value = "ok";
    const cancel = mk("button", "", "Cancel"); cancel.type = "button"; cancel.onclick = () => d.close();
    const other = mk("button", "link", mode === "login" ? "No account? Register" : "Have an account? Log in");
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
      const a = mk("a", "who", shown ? "Profile" : me.name); a.href = "/player/" + encodeURIComponent(me.name);
      const s = mk("a", "", "Settings"); s.href = "/settings";
      const out = mk("button", "link", "Log out");
      out.onclick = async () => { await post("/api/logout"); location.href = "/"; };
      box.append(a);
      if (!shown) { const chips = mk("span", "chips", me.chips + " chips"); chips.title = "Play chips (no real money)"; box.append(chips); }
      box.append(s, out);
    } else {
      const s = mk("a", "", "Settings"); s.href = "/settings";
      const login = mk("button", "link", "Log in"); login.onclick = () => dialog("login");
      const reg = mk("button", "primary small", "Register"); reg.onclick = () => dialog("register");
      if (me && me.player && !shown) box.append(mk("span", "who", me.name));
      box.append(s, login, reg);
    }
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
      const p = mk("p", "note", "Friends are for accounts: register (free) to add friends, see who is online and invite them.");
      const b = mk("button", "primary small", "Register"); b.onclick = () => dialog("register");
      box.append(p, b); return;
    }
    const form = mk("form", "add-friend");
    const input = mk("input"); input.placeholder = "Username"; input.setAttribute("aria-label", "Username to add as a friend"); input.maxLength = 24;
    const add = mk("button", "", "Add friend");
    const err = mk("p", account.note.error ? "error" : "note", account.note.text); err.setAttribute("role", "alert");
    form.append(input, add);
    form.addEventListener("submit", async e => {
      e.preventDefault();
      try {
        const r = await post("/api/friends", { player: input.value.trim(), action: "request" });
        account.note = { text: r.result === "friends" ? "You are now friends." : "Request sent.", error: false };
        update(r);
      } catch (ex) { account.note = { text: ex.message, error: true }; renderFriends(); }
    });
    box.append(form, err);
    if (!data) return;
    for (const inc of data.incoming) {
      const row = mk("div", "friend request");
      row.append(friendLink(inc), mk("span", "note", " wants to be your friend "));
      for (const [label, action] of [["Accept", "accept"], ["Decline", "decline"]]) {
        const b = mk("button", action === "accept" ? "primary small" : "small", label);
        b.onclick = async () => update(await post("/api/friends", { player: inc.name, action }));
        row.append(b);
      }
      box.append(row);
    }
    const list = mk("ul", "friend-list");
    for (const f of data.friends) {
      const li = mk("li", "friend" + (f.online ? " online" : ""));
      const dot = mk("span", "dot"); dot.title = f.online ? "online" : "offline";
      li.append(dot, friendLink(f));
      if (f.table) { const t = mk("a", "at", " at a " + f.table.game + " table"); t.href = "/table/" + f.table.id; li.append(t); }
      else li.append(mk("span", "note", f.online ? " online" : " offline"));
      list.append(li);
    }
    if (!data.friends.length) list.append(mk("li", "note", "No friends yet: add one by username, or from a player's name at a table."));
    box.append(list);
    if (data.outgoing.length) box.append(mk("p", "note", "Waiting for: " + data.outgoing.map(o => o.name).join(", ")));
  }

  function showInvitation(inv) {
    if (document.querySelector(`[data-invitation="${inv.id}"]`)) return;
    const node = mk("div", "invitation"); node.dataset.invitation = inv.id;
    node.append(mk("strong", "", inv.from), mk("span", "", ` invites you to a ${inv.game} table`));
    const row = mk("div", "buttons");
    const yes = mk("button", "primary small", "Accept"), no = mk("button", "small", "Decline");
    let t;
    yes.onclick = async () => { const r = await post("/api/invitations/" + inv.id, { answer: "accept" }); location.href = "/table/" + r.table; };
    no.onclick = async () => { await post("/api/invitations/" + inv.id, { answer: "decline" }).catch(() => {}); t.remove(); };
    row.append(yes, no); node.append(row);
    t = toast(node);
  }

  function update(data) {
    account.friends = data;
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
      else if (ev.type === "notice" && ev.kind === "friend_request") toast(mk("span", "", ev.from + " sent you a friend request"), 6000);
      else if (ev.type === "notice" && ev.text) toast(mk("span", "", ev.text), 6000);
      else if (ev.type === "error" && ev.reason === "you were logged out") { toast(mk("span", "", "You were logged out"), 0); setTimeout(() => location.reload(), 1500); }
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
