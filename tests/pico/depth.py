"""How deep each path of the game goes on the Pico's C stack: runs unchanged on a Pico (``mpremote run``).

The Pico's MicroPython has one C stack of 8 KB for every Python call (no
stackless build): a call chain that passes 7,936 bytes (8 KB less the
interpreter's 256-byte margin, ``micropython.mem_info()``) raises
``RuntimeError: maximum recursion depth exceeded``. Issue 23: the host's
``roll`` went past it while a button press did not.

The script runs the game as ``main.py`` does (``main.run``: the same
``serve`` loop, ``guard.call``, ``HostLink.poll``), with the board's real
drivers wired to stand-ins (the switch chain as bytes, the buttons as a
number, the flash as files under ``/depth.tmp``, removed at the end: the
board's own save is not touched) and the USB port as a byte stream. The
script itself is driven by the loop's watchdog feed, at the loop's own
level, between two passes. Before each measured path the free stack below
the script is painted with a pattern (``machine.mem32``; the rp2 port's
stack is the 8 KB under 0x20042000: SCRATCH_X and SCRATCH_Y); after it the
deepest word written says the most stack the path used, C calls and
interrupts included.

Prints, per case, the stack used (bytes, at the deepest point) and what is
left below the 7,936-byte limit, in bytes and in plain Python frames (a
frame of ``def f(n): return f(n - 1)``: about 240 bytes); first how deep a
plain recursion goes from the loop's own level. A case passes when it did
what it should (no fault, no refusal, the expected phase) with at least
MARGIN bytes left. The last line is ``RESULT: PASS`` or ``RESULT: FAIL``.
"""

import gc
import json
import os

import machine
import micropython

import main
from pipcore import geometry as g
from pipcore.board import fill_counts, slot_loc
from pipcore.position import Position
from pipcore.rules import apply_move
from pipdrivers import board_pins, usb_serial
from pipdrivers.board import Board
from pipdrivers.flashfs import FlashFS

TOP = 0x20042000  # the rp2 port's stack: __StackTop, 8 KB down to __StackOneBottom
BOTTOM = TOP - 8192
LIMIT = 7936  # the interpreter's limit (micropython.mem_info(): "stack: used out of 7936")
PATTERN = 0x5AA5C33C
MARGIN = 1024  # bytes a path must leave (4 plain frames): the next change to the code has room
FOLDER = "/depth.tmp"
START = "4HPwATDgc/ABMA"
WORST = "IAKI6H+klFJKKQ"  # 1-1 for white: 2,226 legal plays (the bench corpus's largest)

mem32 = machine.mem32


def paint():
    """The free stack below the caller (less 256 bytes) filled with the pattern."""
    end = TOP - micropython.stack_use() - 256
    a = BOTTOM
    while a < end:
        mem32[a] = PATTERN
        a += 4


def deepest():
    """Bytes of stack used at the deepest point since ``paint``."""
    a = BOTTOM
    while a < TOP and mem32[a] == PATTERN:
        a += 4
    return TOP - a


class Folder(FlashFS):
    """The board's files under FOLDER (the game's own save stays as it is)."""

    def open(self, path, mode):
        return open(FOLDER + path, mode)

    def rename(self, old, new):
        os.rename(FOLDER + old, FOLDER + new)

    def remove(self, path):
        os.remove(FOLDER + path)

    def listdir(self):
        return os.listdir(FOLDER)


def clean():
    try:
        for name in os.listdir(FOLDER):
            os.remove(FOLDER + "/" + name)
        os.rmdir(FOLDER)
    except OSError:
        pass


class Stream:
    """The USB port: the host's bytes in, the board's frames out (the replies kept by id)."""

    def __init__(self):
        self.data = b""
        self.pos = 0
        self.replies = {}
        self.line = b""

    def readinto(self, buf):
        if self.pos >= len(self.data):
            return 0
        buf[0] = self.data[self.pos]
        self.pos += 1
        return 1

    def poll(self, timeout):
        return self.pos < len(self.data)

    def write(self, data):
        # a reply comes in pieces (the handler streams it, 128 bytes at a time): read at its line's end
        self.line += data
        if not self.line.endswith(b"\n"):
            return
        line, self.line = self.line, b""
        if b'"ok"' in line:
            msg = json.loads(line)
            if "id" in msg and "event" not in msg:
                self.replies[msg["id"]] = msg


class Done(BaseException):
    """Ends the loop (``serve`` lets anything but an Exception through)."""


