// Back Alley page: GET /ba/state, POST /ba/action. Bots act one action per {do: "bot"} on a timer (the speed).
"use strict";
const SEATS = ["N", "E", "S", "W"];
const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const POS = ["bottom", "left", "top", "right"]; // clockwise from the viewer
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
let state = null, busy = false, botTimer = null, revealed = null;
let actions = 0; // bumped by every action: a state asked for before it is dropped (older than the action's answer)

if (params.has("speed")) {
  const opt = document.createElement("option");
  opt.value = params.get("speed"); opt.textContent = params.get("speed") + " ms";
  $("speed").appendChild(opt); $("speed").value = opt.value;
}

async function post(action) {
  busy = true;
  actions++;
  try {
    const r = await fetch("/ba/action", { method: "POST", headers: { "Content-Type": "application/json" },
                                           body: JSON.stringify(action) });
    const body = await r.json();
    $("error").textContent = r.ok ? "" : body.error;
    if (r.ok) { state = body; draw(); }
  } catch (e) {
    $("error").textContent = "the simulator does not answer (" + e + ")";
  } finally { busy = false; schedule(); }
}

async function poll() {
  if (busy) return;
  const asked = actions;
  try {
    const r = await fetch("/ba/state");
    const body = await r.json();
    if (asked !== actions || busy) return;
    if (!state || body.version !== state.version || body.active !== state.active) { state = body; draw(); schedule(); }
  } catch (e) { /* the simulator stopped: keep the last picture */ }
}

function schedule() {
  clearTimeout(botTimer);
  if (!state || !state.active || state.over || !state.to_act || state.person_to_act) return;
  let delay = Number($("speed").value) || 0;
  if (state.trick.length === 0 && state.last_trick) delay *= 2; // a moment to see the finished trick
  const version = state.version;
  botTimer = setTimeout(() => { if (!busy) post({ do: "bot", version }); else schedule(); }, delay);
}

function cardName(text) { // "AD" -> "♦A", as the log writes cards
  return text === "BJ" || text === "LJ" ? text : SUITS[text.slice(-1)] + text.slice(0, -1);
}

function seatInfo(seat) { return state.seats[SEATS.indexOf(seat)]; }

function bottomSeat() {
  const people = state.people;
  if (people.length === 1) return people[0];
  if (people.length === 4) return state.person_to_act ? state.to_act : (revealed || "S");
  return "S";
}

function posOf(seat, bottom) { return POS[(SEATS.indexOf(seat) - SEATS.indexOf(bottom) + 4) % 4]; }

function cardEl(text, tag) {
  const el = document.createElement(tag || "div");
  el.dataset.card = text;
  if (text === "BJ" || text === "LJ") {
    el.className = "card joker";
    el.innerHTML = (text === "BJ" ? "Big" : "Little") + "<br>Joker";
    el.title = text === "BJ" ? "Big Joker" : "Little Joker";
  } else {
    const suit = text.slice(-1), rank = text.slice(0, -1);
    el.className = "card" + (suit === "H" || suit === "D" ? " red" : "");
    el.innerHTML = "<span>" + rank + "</span><span class=\"suit\">" + SUITS[suit] + "</span>";
    el.title = rank + SUITS[suit];
  }
  return el;
}

function drawSeat(seat, bottom) {
  const info = seatInfo(seat);
  const box = $("seat-" + posOf(seat, bottom));
  box.className = "seat" + (state.to_act === seat ? " to-act" : "");
  box.dataset.seat = seat;
  const marks = [];
  if (state.dealer === seat) marks.push("dealer");
  if (state.leader === seat) marks.push("leads");
  let call = info.call === null ? (state.phase === "bidding" && state.to_act === seat ? "calling…" : "") : "called " + info.call;
  if (info.board > 1) call += " (" + ["", "", "double", "triple", "quadruple"][info.board] + ")";
  const visible = state.hands[seat] && (state.people.length === 1 || revealed === seat);
  box.innerHTML = "";
  const name = document.createElement("div");
  name.className = "name"; name.textContent = seat + " · " + info.name + (marks.length ? " · " + marks.join(", ") : "");
  const line = document.createElement("div");
  line.className = "info"; line.textContent = [call, "took " + info.taken].filter(Boolean).join(" · ");
  box.appendChild(name); box.appendChild(line);
  if (!(visible && seat === bottom)) {
    const backs = document.createElement("div");
    backs.className = "backs"; backs.innerHTML = "<span class=\"back\"></span>".repeat(info.cards);
    backs.title = info.cards + " cards";
    box.appendChild(backs);
  }
}

function drawTrick(bottom) {
  const t = $("trick");
  t.innerHTML = "";
  let cards = state.trick, caption = "", last = false;
  if (!cards.length && state.last_trick) {
    cards = state.last_trick.cards; last = true;
    caption = seatInfo(state.last_trick.winner).name + " won the last trick";
  }
  t.className = last ? "last" : "";
  for (const played of cards) {
    const slot = document.createElement("div");
    slot.className = "slot " + posOf(played.seat, bottom);
    const c = cardEl(played.card);
    if (last && played.seat === state.last_trick.winner) c.classList.add("won");
    slot.appendChild(c);
    t.appendChild(slot);
  }
  if (caption) { const cap = document.createElement("div"); cap.className = "caption"; cap.textContent = caption; t.appendChild(cap); }
}

