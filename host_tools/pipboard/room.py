"""``pipboard room``: a tournament room, every board bridged to an MQTT broker (docs/room.md).

One ``BoardBridge`` thread per board speaks the board protocol
(``pipboard.link``: a USB port or a simulator) and publishes, under
``pipboard/v1/room/ROOM/board/NAME/``:

* ``snapshot`` (retained): Position ID, Match ID, score, phase, players,
  event, round, last play... what a spectator needs to draw the board;
* ``events``: the board's numbered events, renumbered by the room (``seq``
  1, 2, 3... per board for as long as the room runs, ``epoch`` naming the
  run), so a subscriber sees a gap and asks for a resync;
* ``match`` (retained) and a ``match`` event: the record of a finished
  match as .mat and SGF text (also written to ``--record DIR``).

The bridge survives the board going away (it retries and, on reconnect,
publishes a ``resync`` event carrying the fresh snapshot) and the broker
restarting (paho reconnects; on every connection the retained topics are
published again). Every event is kept in memory, so a subscriber that saw a
gap asks for it on ``room/ROOM/resync`` and gets it again.
"""

import json
import os
import re
import sys
import threading
import time

from pipboard.fields import FieldError, check_pairing
from pipboard.files import write_file
from pipboard.link import CommandError, Link, LinkError
from pipboard.mqttlink import BrokerError, BrokerLink

ROOM_VERSION = 1
PREFIX = "pipboard/v%d/room" % ROOM_VERSION
SNAPSHOT_EVENTS = ("record", "record_reset", "roll", "cube", "game_over", "new_game", "phase", "hello")
GAME_END_EVENTS = ("game_over", "new_game", "record_reset", "hello")  # the directory is read after these
MAX_REPLAY = 5000  # events sent again for one resync request
REPLAY_COALESCE_S = 1.0  # requests for events already being replayed are one request
HEARTBEAT_S = 2.0  # a board's snapshot is published at least this often
NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


class RoomError(Exception):
    """A bad room set-up (a board name, a pairing, the config file)."""


def room_topic(room, *parts):
    return "/".join((PREFIX, room) + parts)


def board_topic(room, board, leaf):
    return room_topic(room, "board", board, leaf)


def check_name(kind, name):
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise RoomError("%s name %r: use 1-40 letters, digits, '_', '-' or '.'" % (kind, name))
    return name


def last_play_of(text):
    """The play part of a record line (``white 31: 8/5 6/5``), or None for other lines."""
    m = re.match(r"^(white|black) (\d)(\d): (.*)$", text or "")
    return None if m is None else text


def safe_file_part(text):
    part = re.sub(r"[^A-Za-z0-9_.-]+", "-", str(text)).strip("-.")
    return part[:40] or "x"


def record_file_stem(event, round_, white, black):
    """``Club-night_r3_Alice-vs-Bob``: a finished match's file name (event, round, players)."""
    return "%s_r%s_%s-vs-%s" % (safe_file_part(event or "match"), safe_file_part(round_ or 0),
                                safe_file_part(white), safe_file_part(black))


class Recorder:
    """Writes finished matches as .mat and .sgf (gnubg's formats) under ``folder``."""

    def __init__(self, folder):
        self.folder = folder
        os.makedirs(folder, exist_ok=True)
        self.lock = threading.Lock()

    def write(self, stem, mat, sgf):
        with self.lock:
            n = 1
            name = stem
            while os.path.exists(os.path.join(self.folder, name + ".mat")):
                n += 1
                name = "%s-%d" % (stem, n)
            paths = []
            for ext, text in ((".mat", mat), (".sgf", sgf)):
                path = os.path.join(self.folder, name + ext)
                write_file(path, text)
                paths.append(path)
            return paths


def match_texts(data, snapshot, players, event=None, round_=None):
    """(.mat text, .sgf text) of a board's record with the room's player names, event and round."""
    from pipboard.export import board_record, live_stopped, without_empty_last_game
    from pipboard.matfile import export_mat, match_header
    from pipboard.sgffile import export_sgf
    from pipcore.record import read_record

    record = without_empty_last_game(read_record(board_record(data, snapshot)))
    record.players = [players.get("white") or "white", players.get("black") or "black"]
    record.header_lines = match_header(event, round_, time.gmtime())
    return export_mat(record, live_stopped(snapshot)), export_sgf(record, time.strftime("%Y-%m-%d", time.gmtime()))


