"""Free heap of the real firmware on a Pico: runs unchanged with ``mpremote run`` (firmware deployed at the root).

Builds the game as ``main.py`` does (its imports, ``board_pins.build()``,
``App``, ``HostLink``) and prints the free heap after each stage, with what
each imported module cost on the way (its code, native code included, its
tables and its interned names; a module's figure leaves out the modules it
imports, and the names' pool grows in steps that land on whichever module
crosses one). Then the board idles (quiet polls), and plays the worst turns
through the whole loop (switch scan, debounce, controller, LEDs, the protocol's
events, encoded as for a host and counted): the 2,226-play 1-1, a Caucasian
double, a long nardy 1-1, and a Back Alley action.

The lowest free heap of a pass is bounded from below: the heap is collected
before the pass, and what it allocated (its garbage included) is counted as
used: the free heap after it, not collected. (The collector stays on: a pass
that allocates more than is free meets a collection, as on the board, and its
figure is then the free heap after that collection.) Prints a line per stage and case
as it goes, PASS/FAIL against 90 KB free idle and 50 KB at the worst moment,
and ``RESULT: PASS`` or ``RESULT: FAIL``. The board's own saves are left
alone: the turns save to files under ``pipbench.tmp``, removed at the end.
"""

import gc
import sys

IDLE_MIN = 90 * 1024  # free with the game built and idle
WORST_MIN = 50 * 1024  # free at the worst moment of the worst turn
IDLE_POLLS = 300

gc.collect()
TOTAL = gc.mem_free() + gc.mem_alloc()
failed = []
low = [TOTAL, ""]  # lowest free seen in any pass, and where


OWN = 0  # the script's own code and data (measured at start): added back, the board does not hold them


def free():
    gc.collect()
    return gc.mem_free() + OWN


def stage(name, value=None):
    value = free() if value is None else value
    print("heap %-34s %7d B free of %d" % (name, value, TOTAL))
    return value


def verdict(ok, text):
    print(("PASS " if ok else "FAIL ") + text)
    if not ok:
        failed.append(text)


# -- what each module costs as it is imported (exclusive of the modules it imports) --------------------
_import = __import__
_depth = [0]
costs = []  # (bytes, name), kept for the summary (a few hundred bytes of the script's own)


def _counting_import(name, *args):
    fromlist = ()
    for a in args:
        if isinstance(a, tuple):
            fromlist = a
    what = name if name not in sys.modules else None
    if what is None:
        for f in fromlist:
            if not hasattr(sys.modules[name], f):  # ``from package import module``: loaded now
                what = name + "." + f
                break
    if what is None:
        return _import(name, *args)
    gc.collect()
    m0 = gc.mem_alloc()
    _depth.append(0)
    try:
        return _import(name, *args)
    finally:
        gc.collect()
        inc = gc.mem_alloc() - m0
        own = inc - _depth.pop()
        _depth[-1] += inc
        if own > 0:
            costs.append((own, what))


def count_imports(on):
    import builtins

    builtins.__import__ = _counting_import if on else _import


# -- the game, built as main.py builds it ---------------------------------------------------------------
start = stage("at start (the script)")
OWN = TOTAL - start
print("heap %-34s %7d B (added back to every figure below)" % ("the script's own", OWN))
count_imports(True)
import main  # noqa: E402  (its code stays resident on the board too)
from pipcore.app import App  # noqa: E402
from pipdrivers.usb_serial import HostLink  # noqa: E402

stage("after main.py's imports")
from pipdrivers import board_pins  # noqa: E402

hw = board_pins.build()
stage("after board_pins.build()")
# the board's own files are left alone: this game saves to the script's folder (and starts fresh, so
# the figures do not depend on what the board was playing)
from pipbench_board import Chain, Dice, Flash  # noqa: E402
from pipdrivers.recstore import MatchStore  # noqa: E402
from pipdrivers.storage import AtomicStore  # noqa: E402

