"""The live room page, and ``RoomWatcher``: a subscriber that gets every event of every board exactly once.

``RoomWatcher`` subscribes to a room (docs/room.md), keeps each board's
retained snapshot and its events in ``seq`` order: a duplicate (QoS 1
redelivery, a replay) is dropped, a gap (a broker restarted without the
messages) makes it ask the room for the missing events on
``room/ROOM/resync``, and an event that arrives early waits until the gap is
filled. ``on_change(board)`` is called when a board's view changed.

``RoomPage`` serves the room in a browser (plain HTML/JS/SVG, the board drawn
by the simulator's own drawing code, ``websim/static/board.js``):

* ``/``: every board of the room: names, score, board, dice, cube, last play;
* ``/board/NAME``: one board for a spectator, with the game's record lines;
* ``/stream``: Server-Sent Events, one ``{"board": NAME, "view": ...}`` per
  change (the pages update live from it); ``/state``: every view at once;
  ``/layout``: the board's drawing data (as the simulator's).
"""

import json
import os
import queue
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from pipboard.mqttlink import BrokerLink
from pipboard.room import board_topic, room_topic

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "websim", "static")
PAGES = {"room.html", "room.js", "board.js"}
RESYNC_AFTER_S = 0.5  # a gap still open this long is asked for
REASK_S = 3.0  # a resync that brought nothing in this long is asked for again


class _Board:
    def __init__(self, name):
        self.name = name
        self.epoch = None
        self.next_seq = 1
        self.events = []  # in seq order, each once
        self.early = {}  # seq -> event arrived before a gap was filled
        self.snapshot = None
        self.matches = []
        self.gap_asked = 0.0
        self.asked_from = None
        self.gaps = 0
        self.duplicates = 0
        self.record = []  # the current game's record lines (for the spectator page)
        self.changed_at = 0.0


class RoomWatcher:
    """A room subscriber (see module doc); ``boards`` maps a board's name to its state."""

    def __init__(self, broker_url, room, on_change=None, name="pipboard-watch", **account):
        """``account``: ``username``, ``password`` (and ``ca``) on a broker with accounts: the room's own to ask
        for resyncs; a spectator's reads only, and a gap then waits for the next snapshot."""
        self.room = room
        self.boards = {}
        self.lock = threading.RLock()
        self.on_change = on_change
        self.link = BrokerLink(broker_url, name, on_connect=self._on_connect, on_message=self._on_message,
                               **account)
        self.running = True
        self.thread = threading.Thread(target=self._watch_gaps, name="room-watch", daemon=True)

    def start(self, wait=5.0):
        self.link.start()
        self.thread.start()
        return self.link.wait_connected(wait)

    def stop(self):
        self.running = False
        self.link.stop()

    def _on_connect(self, link):
        link.subscribe(board_topic(self.room, "+", "snapshot"))
        link.subscribe(board_topic(self.room, "+", "events"))

    def board(self, name):
        b = self.boards.get(name)
        if b is None:
            b = self.boards[name] = _Board(name)
        return b

    def _on_message(self, topic, obj, retained):
        parts = topic.split("/")
        if len(parts) != 7 or obj.get("v") != 1:  # pipboard/v1/room/ROOM/board/NAME/LEAF
            return
        name, leaf = parts[5], parts[6]
        with self.lock:
            b = self.board(name)
            if leaf == "snapshot":
                self._snapshot(b, obj)
            elif leaf == "events":
                self._event(b, obj)
        if self.on_change is not None:
            self.on_change(name)

    def _new_epoch(self, b, epoch):
        """The room restarted: its numbering starts again; what was seen stays seen."""
        if b.epoch is not None and b.epoch != epoch:
            b.events = []
            b.early = {}
        b.epoch = epoch
        b.next_seq = 1

    def _snapshot(self, b, snap):
        if snap.get("epoch") != b.epoch:
            self._new_epoch(b, snap.get("epoch"))
        b.snapshot = snap
        b.changed_at = time.time()

    def _event(self, b, ev):
        seq = ev.get("seq")
        if not isinstance(seq, int):
            return
        if ev.get("epoch") != b.epoch:
            if b.epoch is not None and b.snapshot is not None and b.snapshot.get("epoch") == b.epoch and seq > 1:
                return  # a late event of an earlier run
            self._new_epoch(b, ev.get("epoch"))
        if seq < b.next_seq or seq in b.early:
            b.duplicates += 1
            return
        if seq > b.next_seq:
            b.early[seq] = ev
            self._ask(b)
            return
        self._take(b, ev)
        while b.next_seq in b.early:
            self._take(b, b.early.pop(b.next_seq))

    def _take(self, b, ev):
        b.events.append(ev)
        b.next_seq = ev["seq"] + 1
        b.changed_at = time.time()
        kind = ev.get("event")
        if kind == "record":
            b.record.append(ev.get("text"))
            del b.record[:-40]
        elif kind in ("record_reset", "new_game"):
            b.record = []
        elif kind == "match":
            b.matches.append(ev)

    def _ask(self, b):
        now = time.monotonic()
        if now - b.gap_asked < RESYNC_AFTER_S:
            return
        if b.asked_from == b.next_seq and now - b.gap_asked < REASK_S:
            return  # the replay asked for is still coming: asking again would only flood the broker
        b.gap_asked = now
        b.asked_from = b.next_seq
        b.gaps += 1
        self.link.publish(room_topic(self.room, "resync"), {"v": 1, "board": b.name, "from": b.next_seq})

    def _watch_gaps(self):
        while self.running:
            time.sleep(RESYNC_AFTER_S)
            with self.lock:
                for b in self.boards.values():
                    behind = b.snapshot is not None and isinstance(b.snapshot.get("seq"), int) and \
                        b.snapshot.get("epoch") == b.epoch and b.snapshot["seq"] >= b.next_seq
                    # the snapshot may overtake its events by a moment: a gap must last to be asked for
                    if (b.early or behind) and time.time() - b.changed_at > 0.3:
                        self._ask(b)

    # -- what the page draws ----------------------------------------------------------
    def view(self, name):
        with self.lock:
            b = self.boards.get(name)
            if b is None or b.snapshot is None:
                return None
            return board_view(b.snapshot, b.record)

    def views(self):
        with self.lock:
            return {name: board_view(b.snapshot, b.record) for name, b in sorted(self.boards.items())
                    if b.snapshot is not None}


