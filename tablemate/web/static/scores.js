// Score sheet: the penalty form. It goes out as JSON with the session's CSRF token, like every change
// (page.js); the sheet above follows the ledger by itself (server-sent events), so only a word is said here.
"use strict";
(() => {
  const W = JSON.parse(document.getElementById("scores-words").textContent);
  const form = document.getElementById("penalty-form");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const kind = form.kind.value;
    const body = {player: form.player.value, kind};
    if (kind === "false_mahjong") body.reason = form.reason.value;
    else body.detail = form.detail.value.trim();
    TM.say("", true);
    const res = await TM.post("/api/penalty", body);
    if (res.ok) {
      form.detail.value = "";
      TM.say(W.recorded, true);
    }
  });
})();