flash = Flash()
hw.state_store = AtomicStore(flash, hw.state_store.path)
hw.settings_store = AtomicStore(flash, hw.settings_store.path)
hw.match_store = MatchStore(flash)
stage("after the script's stand-ins")
app = App(hw)
stage("after App(hw)")
# as main.py builds it: the protocol's code waits for the host's first byte (measured at the end)
host = HostLink(app, main.FIRMWARE_VERSION, lazy=True, geometry=main.geometry_summary(), can_reset=True)
count_imports(False)
built = stage("after HostLink (game built)")
print("heap module costs (bytes: code, native code, tables, names; biggest first):")
costs.sort()
for i in range(len(costs) - 1, -1, -1):
    print("  module %-26s %6d" % (costs[i][1], costs[i][0]))
costs = None


class Sink:
    """The USB line's output: the protocol's frames are encoded as for a host, then only counted."""

    def __init__(self):
        self.bytes = 0

    def write(self, data):
        self.bytes += len(data)
        return len(data)


host.serial.stream_out = Sink()
# the app's work ahead stops when the heap it sees falls below its reserve: it sees the script's own bytes
# as used, so the reserve is lowered by them and the quiet passes go as deep as on the board
_appmod = sys.modules["pipcore.app"]
_appmod.IDLE_RESERVE -= OWN
print("heap %-34s %7d B (the app's reserve for its work ahead)" % ("IDLE_RESERVE", _appmod.IDLE_RESERVE + OWN))

from pipcore import geometry as g  # noqa: E402

chain = Chain()
hw.scanner._readinto = chain.readinto  # the switches from here on are the script's
buttons = [0]
hw.buttons._read = lambda: buttons[0]
dice = Dice()
now = [0]


def measured_poll(where, ms=5):
    """One pass of main.py's loop; the lowest free heap it can have reached is kept."""
    now[0] += ms
    gc.collect()
    host.poll(now[0])
    f = gc.mem_free() + OWN
    if f < low[0]:
        low[0] = f
        low[1] = where
    return f


def idle(where, polls):
    lowest = TOTAL
    for _ in range(polls):
        lowest = min(lowest, measured_poll(where))
    return lowest


quiet_low = idle("idle", IDLE_POLLS)
idle_free = stage("idle (after %d quiet polls)" % IDLE_POLLS)
print("heap %-34s %7d B free (lowest in a pass)" % ("idle polls", quiet_low))
verdict(idle_free >= IDLE_MIN, "idle, game built: %d B free (at least %d)" % (idle_free, IDLE_MIN))

app.dice = dice

counts = bytearray(g.LOCATIONS)


def set_loc(loc, n):
    counts[loc] = n
    g.set_count(chain.bits, loc, n if n < g.SLOTS else g.SLOTS)


def settle(where, polls=8):
    lowest = TOTAL
    for _ in range(polls):
        lowest = min(lowest, measured_poll(where))
    n = 0
    while n < 400:  # the quiet passes a person's pace leaves (App.quiet: garbage, work ahead)
        gc.collect()
        busy = app.quiet(now[0])
        f = gc.mem_free() + OWN
        if f < low[0]:
            low[0] = f
            low[1] = where + " (quiet pass)"
        lowest = min(lowest, f)
        if not busy:
            break
        n += 1
    return lowest


def press(button, where):
    buttons[0] = 1 << button
    lowest = settle(where, 6)
    buttons[0] = 0
    return min(lowest, settle(where))


def lay_out(pos, mover, nardy, where):
    from pipcore.board import fill_counts

    for loc in range(g.LOCATIONS):
        set_loc(loc, 0)
    settle(where)
    fill_counts(pos, mover, counts, None, nardy)
    for loc in range(g.LOCATIONS):
        set_loc(loc, counts[loc])
    settle(where)


