"""Controller latency and heap on MicroPython: runs unchanged on a Pico (``mpremote run``) and under WASM.

The whole app (``pipcore.app.App``) runs on the real drivers
(``pipdrivers.board.Board``) wired to in-script stand-ins for the switch
chain, LED strip, buttons and flash, so the figures include scanning,
debouncing, the controller, the LED renderer and the frame composition.

Measured, over a set of hard turns (spread positions with small doubles,
bar entries, bear-offs, hits):

* ``frame``: a settled switch change -> the LED frame shown (worst and mean
  over lifts, placements, wrong placements), with the targets of the movable
  checkers prepared by the quiet polls before (``Controller.idle``);
  ``frame_cold``: a lift before anything was prepared (computed on the spot);
* ``roll``: the roll button -> the LEDs marking the movable checkers (the poll
  that handles the press: dice, legal plays, marks, frame);
* ``done``: DONE -> the play committed and saved;
* ``heap``: peak heap of the whole app (code included) during the worst turn,
  bounded above by (live heap before a poll + what that poll allocates with the
  collector off), maximised over every poll of every turn.

Each figure is the best of repeated runs of the same event from the same
state (a host's other jobs only ever add to a run; WASM's ticks_us moves in
whole milliseconds, so there it is the mean), in the Pico's ms: measured on a
Pico; on a host, each kind of
work in an event (the controller's search, the state save's JSON, the LED
frame, the scan) by its own ratio (``Rig.event``). Between two events the
app's quiet polls run (``App.quiet``), as a person's pace leaves them time.
Prints a ``turn ...`` line per turn as it goes, one ``figure name value`` line
per figure (ms or bytes), a line per budget ending in PASS or FAIL (frame 20 ms,
roll 200 ms, DONE 200 ms), then ``RESULT: PASS`` or ``RESULT: FAIL (...)``.
Each event is repeated REPS times on a host (its other jobs disturb some runs),
once on the Pico, whose timer is steady (the whole script: a few minutes). The heap budget is that the script
runs to the end in the Pico's heap (tests/bench/bench_controller.py bisects it).
"""

import gc
import time

from pipbench import HOST, finish, pico_us, verdict
from pipbench_board import Chain, Dice, Figure, Flash

gc.collect()
HEAP_START = gc.mem_alloc()

from pipcore import geometry as g  # noqa: E402
from pipcore.app import App  # noqa: E402
from pipcore.board import fill_counts, slot_loc  # noqa: E402
from pipcore.position import Position  # noqa: E402
from pipcore.rules import apply_move  # noqa: E402
from pipdrivers.board import Board  # noqa: E402



gc.collect()
HEAP0 = gc.mem_alloc()  # the code of the whole app is loaded: what follows is its data

REPS = 20
if HOST == "pico":  # a steady timer: one run of each event (20 took over 12 minutes of a Pico)
    REPS = 1

# (position ID, mover, dice): hard turns (many plays of small doubles, bar, bear-off, hits)
TURNS = (
    ("O9TEBQgXVuKABQ", 0, (1, 1)),
    ("O9TEBQgXVuKABQ", 0, (2, 2)),
    ("n4cggSL+AUeAEg", 0, (1, 1)),
    ("+gMxwiDGcwKgOA", 0, (2, 2)),
    ("4HPwATDgc/ABMA", 0, (1, 1)),
    ("4HPwATDgc/ABMA", 0, (6, 5)),
    ("IAKI6H+klFJKKQ", 0, (1, 1)),
    ("LK/BATBSz8IBMA", 0, (3, 3)),
)


