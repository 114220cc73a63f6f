// Pipboard simulator page: draws /layout once, /state every 150 ms; clicks go to POST /action.
"use strict";
const board = document.getElementById("board");
let layout = null, state = null, busy = false, dragFrom = null;
// Bumped by every action: a /state answer asked for before it is older than the action's own answer and
// is dropped (drawn, it would undo the action on the page for a moment, and a click then would be read
// against the old board: a checker put down where the page still shows an empty hand is lost).
let actions = 0;
const el = PipBoard.el;

async function post(action) {
  busy = true;
  actions++;
  try {
    const r = await fetch("/action", { method: "POST", headers: { "Content-Type": "application/json" },
                                        body: JSON.stringify(action) });
    const body = await r.json();
    document.getElementById("error").textContent = r.ok ? "" : body.error;
    if (r.ok) { state = body; draw(); }
  } finally { busy = false; }
}

function drawStatic() {
  PipBoard.drawStatic(board, layout);
  const p = layout.pitch;
  const hits = el("g", { id: "hits" }, board);
  for (const L of layout.locations) {
    const g = el("g", { class: "loc", "data-loc": L.loc, "data-name": L.name }, hits);
    const xs = L.slots.map((s) => s[0]), ys = L.slots.map((s) => s[1]);
    el("rect", { class: "hit", x: Math.min(...xs) - p/2, y: Math.min(...ys) - p/2, width: p,
                 height: Math.max(...ys) - Math.min(...ys) + p }, g);
    g.addEventListener("pointerdown", (ev) => { ev.preventDefault(); pointerDown(L.loc); });
    g.addEventListener("pointerup", (ev) => { ev.preventDefault(); pointerUp(L.loc); });
  }
  drawOverlay();
  const bt = document.getElementById("buttons");
  for (const name of layout.buttons) {
    const btn = document.createElement("button");
    btn.textContent = name; btn.id = "btn-" + name;
    holdable(btn, (long) => post({ do: "press", button: name, long }));
    bt.appendChild(btn);
  }
  // each side's own buttons: they act only for that side (the board refuses the other side's out of turn)
  for (const [player, side] of [[0, "white"], [1, "black"]]) {
    const row = document.createElement("div");
    row.className = "side-buttons"; row.textContent = side + ": ";
    for (const name of ["ROLL", "DONE", "DOUBLE", "TAKE", "DROP", "RESIGN"]) {
      const btn = document.createElement("button");
      // RESIGN is the side's DROP held long: offer to resign (then DROP raises the offer)
      btn.textContent = name === "RESIGN" ? "resign (DROP held)" : name; btn.id = "btn-" + side + "-" + name;
      if (name === "RESIGN") btn.title = side + " offers to resign: on the board, hold DROP";
      holdable(btn, (long) => post({ do: "press", button: name, player, long }));
      row.appendChild(btn);
    }
    bt.appendChild(row);
  }
  // the physical menu and undo buttons (menu held: open or leave the board's menu, docs/board-menu.md)
  const keys = document.createElement("div");
  keys.className = "side-buttons"; keys.textContent = "board: ";
  for (const k of layout.keys) {
    const btn = document.createElement("button");
    btn.textContent = k.name; btn.id = "key-" + k.name.replace(" ", "-");
    btn.onclick = () => post({ do: "key", button: k.button, long: !!k.long });
    keys.appendChild(btn);
  }
  bt.appendChild(keys);
  const setup = document.createElement("button");
  setup.textContent = "do as the LEDs ask"; setup.id = "btn-setup";
  setup.onclick = () => post({ do: "setup" });
  bt.appendChild(setup);
  // a power cut: the board loses its RAM and starts again from its flash (the game's save)
  const power = document.createElement("button");
  power.textContent = "power cut"; power.id = "btn-power";
  power.onclick = () => post({ do: "power" });
  bt.appendChild(power);
  const box = document.getElementById("box");
  for (const [colour, name] of [[0, "white"], [1, "black"]]) {
    const btn = document.createElement("button");
    btn.id = "box-" + name;
    btn.onclick = () => post({ do: "box", colour });
    box.appendChild(btn);
  }
}

// Every button can be pressed or held, as on the board: a click presses it, holding it down for
// HOLD_MS or longer holds it (TAKE held steps a menu number by ten). Keyboard activation presses.
const HOLD_MS = 600;
function holdable(btn, send) {
  let downAt = null;
  btn.title = btn.title || "click to press; hold the mouse button down to hold it";
  btn.addEventListener("pointerdown", () => { downAt = performance.now(); btn.classList.add("down"); });
  btn.addEventListener("pointerleave", () => { downAt = null; btn.classList.remove("down"); });
  btn.addEventListener("click", (ev) => {
    const held = downAt !== null && performance.now() - downAt >= HOLD_MS;
    downAt = null; btn.classList.remove("down");
    send(ev.detail !== 0 && held);
  });
}

