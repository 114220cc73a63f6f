"""The board's serial protocol: newline-delimited JSON frames (docs/protocol.md).

Pure: bytes come in through ``ProtocolHandler.feed`` and reply lines go out
through the ``write`` callable it was given. The same handler serves the
Pico's USB serial (``pipdrivers.usb_serial``) and the simulator's TCP port,
so every host tool and test works with either.

Frames, one JSON object per line (``\\n``; a trailing ``\\r`` is ignored):

    host -> board   {"id": 7, "cmd": "set_position", "position_id": "4HPwATDgc/ABMA"}
    board -> host   {"id": 7, "ok": true, ...}
                    {"id": 7, "ok": false, "error": "bad_args", "message": "..."}
                    {"event": "play", "seq": 12, ...}          (numbered events)

Input is read into one preallocated buffer of ``MAX_FRAME`` bytes. A frame
that is too long, not UTF-8, not JSON, not an object, names an unknown
command or carries bad arguments gets exactly one error reply and changes
nothing. Commands that would let a host cheat (choosing dice, injecting
sensor readings) are refused unless the board was started in test mode.

The handler drives the game through a narrow *app* seam (duck-typed):

    app.snapshot() -> dict          full state: position_id, match_id, dice,
                                    cube, phase, options, variant, ...
    app.new_game(variant, options)  options: complete dict (pipcore.options)
    app.set_position(position_id, match_id)     match_id may be None
    app.show_play(play_text)        an outside play (gnubg notation, or the
                                    Position ID of its result) to show
    app.show_cube(action)           "double", "take", "drop", "beaver", "raccoon"
                                    (an outside player's cube decision)
    app.roll()                      an outside player asks the board to roll
                                    its own dice (not a choice of dice)
    app.resign(player, action, level)   a resignation: ``player`` offers
                                    (level 1..3), accepts, declines, withdraws
    app.coach(player, segments, level, loss, text) -> bool
                                    the coach's word on ``player``'s last action
                                    (the better play's parsed segments, the
                                    rating 0..3, the equity lost in thousandths);
                                    True if the board lights it now
    app.record_page(match, offset, n) -> (total, bytes)
                                    a page of a match's record (match None: the
                                    live one; its text log where it keeps none)
    app.matches(start, n) -> (entries, next)    the directory of matches
    app.mark_exported(match, length), app.delete_match(match), app.set_time(seconds)
    app.storage() -> dict           (optional: a board without a match directory
                                    refuses them; pipcore.bridge.AppBridge serves them through
                                    pipcore.directory, loaded on demand)
    app.pop_event() -> dict|None    the next event for the host
    app.error, app.faults           (optional) the fault shown on the board, and
                                    how many faults it survived (pipcore.guard)
    app.self_test(action) -> dict|None   "start", "stop" or "status" of the
                                    guided switch test (pipcore.selftest)
    test mode only:
    app.set_dice(dice)              the next roll, e.g. (3, 1)
    app.remote_dice(dice, commitment, roll)   the next roll of a remote match,
                                    from its dice authority (any mode; shown
                                    in the snapshot as "remote")
    app.advance(ms)                 the board's time jumps ``ms`` ahead (the
                                    tournament clock runs out without waiting)
    app.inject(kind, index, value[, player])  kind "sensor": the checkers
                                    sensed at a location (index 0..27, value
                                    0..15); kind "button": press button
                                    ``index`` (value 1), of ``player`` (0 white,
                                    1 black) if given; kind "press": physical
                                    button ``index`` (0..9, geometry.BUTTON_NAMES)
                                    pressed short (value 1) or held (2); kind
                                    "switch": scan bit ``index`` of the simulated
                                    board's switches free (0), stuck closed (1)
                                    or stuck open (2)

The app raises a ValueError subclass when it refuses a command; its message
is sent back as ``"error": "rejected"``.
"""

import gc
import io
import json

from pipcore.compat import const

PROTOCOL_VERSION = const(1)
MAX_FRAME = const(1024)  # bytes of one frame, newline excluded
RECORD_CHUNK = const(384)  # record bytes per "record" reply (base64: 512 chars)
MATCHES_PAGE = const(6)  # directory entries per "matches" reply
_MAX_ID_TEXT = const(40)
_OUT_CHUNK = const(128)  # bytes of a reply written at a time (pipcore.protocol._LineOut)