class BoardBridge:
    """One board of the room: its link, its room-numbered events and its retained snapshot."""

    def __init__(self, room, name, target, publish, players=None, event=None, round_=None, recorder=None,
                 retry_s=1.0, out=None):
        self.room = room
        self.name = check_name("board", name)
        self.target = target
        self.publish = publish  # publish(topic, obj, retain)
        try:  # the same checks as a pairing from the broker
            given = check_pairing({"white": (players or {}).get("white"), "black": (players or {}).get("black"),
                                   "round": round_, "event": event})
        except FieldError as exc:
            raise RoomError("board %s: %s" % (name, exc))
        self.players = {side: given[side] for side in ("white", "black") if side in given}
        self.event_name = given.get("event") or None
        self.round = given.get("round")
        self.recorder = recorder
        self.retry_s = retry_s
        self.out = out
        self.epoch = "%x" % int(time.time() * 1000)
        self.lock = threading.RLock()
        self.seq = 0
        self.log = []  # every event published: (seq, payload)
        self.last_replay = None  # (first seq, time) of the last replay
        self.state_at = 0.0  # when the snapshot was last published
        self.snapshot = None  # the board's last snapshot
        self.last_play = None
        self.online = False
        self.board_seq = None
        self.recorded = set()  # record digests already written (a reconnect never records twice)
        self.ended = set()  # directory keys of the ends already recorded: (match id, games)
        self.watch_from = None  # the first directory id the room records (the latest one at the first connection)
        self.first_seen = {}  # directory id -> its games at the first connection
        self.matches = 0
        self.link = None
        self.running = False
        self.thread = None
        self.stats = {"connects": 0, "resyncs": 0, "events": 0, "board_gaps": 0}

    # -- what is published -------------------------------------------------
    def state(self):
        """The retained snapshot payload."""
        snap = self.snapshot or {}
        return {
            "v": ROOM_VERSION, "room": self.room, "board": self.name, "epoch": self.epoch, "seq": self.seq,
            "online": self.online, "target": self.target,
            "players": {"white": self.players.get("white") or "white", "black": self.players.get("black") or "black"},
            "event": self.event_name, "round": self.round,
            "position_id": snap.get("position_id"), "match_id": snap.get("match_id"),
            "score": snap.get("score"), "match_length": snap.get("match_length"), "clock": snap.get("clock"),
            "phase": snap.get("phase"), "mover": snap.get("mover"), "dice": snap.get("dice"),
            "cube": snap.get("cube"), "game": snap.get("game"), "variant": snap.get("variant"),
            "message": snap.get("message"), "result": snap.get("result"), "error": snap.get("error"),
            "last_play": self.last_play, "matches": self.matches, "time": time.time(),
        }

    def republish(self, link):
        """A (re)connection to the broker: the retained topics again (a restarted broker forgot them)."""
        self.publish_state()
        with self.lock:
            match = [p for p in self.log if p["event"] == "match"]
            if match:
                self.publish(board_topic(self.room, self.name, "match"), match[-1], True)

    def publish_state(self):
        with self.lock:
            self.state_at = time.monotonic()
            self.publish(board_topic(self.room, self.name, "snapshot"), self.state(), True)

    def emit(self, name, fields):
        """Publish one room event (numbered) and keep it for resyncs."""
        with self.lock:
            self.seq += 1
            payload = {"v": ROOM_VERSION, "board": self.name, "epoch": self.epoch, "seq": self.seq, "event": name,
                       "time": time.time()}
            for key in fields:
                if key not in ("event", "seq"):
                    payload[key] = fields[key]
            self.log.append(payload)
            self.stats["events"] += 1
            self.publish(board_topic(self.room, self.name, "events"), payload, False)
            return payload

    def replay(self, first):
        """Publish again the events from ``first`` on (a subscriber saw a gap)."""
        with self.lock:
            if not isinstance(first, int) or isinstance(first, bool) or first < 1 or first > self.seq:
                return 0
            now = time.monotonic()
            last = self.last_replay
            if last is not None and last[0] <= first and now - last[1] < REPLAY_COALESCE_S:
                return 0  # the same events are on their way to every subscriber already
            self.last_replay = (first, now)
            sent = 0
            for payload in self.log[first - 1:first - 1 + MAX_REPLAY]:
                self.publish(board_topic(self.room, self.name, "events"), payload, False)
                sent += 1
            return sent

    def set_pairing(self, pairing):
        """A director's pairing (``white``, ``black``, ``round``, ``event``), from the config or the broker;
        False (and said) when refused (``pipboard.fields.check_pairing``)."""
        try:
            pairing = check_pairing(pairing)
        except FieldError as exc:
            self.say("pairing refused: %s" % exc)
            return False
        with self.lock:
            for side in ("white", "black"):
                if side in pairing:
                    self.players[side] = pairing[side]
            if "round" in pairing:
                self.round = pairing["round"]
            if "event" in pairing:
                self.event_name = pairing["event"] or None
        self.publish_state()
        return True

    # -- the board side ------------------------------------------------------
    def say(self, text):
        if self.out is not None:
            self.out.write("[%s] %s\n" % (self.name, text))
            self.out.flush()

    def start(self):
        self.running = True
        self.publish_state()
        self.thread = threading.Thread(target=self.run, name="room-" + self.name, daemon=True)
        self.thread.start()

    def stop(self):
        self.running = False
        if self.thread is not None:
            self.thread.join(5)
        if self.link is not None:
            self.link.close()

    def run(self):
        said = None
        while self.running:
            try:
                self.link = Link.open(self.target, timeout=3.0)
            except (LinkError, CommandError, OSError) as exc:
                if str(exc) != said:
                    said = str(exc)
                    self.say("waiting for the board: %s" % exc)
                time.sleep(self.retry_s)
                continue
            said = None
            try:
                self.connected(self.link.hello_reply)
                while self.running:
                    self.pump(0.5)
            except (LinkError, CommandError, OSError) as exc:
                self.say("board link lost (%s); reconnecting" % exc)
            finally:
                self.link.close()
                self.link = None
                if self.online:
                    self.online = False
                    self.emit("offline", {})
                    self.publish_state()
                if self.running:
                    time.sleep(self.retry_s)

    def connected(self, hello):
        """A (re)connection: a resync event with the fresh snapshot (nothing assumed from before)."""
        self.stats["connects"] += 1
        snap = hello.get("snapshot") or self.link.snapshot()
        self.board_seq = snap.get("seq")
        self.online = True
        self.snapshot = snap
        self.emit("resync", {"reason": "connected", "firmware": hello.get("firmware"), "snapshot": snap})
        self.publish_state()
        self.say("connected: %s, firmware %s" % (self.link.name, hello.get("firmware")))
        self.check_match_end()  # what ended while the link was down is recorded now

    def pump(self, timeout):
        """Forward what the board sends within ``timeout`` s; one snapshot after a burst of events."""
        event = self.link.next_event(timeout)
        if event is None:
            return False
        refresh = ended = False
        while event is not None:
            refresh = self.forward(event) or refresh
            ended = ended or event.get("event") in GAME_END_EVENTS or (
                event.get("event") == "phase" and event.get("phase") in ("game-over", "match-over"))
            event = self.link.next_event(0.002)  # the rest of a burst (a DONE brings several events)
        if refresh or ended:
            self.refresh(ended)
        return True

    def refresh(self, ended=True):
        self.snapshot = self.link.snapshot()
        self.publish_state()
        if ended:
            self.check_match_end()

    def forward(self, event):
        seq = event.get("seq")
        name = event.get("event")
        if isinstance(seq, int) and isinstance(self.board_seq, int) and seq != self.board_seq + 1:
            if seq <= self.board_seq:
                return False  # already forwarded
            self.stats["board_gaps"] += 1
            snap = self.link.snapshot()
            self.snapshot = snap
            self.emit("resync", {"reason": "board events %d..%d lost" % (self.board_seq + 1, seq - 1),
                                 "snapshot": snap})
        if isinstance(seq, int):
            self.board_seq = seq
        fields = dict(event)
        fields["board_seq"] = seq
        fields.pop("seq", None)
        if name == "record" and last_play_of(event.get("text")):
            self.last_play = event["text"]
        elif name in ("new_game", "record_reset"):
            self.last_play = None
        self.emit(name or "event", fields)
        return name in SNAPSHOT_EVENTS

    def check_match_end(self):
        """Record every match that ended on the board since the room first saw it (a money session: each game).

        The ends are read from the board's directory of matches (``matches``: a match whose score reached
        its length, a money session whose game count grew) and each record from the board (``record``), not
        from the live phase: a match whose players pressed DONE at once (a new match already started) is
        still recorded. A board without a directory (a game from a loaded position keeps a text log only)
        is recorded from its snapshot at the match's end.
        """
        try:
            entries = self.directory()
        except CommandError as exc:
            self.say("cannot read the board's directory of matches: %s" % exc)
            entries = []
        snap = self.snapshot or {}
        if not entries:
            phase = snap.get("phase")
            if phase == "match-over" or phase == "game-over" and not snap.get("match_length"):
                self.record_match(None, snap, {"score": snap.get("score"), "length": snap.get("match_length"),
                                               "result": snap.get("result")})
            return
        live = (snap.get("storage") or {}).get("match")
        for info in entries:
            mid, length, games = info.get("id"), info.get("length") or 0, info.get("games") or 0
            score = info.get("score") or [0, 0]
            over = max(score) >= length if length else games > 0
            key = (mid, games if not length else 0)
            if not over or key in self.ended:
                continue
            if self.ended_before_the_room(info, live, snap):
                self.ended.add(key)  # a money game that ended before the room came: not this room's to record
                continue
            self.ended.add(key)
            self.record_match(mid, snap, {"score": score, "length": length})

    def directory(self):
        """The directory entries the room records from (the first connection fixes where they start)."""
        if self.watch_from is None:
            entries, _storage = self.link.matches()
            self.watch_from = entries[-1]["id"] if entries else 0
            self.first_seen = {e["id"]: e.get("games") for e in entries}
            return [e for e in entries if e["id"] >= self.watch_from]
        return self.link.matches(self.watch_from)[0]

    def ended_before_the_room(self, info, live, snap):
        """True for a money session's game that had ended before the room first read the directory (unless
        the board still shows that game's end)."""
        seen = self.first_seen.get(info["id"])
        if info.get("length") or seen is None or (info.get("games") or 0) > seen:
            return False
        return not (info["id"] == live and snap.get("phase") == "game-over")

    def record_match(self, mid, snap, info):
        """Pull the record of match ``mid`` (None: the live one), write it and publish it, once."""
        import hashlib

        from pipboard.export import ExportError

        try:
            data = self.link.record(mid)
        except CommandError as exc:
            self.say("cannot read the match record: %s" % exc)
            return
        digest = hashlib.sha256(data).hexdigest()
        if digest in self.recorded:
            return
        players = self.state()["players"]
        self.recorded.add(digest)
        try:
            mat, sgf = match_texts(data, snap, players, self.event_name, self.round)
        except (ExportError, ValueError) as exc:
            self.emit("match_error", {"message": str(exc), "match_id": mid})
            self.say("the match record cannot be exported: %s" % exc)
            return
        stem = record_file_stem(self.event_name, self.round, players["white"], players["black"])
        files = []
        if self.recorder is not None:
            try:
                files = self.recorder.write(stem, mat, sgf)
            except OSError as exc:  # FileWriteError names the file; the match is still published below
                self.emit("match_error", {"message": str(exc)})
                self.say("the match cannot be written: %s" % exc)
        self.matches += 1
        result = info.get("result") or last_result(data, snap)
        match = {"event_name": self.event_name, "round": self.round, "players": players,
                 "score": info.get("score"), "match_length": info.get("length"), "result": result,
                 "board_match": mid, "file": stem, "files": [os.path.basename(p) for p in files], "mat": mat,
                 "sgf": sgf}
        payload = self.emit("match", match)
        self.publish(board_topic(self.room, self.name, "match"), payload, True)
        self.publish_state()
        self.say("match over %s: recorded %s" % (info.get("score"), ", ".join(files) or "(no --record folder)"))


