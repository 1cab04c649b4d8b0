// Settings: new match, display language, calibration by tapping the four corners, enrollment.
"use strict";
(() => {
  const W = JSON.parse(document.getElementById("settings-words").textContent);
  const fmt = (s, o) => s.replace(/\{(\w+)\}/g, (_, k) => o[k]);

  document.getElementById("match-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = ev.target;
    const players = [...f.querySelectorAll('input[name="player"]')].map((i) => i.value);
    const res = await TM.post("/api/match", {rules: f.rules.value, players, options: f.options.value});
    if (res.ok) TM.say(W.started, true);
  });

  document.getElementById("language-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const res = await TM.post("/api/language", {lang: ev.target.lang.value});
    if (res.ok) TM.say(W.saved, true);
  });

  document.querySelectorAll("[data-enroll]").forEach((b) => b.addEventListener("click", async () => {
    const res = await TM.post("/api/enroll", {do: b.dataset.enroll});
    if (res.ok) location.reload();
  }));

  const svg = document.getElementById("cal-frame");
  if (!svg) return;
  const w = Number(svg.dataset.width), h = Number(svg.dataset.height);
  let corners = [];
  const poly = document.getElementById("cal-poly");
  const count = document.getElementById("cal-count");
  const save = document.getElementById("cal-save");
  const typed = [...document.querySelectorAll("#cal-typed input")];

  function draw() {
    svg.querySelectorAll(".cal-dot").forEach((d) => d.remove());
    corners.forEach(([x, y]) => {
      const c = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", Math.max(w, h) / 90);
      c.setAttribute("class", "cal-dot");
      svg.appendChild(c);
    });
    poly.setAttribute("points", corners.map((p) => p.join(",")).join(" "));
    count.textContent = fmt(W.corners, {n: corners.length});
    save.disabled = corners.length !== 4;
    typed.forEach((i) => { // the typed corners follow the tapped ones
      const c = corners[Number(i.dataset.corner)];
      if (document.activeElement !== i) i.value = c ? c[Number(i.dataset.axis)] : "";
    });
  }

  // Without a pointer: the corners typed in, in the same order; a corner counts once both numbers are in.
  typed.forEach((i) => i.addEventListener("input", () => {
    const out = [];
    for (let k = 0; k < 4; k++) {
      const [x, y] = [0, 1].map((a) => typed.find((t) => Number(t.dataset.corner) === k && Number(t.dataset.axis) === a));
      if (x.value === "" || y.value === "") break;
      out.push([Math.min(Math.max(Math.round(Number(x.value)), 0), w), Math.min(Math.max(Math.round(Number(y.value)), 0), h)]);
    }
    corners = out;
    draw();
  }));

  svg.addEventListener("click", (ev) => {
    if (corners.length >= 4) return;
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    corners.push([Math.round(Math.min(Math.max(p.x, 0), w)), Math.round(Math.min(Math.max(p.y, 0), h))]);
    draw();
  });
  document.getElementById("cal-reset").addEventListener("click", () => { corners = []; draw(); });
  save.addEventListener("click", async () => {
    const res = await TM.post("/api/calibrate", {corners, image_size: [w, h]});
    if (res.ok) TM.say(W.saved, true);
  });
})();
