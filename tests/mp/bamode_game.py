"""The board's Back Alley scorekeeper mode: a whole game in the Pico's heap, with power cuts.

Run by tests/test_bamode_heap.py under the unix MicroPython with a fixed heap
(``-X heapsize=240k``) and the firmware as .mpy files, as on the Pico, the
way tests/pico/bench_controller.py runs the backgammon game: the whole app
(``pipcore.app.App`` on the real drivers of ``pipdrivers.board.Board``)
with in-script stand-ins for the switch chain, the LED strip, the buttons
and the flash (real files, outside the heap, as the board's flash is).

The app starts as a backgammon board (none of the mode's modules may be
loaded); the menu, walked with the buttons, chooses Back Alley; a whole game
of ``bamode_play.plan_game`` (25 counted deals and the redeals) is keyed with
the buttons, pressed through the debounce; the power is cut after deal 12
and in the middle of deal 19 (the board restarts from its flash); then the
menu chooses backgammon again, after which the mode's modules must have left
the heap. Prints its figures on one line; exits 1 on a failure.
"""

import gc
import os
import sys

MODE_MODULES = ("pipcore.bamode", "pipcore.baview", "pipcore.bascore", "pipcore.bacalls", "pipcore.glyphs",
                "pipcore.backalley", "pipcore.menu", "pipcore.settings")
FOLDER = os.getenv("PIPBOARD_BAMODE_FLASH") or "bamode_heap.tmp"  # the test gives a temporary folder
peak = 0  # the most heap a press took (Rig.press)
HARD_TURN = "IAKI6H+klFJKKQ"  # 1-1 here has 2,226 plays (tests/pico/bench_controller.py)


def loaded():
    return [m for m in MODE_MODULES if m in sys.modules]


class Flash:
    """The board's files as real files in ``FOLDER`` (outside the heap, as on the board)."""

    def __init__(self):
        try:
            os.mkdir(FOLDER)
        except OSError:
            for name in os.listdir(FOLDER):
                os.remove(FOLDER + "/" + name)

    def open(self, path, mode="rb"):
        return open(FOLDER + path, mode)

    def rename(self, old, new):
        os.rename(FOLDER + old, FOLDER + new)

    def remove(self, path):
        os.remove(FOLDER + path)

    def listdir(self):
        return os.listdir(FOLDER)

    def clean(self):
        for name in os.listdir(FOLDER):
            os.remove(FOLDER + "/" + name)
        os.rmdir(FOLDER)


class Rig:
    """The App on its drivers, the buttons pressed as people press them."""

    def __init__(self, flash):
        from pipcore import geometry as g
        from pipcore.app import App
        from pipdrivers.board import Board

        self.g = g
        self.bits = bytearray(g.SCAN_BYTES)
        self.pressed = 0
        self.now = 0
        self.hw = Board(self.chain, lambda buf: None, lambda: self.pressed, flash, lambda n: bytes(range(n)))
        self.app = App(self.hw)

    def chain(self, buf):
        n = self.g.SCAN_BYTES
        buf[:n] = self.bits
        if len(buf) > n:
            buf[n] = 0xFF

    def advance(self, ms):
        end = self.now + ms
        while self.now < end:
            self.now += 5
            self.app.poll(self.now)

    def press(self, button, long=False):
        """A press, its heap measured as tests/pico/bench_controller.py measures an event's: the live heap
        before it (collected) plus what it allocates with the collector off, the most so far in ``peak``."""
        self.measured(self._press, button, long)

    def _press(self, button, long):
        self.pressed |= 1 << button
        self.advance(900 if long else 40)
        self.pressed &= ~(1 << button)
        self.advance(40)

    def measured(self, action, *args):
        measure = hasattr(gc, "mem_alloc")
        if measure:
            gc.collect()
            gc.disable()
        action(*args)
        if measure:
            global peak
            peak = max(peak, gc.mem_alloc())
            gc.enable()

    def change(self, loc, delta):
        """A checker lifted (-1) from or put (+1) on ``loc``, the switches settled; measured as a press."""
        self.counts[loc] += delta
        self.measured(self._settle, loc)

    def _settle(self, loc):
        self.g.set_count(self.bits, loc, min(self.counts[loc], self.g.SLOTS))
        self.advance(40)

    def state(self):
        return self.app.mode.state()

    def lay_out(self, pid, mover):
        """A position loaded as a host loads one, its checkers laid on the switches."""
        from pipcore.board import fill_counts
        from pipcore.position import Position

        self.app.step(("load", pid, mover, None), self.now)
        counts = self.counts = bytearray(self.g.LOCATIONS)
        fill_counts(Position.from_id(pid), mover, counts)
        for loc in range(self.g.LOCATIONS):
            self.g.set_count(self.bits, loc, min(counts[loc], self.g.SLOTS))
        self.advance(40)


class Dice:
    def __init__(self, d1, d2):
        self.next = (d1, d2)

    def roll(self):
        return self.next