def last_result(data, snap):
    """``[winner, kind, points]`` of the record's last game end, or None."""
    from pipboard.export import board_record
    from pipcore.record import read_record

    try:
        ends = [e for e in read_record(board_record(data, snap)).entries if e[0] == "end"]
    except ValueError:
        return None
    return list(ends[-1][1:4]) if ends else None


class Room:
    """The room: its own broker connection (status, resync requests, pairings) and one bridge per board, each
    with a broker connection of its own (on a broker with accounts, ``board-NAME``: it may publish its own
    board's topics only; docs/room.md)."""

    def __init__(self, broker_url, room, boards, record_dir=None, event=None, out=None, accounts=None, ca=None):
        self.room = check_name("room", room)
        self.recorder = Recorder(record_dir) if record_dir else None
        self.out = out
        self.accounts = accounts
        status = room_topic(self.room, "status")
        self.broker = BrokerLink(broker_url, "pipboard-room", on_connect=self._on_connect,
                                 on_message=self._on_message, will=(status, {"v": ROOM_VERSION, "online": False}),
                                 ca=ca, out=out, **self.account("room"))
        self.bridges = {}
        self.links = {}  # board name -> its bridge's broker connection
        self.running = False
        for spec in boards:
            name = spec["name"]
            if name in self.bridges:
                raise RoomError("board %r is named twice" % name)
            link = BrokerLink(broker_url, "pipboard-board-" + name, ca=ca, out=out,
                              **self.account(board_account(name)))
            bridge = BoardBridge(self.room, name, spec["target"], publisher(link),
                                 players={"white": spec.get("white"), "black": spec.get("black")},
                                 event=spec.get("event", event), round_=spec.get("round"),
                                 recorder=self.recorder, out=out)
            link.on_connect_cb = bridge.republish
            self.bridges[name] = bridge
            self.links[name] = link
        if not self.bridges:
            raise RoomError("a room needs at least one board (--board NAME=TARGET)")

    def account(self, name):
        """``{"username", "password"}`` of an account of the room's accounts file (none: an open broker)."""
        if self.accounts is None:
            return {}
        from pipboard.roomauth import credentials

        username, password = credentials(self.accounts, name)  # AccountsError is a RoomError
        return {"username": username, "password": password}

    def _on_connect(self, link):
        link.subscribe(room_topic(self.room, "resync"))
        link.subscribe(room_topic(self.room, "board", "+", "pairing"))
        link.publish(room_topic(self.room, "status"), self.status(), retain=True)

    def status(self):
        return {"v": ROOM_VERSION, "online": True, "room": self.room, "boards": sorted(self.bridges),
                "time": time.time()}

    def _on_message(self, topic, obj, retained):
        if topic == room_topic(self.room, "resync"):
            bridge = self.bridges.get(obj.get("board"))
            if bridge is not None:
                bridge.stats["resyncs"] += 1
                bridge.replay(obj.get("from"))
            return
        parts = topic.split("/")
        if len(parts) == 7 and parts[-1] == "pairing" and parts[5] in self.bridges:
            self.bridges[parts[5]].set_pairing(obj)

    def start(self, wait=5.0):
        """Connect and start every bridge; True once the room's connection is up within ``wait`` s."""
        self.broker.start()
        for name, bridge in self.bridges.items():
            self.links[name].start()
            bridge.start()
        self.running = True
        threading.Thread(target=self._heartbeat, name="room-heartbeat", daemon=True).start()
        return self.broker.wait_connected(wait)

    def _heartbeat(self):
        """Each board's snapshot at least every HEARTBEAT_S: a subscriber that lost events sees it by its seq."""
        while self.running:
            time.sleep(HEARTBEAT_S / 4)
            now = time.monotonic()
            for name, bridge in list(self.bridges.items()):
                if self.running and now - bridge.state_at >= HEARTBEAT_S and self.links[name].connected.is_set():
                    bridge.publish_state()

    def stop(self):
        self.running = False
        for bridge in self.bridges.values():
            bridge.running = False
        for bridge in self.bridges.values():
            bridge.stop()
        for link in self.links.values():
            link.stop()
        self.broker.publish(room_topic(self.room, "status"), {"v": ROOM_VERSION, "online": False}, retain=True)
        time.sleep(0.2)
        self.broker.stop()


