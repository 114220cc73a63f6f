// The board drawing shared by the simulator page (app.js) and the room pages (room.js): points, checkers,
// the LEDs as the hardware lights them, and the control panel's pixels (dice display, cube, turn).
"use strict";
const PipBoard = (() => {
  const SVG = "http://www.w3.org/2000/svg";
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

  // The static board (frame, points, numbers) and the layers state() fills: panel, checkers, leds.
  function drawStatic(svg, layout) {
    svg.setAttribute("viewBox", `0 0 ${layout.width} ${layout.height}`);
    el("rect", { x: 0, y: 0, width: layout.width, height: layout.height, rx: 10, fill: "#6b4423" }, svg);
    const b = layout.border, hw = layout.half_w, bw = layout.bar_w, p = layout.pitch;
    el("rect", { x: b, y: b, width: hw, height: layout.height - 2 * b, fill: "#2f5d3a" }, svg);
    el("rect", { x: b + hw + bw, y: b, width: hw, height: layout.height - 2 * b, fill: "#2f5d3a" }, svg);
    for (const L of layout.locations) {
      if (L.kind !== "point") continue;
      const s0 = L.slots[0], s5 = L.slots[5], dir = Math.sign(s5[1] - s0[1]);
      const base = s0[1] - dir * p / 2, tip = s5[1] + dir * p / 2;
      const fill = (L.loc % 2) ? "#c9a66b" : "#8e2b20";
      el("polygon", { points: `${s0[0] - p/2},${base} ${s0[0] + p/2},${base} ${s0[0]},${tip}`, fill }, svg);
      el("text", { x: s0[0], y: base + (dir > 0 ? -2 : 9), "font-size": 8, fill: "#ddd", "text-anchor": "middle" },
         svg).textContent = L.loc + 1;
    }
    // the panel's printed labels (dice, moves left, cube value and owner, whose turn)
    const labels = el("g", { class: "panel-labels" }, svg);
    for (const [x, y, text, size, anchor] of layout.panel_labels || [])
      el("text", { x, y, "font-size": size, fill: "#d8c8a8", "text-anchor": anchor }, labels).textContent = text;
    // panel pixels, then checkers, then the lit pixels: a pixel under a checker tints it, as on the board
    el("g", { class: "panel" }, svg);
    el("g", { class: "checkers" }, svg);
    el("g", { class: "leds" }, svg);
  }

  // state: stacks (colours per location), leds (optional, one [r,g,b] per pixel), panel (optional).
  function drawState(svg, layout, state) {
    const p = layout.pitch;
    const leds = svg.querySelector("g.leds");
    leds.textContent = "";
    (state.leds || []).forEach((c, i) => {
      if (!lit(c)) return;
      for (const [x, y, r] of layout.pixels[i])
        el("circle", { cx: x, cy: y, r, fill: glow(c), "fill-opacity": 0.55, stroke: glow(c), "stroke-width": 2.5,
                       class: "led", "data-pixel": i, "data-rgb": c.join(","), "pointer-events": "none" }, leds);
    });
    const ch = svg.querySelector("g.checkers");
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
    const panel = svg.querySelector("g.panel");
    panel.textContent = "";
    layout.panel.forEach(([x, y], i) => {
      const c = state.panel ? state.panel[i] : [0, 0, 0];
      el("circle", { cx: x, cy: y, r: 2.6, fill: lit(c) ? glow(c) : "#3a2a18", class: "panel-led",
                     "data-index": i, "data-on": lit(c) ? 1 : 0 }, panel);
    });
  }
  return { el, rgb, lit, glow, drawStatic, drawState };
})();