class Rig:
    def __init__(self):
        self.t = 0
        self.bits = bytearray(g.SCAN_BYTES)
        self.buttons = 0
        self.stream = Stream()
        self.counts = bytearray(g.LOCATIONS)
        self.next_id = 0
        self.failed = 0
        self.script = None
        self.app = None

    # -- what main.run is handed --------------------------------------------------
    def readinto(self, buf):
        buf[: g.SCAN_BYTES] = self.bits
        if len(buf) > g.SCAN_BYTES:
            buf[g.SCAN_BYTES] = 0xFF

    def read_buttons(self):
        return self.buttons

    def build(self, **config):
        self.hw = Board(self.readinto, board_pins.led_writer(), self.read_buttons, Folder(), board_pins.entropy,
                        led_return=board_pins.led_return())
        return self.hw

    def button_reader(self):
        return self.read_buttons

    def ticks_ms(self):
        return self.t

    def ticks_diff(self, a, b):
        return a - b

    def sleep_ms(self, ms):
        self.t += 5

    def WDT(self, timeout):  # noqa: N802 - machine's name
        return self

    def reset(self):
        pass

    def kbd_intr(self, char):
        pass

    def feed(self):
        """The watchdog's feed: the loop calls it before each pass; the script's next step runs here."""
        if self.script is None:  # the first pass: the loop's own level, and the room below it
            self.level = micropython.stack_use()
            self.plain = room(self)
            self.script = script(self)
        try:
            next(self.script)
        except StopIteration:
            raise Done()

    # -- the hands and the host -------------------------------------------------------
    def set_loc(self, loc, n):
        self.counts[loc] = n
        g.set_count(self.bits, loc, n if n < g.SLOTS else g.SLOTS)


def passes(n):
    for _ in range(n):
        yield


def send(rig, cmd, **args):
    """A host frame; the passes until its reply (returned)."""
    rig.next_id += 1
    args["id"] = rig.next_id
    args["cmd"] = cmd
    rig.stream.data = rig.stream.data[rig.stream.pos:] + json.dumps(args).encode() + b"\n"
    rig.stream.pos = 0
    for _ in range(2000):
        yield
        reply = rig.stream.replies.pop(rig.next_id, None)
        if reply is not None:
            rig.reply = reply
            return
    rig.reply = {"ok": False, "message": "no reply"}


def press(rig, button):
    """A short press of physical button ``button`` (geometry.BUTTON_NAMES)."""
    rig.buttons = 1 << button
    yield from passes(8)
    rig.buttons = 0
    yield from passes(8)


def lay_out(rig, pid, mover=0):
    for loc in range(g.LOCATIONS):  # the board cleared first, as people do (a bar of 10 is sensed as 6)
        rig.set_loc(loc, 0)
    yield from passes(12)
    fill_counts(Position.from_id(pid), mover, rig.counts)
    for loc in range(g.LOCATIONS):
        rig.set_loc(loc, rig.counts[loc])
    yield from passes(12)


def phase(rig):
    return rig.app.ctl.phase_name()


def fresh(rig, pid=None):
    """A new match, the checkers of the start (or ``pid`` loaded, white to roll) on the board."""
    yield from send(rig, "new_game")
    yield from lay_out(rig, START)
    if pid is not None:
        yield from send(rig, "set_position", position_id=pid)
        yield from lay_out(rig, pid)


def rolled(rig, pid=None, dice=(3, 1)):
    """``fresh``, then ``dice`` rolled with white's roll button."""
    yield from fresh(rig, pid)
    yield from send(rig, "set_dice", dice=list(dice))
    yield from press(rig, 0)
    yield from passes(30)  # the quiet polls' work ahead