def publisher(link):
    """A bridge's ``publish(topic, obj, retain)`` over its own broker connection."""
    def publish(topic, obj, retain):
        link.publish(topic, obj, retain=retain)
    return publish


def board_account(board):
    """The broker account of a board's bridge (docs/room.md)."""
    return "board-" + board


# -- the command -------------------------------------------------------------------
def parse_boards(args):
    """Board specs from ``--config FILE`` and ``--board NAME=TARGET`` / ``--pair NAME=WHITE,BLACK[,ROUND]``."""
    boards = []
    if args.config:
        try:
            with open(args.config, encoding="utf-8") as f:
                config = json.load(f)
        except (OSError, ValueError) as exc:
            raise RoomError("cannot read the room config %s: %s" % (args.config, exc))
        if not isinstance(config, dict) or not isinstance(config.get("boards", []), list):
            raise RoomError("the room config is a JSON object with a list 'boards'")
        for spec in config.get("boards", []):
            if not isinstance(spec, dict) or "name" not in spec or "target" not in spec:
                raise RoomError("each board of the config needs 'name' and 'target': %r" % (spec,))
            boards.append(dict(spec))
        for key in ("room", "event", "broker", "record"):
            if config.get(key) and not getattr(args, key, None):
                setattr(args, key, config[key])
    for text in args.board or []:
        name, sep, target = text.partition("=")
        if not sep or not target:
            raise RoomError("--board %r: write NAME=TARGET (a serial port, or sim:HOST:PORT)" % text)
        boards.append({"name": check_name("board", name), "target": target})
    by_name = {b["name"]: b for b in boards}
    for text in args.pair or []:
        name, sep, rest = text.partition("=")
        fields = rest.split(",")
        if not sep or name not in by_name or len(fields) not in (2, 3):
            raise RoomError("--pair %r: write BOARD=WHITE,BLACK[,ROUND] for a board named by --board" % text)
        by_name[name]["white"], by_name[name]["black"] = fields[0].strip(), fields[1].strip()
        if len(fields) == 3:
            by_name[name]["round"] = fields[2].strip()
    for spec in boards:
        check_name("board", spec["name"])
        if "round" not in spec and getattr(args, "round", None) is not None:
            spec["round"] = args.round
    return boards