class Rig:
    def __init__(self):
        self.chain = Chain()
        self.buttons = 0
        self.flash = Flash()
        self.hw = Board(self.chain.readinto, lambda buf: None, lambda: self.buttons, self.flash,
                        lambda n: bytes(range(n)))
        self.app = App(self.hw)
        self.dice = Dice()
        self.app.dice = self.dice
        self.now = 0
        self.counts = bytearray(g.LOCATIONS)
        self.step_alloc = 0  # most bytes one event allocated
        self.collections = 0  # settled changes that met a garbage collection
        self.turn_alloc = 0  # most bytes a turn's retained structures take
        self.save_us = 0
        save = self.app._save

        def timed_save():  # the state save's share of an event (its JSON has a ratio of its own)
            io = self.flash.io_us
            t0 = time.ticks_us()
            save()
            self.save_us += time.ticks_diff(time.ticks_us(), t0) - (self.flash.io_us - io)

        self.app._save = timed_save

    def event(self, event):
        """Step the app with ``event`` and draw: the Pico time (us) of each kind of work, summed.

        The controller's search at the generation ratio, the state save's JSON at the json ratio, the
        renderer and the LED composition at the LED frame's; the host's file calls taken out (the
        flash's own time is bench_record's)."""
        app = self.app
        io = self.flash.io_us
        self.save_us = 0
        t0 = time.ticks_us()
        app.step(event, self.now)
        t1 = time.ticks_us()
        app.draw(self.now)
        draw = time.ticks_diff(time.ticks_us(), t1)
        step = time.ticks_diff(t1, t0) - (self.flash.io_us - io) - self.save_us
        return pico_us(step, "search") + pico_us(self.save_us, "json") + pico_us(draw, "led_frame")

    def settle(self, polls=6):
        for _ in range(polls):
            self.now += 5
            self.app.poll(self.now)

    def set_loc(self, loc, n):
        self.counts[loc] = n
        g.set_count(self.chain.bits, loc, n if n < g.SLOTS else g.SLOTS)

    def lay_out(self, pos, mover):
        for loc in range(g.LOCATIONS):  # clear the board first, as people do
            self.set_loc(loc, 0)
        self.settle()
        fill_counts(pos, mover, self.counts)
        for loc in range(g.LOCATIONS):
            self.set_loc(loc, self.counts[loc])
        self.settle()

    def change(self, loc, delta, timed):
        """One settled change at ``loc``: the controller step and the frame, timed (us) if asked."""
        self.set_loc(loc, self.counts[loc] + delta)
        self.now += 5
        m0 = gc.mem_alloc()
        dt = self.event(("board", self.counts))
        m = gc.mem_alloc() - m0
        if m > self.step_alloc:
            self.step_alloc = m
        if m < 0:
            self.collections += 1  # a collection ran inside a timed event
        self.rest()
        return dt if timed else 0

    def rest(self):
        """The quiet polls before a person's next change (App.quiet: garbage, targets), with the app's tick
        among them when a deeper reading of the counts is due (``Controller.deep_at``)."""
        n = 0
        while n < 400 and self.app.quiet(self.now):
            n += 1
        at = getattr(self.app.ctl, "deep_at", -1)
        if at >= 0:
            # (the events' clock is left where it was: the timed frames keep their blink phases, whose
            # drawing costs differ, so the figures compare with earlier runs)
            self.app.step(("tick",), at if at > self.now else self.now)
            while n < 800 and self.app.quiet(self.now):
                n += 1

    def press_roll(self, mover, rest=True):
        self.now += 10
        dt = self.event(("button", "ROLL"))
        if rest:
            self.rest()
        return dt


def overhead_us(rig):
    """Scan + debounce + counting of one poll that settles a change (added to every frame figure)."""
    sc = rig.hw.scanner
    counts = bytearray(g.LOCATIONS)
    t0 = time.ticks_us()
    for i in range(50):
        sc.scan(i)
        g.location_counts(sc.bits, counts)
    return time.ticks_diff(time.ticks_us(), t0) / 50


def fresh(app, ctl, snap):
    """The controller again at the turn's start (for the repeated timings): the one it replaces
    goes first, as the board never holds two."""
    app.ctl = None
    gc.collect()
    return type(ctl).restore(snap, app.capacity, app.store)


def run_turn(rig, pid, mover, dice, stats, over):
    app = rig.app
    pos = Position.from_id(pid)
    app.step(("load", pid, mover, None), rig.now)
    rig.lay_out(pos, mover)
    ctl = app.ctl
    if ctl.phase_name() != "turn-start":
        print("setup failed for %s: %s (fault: %s; error: %s)" % (pid, ctl.message, app.last_fault, app.error))
        raise SystemExit(1)
    snap = ctl.snapshot()
    rig.dice.next = dice
    if HOST != "pico":  # (on the Pico this pass took a third of the script's 16 minutes of emulation)
        # heap: one clean pass of the whole turn, allocation counted (the WASM port does not free)
        gc.collect()
        before = gc.mem_alloc()
        play(rig, pos, mover, None, None, 0)
        gc.collect()
        grown = gc.mem_alloc() - before
        if grown > stats["turn_alloc"]:
            stats["turn_alloc"] = grown
        app.ctl = fresh(app, ctl, snap)
    rig.lay_out(pos, mover)
    # roll -> movable checkers marked (repeated from the same saved state)
    total = 0
    best = -1
    for _ in range(REPS):
        app.ctl = fresh(app, ctl, snap)
        app.ctl.step(("board", rig.counts), rig.now)
        dt = rig.press_roll(mover)
        total += dt
        if best < 0 or dt < best:
            best = dt
    roll_ms = (best if BEST else total / REPS) / 1000 + over / 1000
    stats["roll"].append(roll_ms)
    app.ctl = fresh(app, ctl, snap)
    app.ctl.step(("board", rig.counts), rig.now)
    frame_ms, done_ms = play(rig, pos, mover, stats, over, REPS)
    gc.collect()
    print("turn %s %d-%d roll_ms=%.2f frame_worst_ms=%.2f done_ms=%.2f free=%d"
          % (pid, dice[0], dice[1], roll_ms, frame_ms, done_ms, gc.mem_free() if hasattr(gc, "mem_free") else -1))


BEST = HOST != "wasm"  # the best run of an event (WASM's clock moves in whole ms: the mean there)
times = [0] * 8  # per kind (lift, wrong, place, cold): the best run, then the sum of all


def keep(times, k, us):
    if times[k] < 0 or us < times[k]:
        times[k] = us
    times[4 + k] += us