def turn(name, variant, options, pid, mover, roll):
    """Set the position up, roll ``roll``, play one of its legal plays checker by checker, DONE."""
    from pipcore.board import fill_counts
    from pipcore.variants import decode_position

    nardy = variant == "nardy"
    if nardy:
        from pipcore.nardy import apply_move
    else:
        from pipcore.rules import apply_move

    app.new_game(variant, options or {})
    app.step(("load", pid, mover, None), now[0])
    pos = decode_position(pid, variant)
    lay_out(pos, mover, nardy, name)
    gc.collect()
    before = gc.mem_free() + OWN
    faults = app.faults
    dice.next = roll
    roll_button = 0 if mover == 0 else 4
    lowest = press(roll_button, name)
    ctl = app.ctl
    if ctl.phase_name() != "moving":
        verdict(
            False, "%s: not moving after the roll (%s; fault %s: %s)" % (name, ctl.message, app.last_fault, app.error)
        )
        return
    plays = len(ctl.turn.plays)
    code = ctl.turn.plays[plays // 2]
    moves = ctl.turn.moves(code)
    want = bytearray(g.LOCATIONS)
    for s, t, _ in moves:
        apply_move(pos, s, t)  # the variant's own (long nardy never hits)
        fill_counts(pos, mover, want, None, nardy)
        for sign in (-1, 1):  # the checkers lifted first (the moved one, a hit blot), then those put down
            for loc in range(g.LOCATIONS):
                if (want[loc] - counts[loc]) * sign > 0:
                    set_loc(loc, want[loc])
                    lowest = min(lowest, settle(name))
    lowest = min(lowest, press(roll_button, name))  # DONE
    committed = app.ctl.phase_name() in ("turn-start", "game-over", "match-over", "pick", "cube-offered")
    print(
        "heap turn %-30s %7d B free at its worst (%d plays; %d before the roll; %s)"
        % (name, lowest, plays, before, "committed" if committed else "NOT committed: " + str(app.ctl.message))
    )
    verdict(
        lowest >= WORST_MIN and committed and app.faults == faults,
        "%s: %d B free at the worst moment (at least %d), faults %d" % (name, lowest, WORST_MIN, app.faults - faults),
    )


def backalley():
    """One Back Alley action on top of the built game (the mode's modules loaded, as the menu loads them)."""
    from pipcore.bawait import switch

    lowest = TOTAL
    faults = app.faults
    gc.collect()
    switch(app, "backalley", {})
    f = gc.mem_free() + OWN
    lowest = min(lowest, f, settle("backalley"))
    print("heap turn %-30s %7d B free at its worst" % ("Back Alley switch", lowest))
    verdict(
        lowest >= WORST_MIN and app.faults == faults,
        "Back Alley: %d B free at the worst moment (at least %d)" % (lowest, WORST_MIN),
    )


CASES = (
    ("backgammon 1-1, 2,226 plays", "backgammon", None, "IAKI6H+klFJKKQ", 0, (1, 1)),
    ("backgammon 2-2", "backgammon", None, "O9TEBQgXVuKABQ", 0, (2, 2)),
    ("Caucasian 1-1", "backgammon", {"caucasian": True, "caucasianScope": "board"}, "AAAEtEmTAAAAAA", 0, (1, 1)),
    ("long nardy 1-1", "nardy", None, "zwoALji2C0FQOA", 0, (1, 1)),
)


def with_host():
    """The host's first byte: the protocol's code loads (as main.py's link does), then the worst turns again."""
    gc.collect()
    host.connect()
    host.handler.announce()
    f = idle("idle with a host", 20)
    f = stage("idle with a host (protocol loaded)")
    verdict(f >= IDLE_MIN, "idle with a host connected: %d B free (at least %d)" % (f, IDLE_MIN))
    turn("1-1 with a host", *CASES[0][1:])
    turn("long nardy 1-1 with a host", *CASES[3][1:])  # (its generator's code loads too: the tightest turn)


try:
    for case in CASES:
        turn(*case)
    with_host()
    backalley()
finally:
    flash.clean()
    print("heap %-34s %7d B free (%s)" % ("lowest of every pass", low[0], low[1]))
    verdict(low[0] >= WORST_MIN, "worst moment: %d B free (at least %d), in %s" % (low[0], WORST_MIN, low[1]))
    print("RESULT: " + ("FAIL" if failed else "PASS"))