def choose_game(rig, steps):
    """The menu, held open; the game item stepped ``steps`` times (TAKE up, DROP down); OK."""
    g = rig.g
    rig.press(g.BTN_MENU, True)
    for _ in range(abs(steps)):
        rig.press(g.BTN_WHITE_TAKE if steps > 0 else g.BTN_WHITE_DROP)
    rig.press(g.BTN_WHITE_ROLL)


def backgammon_turn():
    """The heap the backgammon board takes in its hardest turn (a 1-1 with 2,226 plays, as
    tests/pico/bench_controller.py plays it): rolled, played checker by checker, committed; the menu
    opened and left before, as in ``main``."""
    global peak
    flash = Flash()
    rig = Rig(flash)
    choose_game(rig, 0)
    gc.collect()
    idle = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    rig.lay_out(HARD_TURN, 0)
    rig.app.dice = Dice(1, 1)
    peak = 0
    rig.press(rig.g.BTN_WHITE_ROLL)
    ctl = rig.app.ctl
    if ctl.phase_name() != "moving" or loaded():
        print("FAIL: the hard turn was not rolled (%s; fault %r), or loaded %r" % (ctl.message, rig.app.last_fault,
                                                                                  loaded()))
        return 1
    from pipcore.board import slot_loc
    from pipcore.position import Position
    from pipcore.rules import apply_move

    trial = Position.from_id(HARD_TURN)
    turn = ctl.turn
    for s, t, _die in turn.moves(turn.plays[len(turn.plays) // 2]):  # as bench_controller plays it
        hit = t > 0 and trial.opp[25 - t] == 1
        apply_move(trial, s, t)
        rig.change(slot_loc(0, s), -1)
        if hit:  # the blot to its bar first, then the hitter in its place
            rig.change(slot_loc(0, t), -1)
            rig.change(rig.g.LOC_BAR_BLACK, 1)
        rig.change(slot_loc(0, t), 1)
    ctl = None
    turn = None
    rig.press(rig.g.BTN_WHITE_ROLL)  # DONE: the play committed and saved
    if rig.app.ctl.phase_name() != "turn-start" or loaded():
        print("FAIL: the hard turn was not committed (%s), or loaded %r" % (rig.app.ctl.message, loaded()))
        return 1
    print("backgammon idle=%d turn=%d" % (idle, peak))
    flash.clean()
    return 0


def main():
    """The Back Alley game (see the module docstring)."""
    global peak
    from bamode_play import Keyer, Lcg, deal_texts, plan_game

    flash = Flash()
    rig = Rig(flash)
    if rig.app.ctl.variant != "backgammon" or loaded():
        print("FAIL: a backgammon board loaded %r" % loaded())
        return 1
    choose_game(rig, 0)  # the menu opened and left (its names stay interned), as in ``backgammon_turn``
    gc.collect()
    idle = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0  # the backgammon board waiting for its checkers
    choose_game(rig, 2)  # backgammon -> nardy -> Back Alley
    if rig.app.mode is None:
        print("FAIL: the menu did not start Back Alley: %r (fault %r)" % (rig.app.ctl.message, rig.app.last_fault))
        return 1
    peak = 0  # (the press that loads the mode is the menu's: below, every key of the game)
    Keyer(rig.press, rig.state).key("W")  # West deals first
    counted = cuts = save = 0
    for trump, calls, tricks in plan_game(Lcg(11)):
        texts = deal_texts(trump, calls, tricks)
        for i in range(len(texts)):
            if counted == 18 and i == 3:  # the power goes in the middle of deal 19, after two calls
                rig = None
                gc.collect()
                rig = Rig(flash)
                cuts += 1
            Keyer(rig.press, rig.state).key(texts[i])
        if tricks is not None:
            counted += 1
        save = max(save, len(rig.app.hw.state_store.load()))
        if counted == 12 and tricks is not None:  # the power goes between deals 12 and 13
            rig = None
            gc.collect()
            rig = Rig(flash)
            cuts += 1
    most = peak  # (going back to backgammon, below, is the menu's press again)
    st = rig.state()
    if st["phase"] != "game over" or st["deal"] != 25:
        print("FAIL: the game did not end: %r" % st)
        return 1
    during = loaded()
    choose_game(rig, -2)  # Back Alley -> nardy -> backgammon: the game is over, so at once
    gc.collect()
    after = loaded()
    if rig.app.mode is not None or rig.app.ctl.variant != "backgammon":
        print("FAIL: the board did not go back to backgammon")
        return 1
    print("bamode deals=%d redeals=%d cuts=%d idle=%d heap=%d save=%d during=%d after=%d ns=%d ew=%d" % (
        counted, st["redeals"], cuts, idle, most, save, len(during), len(after), st["scores"]["NS"],
        st["scores"]["EW"]))
    print("modules during the game %r, after it %r" % (during, after))
    flash.clean()
    return 0


if __name__ == "__main__":
    try:
        code = backgammon_turn() if sys.argv[-1] == "backgammon" else main()
    except MemoryError as exc:
        print("MemoryError", exc)
        code = 1
    try:
        Flash().clean()  # (whatever happened: nothing is left behind)
    except OSError:
        pass
    sys.exit(code)