def play(rig, pos, mover, stats, over, reps):
    """Roll and play one legal play checker by checker, timing lifts, wrong and right placements."""
    app = rig.app
    m0 = gc.mem_alloc()
    rig.press_roll(mover, False)
    ctl = app.ctl
    if stats is None:
        # what the turn keeps: the legal plays, their step tables, the marks
        m = gc.mem_alloc() - m0
        if m > rig.turn_alloc:
            rig.turn_alloc = m
    rig.rest()
    if ctl.phase_name() != "moving":
        print("roll refused at %s: %s (fault: %s)" % (pos.position_id(), ctl.message, rig.app.last_fault))
        raise SystemExit(1)
    turn = ctl.turn
    frame_ms = 0
    code = turn.plays[len(turn.plays) // 2]
    trial = pos.copy()
    for s, t, d in turn.moves(code):
        src = slot_loc(mover, s)
        dst = slot_loc(mover, t)
        hit = t > 0 and trial.opp[25 - t] == 1
        apply_move(trial, s, t)
        wrong = (dst + 7) % 24
        times[0] = times[1] = times[2] = times[3] = -1  # lift, wrong, place, cold: the best run of each
        times[4] = times[5] = times[6] = times[7] = 0  # and the sum of their runs
        for _ in range(reps):
            drop = getattr(ctl, "drop_caches", None)  # a lift before the quiet polls prepared anything
            if drop:
                drop()
            else:
                ctl.cur.targets = None
            keep(times, 3, rig.change(src, -1, True))
            rig.change(src, 1, False)
        rig.rest()  # what the quiet polls between two events prepare
        for _ in range(reps):
            keep(times, 0, rig.change(src, -1, True))
            rig.change(src, 1, False)
        rig.change(src, -1, False)
        for _ in range(reps):
            keep(times, 1, rig.change(wrong, 1, True))
            rig.change(wrong, -1, False)
        if hit:
            bar = g.LOC_BAR_WHITE + 1 - mover
            rig.change(bar, 1, False)
        for _ in range(reps):
            keep(times, 2, rig.change(dst, 0 if hit else 1, True))
            if not hit:
                rig.change(dst, -1, False)
        if not hit:
            rig.change(dst, 1, False)
        if stats is not None:
            for k, kind in enumerate(("lift", "wrong", "place", "cold")):
                ms = (times[k] if BEST else times[4 + k] / reps) / 1000 + over / 1000
                if kind != "cold":
                    stats["frame"].append(ms)
                    frame_ms = max(frame_ms, ms)
                if ms > stats.get(kind, 0):
                    stats[kind] = ms
    rig.now += 10
    dt = rig.event(("button", "DONE"))
    if stats is not None:
        stats["done"].append(dt / 1000)
    if app.ctl.phase_name() not in ("turn-start", "game-over", "match-over", "pick"):
        print("turn %s not committed: %s (fault: %s; error: %s)" % (pos.position_id(), app.ctl.message,
                                                                 app.last_fault, app.error))
        raise SystemExit(1)
    return frame_ms, dt / 1000


def check_est(name, ms, budget_ms):
    how = "measured" if HOST == "pico" else "est. from %s per kind of work" % HOST
    verdict(ms <= budget_ms, "%s: %.2f ms on the Pico (%s; budget %g ms)" % (name, ms, how, budget_ms))


def main():
    gc.collect()
    before = gc.mem_alloc()
    rig = Rig()
    gc.collect()
    resident = gc.mem_alloc() - before
    over = pico_us(overhead_us(rig), "scan")  # (the scan and the counting, in the Pico's us)
    stats = {"roll": Figure(), "frame": Figure(), "done": Figure(), "turn_alloc": 0}
    for pid, mover, dice in TURNS:
        run_turn(rig, pid, mover, dice, stats, over)
    for name in ("frame", "roll", "done"):
        fig = stats[name]
        print("figure %s_worst_pico_ms %.3f" % (name, fig.worst))
        print("figure %s_mean_pico_ms %.3f" % (name, fig.total / fig.n))
    for kind in ("lift", "wrong", "place", "cold"):
        print("figure frame_%s_worst_pico_ms %.3f" % (kind, stats.get(kind, 0)))
    print("figure app_data_bytes %d" % resident)
    if HOST != "pico":  # (its pass is left out on the Pico)
        print("figure turn_structures_bytes %d" % rig.turn_alloc)
    print("figure event_alloc_bytes %d" % rig.step_alloc)
    print("figure changes_meeting_a_collection %d" % rig.collections)
    print("figure code_bytes %d" % (HEAP0 - HEAP_START))
    # each figure is already the Pico's: every kind of work by its own ratio (Rig.event)
    check_est("settled change -> LED frame, worst", stats["frame"].worst, 20)
    check_est("roll -> movable checkers marked, worst", stats["roll"].worst, 200)
    check_est("DONE -> play committed and saved, worst", stats["done"].worst, 200)
    app = rig.app
    verdict(app.faults == 0, "no fault recovered on the way: %d faults (last: %s)" % (app.faults, app.last_fault))
    rig.flash.clean()
    finish()


main()