# the reply when even an error reply cannot be built (no id: formatting one needs memory)
_NO_MEMORY = b'{"ok": false, "error": "internal", "message": "out of memory: try again"}\n'

_NL = const(10)
_CR = const(13)

# Error codes (the "error" field of a failed reply).
E_OVERSIZED = "oversized"
E_BAD_FRAME = "bad_frame"
E_UNKNOWN = "unknown_command"
E_BAD_ARGS = "bad_args"
E_TEST_ONLY = "test_mode_only"
E_REJECTED = "rejected"
E_INTERNAL = "internal"

CUBE_ACTIONS = ("double", "take", "drop", "beaver", "raccoon")
RESIGN_ACTIONS = ("offer", "accept", "decline", "withdraw")
INJECT_KINDS = ("sensor", "button", "press", "switch")
INJECT_VALUES = ((0, 15), (0, 1), (1, 2), (0, 2))  # per kind: the values it takes
SELF_TEST_ACTIONS = ("start", "stop", "status")

# command -> {argument: (type names, required)}; anything else is refused.
_STR = ("str",)
_INT = ("int",)
_COMMANDS = {
    "ping": {"data": (("str", "int"), False)},
    "hello": {},
    "snapshot": {},
    "new_game": {"variant": (_STR, False), "options": (("dict",), False)},
    "set_position": {"position_id": (_STR, True), "match_id": (_STR, False)},
    "show_play": {"play": (_STR, True)},
    "show_cube": {"action": (_STR, True)},
    "roll": {},
    "resign": {"player": (_INT, True), "action": (_STR, False), "level": (_INT, False)},
    "coach": {"player": (_INT, True), "rating": (_STR, True), "loss": (_INT, False), "play": (_STR, False),
              "text": (_STR, False)},
    "record": {"offset": (_INT, False), "match": (_INT, False)},
    "matches": {"start": (_INT, False)},
    "exported": {"match": (_INT, True), "length": (_INT, True)},
    "delete_match": {"match": (_INT, True)},
    "set_time": {"time": (_INT, True)},
    "set_dice": {"dice": (("list",), True)},
    "remote_dice": {"dice": (("list",), True), "commitment": (_STR, True), "roll": (_INT, True)},
    "inject": {"kind": (_STR, True), "index": (_INT, True), "value": (_INT, True), "player": (_INT, False)},
    "repl": {},
    "self_test": {"action": (_STR, False)},
    "advance": {"ms": (_INT, True)},
    "reset": {"how": (_STR, False)},
}
TEST_ONLY = ("set_dice", "inject", "advance", "reset")
RESET_KINDS = ("power", "watchdog")
MAX_ADVANCE_MS = const(86400000)  # one "advance" jumps at most a day
COMMANDS = tuple(sorted(_COMMANDS))


def geometry_summary():
    """What the hello tells a host about the board (from ``pipcore.geometry``)."""
    try:
        from pipcore import geometry as g
    except ImportError:
        return {}
    return {"points": g.POINTS, "locations": g.LOCATIONS, "slots": g.SLOTS, "sensors": g.SENSORS, "leds": g.LEDS,
            "buttons": g.BUTTONS}