def setup_broker(folder, room, boards, out=sys.stdout):
    """``--setup-broker DIR``: the broker's files for ``room`` and its ``boards`` (pipboard.roomauth)."""
    from pipboard.roomauth import write_broker_files

    if not boards:
        raise RoomError("name the room's boards (--board NAME=TARGET or --config) to give each its account")
    try:
        write_broker_files(folder, room, boards)
    except OSError as exc:
        raise RoomError("cannot write the broker's files in %s: %s" % (folder, exc))
    out.write("wrote %s: accounts.json (the passwords: keep it private), passwd, acl, mosquitto.conf\n"
              "Debian's broker runs as the user mosquitto: chgrp mosquitto passwd acl (and chmod 640 passwd)\n"
              "start the broker: mosquitto -c %s\n"
              "start the room:   pipboard room --accounts %s ...\n"
              "after adding a board: run this again, then make Mosquitto reload its files (kill -HUP)\n"
              % (folder, os.path.join(folder, "mosquitto.conf"), os.path.join(folder, "accounts.json")))
    return 0


def add_arguments(p):
    p.add_argument("--broker", help="the MQTT broker, mqtt://HOST:PORT (default mqtt://127.0.0.1:1883)")
    p.add_argument("--room", help="the room's name in the topics (default 'club')")
    p.add_argument("--event", help="the event's name (recorded with every match)")
    p.add_argument("--round", help="the round (recorded with every match; --pair can give one per board)")
    p.add_argument("--board", action="append", metavar="NAME=TARGET",
                   help="a board: its name and its port (/dev/ttyACM0, COM5) or simulator (sim:HOST:PORT); repeat")
    p.add_argument("--pair", action="append", metavar="NAME=WHITE,BLACK[,ROUND]", help="the players of a board")
    p.add_argument("--config", help="a JSON file: {\"room\", \"event\", \"boards\": [{\"name\", \"target\", "
                   "\"white\", \"black\", \"round\"}]}")
    p.add_argument("--record", metavar="DIR", help="write every finished match to DIR as .mat and .sgf")
    p.add_argument("--http-port", type=int, default=8780, help="the room page's port (default 8780; 0: no page)")
    p.add_argument("--host", default="127.0.0.1", help="address the room page listens on (default 127.0.0.1)")
    p.add_argument("--accounts", metavar="FILE", help="the broker accounts (accounts.json of --setup-broker): the "
                   "room and each board's bridge log in with their own")
    p.add_argument("--broker-ca", metavar="FILE", help="the certificate authority of a TLS broker (mqtts://), if "
                   "not one the system trusts")
    p.add_argument("--setup-broker", metavar="DIR", help="write Mosquitto's password file, ACL file and a config "
                   "for this room's boards in DIR (and accounts.json for --accounts), then exit")
    p.add_argument("--demo", type=int, default=0, metavar="N",
                   help="add N simulated boards that play matches by themselves (to try the room)")


