// The room page (every board) and the spectator page (/board/NAME): the live views come from /stream (SSE).
"use strict";
const single = location.pathname.startsWith("/board/") ? decodeURIComponent(location.pathname.slice(7)) : null;
const boards = document.getElementById("boards");
let layout = null, room = null;
const cards = {};

function text(parent, cls, tag = "div") {
  const e = document.createElement(tag);
  e.className = cls;
  parent.appendChild(e);
  return e;
}

function card(name) {
  if (cards[name]) return cards[name];
  const c = document.createElement(single ? "div" : "a");
  c.className = "card"; c.dataset.board = name;
  if (!single) c.href = "/board/" + encodeURIComponent(name);
  const h = text(c, "", "h2");
  text(h, "name", "span").textContent = name;
  text(h, "where", "span");
  const pl = text(c, "players");
  text(pl, "white", "span"); text(pl, "score", "span"); text(pl, "black", "span");
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "board");
  c.appendChild(svg);
  PipBoard.drawStatic(svg, layout);
  text(c, "status"); text(c, "last-play");
  if (single) { text(c, "ids"); text(c, "record"); }
  const keys = Object.keys(cards).concat([name]).sort();
  const before = cards[keys[keys.indexOf(name) + 1]];
  boards.insertBefore(c, before || null);
  return (cards[name] = c);
}

function show(name, v) {
  if (single && name !== single) return;
  const c = card(name);
  const q = (s) => c.querySelector(s);
  c.classList.toggle("offline", !v.online);
  c.dataset.seq = v.seq; c.dataset.phase = v.phase || "";
  q(".where").textContent = [v.event, v.round ? "round " + v.round : ""].filter(Boolean).join(", ");
  const players = v.players || { white: "white", black: "black" };
  q(".white").textContent = "\u25CB " + players.white;
  q(".black").textContent = players.black + " \u25CF";
  q(".white").classList.toggle("on-roll", v.mover === 0);
  q(".black").classList.toggle("on-roll", v.mover === 1);
  const score = v.score || [0, 0];
  q(".score").textContent = `${score[0]} - ${score[1]}` + (v.match_length ? ` (to ${v.match_length})` : "");
  PipBoard.drawState(q("svg.board"), layout, v);
  const parts = [v.online ? v.phase : "board offline"];
  if (v.dice) parts.push(`dice ${v.dice[0]}-${v.dice[1]}`);
  if (v.cube > 1) parts.push(`cube ${v.cube}`);
  if (v.clock) parts.push(clockText(v.clock, players));
  if (v.result && (v.phase === "game-over" || v.phase === "match-over")) parts.push(`${v.result[0] ? players.black : players.white} wins ${v.result[1]}`);
  q(".status").textContent = parts.join("   ");
  q(".last-play").textContent = v.last_play ? "last play: " + v.last_play : "";
  if (single) {
    q(".ids").textContent = `Position ID ${v.position_id || "-"}   Match ID ${v.match_id || "-"}`;
    q(".record").textContent = (v.record || []).join("\n");
  }
}

function connect() {
  const live = document.getElementById("live");
  const source = new EventSource("/stream");
  source.onopen = () => { live.textContent = "live"; live.className = ""; };
  source.onerror = () => { live.textContent = "reconnecting..."; live.className = "down"; };
  source.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.boards) {
      room = msg.room;
      document.getElementById("title").textContent = single ? `${single} (room ${room})` : `Pipboard room ${room}`;
      for (const name in msg.boards) show(name, msg.boards[name]);
    } else show(msg.board, msg.view);
    document.body.dataset.ready = "1";
    document.body.dataset.updated = String(Date.now());
  };
}

(async () => {
  if (single) { document.body.classList.add("single"); document.getElementById("back").style.display = ""; }
  layout = await (await fetch("/layout")).json();
  connect();
})();

// The tournament clock as a line: each side's time left, the running one starred, a fallen flag named.
function clockText(c, players) {
  const mmss = (ms) => { const s = Math.ceil(Math.max(0, ms) / 1000); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; };
  const side = (p, name) => `${name} ${mmss((c.remaining || [0, 0])[p])}${c.running === p ? "*" : ""}${c.flag === p ? " (flag fell)" : ""}`;
  return `clock ${side(0, players.white)}  ${side(1, players.black)}`;
}