def board_view(snap, record=()):
    """What a page draws for a board's snapshot: checkers per location from the Position ID, panel, names."""
    from types import SimpleNamespace

    from pipboard.websim.view import panel_colours

    view = {k: snap.get(k) for k in ("board", "players", "event", "round", "score", "match_length", "clock",
                                     "phase", "mover", "dice", "position_id", "match_id", "last_play", "message",
                                     "online", "result", "matches", "time", "seq")}
    cube = snap.get("cube") or {}
    view["cube"] = cube.get("value", 1)
    view["owner"] = cube.get("owner", -1)
    view["stacks"] = stacks_of(snap.get("position_id"), snap.get("mover") or 0, snap.get("variant"))
    dice = snap.get("dice")
    ctl = SimpleNamespace(mover=snap.get("mover") or 0, dice=tuple(dice) if dice else None, cube=view["cube"],
                          owner=view["owner"])
    view["panel"] = panel_colours(ctl)
    view["record"] = list(record)[-12:]
    return view


def stacks_of(position_id, mover, variant=None):
    """Checker colours on every location (as ``SimBoard.stacks``) for a Position ID seen from ``mover``."""
    from pipcore.board import BAR0, NLOC, fill_counts, loc_point
    from pipcore.position import Position, PositionError

    stacks = [[] for _ in range(NLOC)]
    if not position_id or variant not in (None, "backgammon"):
        return stacks
    try:
        pos = Position.from_id(position_id)
    except (PositionError, ValueError, TypeError):
        return stacks
    counts = bytearray(NLOC)
    fill_counts(pos, mover, counts)
    for loc in range(NLOC):
        if loc >= BAR0:
            owner = (loc - BAR0) & 1
        else:
            owner = mover if pos.me[loc_point(mover, loc)] else 1 - mover
        stacks[loc] = [owner] * counts[loc]
    return stacks


class RoomPage:
    """The room page's web server (see module doc), fed by its own ``RoomWatcher``."""

    def __init__(self, broker_url, room, host="127.0.0.1", port=8780, **account):
        self.listeners = []
        self.listeners_lock = threading.Lock()
        self.watcher = RoomWatcher(broker_url, room, on_change=self._changed, name="pipboard-page", **account)
        self.http = ThreadingHTTPServer((host, port), _handler_for(self))
        self.http.daemon_threads = True
        threading.Thread(target=self.http.serve_forever, name="room-page", daemon=True).start()
        self.url = "http://%s:%d/" % (host, self.http.server_address[1])
        self.watcher.start(wait=0)
        self.room = room

    def _changed(self, name):
        view = self.watcher.view(name)
        if view is None:
            return
        data = json.dumps({"board": name, "view": view})
        with self.listeners_lock:
            for q in self.listeners:
                q.put(data)

    def listen(self):
        q = queue.Queue(maxsize=5000)
        with self.listeners_lock:
            self.listeners.append(q)
        return q

    def unlisten(self, q):
        with self.listeners_lock:
            if q in self.listeners:
                self.listeners.remove(q)

    def close(self):
        self.watcher.stop()
        self.http.shutdown()
        self.http.server_close()


def _handler_for(page):
    class Handler(BaseHTTPRequestHandler):
        server_version = "pipboard-room"

        def log_message(self, fmt, *args):
            pass

        def _send(self, code, body, ctype="application/json"):
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            path = self.path.split("?")[0]
            if path == "/state":
                return self._send(200, {"room": page.room, "boards": page.watcher.views()})
            if path == "/layout":
                from pipboard.websim import view

                return self._send(200, view.layout())
            if path == "/stream":
                return self._stream()
            if path in ("/", "/index.html") or path.startswith("/board/"):
                name = "room.html"
            else:
                name = path.rsplit("/", 1)[-1]
            if name not in PAGES:
                return self._send(404, {"error": "not found: %s" % path})
            with open(os.path.join(STATIC, name), "rb") as f:
                body = f.read()
            ctype = "text/html; charset=utf-8" if name.endswith(".html") else "text/javascript; charset=utf-8"
            return self._send(200, body, ctype)

        def _stream(self):
            q = page.listen()
            try:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(("data: %s\n\n" % json.dumps({"room": page.room,
                                                               "boards": page.watcher.views()})).encode())
                self.wfile.flush()
                while True:
                    try:
                        data = q.get(timeout=10)
                    except queue.Empty:
                        data = None
                    self.wfile.write((": keep-alive\n\n" if data is None else "data: %s\n\n" % data).encode())
                    self.wfile.flush()
            except OSError:
                pass  # the page went away
            finally:
                page.unlisten(q)

    return Handler
