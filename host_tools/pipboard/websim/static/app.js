// Pipboard simulator page: draws /layout once, /state every 150 ms; clicks go to POST /action.
"use strict";
const SVG = "http://www.w3.org/2000/svg";
const board = document.getElementById("board");
let layout = null, state = null, busy = false, dragFrom = null;

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
const rgb = (c) => `rgb(${c[0]},${c[1]},${c[2]})`;
const lit = (c) => c[0] + c[1] + c[2] > 0;
// LEDs are dim numbers (0..255 per channel, PWM); scale them up so a screen shows what an eye sees.
const glow = (c) => { const m = Math.max(c[0], c[1], c[2]) || 1, k = 255 / m;
  return `rgb(${Math.round(c[0]*k)},${Math.round(c[1]*k)},${Math.round(c[2]*k)})`; };

async function post(action) {
  busy = true;
  try {
    const r = await fetch("/action", { method: "POST", headers: { "Content-Type": "application/json" },
                                        body: JSON.stringify(action) });
    const body = await r.json();
    document.getElementById("error").textContent = r.ok ? "" : body.error;
    if (r.ok) { state = body; draw(); }
  } finally { busy = false; }
}

function drawStatic() {
  board.setAttribute("viewBox", `0 0 ${layout.width} ${layout.height}`);
  el("rect", { x: 0, y: 0, width: layout.width, height: layout.height, rx: 10, fill: "#6b4423" }, board);
  const b = layout.border, hw = layout.half_w, bw = layout.bar_w, p = layout.pitch;
  el("rect", { x: b, y: b, width: hw, height: layout.height - 2 * b, fill: "#2f5d3a" }, board);
  el("rect", { x: b + hw + bw, y: b, width: hw, height: layout.height - 2 * b, fill: "#2f5d3a" }, board);
  for (const L of layout.locations) {
    if (L.kind !== "point") continue;
    const s0 = L.slots[0], s5 = L.slots[5], dir = Math.sign(s5[1] - s0[1]);
    const base = s0[1] - dir * p / 2, tip = s5[1] + dir * p / 2;
    const fill = (L.loc % 2) ? "#c9a66b" : "#8e2b20";
    el("polygon", { points: `${s0[0] - p/2},${base} ${s0[0] + p/2},${base} ${s0[0]},${tip}`, fill }, board);
    el("text", { x: s0[0], y: base + (dir > 0 ? -2 : 9), "font-size": 8, fill: "#ddd", "text-anchor": "middle" },
       board).textContent = L.loc + 1;
  }
  // panel pixels, then checkers, then the lit pixels: a pixel under a checker tints it, as on the board
  el("g", { id: "panel" }, board);
  el("g", { id: "checkers" }, board);
  el("g", { id: "leds" }, board);
  const hits = el("g", { id: "hits" }, board);
  for (const L of layout.locations) {
    const g = el("g", { class: "loc", "data-loc": L.loc, "data-name": L.name }, hits);
    const xs = L.slots.map((s) => s[0]), ys = L.slots.map((s) => s[1]);
    el("rect", { class: "hit", x: Math.min(...xs) - p/2, y: Math.min(...ys) - p/2, width: p,
                 height: Math.max(...ys) - Math.min(...ys) + p }, g);
    g.addEventListener("pointerdown", (ev) => { ev.preventDefault(); pointerDown(L.loc); });
    g.addEventListener("pointerup", (ev) => { ev.preventDefault(); pointerUp(L.loc); });
  }
  const bt = document.getElementById("buttons");
  for (const name of layout.buttons) {
    const btn = document.createElement("button");
    btn.textContent = name; btn.id = "btn-" + name;
    btn.onclick = () => post({ do: "press", button: name });
    bt.appendChild(btn);
  }
  // each side's own buttons: they act only for that side (the board refuses the other side's out of turn)
  for (const [player, side] of [[0, "white"], [1, "black"]]) {
    const row = document.createElement("div");
    row.className = "side-buttons"; row.textContent = side + ": ";
    for (const name of ["ROLL", "DONE", "DOUBLE", "TAKE", "DROP"]) {
      const btn = document.createElement("button");
      btn.textContent = name; btn.id = "btn-" + side + "-" + name;
      btn.onclick = () => post({ do: "press", button: name, player });
      row.appendChild(btn);
    }
    bt.appendChild(row);
  }
  const setup = document.createElement("button");
  setup.textContent = "set up as the LEDs ask"; setup.id = "btn-setup";
  setup.onclick = () => post({ do: "setup" });
  bt.appendChild(setup);
  const box = document.getElementById("box");
  for (const [colour, name] of [[0, "white"], [1, "black"]]) {
    const btn = document.createElement("button");
    btn.id = "box-" + name;
    btn.onclick = () => post({ do: "box", colour });
    box.appendChild(btn);
  }
}