def play_worst(rig):
    """The 2,226-play 1-1 rolled and one of its plays made by hand, checker by checker."""
    yield from rolled(rig, WORST, (1, 1))
    turn = rig.app.ctl.turn
    trial = Position.from_id(WORST)
    for s, t, _ in turn.moves(turn.plays[len(turn.plays) // 2]):
        src = slot_loc(0, s)
        dst = slot_loc(0, t)
        hit = t > 0 and trial.opp[25 - t] == 1
        apply_move(trial, s, t)
        rig.set_loc(src, rig.counts[src] - 1)
        yield from passes(10)
        if hit:
            rig.set_loc(dst, 0)
            yield from passes(10)
            bar = g.LOC_BAR_WHITE + 1
            rig.set_loc(bar, rig.counts[bar] + 1)
            yield from passes(10)
            rig.set_loc(dst, 1)
        else:
            rig.set_loc(dst, rig.counts[dst] + 1)
        yield from passes(10)
    yield from passes(30)


def measure(rig, name, setup, action, want):
    """``setup``, then ``action`` with the stack painted; ``want(rig)`` says if the path did its job."""
    yield from setup(rig)
    gc.collect()
    faults = rig.app.faults
    rig.reply = None
    paint()
    yield from action(rig)
    used = deepest()
    left = LIMIT - used
    ok = rig.app.faults == faults and (rig.reply is None or rig.reply.get("ok")) and want(rig)
    good = ok and left >= MARGIN
    if not good:
        rig.failed += 1
    why = "" if ok else "  (did not work: phase %s, error %s, reply %s)" % (
        phase(rig), rig.app.error, rig.reply and rig.reply.get("message"))
    print("%-44s %5d B used, %5d B left (%4.1f plain frames) %s%s" % (
        name, used, left, left / rig.frame, "ok" if good else "FAIL", why))


def nest(n):
    return 0 if n == 0 else 1 + nest(n - 1)


def room(rig):
    """How many plain frames fit from here (the loop's level: ``feed`` is called where ``guard.call`` is)."""
    lo, hi = 0, 64
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            nest(mid)
            lo = mid
        except RuntimeError:
            hi = mid - 1
    paint()
    nest(10)
    rig.frame = (deepest() - micropython.stack_use()) / 10  # bytes per plain frame (approximately)
    return lo


def script(rig):
    print("stack limit %d B; the game loop's level (where guard.call runs HostLink.poll) uses %d B; a plain "
          "recursion goes %d frames deeper from there (%.0f B a frame)" % (LIMIT, rig.level, rig.plain, rig.frame))
    yield from passes(20)
    rig.app = rig.hw_app()
    gc.collect()

    def is_moving(rig):
        return phase(rig) == "moving"

    def answered(rig):
        return rig.reply is not None and rig.reply.get("ok")

    def committed(rig):
        return phase(rig) == "turn-start" and rig.app.ctl.mover == 1

    def roll_press(rig):
        yield from press(rig, 0)

    def roll_inject(rig):
        yield from send(rig, "inject", kind="button", index=0, value=1)

    def roll_command(rig):
        yield from send(rig, "roll")

    def opening(rig):
        yield from fresh(rig)
        yield from send(rig, "set_dice", dice=[3, 1])

    def turn_start(rig):
        yield from fresh(rig, START)

    def worst_start(rig):
        yield from fresh(rig, WORST)
        yield from send(rig, "set_dice", dice=[1, 1])

    def lift(rig):
        loc = slot_loc(0, 8)
        rig.set_loc(loc, rig.counts[loc] - 1)
        yield from passes(10)

    def lift_inject(rig):
        loc = slot_loc(0, 8)
        yield from send(rig, "inject", kind="sensor", index=loc, value=rig.counts[loc] - 1)

    yield from measure(rig, "button press: ROLL (opening 3-1)", opening, roll_press, is_moving)
    yield from measure(rig, "inject button ROLL (opening 3-1)", opening, roll_inject, is_moving)
    yield from measure(rig, "inject button ROLL, player 0 (opening 3-1)", opening, lambda rig: send(
        rig, "inject", kind="button", index=0, value=1, player=0), is_moving)
    yield from measure(rig, "roll (opening 3-1)", opening, roll_command, is_moving)
    yield from measure(rig, "inject press 0 (opening 3-1)", opening, lambda rig: send(
        rig, "inject", kind="press", index=0, value=1), is_moving)
    yield from measure(rig, "button press: ROLL (2,226-play 1-1)", worst_start, roll_press, is_moving)
    yield from measure(rig, "roll (2,226-play 1-1)", worst_start, roll_command, is_moving)
    yield from measure(rig, "show_play 8/5 6/5", rolled, lambda rig: send(rig, "show_play", play="8/5 6/5"),
                       answered)
    yield from measure(rig, "show_cube double", turn_start, lambda rig: send(rig, "show_cube", action="double"),
                       lambda rig: phase(rig) == "cube-offered")
    yield from measure(rig, "set_position (2,226-play position)", fresh, lambda rig: send(
        rig, "set_position", position_id=WORST), answered)
    yield from measure(rig, "new_game", rolled, lambda rig: send(rig, "new_game"), answered)
    yield from measure(rig, "resign offer", turn_start, lambda rig: send(
        rig, "resign", player=0, action="offer", level=1), lambda rig: answered(rig) and rig.reply["resign"])
    yield from measure(rig, "self_test start", fresh, lambda rig: send(rig, "self_test", action="start"), answered)
    yield from send(rig, "self_test", action="stop")
    yield from measure(rig, "advance 1000 ms", rolled, lambda rig: send(rig, "advance", ms=1000), answered)
    yield from measure(rig, "sensor change: a checker lifted", rolled, lift, is_moving)
    yield from measure(rig, "button press: DONE (2,226-play 1-1)", play_worst, roll_press, committed)
    yield from measure(rig, "inject button DONE (2,226-play 1-1)", play_worst, lambda rig: send(
        rig, "inject", kind="button", index=1, value=1), committed)
    yield from measure(rig, "inject sensor: a checker lifted", rolled, lift_inject, is_moving)  # (last: injected
    # readings replace the switches from now on)
    print("faults %d, error %s" % (rig.app.faults, rig.app.error))
    print("RESULT: %s" % ("FAIL" if rig.failed else "PASS"))


def run():
    clean()
    os.mkdir(FOLDER)
    rig = Rig()
    real_serial = usb_serial.UsbSerial
    real_link = usb_serial.HostLink

    class Link(real_link):
        def __init__(self, app, version, **kw):
            real_link.__init__(self, app, version, **kw)
            rig.hw_app = lambda: app

    usb_serial.UsbSerial = lambda: real_serial(rig.stream, rig.stream, rig.stream)
    usb_serial.started_in_test_mode = lambda path=None: True
    usb_serial.HostLink = Link
    main.REPL_FLAG = FOLDER + "/repl"
    try:
        main.run(machine=rig, micropython=rig, board_pins=rig, clock=rig)
    except Done:
        pass
    finally:
        usb_serial.UsbSerial = real_serial
        usb_serial.HostLink = real_link
        clean()


run()
