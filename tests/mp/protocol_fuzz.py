"""Seeded frame fuzzer for the firmware's protocol handler (CPython and MicroPython).

``run(count, seed)`` feeds ``count`` random and mutated frames through a
``ProtocolHandler`` in randomly sized chunks and checks, frame by frame:

* exactly one reply comes back, and it is JSON;
* it is an error exactly when an independent reference check calls the frame
  bad (``reference_ok``), and every error names a known error code;
* a refused frame leaves the game untouched (the app saw no call).

Nothing here imports pytest, so the same code runs under the real MicroPython.
"""

import json

from pipcore import protocol
from pipcore.notation import parse_play
from pipcore.options import make_options
from pipcore.position import Position
from pipcore.rules import check_dice

TEMPLATES = (
    b'{"id": 1, "cmd": "ping"}',
    b'{"cmd": "hello"}',
    b'{"id": "a", "cmd": "snapshot"}',
    b'{"id": 3, "cmd": "new_game", "variant": "backgammon", "options": {"matchLength": 5}}',
    b'{"id": 4, "cmd": "set_position", "position_id": "4HPwATDgc/ABMA"}',
    b'{"id": 5, "cmd": "show_play", "play": "8/5 6/5"}',
    b'{"id": 6, "cmd": "show_cube", "action": "double"}',
    b'{"id": 7, "cmd": "record", "offset": 0}',
    b'{"id": 8, "cmd": "set_dice", "dice": [3, 1]}',
    b'{"id": 9, "cmd": "inject", "kind": "sensor", "index": 3, "value": 1}',
    b'{"id": 10, "cmd": "ping", "data": "abc"}',
    b'{"id": 11, "cmd": "new_game", "variant": "nardy"}',
    b'{"id": 12, "cmd": "roll"}',
    b'{"id": 13, "cmd": "repl"}',
    b'{"id": 14, "cmd": "remote_dice", "dice": [6, 2], "commitment": "a3f1c0d2e4b59687", "roll": 1}',
    b'{"id": 15, "cmd": "self_test", "action": "status"}',
    b'{"id": 16, "cmd": "inject", "kind": "press", "index": 9, "value": 2}',
    b'{"id": 15, "cmd": "advance", "ms": 61000}',
)
TOKENS = (
    b"null", b"true", b"false", b"-1", b"0", b"7", b"1e999", b"3.5", b'""', b'"x"', b"[]", b"{}",
    b'"ping"', b'"cmd"', b'"id"', b"[3, 1]", b"[6, 6, 6]", b'{"a": {"b": [1, {"c": null}]}}',
    b'"\\u0000"', b'"\\ud800"', b'"4HPwATDgc/ABMA"', b'"bar/off"', b"[[[[[[[[[[]]]]]]]]]]", b'"\xff\xfe"',
    b'"sensor"', b'"button"', b'"press"', b'"switch"', b'"stop"', b'"double"', b"99999999999999999999999", b'"nardy"', b'{"matchLength": 3}',
)
KNOWN_ERRORS = (
    protocol.E_OVERSIZED, protocol.E_BAD_FRAME, protocol.E_UNKNOWN, protocol.E_BAD_ARGS,
    protocol.E_TEST_ONLY, protocol.E_REJECTED,
)