function pointerDown(loc) {
  if (busy || !state) return;
  if (state.hand.length) { dragFrom = null; post({ do: "place", loc }); }
  else if (state.stacks[loc].length) { dragFrom = loc; post({ do: "lift", loc }); }
}
function pointerUp(loc) {
  if (dragFrom !== null && loc !== dragFrom) { dragFrom = null; post({ do: "place", loc }); }
  else dragFrom = null;
}
document.addEventListener("pointerup", () => { dragFrom = null; });

function draw() {
  if (!layout || !state) return;
  const p = layout.pitch;
  const leds = document.getElementById("leds");
  leds.textContent = "";
  state.leds.forEach((c, i) => {
    if (!lit(c)) return;
    for (const [x, y, r] of layout.pixels[i])
      el("circle", { cx: x, cy: y, r, fill: glow(c), "fill-opacity": 0.55, stroke: glow(c), "stroke-width": 2.5,
                     class: "led", "data-pixel": i, "data-rgb": c.join(","), "pointer-events": "none" }, leds);
  });
  const ch = document.getElementById("checkers");
  ch.textContent = "";
  layout.locations.forEach((L) => {
    const stack = state.stacks[L.loc];
    const tray = L.kind === "tray";
    stack.forEach((colour, i) => {
      let x, y;
      if (tray) { const s0 = L.slots[0], s5 = L.slots[5], dy = (s5[1] - s0[1]) / 5 * 6 / 15;
                  x = s0[0]; y = s0[1] - (s5[1] - s0[1]) / 10 + dy * i;
                  el("rect", { x: x - p * 0.42, y: y - dy * 0.4 / Math.sign(dy) * Math.sign(dy), width: p * 0.84,
                               height: Math.abs(dy) * 0.8, rx: 2, fill: colour ? "#222" : "#eee8d8",
                               stroke: "#777", "stroke-width": 0.5, class: "checker c" + colour }, ch);
                  return; }
      const s = L.slots[Math.min(i, 5)];
      x = s[0]; y = s[1];
      el("circle", { cx: x, cy: y, r: p * 0.44, fill: colour ? "#222" : "#eee8d8", stroke: colour ? "#999" : "#555",
                     "stroke-width": 1, class: "checker c" + colour }, ch);
    });
    if (!tray && stack.length > 6) {
      const s = L.slots[5];
      el("text", { x: s[0], y: s[1] + 4, "font-size": 11, "text-anchor": "middle",
                   fill: stack[stack.length - 1] ? "#fff" : "#000" }, ch).textContent = stack.length;
    }
  });
  const panel = document.getElementById("panel");
  panel.textContent = "";
  layout.panel.forEach(([x, y], i) => {
    const c = state.panel ? state.panel[i] : [0, 0, 0];
    el("circle", { cx: x, cy: y, r: 2.6, fill: lit(c) ? glow(c) : "#3a2a18", class: "panel-led",
                   "data-index": i, "data-on": lit(c) ? 1 : 0 }, panel);
  });
  document.getElementById("phase").textContent = "phase: " + state.phase + (state.dice ?
      `   dice ${state.dice[0]}-${state.dice[1]}` : "") + `   cube ${state.cube}`;
  document.getElementById("status").textContent = state.message || "";
  document.getElementById("pid").textContent = state.position_id;
  document.getElementById("mid").textContent = state.match_id || "-";
  document.getElementById("score").textContent = state.score.join(" - ");
  document.getElementById("record").textContent = state.record.join("\n");
  document.getElementById("hand").textContent = state.hand.length ?
      "In hand: " + state.hand.map((c) => c ? "black" : "white").join(", ") : "Hand empty";
  document.getElementById("box-white").textContent = state.hand.length ? "put in box" : `take white from box (${state.box[0]})`;
  document.getElementById("box-black").textContent = state.hand.length ? "put in box" : `take black from box (${state.box[1]})`;
  board.dataset.phase = state.phase;
}

async function refresh() {
  if (!busy) {
    try {
      const r = await fetch("/state");
      state = await r.json();
      draw();
      document.body.dataset.ready = "1";
    } catch (e) { document.getElementById("status").textContent = "simulator not reachable"; }
  }
  setTimeout(refresh, 150);
}

(async () => {
  layout = await (await fetch("/layout")).json();
  drawStatic();
  refresh();
})();