def run(args, out=sys.stdout):
    from pipboard.mqttlink import BrokerError as _BrokerError

    demo = []
    try:
        boards = parse_boards(args)
        if args.demo:
            from pipboard.simtable import SimTable

            for i in range(args.demo):
                table = SimTable(seed=1000 + i, match_length=5, pace_s=0.4)
                demo.append(table)
                boards.append({"name": "sim%d" % (i + 1), "target": table.target, "white": "Sim W%d" % (i + 1),
                               "black": "Sim B%d" % (i + 1), "round": args.round or 1})
        if getattr(args, "setup_broker", None):
            return setup_broker(args.setup_broker, args.room or "club", [b["name"] for b in boards], out)
        accounts = None
        if getattr(args, "accounts", None):
            from pipboard.roomauth import load_accounts

            accounts = load_accounts(args.accounts)
        room = Room(args.broker or "mqtt://127.0.0.1:1883", args.room or "club", boards, args.record,
                    args.event, out, accounts=accounts, ca=getattr(args, "broker_ca", None))
    except (RoomError, _BrokerError) as exc:
        sys.stderr.write("pipboard room: %s\n" % exc)
        return 2
    page = None
    try:  # Ctrl-C at any moment from here (even while the boards start) stops the room cleanly
        if not room.start(wait=5.0):
            out.write("broker %s not reachable yet: the room keeps trying\n" % room.broker.url)
        if args.http_port:
            from pipboard.roompage import RoomPage

            try:
                page = RoomPage(room.broker.url, room.room, args.host, args.http_port,
                                ca=getattr(args, "broker_ca", None), **room.account("room"))
            except OSError as exc:
                sys.stderr.write("pipboard room: the room page cannot listen on port %d: %s\n"
                                 % (args.http_port, exc))
                return 1
            out.write("room page: %s\n" % page.url)
        for table in demo:
            table.start()
        out.write("room %r on %s: %d board%s%s. Ctrl-C stops it.\n" % (
            room.room, room.broker.url, len(room.bridges), "" if len(room.bridges) == 1 else "s",
            ", recording to %s" % args.record if args.record else ""))
        out.flush()
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        out.write("\nstopping the room.\n")
    finally:
        for table in demo:
            table.stop()
        if page is not None:
            page.close()
        room.stop()
    return 0


__all__ = ["Room", "BoardBridge", "Recorder", "RoomError", "BrokerError", "room_topic", "board_topic"]
