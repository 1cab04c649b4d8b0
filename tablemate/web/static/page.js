// tablemate: what every page shares. Changes go out as JSON with the session's CSRF token;
// a refusal is shown in the page's alert region, in the page's language (the server says it).
"use strict";
const TM = (() => {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const message = () => document.getElementById("message");

  function say(text, ok) {
    const m = message();
    m.className = ok ? "ok" : "";
    m.textContent = text || "";
    if (text && !ok) m.focus();
  }

  function needPin(state) {
    const form = document.getElementById("pin-form");
    const label = document.getElementById("pin-state");
    form.hidden = !state;
    if (state) { label.classList.remove("ok"); document.getElementById("pin").focus(); }
  }

  async function post(url, body) {
    let res;
    try {
      res = await fetch(url, {method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf}, body: JSON.stringify(body || {})});
    } catch (e) {
      say(message().dataset.offline);
      return {ok: false};
    }
    let data = {ok: false, error: res.statusText};
    try { data = await res.json(); } catch (e) { /* not JSON */ }
    if (data.need_pin) needPin(true);
    if (!data.ok && data.error && url !== "/api/score") say(data.error);
    return data;
  }

  // Live parts of a page follow the table through server-sent events (a fragment each time it changes).
  function stream() {
    const el = document.querySelector("[data-stream]");
    if (!el || !window.EventSource) return;
    const es = new EventSource("/events?view=" + el.dataset.stream + "&lang=" + document.documentElement.lang);
    es.addEventListener("update", (e) => {
      if (el.contains(document.activeElement) && document.activeElement !== document.body) {
        const id = document.activeElement.id;
        el.innerHTML = e.data;
        if (id && document.getElementById(id)) document.getElementById(id).focus();
      } else {
        el.innerHTML = e.data;
      }
      el.dataset.version = e.lastEventId;
      document.dispatchEvent(new CustomEvent("tm:update", {detail: el}));
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const form = document.getElementById("pin-form");
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      say("", true);
      const input = document.getElementById("pin");
      const data = await post("/api/pin", {pin: input.value});
      input.value = "";
      if (data.ok) {
        needPin(false);
        const label = document.getElementById("pin-state");
        label.classList.add("ok");
        label.textContent = label.dataset.ok;
        say("", true);
      }
    });
    document.addEventListener("click", async (ev) => {
      const b = ev.target.closest("[data-action]");
      if (!b) return;
      const data = await post("/api/" + b.dataset.action, {});
      if (data.ok) say("", true);
    });
    stream();
  });
  return {post, say, needPin};
})();