class ProtocolError(ValueError):
    """A frame the board refuses; ``code`` is the reply's error code."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def type_name(value):
    t = type(value)
    if t is bool:
        return "bool"
    if t is int:
        return "int"
    if t is str:
        return "str"
    if t is dict:
        return "dict"
    if t is list:
        return "list"
    return "other"


class FrameReader:
    """Split a byte stream into lines using one fixed buffer.

    ``feed(data, on_frame)`` calls ``on_frame(memoryview)`` for each complete
    non-empty line, or ``on_frame(None)`` once for a line longer than the
    buffer (the rest of that line is skipped, nothing is allocated).
    """

    def __init__(self, size=MAX_FRAME):
        self.buf = bytearray(size)
        self.view = memoryview(self.buf)
        self.size = size
        self.length = 0
        self.overflow = False

    def reset(self):
        """Forget a partial line (e.g. after the host reconnects)."""
        self.length = 0
        self.overflow = False

    def feed(self, data, on_frame):
        buf = self.buf
        size = self.size
        for b in data:
            if b == _NL:
                n = self.length
                if self.overflow:
                    self.overflow = False
                    self.length = 0
                    on_frame(None)
                    continue
                if n and buf[n - 1] == _CR:
                    n -= 1
                self.length = 0
                if n:
                    on_frame(self.view[:n])
            elif self.overflow:
                continue
            elif self.length == size:
                self.overflow = True
            else:
                buf[self.length] = b
                self.length += 1


class ProtocolHandler:
    """Answer host frames and forward the app's events as numbered frames."""

    def __init__(self, app, write, firmware_version="", geometry=None, test_mode=False, board="pipboard"):
        self.app = app
        self.write = write
        self.streamed = False  # True: ``write`` takes a line in pieces (a byte stream: pipdrivers.usb_serial)
        self._out = None  # the reply stream (_LineOut), made at the first reply
        self.firmware_version = firmware_version
        self.geometry = geometry if geometry is not None else geometry_summary()
        self.test_mode = bool(test_mode)
        self.board = board
        self.seq = 0
        self.reader = FrameReader()
        self._on_frame = self.on_frame  # bound once: feed() runs for every byte and must not allocate
        self.frames = 0
        self.errors = 0
        self.can_repl = False  # HostLink (the Pico's USB port) sets it; the simulator has no REPL
        self.repl_requested = False  # a host asked for the REPL: the loop stops after this reply
        self.can_reset = False  # test mode's "reset": main.py (the Pico) and the simulator act on it
        self.reset_requested = None  # "power" or "watchdog": the loop's owner acts after this reply
        # HostLink sets it: a whole frame is kept in ``waiting`` and answered from the main loop's own level
        # (``answer``), as deep as a button press, not from inside the byte pump (the Pico's C stack is 8 KB)
        self.deferred = False
        self.waiting = None

    # -- input ------------------------------------------------------------
    def feed(self, data):
        """Take raw bytes from the link; replies go out through ``write``.

        Returns True once a host asked for the REPL (the caller stops reading:
        what follows is for the REPL), and, when ``deferred``, as soon as a
        whole frame waits in ``waiting`` (the caller answers it, then feeds
        the next bytes: the frame is a view of the reader's buffer).
        """
        self.reader.feed(data, self._on_frame)
        return self.repl_requested or self.waiting is not None

    def handle_line(self, line):
        """Handle one complete frame (bytes without the newline)."""
        self.answer(memoryview(line) if line else None)

    def on_frame(self, frame):
        if self.deferred:
            self.waiting = frame if frame is not None else b""  # (b"": the frame that was too long)
            return
        self.answer(frame)

    def answer(self, frame):
        """Decode, check and run one frame, and send its one reply (``frame`` None: it was too long).

        The command runs from here, not from a chain of helpers: with the
        byte pump above it (HostLink.poll) it is as deep on the Pico's C
        stack as a button press (tests/pico/depth.py measures both).
        """
        self.frames += 1
        request_id = None
        try:
            if frame is None:
                raise ProtocolError(E_OVERSIZED, "frame longer than %d bytes" % MAX_FRAME)
            msg = _decode(frame)
            request_id = msg.get("id")
            if request_id is not None and not _valid_id(request_id):
                request_id = None
                raise ProtocolError(E_BAD_FRAME, "id must be an integer or a string of at most %d characters"
                                    % _MAX_ID_TEXT)
            result = self.command(msg)(msg)
        except ProtocolError as exc:
            self._send_error(request_id, exc.code, exc.message)
            return
        except ValueError as exc:  # the app or the core refused the command
            self._send_error(request_id, E_REJECTED, str(exc) or type(exc).__name__)
            return
        except MemoryError:
            self._out_of_memory(request_id)
            return
        except Exception as exc:  # never let one frame stop the board
            self._send_error(request_id, E_INTERNAL, "%s: %s" % (type(exc).__name__, exc))
            return
        reply = {"ok": True}
        if request_id is not None:
            reply["id"] = request_id
        if result:
            for key in result:
                reply[key] = result[key]
        result = None
        try:
            self._send(reply)
        except MemoryError:  # a big reply (a snapshot) did not fit: the host still gets its one reply
            reply = None
            self._out_of_memory(request_id)

    def _out_of_memory(self, request_id):
        gc.collect()
        try:
            self._send_error(request_id, E_INTERNAL, "out of memory: try again")
        except MemoryError:
            self.errors += 1
            self.write(_NO_MEMORY)

    def dispatch(self, msg):
        """Validate a decoded frame and run its command; returns the reply fields."""
        return self.command(msg)(msg)

    def command(self, msg):
        """Validate a decoded frame; returns its command's method (``_cmd_NAME``, called with ``msg``)."""
        cmd = msg.get("cmd")
        if type(cmd) is not str:
            raise ProtocolError(E_BAD_FRAME, 'a frame needs "cmd": the command name as a string')
        spec = _COMMANDS.get(cmd)
        if spec is None:
            raise ProtocolError(E_UNKNOWN, "unknown command %r (known: %s)" % (cmd[:40], ", ".join(COMMANDS)))
        for key in msg:
            if key == "cmd" or key == "id":
                continue
            if type(key) is not str:  # MicroPython's lenient json can produce these
                raise ProtocolError(E_BAD_FRAME, "frame keys must be strings")
            if key not in spec:
                raise ProtocolError(E_BAD_ARGS, "%s takes no argument %r" % (cmd, key[:40]))
            if type_name(msg[key]) not in spec[key][0]:
                raise ProtocolError(E_BAD_ARGS, "%s: %s must be %s" % (cmd, key, " or ".join(spec[key][0])))
        for key in spec:
            if spec[key][1] and key not in msg:
                raise ProtocolError(E_BAD_ARGS, "%s needs %r" % (cmd, key))
        if cmd in TEST_ONLY and not self.test_mode:
            raise ProtocolError(E_TEST_ONLY, "%s works only when the board was started in test mode" % cmd)
        method = getattr(self, "_cmd_" + cmd, None)
        if method is not None:
            return method
        from pipcore import protocmds  # the less frequent commands: loaded at the first of them

        run = getattr(protocmds, cmd)
        return lambda msg: run(self, msg)

    # -- commands ---------------------------------------------------------
    def _cmd_ping(self, msg):
        reply = {"pong": msg["data"] if "data" in msg else True}
        if self.test_mode:  # the free heap after a collection (None where the runtime has no such figure)
            free = getattr(gc, "mem_free", None)
            if free is not None:
                gc.collect()
            reply["mem_free"] = free() if free is not None else None
        return reply

    def _cmd_hello(self, msg):
        reply = self.hello()
        reply["snapshot"] = self.snapshot()
        return reply

    def _cmd_snapshot(self, msg):
        return {"snapshot": self.snapshot()}

    def _cmd_new_game(self, msg):
        variant = msg.get("variant", "backgammon")
        if variant == "backalley":  # the board keeps a Back Alley score (pipcore.bamode, docs/backalley.md)
            from pipcore.bahost import ba_options

            options = ba_options(msg.get("options"))
        else:
            from pipcore.options import make_options

            options = make_options(msg.get("options"), variant)
        self.app.new_game(variant, options)
        return {"snapshot": self.snapshot()}

    def _cmd_set_position(self, msg):
        from pipcore.position import Position

        position_id = msg["position_id"]
        Position.from_id(position_id)  # validate before the app sees it
        match_id = msg.get("match_id")
        if match_id is not None:
            _check_match_id(match_id)
        self.app.set_position(position_id, match_id)
        return {"snapshot": self.snapshot()}

    def _cmd_show_play(self, msg):
        from pipcore.notation import parse_play

        play = msg["play"]
        if not (len(play) == 14 and " " not in play):  # (a Position ID of the result goes to the app)
            parse_play(play)  # notation errors are reported before the app sees it
        self.app.show_play(play)
        return None

    def _cmd_show_cube(self, msg):
        action = msg["action"]
        if action not in CUBE_ACTIONS:
            raise ProtocolError(E_BAD_ARGS, "show_cube: action must be one of %s" % ", ".join(CUBE_ACTIONS))
        self.app.show_cube(action)
        return None

    def _cmd_roll(self, msg):
        self.app.roll()

    def _cmd_resign(self, msg):
        player = msg["player"]
        action = msg.get("action", "offer")
        if player not in (0, 1) or action not in RESIGN_ACTIONS:
            raise ProtocolError(E_BAD_ARGS, "resign: player is 0 or 1, action one of %s" % ", ".join(RESIGN_ACTIONS))
        level = msg.get("level", 0)
        if (action == "offer") != (1 <= level <= 3):
            raise ProtocolError(E_BAD_ARGS, "resign: an offer has a level 1..3 (single, gammon, backgammon); "
                                            "an answer has none")
        return self.app.resign(player, action, level)

    def _cmd_coach(self, msg):
        from pipcore.coaching import command

        return command(self.app, msg)

    def _cmd_repl(self, msg):
        if not self.can_repl:
            raise ValueError("this port has no REPL to hand over (the simulator; CircuitPython's REPL has a port "
                             "of its own)")
        self.repl_requested = True
        return {"repl": "the game stops and the board restarts without it: the REPL is free in about 2 s"}

    # -- output -----------------------------------------------------------
    def hello(self):
        return {
            "hello": self.board,
            "protocol": PROTOCOL_VERSION,
            "firmware": self.firmware_version,
            "geometry": self.geometry,
            "test_mode": self.test_mode,
            "max_frame": MAX_FRAME,
        }

    def snapshot(self):
        snap = self.app.snapshot()
        snap["seq"] = self.seq
        return snap

    def announce(self):
        """Send an unsolicited hello event (at boot or when a host appears)."""
        event = self.hello()
        event["snapshot"] = self.snapshot()
        self.emit("hello", event)

    def emit(self, name, fields=None):
        """Send one numbered event frame."""
        self.seq += 1
        frame = {"event": name, "seq": self.seq}
        if fields:
            for key in fields:
                if key != "event" and key != "seq":
                    frame[key] = fields[key]
        self._send(frame)

    def poll(self, limit=16):
        """Forward up to ``limit`` pending app events; returns how many were sent."""
        sent = 0
        pop = getattr(self.app, "pop_event", None)
        if pop is None:
            return 0
        while sent < limit:
            event = pop()
            if event is None:
                break
            name = event.get("event") or event.get("type") or "event"
            self.emit(name, event)
            sent += 1
        return sent

    def _send_error(self, request_id, code, message):
        self.errors += 1
        reply = {"ok": False, "error": code, "message": message}
        if request_id is not None:
            reply["id"] = request_id
        self._send(reply)

    def _send(self, obj):
        if not self.streamed:
            self.write((json.dumps(obj) + "\n").encode())  # one write a line (the simulator's clients)
            return
        # a byte stream (the Pico's USB serial): written through a small kept buffer. ``json.dumps`` built
        # the whole line (a hello with its snapshot, 1.5-2 KB, grown by doubling) and copied it twice; in a
        # turn's fragmented heap the emulated Pico answered every hello "out of memory" with 36 KB free
        out = self._out
        if out is None:
            out = self._out = _LineOut(self)
        try:
            json.dump(obj, out)
            out.write(b"\n")
            out.flush()
        except MemoryError:
            out.n = 0
            self.write(b"\n")  # the part already sent ends as a line the host drops (not JSON)
            raise