class Rng:
    """xorshift32: the same sequence under CPython and MicroPython."""

    def __init__(self, seed):
        self.state = (seed * 2654435761 + 1) & 0xFFFFFFFF or 1

    def next(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.state = x
        return x

    def below(self, n):
        return self.next() % n

    def pick(self, seq):
        return seq[self.next() % len(seq)]


class RecordingApp:
    """The app seam with every mutating call logged (the game state under test)."""

    def __init__(self):
        self.calls = []
        self.record = bytes(range(256)) * 3

    def snapshot(self):
        return {"position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA", "dice": None, "cube": 1,
                "phase": "setup", "calls": len(self.calls)}

    def new_game(self, variant, options):
        self.calls.append(("new_game", variant))

    def set_position(self, position_id, match_id):
        self.calls.append(("set_position", position_id))

    def show_play(self, play):
        self.calls.append(("show_play", play))

    def show_cube(self, action):
        self.calls.append(("show_cube", action))

    def roll(self):
        self.calls.append(("roll",))

    def record_bytes(self):
        return self.record

    def set_dice(self, dice):
        self.calls.append(("set_dice", dice))

    def inject(self, kind, index, value, player=None):
        self.calls.append(("inject", kind, index, value) if player is None else ("inject", kind, index, value, player))

    def remote_dice(self, dice, commitment, roll):
        self.calls.append(("remote_dice", dice, commitment, roll))

    def self_test(self, action):
        self.calls.append(("self_test", action))
        return {"step": "clear"} if action == "start" else None
    def advance(self, ms):
        self.calls.append(("advance", ms))

    def pop_event(self):
        return None


def mutate(rng, frame):
    """One to three random edits of a frame (bytes concatenation: MicroPython-safe)."""
    data = bytes(frame)
    for _ in range(1 + rng.below(3)):
        op = rng.below(9)
        n = len(data)
        at = rng.below(n + 1)
        if op == 0 and n:
            at = rng.below(n)
            data = data[:at] + bytes([rng.below(256)]) + data[at + 1:]
        elif op == 1 and n:
            at = rng.below(n)
            data = data[:at] + data[at + 1:]
        elif op == 2:
            data = data[:at] + bytes([rng.below(256)]) + data[at:]
        elif op == 3:
            data = data[:at]
        elif op == 4:
            # replace one value (after a colon) with a random token
            colon = data.find(b":", at)
            if colon >= 0:
                end = colon + 1
                while end < n and data[end] not in b",}":
                    end += 1
                data = data[:colon + 1] + b" " + rng.pick(TOKENS) + data[end:]
        elif op == 5 and n > 1:
            data = data[:at] + data[:rng.below(n)] + data[at:]
        elif op == 6:
            close = data.rfind(b"}")
            if close > 0:
                key = rng.pick((b"x", b"id", b"cmd", b"kind", b"play", b"offset"))
                data = data[:close] + b', "' + key + b'": ' + rng.pick(TOKENS) + data[close:]
        elif op == 7:
            data = rng.pick(TOKENS)
        else:
            data = data[:at] + b"\r" + data[at:]
    return bytearray(data)


def random_frame(rng):
    kind = rng.below(20)
    if kind < 3:
        return bytearray(rng.pick(TEMPLATES))
    if kind < 15:
        return mutate(rng, rng.pick(TEMPLATES))
    if kind < 18:
        return bytearray([rng.below(256) for _ in range(rng.below(64))])
    if kind == 18:  # oversized: a valid frame padded past the buffer
        pad = protocol.MAX_FRAME + rng.below(200)
        return bytearray(b'{"cmd": "ping", "data": "' + b"a" * pad + b'"}')
    return bytearray(b'{"cmd": "ping", "data": "' + b"b" * (protocol.MAX_FRAME - 28) + b'"}')


def _is(value, names):
    t = type(value)
    name = "bool" if t is bool else "int" if t is int else "str" if t is str else "dict" if t is dict else \
        "list" if t is list else "other"
    return name in names


def reference_ok(frame, test_mode):
    """An independent opinion of whether a frame is a good command."""
    text = bytes(frame)
    if b"\n" in text:
        return None  # not one frame
    while text.endswith(b"\r"):
        text = text[:-1]  # only one CR is stripped; more are JSON whitespace issues below
        break
    if len(frame) > protocol.MAX_FRAME:
        return False
    try:
        msg = json.loads(text.decode("utf-8"))
    except Exception:
        return False
    if type(msg) is not dict:
        return False
    rid = msg.get("id")
    if rid is not None and not (_is(rid, ("int",)) or (_is(rid, ("str",)) and len(rid) <= 40)):
        return False
    cmd = msg.get("cmd")
    allowed = {
        "ping": {"data": ("str", "int")}, "hello": {}, "snapshot": {},
        "new_game": {"variant": ("str",), "options": ("dict",)},
        "set_position": {"position_id": ("str",), "match_id": ("str",)},
        "show_play": {"play": ("str",)}, "show_cube": {"action": ("str",)}, "roll": {}, "record": {"offset": ("int",)},
        "set_dice": {"dice": ("list",)}, "inject": {"kind": ("str",), "index": ("int",), "value": ("int",),
                                                            "player": ("int",)},
        "repl": {}, "remote_dice": {"dice": ("list",), "commitment": ("str",), "roll": ("int",)},
        "self_test": {"action": ("str",)},
        "advance": {"ms": ("int",)},
    }
    required = {"set_position": ("position_id",), "show_play": ("play",), "show_cube": ("action",),
                "set_dice": ("dice",), "inject": ("kind", "index", "value"),
                "remote_dice": ("dice", "commitment", "roll"), "advance": ("ms",)}
    if type(cmd) is not str or cmd not in allowed:
        return False
    for key in msg:
        if key not in ("cmd", "id") and (key not in allowed[cmd] or not _is(msg[key], allowed[cmd][key])):
            return False
    for key in required.get(cmd, ()):
        if key not in msg:
            return False
    if cmd in ("set_dice", "inject", "advance") and not test_mode:
        return False
    if cmd == "repl":
        return False  # the fuzzed handler, like the simulator's, has no REPL to hand over
    try:
        if cmd == "new_game":
            make_options(msg.get("options"), msg.get("variant", "backgammon"))
        elif cmd == "set_position":
            Position.from_id(msg["position_id"])
            if "match_id" in msg and len(msg["match_id"]) != 12:
                return False
        elif cmd == "show_play":
            if not (len(msg["play"]) == 14 and " " not in msg["play"]):
                parse_play(msg["play"])
        elif cmd == "show_cube":
            return msg["action"] in protocol.CUBE_ACTIONS
        elif cmd == "record":
            return 0 <= msg.get("offset", 0) <= 768
        elif cmd == "set_dice":
            d = msg["dice"]
            if len(d) != 2 or not _is(d[0], ("int",)) or not _is(d[1], ("int",)):
                return False
            check_dice(d)
        elif cmd == "remote_dice":
            d = msg["dice"]
            if len(d) != 2 or not _is(d[0], ("int",)) or not _is(d[1], ("int",)):
                return False
            if not 16 <= len(msg["commitment"]) <= 64 or msg["roll"] < 1:
                return False
            check_dice(d)
        elif cmd == "self_test":
            return msg.get("action", "start") in ("start", "stop", "status")
        elif cmd == "advance":
            return 1 <= msg["ms"] <= protocol.MAX_ADVANCE_MS
        elif cmd == "inject":
            values = {"sensor": (0, 15), "button": (0, 1), "press": (1, 2), "switch": (0, 2)}
            if msg["kind"] not in values:
                return False
            low, top = values[msg["kind"]]
            if "player" in msg and (msg["kind"] != "button" or msg["player"] not in (0, 1)):
                return False
            return low <= msg["value"] <= top and msg["index"] >= 0
    except ValueError:
        return False
    return True


def run(count, seed=1, test_mode=False, check_reference=True):
    """Fuzz ``count`` frames; returns (frames, errors). Raises AssertionError on a failure."""
    rng = Rng(seed)
    app = RecordingApp()
    out = []
    handler = protocol.ProtocolHandler(app, out.append, "fuzz", {}, test_mode=test_mode)
    errors = 0
    for i in range(count):
        frame = random_frame(rng)
        for j in range(len(frame)):
            if frame[j] == 10:
                frame[j] = 32
        expected = reference_ok(frame, test_mode) if check_reference else None
        before = len(app.calls)
        wire = bytes(frame) + b"\n"
        # deliver in 1..3 chunks, as a serial line would
        cut = rng.below(len(wire) + 1)
        handler.feed(wire[:cut])
        handler.feed(wire[cut:])
        if not frame or frame == b"\r":
            assert not out, "reply to an empty line"
            continue
        assert len(out) == 1, "frame %d %r: %d replies" % (i, bytes(frame[:80]), len(out))
        reply = json.loads(out.pop())
        if reply["ok"]:
            assert expected is not False, "frame %d accepted but bad: %r -> %r" % (i, bytes(frame[:120]), reply)
        else:
            errors += 1
            assert reply["error"] in KNOWN_ERRORS, "frame %d: %r" % (i, reply)
            assert len(app.calls) == before, "frame %d refused but the game changed: %r" % (i, bytes(frame[:80]))
            assert expected is not True, "frame %d refused but good: %r -> %r" % (i, bytes(frame[:120]), reply)
    return count, errors


def _lines_with(b):
    """Lines carrying byte ``b``: alone, repeated, inside a string, before a frame, inside a name."""
    one = bytes([b])
    return (one, one * 3, b'{"cmd": "ping", "data": "' + one + b'"}', one + b'{"id": 1, "cmd": "ping"}',
            b'{"id": 1, "cmd": "pi' + one + b'ng"}', b'{"id": 1, "cmd": "ping"}' + one)


def _all_lines():
    """Generated one at a time: a list of them would need a 16 KB block in a small heap."""
    for b in range(256):
        yield from _lines_with(b)
    yield bytes(range(256))
    yield bytes(range(255, -1, -1))
    yield b"\x03\x04\x01\x02\x05\x03\x03\x04"


def every_byte(test_mode=False):
    """Every byte value 0..255 (0x01-0x05 included) in lines of several shapes, then all 256 in one line.

    Every line gets exactly the replies its non-empty frames call for, none
    is an internal error, a refused line changes nothing, and a ping after
    each is answered. Returns the number of lines sent.
    """
    app = RecordingApp()
    out = []
    handler = protocol.ProtocolHandler(app, out.append, "fuzz", {}, test_mode=test_mode)
    sent = 0
    for line in _all_lines():
        frames = 0
        for part in (line + b"\n").split(b"\n")[:-1]:
            if part.endswith(b"\r"):
                part = part[:-1]
            if part:
                frames += 1
        before = len(app.calls)
        handler.feed(line + b"\n")
        assert len(out) == frames, "line %r: %d replies for %d frames" % (line[:40], len(out), frames)
        for text in out:
            reply = json.loads(text)
            if not reply["ok"]:
                assert reply["error"] in KNOWN_ERRORS, "line %r: %r" % (line[:40], reply)
        if not any(json.loads(text)["ok"] for text in out):
            assert len(app.calls) == before, "line %r refused but the game changed" % (line[:40],)
        del out[:]
        handler.feed(b'{"id": 99, "cmd": "ping"}\n')
        pong = json.loads(out[0]) if len(out) == 1 else {}
        pong.pop("mem_free", None)  # (test mode's ping says the free heap)
        assert pong == {"ok": True, "id": 99, "pong": True}, (line[:40], out)
        del out[:]
        sent += 1
    return sent