// The printed menu overlay (hardware/menu-overlay.svg) laid over the board while the menu is open: a sheet
// over the checkers, under the lights, as on the real board.
function drawOverlay() {
  const doc = new DOMParser().parseFromString(layout.menu_overlay, "image/svg+xml");
  const sheet = el("g", { id: "menu-overlay", display: "none", "pointer-events": "none" });
  el("rect", { x: 0, y: 0, width: layout.width, height: layout.height, rx: 10, fill: "#fbf8f0",
               "fill-opacity": 0.86 }, sheet);
  for (const node of Array.from(doc.documentElement.childNodes)) {
    if (node.nodeType === 1 && node.nodeName !== "title") sheet.appendChild(document.importNode(node, true));
  }
  board.insertBefore(sheet, board.querySelector("g.leds"));
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

// The tournament clock (the snapshot's "clock"): both players' time, the running one lit, a fallen flag red.
function fmt(ms) {
  const s = Math.ceil(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, sec = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return (h ? h + ":" : "") + mm + ":" + String(sec).padStart(2, "0");
}
function drawClock(clock) {
  const box = document.getElementById("clock");
  box.textContent = "";
  box.dataset.flag = clock ? clock.flag : "";
  if (!clock) return;
  for (const [p, name] of [[0, "white"], [1, "black"]]) {
    const span = document.createElement("span");
    const left = clock.remaining[p];
    span.id = "clock-" + name;
    span.className = "side" + (clock.running === p ? " running" : "") + (left < 60000 ? " warn" : "") +
                     (clock.flag === p ? " flag" : "");
    span.textContent = name + " " + fmt(left) + (clock.flag === p ? " lost on time" : "");
    box.appendChild(span);
  }
  const mode = document.createElement("div");
  mode.className = "mode";
  mode.textContent = `${clock.mode} delay ${clock.delay / 1000} s` +
      (clock.running >= 0 && clock.delay_left ? ` (${Math.ceil(clock.delay_left / 1000)} s of delay left)` : "");
  box.appendChild(mode);
}

function draw() {
  if (!layout || !state) return;
  drawClock(state.clock);
  PipBoard.drawState(board, layout, state);
  document.getElementById("phase").textContent = "phase: " + state.phase + (state.dice ?
      `   dice ${state.dice[0]}-${state.dice[1]}` : "") + `   cube ${state.cube}`;
  document.getElementById("status").textContent = state.message || "";
  document.getElementById("pid").textContent = state.position_id;
  document.getElementById("mid").textContent = state.match_id || "-";
  document.getElementById("score").textContent = state.score.join(" - ");
  document.getElementById("record").textContent = state.record.join("\n");
  const menu = state.menu || {}, test = state.self_test;
  const skipped = (state.menu_skipped || []).map((s) => `${s.title}: ${s.why}`);
  document.getElementById("menu").textContent = menu.open ? `menu: ${menu.title} = ${menu.text}` :
      (menu.pending ? "menu: a new match waits for the next match" : "");
  document.getElementById("menu-skipped").textContent = menu.open && skipped.length ?
      "skipped with these settings: " + skipped.join("; ") : "";
  document.getElementById("menu-overlay").setAttribute("display", menu.open ? "inline" : "none");
  document.getElementById("selftest").textContent = !test ? "" : `self-test ${test.step}: ` +
      (test.problems.length ? test.problems.map((p) => `${p.switch} ${p.fault}`).join(", ") :
       (test.step === "done" ? "all switches work" : `${test.checked} of ${test.total} slots`));
  document.getElementById("hardware").textContent = (state.hardware || []).join("; ");
  board.dataset.menu = menu.open ? menu.item : "";
  const ba = state.backalley;  // the Back Alley scorekeeper (docs/backalley.md)
  board.dataset.backalley = ba ? ba.phase : "";
  board.dataset.keys = ba && ba.state ? ba.state.keys.length : "";
  board.dataset.cards = ba && ba.referee ? 4 * Object.values(ba.referee.taken).reduce((a, b) => a + b, 0) +
      ba.referee.cards.length : "";
  document.getElementById("backalley").textContent = ba ? backAlleyText(ba) : "";
  board.dataset.selftest = test ? test.step : "";
  document.getElementById("table").textContent = tableText(state);
  document.getElementById("hand").textContent = state.hand.length ?
      "In hand: " + state.hand.map((c) => c ? "black" : "white").join(", ") : "Hand empty";
  document.getElementById("box-white").textContent = state.hand.length ? "put in box" : `take white from box (${state.box[0]})`;
  document.getElementById("box-black").textContent = state.hand.length ? "put in box" : `take black from box (${state.box[1]})`;
  board.dataset.phase = state.phase;
}

function backAlleyText(ba) {  // the scorekeeper's state as a little score sheet
  if (!ba.state) return "Back Alley: who deals first?";
  const seats = ["N", "E", "S", "W"], lines = [];
  lines.push(ba.phase === "game over" ? `Back Alley: game over, ${ba.winner === "tie" ? "a tie" : ba.winner + " win"}` :
             `Back Alley deal ${ba.deal} of 25: ${ba.cards} card${ba.cards === 1 ? "" : "s"}, dealer ` +
             `${ba.dealer}, trump ${ba.trump || "?"}${ba.to_act ? ", " + ba.to_act + " keys " + ba.entry : ""}`);
  lines.push(seats.map((s, i) => `${ba.names[i]} (${s}): ${ba.calls[s] || "-"}` +
                       (s in ba.tricks ? `/${ba.tricks[s]}` : "") + (ba.leader === s ? "*" : "")).join("  "));
  if (ba.contracts) lines.push(`contracts NS ${ba.contracts.NS}, EW ${ba.contracts.EW}`);
  const ref = ba.referee;  // referee mode: the cards of each trick keyed in (docs/backalley.md)
  if (ref) {
    const played = (leader, cards) => cards.map((c, i) => `${seats[(seats.indexOf(leader) + i) % 4]} ${c}`).join(", ");
    if (ref.last) lines.push(`trick ${ref.last.trick}: ${played(ref.last.leader, ref.last.cards)}: ${ref.last.winner} wins`);
    if (ref.playing) lines.push(`trick ${ref.trick} of ${ref.of}: ` +
                                (ref.cards.length ? played(ref.leader, ref.cards) : `${ref.leader} leads`) +
                                `; ${ref.to_act} keys ${ref.entry}` + (ref.showing_last ? " (a key opens the entry)" : ""));
    lines.push("tricks taken: " + seats.map((s) => `${s} ${ref.taken[s]}`).join(", "));
  }
  lines.push(`score NS ${ba.scores.NS}, EW ${ba.scores.EW}` + (ba.redeals ? `  (${ba.redeals} redeal(s))` : ""));
  if (ba.refused) lines.push("refused: " + ba.refused);
  return lines.join("\n");
}

const LEVELS = ["single", "gammon", "backgammon"];
function tableText(s) {  // a resignation offered, dice keyed in, a fair match's commitment
  const lines = [];
  if (s.resign) {
    const who = s.resign.player ? "black" : "white", other = s.resign.player ? "white" : "black";
    const pts = `${s.resign.points} point${s.resign.points === 1 ? "" : "s"}`;
    lines.push(`${who} offers to resign a ${LEVELS[s.resign.level - 1]} (${pts}): ` +
               `${other} TAKE accepts, DROP declines`);
  }
  if (s.keyed && s.keyed.correcting) lines.push(`correcting the dice keyed in: ${s.keyed.dice[0]}-${s.keyed.dice[1]} ` +
                          "(DOUBLE steps die A, TAKE die B, ROLL confirms, DROP keeps the dice as they were)");
  else if (s.keyed) lines.push(`dice keyed in: ${s.keyed.dice[0] || "?"}-${s.keyed.dice[1] || "?"} ` +
                          "(DOUBLE steps die A, TAKE die B, ROLL confirms, DROP cancels; UNDO corrects before a checker moves)");
  else if (s.dice_source === "physical") lines.push("physical dice: roll them, then press ROLL and key them in");
  if (s.fair) lines.push(`provably fair dice: commitment ${s.fair.commitment}` +
                         (s.fair.seed ? `, seed ${s.fair.seed}` : " (the seed is revealed after the match)"));
  return lines.join("\n");
}

async function refresh() {
  if (!busy) {
    const asked = actions;
    try {
      const r = await fetch("/state");
      const body = await r.json();
      if (asked === actions && !busy) {
        state = body;
        draw();
        document.body.dataset.ready = "1";
      }
    } catch (e) { document.getElementById("status").textContent = "simulator not reachable"; }
  }
  setTimeout(refresh, 150);
}

(async () => {
  layout = await (await fetch("/layout")).json();
  drawStatic();
  refresh();
})();
