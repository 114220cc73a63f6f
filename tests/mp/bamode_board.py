"""The board of the Back Alley heap tests (tests/test_bamode_heap.py, test_baref_heap.py), pressed as people press it.

Used by ``bamode_game`` (the scorekeeper's game), ``baref_game`` (a refereed
game) and ``bamode_turn`` (the backgammon turn they are measured against),
which the tests run under the unix MicroPython with a fixed heap, the firmware and these modules
compiled to .mpy as ``pipboard deploy`` compiles the firmware (a Pico
compiles only the script it runs; its helpers are deployed, as
``pipbench_board`` is for tests/pico/bench_controller.py). Each holds only
what its run needs: the harness's code and names are in the heap measured.

``Rig`` is the whole app (``pipcore.app.App`` on the real drivers of
``pipdrivers.board.Board``) with stand-ins for the switch chain, the LED
strip, the buttons and the flash (real files, outside the heap, as the
board's flash is); its buttons are pressed through the debounce as people
press them.

With ``measure`` among the arguments (a roomy heap), every press (and every
settled change of ``bamode_turn``) runs with the collector off and the most heap one took is
its live heap before plus what it allocated (``peak``), as the bench
measures an event; without, the collector runs as on the board.
"""

import gc
import os
import sys

FOLDER = os.getenv("PIPBOARD_BAMODE_FLASH") or "bamode_heap.tmp"  # the test gives a temporary folder
MEASURE = "measure" in sys.argv
peak = 0  # the most heap a press or a change took (measured)


def loaded():
    """The modules of the mode (``pipcore.ba*``), the menu's too, loaded now (sorted)."""
    mode = ("pipcore.ba", "pipcore.glyphs", "pipcore.menu", "pipcore.settings")  # (a constant: interns no names)
    return sorted(m for m in sys.modules if m[:10] == mode[0] or m in mode)


def idle():
    """The live heap, collected."""
    gc.collect()
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0


class Flash:
    """The board's files as real files in ``FOLDER`` (outside the heap, as on the board); ``fresh``: none."""

    def __init__(self, fresh=True):
        try:
            os.mkdir(FOLDER)
        except OSError:
            if fresh:
                self.clean(False)

    def open(self, path, mode="rb"):
        return open(FOLDER + path, mode)

    def rename(self, old, new):
        os.rename(FOLDER + old, FOLDER + new)

    def remove(self, path):
        os.remove(FOLDER + path)

    def listdir(self):
        return os.listdir(FOLDER)

    def clean(self, folder=True):
        for name in os.listdir(FOLDER):
            os.remove(FOLDER + "/" + name)
        if folder:
            os.rmdir(FOLDER)


class Rig:
    """The App on its drivers (a power-up: it resumes what the flash holds), pressed as people press."""

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
        self.measured(self._press, button, long)

    def _press(self, button, long):
        self.pressed |= 1 << button
        self.advance(900 if long else 40)
        self.pressed &= ~(1 << button)
        self.advance(40)

    def measured(self, action, *args):
        """``action(*args)``; measured (``MEASURE``): the live heap before it plus what it allocates with the
        collector off, the most so far in ``peak``."""
        if not MEASURE:
            action(*args)
            return
        gc.collect()
        gc.disable()
        try:
            action(*args)
        finally:
            global peak
            peak = max(peak, gc.mem_alloc())
            gc.enable()

    def state(self):
        """What the board shows, as the fields of the snapshot's ``backalley`` the harness reads, from the mode
        itself: the module that writes the host's snapshot (``pipcore.bahost``, 4 KB) stays out of the heap,
        as at a table where no host asks (tests/test_bamode_protocol.py reads the snapshot itself). (Referee
        mode's fields: ``baref_play.board_state``, loaded only once the mode is on: the harness's names count in
        the heap measured, and the backgammon board with its menu stays under the interned names' step.)"""
        mode = self.app.mode
        k = mode.keeper
        seat = mode.actor()
        return {"phase": mode.phase_name(), "entry": mode.entry_text(), "to_act": None if seat is None else "NESW"[seat],
                "deal": min(k.number, 25) if k else 0, "redeals": k.redeals if k else 0,
                "scores": {"NS": k.scores[0], "EW": k.scores[1]} if k else None}


def choose_game(rig, steps, referee=False):
    """The menu, held open; the game item stepped ``steps`` times (TAKE up, DROP down); ``referee``: referee
    mode turned on, on the next item; OK. A menu that does not open (out of heap) is a failure, not a board
    that never had one."""
    g = rig.g
    app = rig.app
    faults = app.faults
    rig.press(g.BTN_MENU, True)
    if app.overlay is app.mode or app.faults != faults:
        raise MemoryError("the menu did not open (fault %r; error %r)" % (app.last_fault, app.error))
    for _ in range(abs(steps)):
        rig.press(g.BTN_WHITE_TAKE if steps > 0 else g.BTN_WHITE_DROP)
    if referee:
        rig.press(g.BTN_MENU)
        rig.press(g.BTN_WHITE_TAKE)
    rig.press(g.BTN_WHITE_ROLL)
    if app.overlay is not app.mode:
        raise MemoryError("the menu did not close (fault %r; error %r)" % (app.last_fault, app.error))


def run(stage, keep=False):
    """``stage()``'s exit code (a MemoryError the harness meets is a FAIL too); the flash cleaned unless
    ``keep`` (the power goes: the next run powers up from it)."""
    try:
        code = stage()
    except MemoryError as exc:
        print("FAIL: MemoryError", exc)
        sys.print_exception(exc)
        code = 1
    if code or not keep:
        try:
            Flash(False).clean()  # (whatever happened: nothing is left behind)
        except OSError:
            pass
    return code