class _LineOut(io.IOBase):
    """A stream for ``json.dump`` into the handler's ``write`` (looked up at each piece: the simulator
    points it at the client being answered), in pieces of at most ``_OUT_CHUNK`` bytes (MicroPython's
    json writes to a stream in many small bytes pieces, CPython's in str pieces)."""

    def __init__(self, handler):
        self.handler = handler
        self.buf = bytearray(_OUT_CHUNK)
        self.n = 0

    def write(self, data):
        if type(data) is str:
            data = data.encode()
        size = len(data)
        if self.n + size > _OUT_CHUNK:
            self.flush()
            if size > _OUT_CHUNK:
                self.handler.write(bytes(data))
                return size
        self.buf[self.n:self.n + size] = data
        self.n += size
        return size

    def flush(self):
        if self.n:
            self.handler.write(bytes(self.buf[:self.n]))
            self.n = 0


def _decode(frame):
    try:
        text = bytes(frame).decode("utf-8")
    except MemoryError:
        raise  # not the host's fault: "out of memory, try again", never "bad frame"
    except Exception:  # UnicodeError on both Pythons
        raise ProtocolError(E_BAD_FRAME, "frame is not UTF-8 text")
    try:
        msg = json.loads(text)
    except MemoryError:
        raise
    except Exception:  # ValueError (MicroPython), JSONDecodeError/RecursionError (CPython)
        raise ProtocolError(E_BAD_FRAME, "frame is not valid JSON")
    if type(msg) is not dict:
        raise ProtocolError(E_BAD_FRAME, "a frame must be a JSON object")
    return msg


def _valid_id(value):
    t = type_name(value)
    return t == "int" or (t == "str" and len(value) <= _MAX_ID_TEXT)


def _check_match_id(match_id):
    """Validate a Match ID (``pipcore.matchid``, loaded only when one arrives)."""
    from pipcore.matchdecode import decode_match_id

    decode_match_id(match_id)
