// The hand editor: tap a tile to change, move or delete it; the score follows every edit.
"use strict";
(() => {
  const data = JSON.parse(document.getElementById("editor-data").textContent);
  const W = JSON.parse(document.getElementById("editor-words").textContent);
  const faces = Object.fromEntries(data.faces.map((f) => [f.code, f]));
  const edit = data.edit;
  const zones = document.getElementById("zones");
  const picker = document.getElementById("picker");
  let target = null; // {zone: "concealed"|"meld"|"winning"|"flowers", meld: i, index: i} or {add: ...}
  let timer = null;

  const fmt = (s, o) => s.replace(/\{(\w+)\}/g, (_, k) => o[k]);
  const zoneName = (z, m) => z === "meld" ? fmt(W.meld, {n: m + 1}) : {concealed: W.hand, winning: W.winning, flowers: W.flowers}[z];

  function tileButton(code, where) {
    const f = faces[code] || {code, big: code, small: "", kind: "x", name: code};
    const b = document.createElement("button");
    b.type = "button";
    b.className = "t t-" + f.kind + (where.zone === "winning" ? " win" : "");
    b.innerHTML = "<b></b>" + (f.small ? "<i></i>" : "");
    b.querySelector("b").textContent = f.big;
    if (f.small) b.querySelector("i").textContent = f.small;
    b.dataset.code = code;
    b.setAttribute("aria-label", fmt(W.tile_of, {tile: f.name, zone: zoneName(where.zone, where.meld)}) + " (" + W.change + ")");
    b.addEventListener("click", () => open(where));
    return b;
  }

  function addButton(where, label) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "add";
    b.textContent = label || W.add;
    b.setAttribute("aria-label", (label || W.add) + ": " + zoneName(where.zone, where.meld));
    b.addEventListener("click", () => open({...where, add: true}));
    return b;
  }

  function zone(title, id, codes, where, extra) {
    const s = document.createElement("section");
    s.className = "zone";
    s.id = id;
    const h = document.createElement("h3");
    h.textContent = title;
    const tools = document.createElement("span");
    if (extra) extra.forEach((e) => tools.appendChild(e));
    tools.appendChild(addButton(where));
    h.appendChild(tools);
    s.appendChild(h);
    const row = document.createElement("div");
    row.className = "tiles";
    codes.forEach((c, i) => row.appendChild(tileButton(c, {...where, index: i})));
    if (!codes.length) { const e = document.createElement("span"); e.className = "empty"; e.textContent = W.empty; row.appendChild(e); }
    s.appendChild(row);
    return s;
  }

  function render() {
    zones.innerHTML = "";
    zones.appendChild(zone(W.hand, "zone-hand", edit.concealed, {zone: "concealed"}));
    edit.melds.forEach((m, i) => {
      const kong = document.createElement("label");
      kong.className = "small";
      const cb = document.createElement("input");
      cb.type = "checkbox";
      cb.checked = !!m.concealed;
      cb.addEventListener("change", () => { m.concealed = cb.checked; changed(); });
      kong.append(cb, " " + W.concealed_kong);
      const del = document.createElement("button");
      del.type = "button";
      del.className = "add danger";
      del.textContent = W.delete_meld;
      del.addEventListener("click", () => { edit.concealed.push(...m.tiles); edit.melds.splice(i, 1); changed(); });
      zones.appendChild(zone(fmt(W.meld, {n: i + 1}), "zone-meld-" + i, m.tiles, {zone: "meld", meld: i}, [kong, del]));
    });
    const nm = document.createElement("p");
    const nb = document.createElement("button");
    nb.type = "button";
    nb.id = "new-meld";
    nb.textContent = W.new_meld;
    nb.addEventListener("click", () => { edit.melds.push({tiles: [], concealed: false}); changed(); });
    nm.appendChild(nb);
    zones.appendChild(nm);
    zones.appendChild(zone(W.winning, "zone-winning", edit.winning_tile ? [edit.winning_tile] : [], {zone: "winning"}));
    zones.appendChild(zone(W.flowers, "zone-flowers", edit.flowers, {zone: "flowers"}));
  }

  function list(where) {
    if (where.zone === "concealed") return edit.concealed;
    if (where.zone === "flowers") return edit.flowers;
    if (where.zone === "meld") return edit.melds[where.meld].tiles;
    return null;
  }

  function take(where) { // remove the tile at `where`, return its code
    if (where.zone === "winning") { const c = edit.winning_tile; edit.winning_tile = null; return c; }
    return list(where).splice(where.index, 1)[0];
  }

  function put(code, where) {
    if (where.zone === "winning") {
      if (edit.winning_tile) edit.concealed.push(edit.winning_tile);
      edit.winning_tile = code;
    } else list(where).push(code);
  }

  function open(where) {
    target = where;
    const moves = document.getElementById("moves");
    moves.innerHTML = "";
    document.getElementById("delete-tile").hidden = !!where.add;
    const current = where.add ? null : (where.zone === "winning" ? edit.winning_tile : list(where)[where.index]);
    picker.querySelectorAll(".faces button").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.code === current)));
    if (!where.add) {
      const dests = [{zone: "concealed"}, ...edit.melds.map((_, i) => ({zone: "meld", meld: i})), {zone: "meld", meld: -1},
        {zone: "winning"}, {zone: "flowers"}];
      dests.forEach((d) => {
        if (d.zone === where.zone && d.meld === where.meld) return;
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = W.move_to + ": " + (d.meld === -1 ? W.new_meld : zoneName(d.zone, d.meld));
        b.addEventListener("click", () => {
          const code = take(target);
          if (d.meld === -1) { edit.melds.push({tiles: [code], concealed: false}); } else put(code, d);
          close();
        });
        moves.appendChild(b);
      });
    }
    picker.showModal();
    const first = picker.querySelector('.faces button[aria-pressed="true"]') || picker.querySelector(".faces button");
    first.focus();
  }

  function close() {
    picker.close();
    target = null;
    changed();
  }

  picker.querySelectorAll(".faces button").forEach((b) => b.addEventListener("click", () => {
    if (!target) return;
    if (target.add) put(b.dataset.code, target);
    else if (target.zone === "winning") edit.winning_tile = b.dataset.code;
    else list(target)[target.index] = b.dataset.code;
    close();
  }));
  document.getElementById("delete-tile").addEventListener("click", () => { take(target); close(); });
  picker.addEventListener("close", () => { target = null; });

  const form = document.getElementById("editor");
  const winner = document.getElementById("winner");
  const discarder = document.getElementById("discarder");
  winner.value = String(edit.winner);
  discarder.value = edit.discarder == null ? "" : String(edit.discarder);
  data.flags.forEach((f) => { form.elements[f].checked = !!edit[f]; });
  form.addEventListener("change", (ev) => {
    if (ev.target === winner) edit.winner = Number(winner.value);
    else if (ev.target === discarder) edit.discarder = discarder.value === "" ? null : Number(discarder.value);
    else if (data.flags.includes(ev.target.name)) edit[ev.target.name] = ev.target.checked;
    else return;
    changed();
  });

  function showScore(s) {
    const box = document.getElementById("score");
    box.innerHTML = "";
    if (!s.ok) {
      const p = document.createElement("p");
      p.className = "error";
      p.id = "score-error";
      p.textContent = s.error;
      box.appendChild(p);
      return;
    }
    const t = document.createElement("table");
    s.items.forEach((i) => {
      const tr = t.insertRow();
      tr.insertCell().textContent = i.name;
      const v = tr.insertCell(); v.className = "n"; v.textContent = i.value;
    });
    const tr = t.insertRow();
    const a = document.createElement("th"); a.textContent = W.total; a.scope = "row"; a.style.textAlign = "left"; tr.appendChild(a);
    const b = tr.insertCell(); b.className = "n"; b.id = "score-total";
    b.textContent = s.total + " " + (s.unit === "fan" ? W.fan : W.points);
    box.appendChild(t);
    if (!s.valid) { const p = document.createElement("p"); p.className = "error"; p.textContent = W.below; box.appendChild(p); }
    if (s.left_out.length) {
      const p = document.createElement("p"); p.className = "small"; p.textContent = W.left_out; box.appendChild(p);
      const ul = document.createElement("ul"); ul.className = "small";
      s.left_out.forEach((l) => { const li = document.createElement("li"); li.textContent = l; ul.appendChild(li); });
      box.appendChild(ul);
    }
    const p = document.createElement("p"); p.className = "nets";
    p.setAttribute("aria-label", W.pays);
    s.nets.forEach((n) => {
      const span = document.createElement("span");
      span.textContent = n.player + " ";
      const bb = document.createElement("b"); bb.className = n.net > 0 ? "gain" : n.net < 0 ? "loss" : "";
      bb.textContent = (n.net > 0 ? "+" : "") + n.net; span.appendChild(bb); p.appendChild(span);
    });
    box.appendChild(p);
  }

  async function rescore() {
    const s = await TM.post("/api/score", {edit});
    showScore(s);
  }

  function changed() {
    render();
    clearTimeout(timer);
    timer = setTimeout(rescore, 120);
  }

  document.getElementById("confirm").addEventListener("click", async () => {
    const res = await TM.post("/api/confirm", {edit});
    if (res.ok) { TM.say(W.confirmed, true); setTimeout(() => { location.href = "/scores"; }, 600); }
  });

  render();
  showScore(data.preview);
})();
