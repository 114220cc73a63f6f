"""Back Alley's referee mode on the board: a whole refereed game in the Pico's heap, with power cuts.

Run by tests/test_baref_heap.py under the unix MicroPython with a fixed heap
(``-X heapsize=240k``, the backgammon board's budget) and the firmware as .mpy
files, as on the Pico: the whole app (``pipcore.app.App`` on the real drivers
of ``pipdrivers.board.Board``) with in-script stand-ins for the switch chain,
the LED strip, the buttons and the flash (real files in the folder
``PIPBOARD_BAREF_FLASH``, outside the heap, as the board's flash is).

The app starts as a backgammon board (no Back Alley module may be loaded);
the menu, walked with the buttons, chooses Back Alley with referee mode on;
the game of the file given (written by the test with the card engine on
CPython, so the engine never loads here; one line a deal: ``TRUMP CALLS
CARDS``, the trump 0-3 or 4 for a joker, the calls one hex digit each in
bidding order (f Board), the cards two hex digits each in play order, 40
added to a trump led on the leader's word; no cards: a redeal) is keyed with
the buttons, pressed through the debounce, every card on the side of the
seat to act; the power is cut in the middle of a trick of deal 3 and between
deals 12 and 13 (the board restarts from its flash); then the menu chooses
backgammon again, after which none of the mode's modules may stay. Prints
its figures on one line (the most heap a press took, measured as
tests/pico/bench_controller.py measures an event's); exits 1 on a failure.
"""

import gc
import os
import sys

FOLDER = os.getenv("PIPBOARD_BAREF_FLASH") or "baref_game.tmp"
REFEREE = ("pipcore.baref", "pipcore.batricks", "pipcore.bacards")
peak = 0


def loaded():
    return [m for m in sys.modules if m.startswith("pipcore.ba") or m == "pipcore.glyphs"]


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
        """A press, its heap measured: the live heap before it (collected) plus what it allocates with the
        collector off; the most so far in ``peak``."""
        global peak
        gc.collect()
        gc.disable()
        self.pressed |= 1 << button
        self.advance(900 if long else 40)
        self.pressed &= ~(1 << button)
        self.advance(40)
        peak = max(peak, gc.mem_alloc())
        gc.enable()

    def state(self):
        return self.app.mode.state()


def card_text(card):
    """``"AS"``, ``"10H"``, ``"BJ"`` (written here: the board's own module would be loaded before its time)."""
    if card >= 52:
        return "BJ" if card == 53 else "LJ"
    return ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")[card % 13] + "CDHS"[card // 13]


def choose(rig, steps, referee=None):
    """The menu, held open; the game item stepped ``steps`` times (TAKE up, DROP down); referee mode turned
    on (True) on the next item; OK."""
    g = rig.g
    rig.press(g.BTN_MENU, True)
    for _ in range(abs(steps)):
        rig.press(g.BTN_WHITE_TAKE if steps > 0 else g.BTN_WHITE_DROP)
    if referee:
        rig.press(g.BTN_MENU)
        rig.press(g.BTN_WHITE_TAKE)
    rig.press(g.BTN_WHITE_ROLL)


def main(path):
    flash = Flash()
    rig = Rig(flash)  # (first: the app takes its buffers from a heap not yet cut up, as at power-up)
    if rig.app.ctl.variant != "backgammon" or loaded():
        print("FAIL: a backgammon board loaded %r" % loaded())
        return 1
    from baref_play import CardKeyer
    from bamode_play import call_text
    choose(rig, 2, True)  # backgammon -> nardy -> Back Alley; referee on
    mode = rig.app.mode
    if mode is None or not mode.referee:
        print("FAIL: the menu did not start a refereed game: %r (fault %r)" % (rig.app.ctl.message,
                                                                            rig.app.last_fault))
        return 1
    mode = None
    global peak
    peak = 0  # (the press that loaded the mode was the menu's: from here, every key and card of the game)
    keyer = CardKeyer(rig.press, rig.state)
    keyer.key("N")  # North deals first
    counted = cuts = save = faults = first = 0
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            trump = int(words[0])
            keyer.key("CDHSJ"[trump])
            boards = 0
            for ch in words[1]:
                call = int(ch, 16)
                call = -1 if call == 15 else call
                keyer.key(call_text(call, boards))
                boards += call == -1
            cards = words[2] if len(words) > 2 else ""
            for i in range(0, len(cards), 2):
                v = int(cards[i:i + 2], 16)
                keyer.card(card_text(v & 63), bool(v & 64))
                if counted == 2 and i == 2 * 9:  # deal 3, the second card of trick 3: the power goes
                    faults += rig.app.faults
                    rig = None
                    gc.collect()
                    rig = Rig(flash)
                    keyer = CardKeyer(rig.press, rig.state)
                    cuts += 1
            if cards:
                counted += 1
                if counted == 1:
                    gc.collect()
                    first = gc.mem_alloc()  # the live heap after the first deal
            save = max(save, len(rig.app.hw.state_store.load()))
            if counted == 12 and cards:  # between deals 12 and 13
                faults += rig.app.faults
                rig = None
                gc.collect()
                rig = Rig(flash)
                keyer = CardKeyer(rig.press, rig.state)
                cuts += 1
    most = peak
    keyer = None
    gc.collect()
    last = gc.mem_alloc()  # and after the last: what a refereed game keeps grows by nothing but its keys
    st = rig.state()
    if st["phase"] != "game over" or st["deal"] != 25:
        print("FAIL: the game did not end: %r" % st)
        return 1
    during = loaded()
    faults += rig.app.faults
    choose(rig, -2)  # Back Alley -> nardy -> backgammon: the game is over, so at once
    gc.collect()
    if rig.app.mode is not None or rig.app.ctl.variant != "backgammon":
        print("FAIL: the board did not go back to backgammon")
        return 1
    print("baref deals=%d cuts=%d heap=%d first=%d last=%d save=%d faults=%d ns=%d ew=%d" % (
        counted, cuts, most, first, last, save, faults + rig.app.faults, st["scores"]["NS"], st["scores"]["EW"]))
    print("modules during the game %r, after it %r" % (sorted(during), sorted(loaded())))
    return 0


if __name__ == "__main__":
    try:
        code = main(sys.argv[-1])
    except MemoryError as exc:
        print("MemoryError", exc)
        code = 1
    try:
        Flash().clean()
    except OSError:
        pass
    sys.exit(code)
