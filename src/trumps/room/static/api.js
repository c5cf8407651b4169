// The JSON API of the room for the profile and settings pages: GET, or POST a
// JSON body (the server refuses other posts); a refused request throws an
// Error with the server's reason (in the reader's language: tMsg, then
// capitalised, as a sentence) and its status.
"use strict";
async function api(path, body) {
  const res = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  let data = {};
  try { data = await res.json(); } catch (_) { /* not JSON */ }
  if (!res.ok) {
    const msg = data.error ? tMsg(String(data.error)) : String(res.statusText || t("request failed"));
    const err = new Error(msg.charAt(0).toUpperCase() + msg.slice(1));
    err.status = res.status;
    throw err;
  }
  return data;
}