function drawHand(bottom) {
  const hand = $("hand"), calls = $("calls");
  hand.innerHTML = ""; calls.innerHTML = "";
  const cards = state.hands[bottom];
  const mine = state.person_to_act && state.to_act === bottom;
  if (!cards || (state.people.length > 1 && revealed !== bottom)) return;
  hand.dataset.seat = bottom;
  hand.className = mine && state.phase === "playing" ? "playing" : "";
  for (const text of cards) {
    const b = cardEl(text, "button");
    if (mine && state.legal.includes(text)) b.classList.add("legal");
    b.onclick = () => { if (state.phase === "playing") post({ do: "play", seat: bottom, card: text }); };
    hand.appendChild(b);
  }
  if (mine && state.phase === "bidding") {
    for (const call of state.legal_calls) {
      const b = document.createElement("button");
      b.textContent = call; b.id = "call-" + call;
      b.onclick = () => post({ do: "call", seat: bottom, call });
      calls.appendChild(b);
    }
  }
}

function drawSheet() {
  const rows = state.results.map((r) =>
    "<tr><td>" + r.number + "</td><td>" + r.cards + "</td><td>" + r.dealer + "</td><td>" + r.trump + "</td><td>" +
    r.contracts[0] + "</td><td>" + r.tricks[0] + "</td><td>" + r.points[0] + "</td><td>" + r.contracts[1] +
    "</td><td>" + r.tricks[1] + "</td><td>" + r.points[1] + "</td></tr>").join("");
  $("sheet").innerHTML = state.results.length ? "<table class=\"sheet\"><tr><th>deal</th><th>cards</th><th>dealer</th>" +
    "<th>trump</th><th>NS</th><th>took</th><th>pts</th><th>EW</th><th>took</th><th>pts</th></tr>" + rows + "</table>" : "";
}

function draw() {
  document.body.dataset.ready = "1";
  if (!state.active) {
    $("status").textContent = state.error || "Choose the players and start a new game.";
    for (const p of POS) $("seat-" + p).innerHTML = "";
    $("trick").innerHTML = ""; $("hand").innerHTML = ""; $("calls").innerHTML = "";
    document.body.dataset.phase = "none";
    return;
  }
  document.body.dataset.phase = state.phase;
  document.body.dataset.version = state.version;
  document.body.dataset.number = state.number;
  document.body.dataset.results = state.results.length;
  const bottom = bottomSeat();
  if (state.people.length === 1) revealed = bottom;
  $("deal").textContent = "Deal " + state.number + " of " + state.deals + " · " + state.hand_size + " card" +
    (state.hand_size === 1 ? "" : "s") + " · dealer " + seatInfo(state.dealer).name + " · " + state.trump +
    " (turned up " + cardName(state.upcard) + ")";
  let status;
  if (state.over) status = state.final;
  else if (state.person_to_act) status = (state.people.length > 1 ? seatInfo(state.to_act).name + ": your" : "Your") +
    (state.phase === "bidding" ? " call" : " card");
  else status = seatInfo(state.to_act).name + " is to " + (state.phase === "bidding" ? "call" : "play") + "…";
  $("status").textContent = status;
  for (const seat of SEATS) drawSeat(seat, bottom);
  drawTrick(bottom);
  drawHand(bottom);
  const cover = $("cover");
  if (state.people.length > 1 && state.person_to_act && revealed !== state.to_act) {
    $("cover-text").textContent = "Pass the screen to " + seatInfo(state.to_act).name + " (" + state.to_act + ").";
    $("reveal").textContent = seatInfo(state.to_act).name + ": show my cards";
    cover.style.display = "flex";
  } else cover.style.display = "none";
  $("scores").textContent = "NS " + state.scores[0] + " · EW " + state.scores[1];
  $("contracts").textContent = state.contracts ? "Contracts: NS " + state.contracts[0] + ", EW " + state.contracts[1] +
    " · first lead: " + seatInfo(state.leader).name + " · tricks NS " + state.team_tricks[0] + ", EW " + state.team_tricks[1] : "";
  $("lastdeal").innerHTML = state.last_deal.map((l) => "<div>" + l + "</div>").join("");
  drawSheet();
  const log = $("log");
  log.textContent = state.log.join("\n");
  log.scrollTop = log.scrollHeight;
  if (state.error) $("error").textContent = state.error;
}

$("reveal").onclick = () => { revealed = state.to_act; draw(); };
$("new").onclick = () => {
  const mode = $("mode").value;
  const people = mode === "one" ? [$("myseat").value] : mode === "four" ? SEATS.slice() : [];
  const action = { do: "new", people };
  if (params.has("seed")) action.seed = Number(params.get("seed"));
  revealed = null;
  post(action);
};
poll();
setInterval(poll, 1000);
