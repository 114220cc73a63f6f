"""The backgammon board in its hardest turn: the heap the Back Alley game (``bamode_game``) is measured against.

``micropython -m bamode_turn [measure]`` (tests/test_bamode_heap.py): the
board of ``bamode_board`` opens its menu and leaves it (as before a Back
Alley game), then plays a 1-1 with 2,226 plays as
tests/pico/bench_controller.py plays it: rolled, played checker by checker,
committed. Prints ``backgammon idle=N turn=N``; exits 1 on a failure.
"""

import sys

import bamode_board
from bamode_board import Flash, Rig, choose_game, idle, loaded, run

HARD_TURN = "IAKI6H+klFJKKQ"  # 1-1 here has 2,226 plays (tests/pico/bench_controller.py)


class Dice:
    def roll(self):
        return 1, 1


def lay_out(rig, pid, mover):
    """A position loaded as a host loads one, its checkers laid on the switches."""
    from pipcore.board import fill_counts
    from pipcore.position import Position

    g = rig.g
    rig.app.step(("load", pid, mover, None), rig.now)
    counts = rig.counts = bytearray(g.LOCATIONS)
    fill_counts(Position.from_id(pid), mover, counts)
    for loc in range(g.LOCATIONS):
        g.set_count(rig.bits, loc, min(counts[loc], g.SLOTS))
    rig.advance(40)


def change(rig, loc, delta):
    """A checker lifted (-1) from or put (+1) on ``loc``, the switches settled; measured as a press."""
    rig.counts[loc] += delta
    rig.measured(settle, rig, loc)


def settle(rig, loc):
    rig.g.set_count(rig.bits, loc, min(rig.counts[loc], rig.g.SLOTS))
    rig.advance(40)


def turn():
    """The hardest turn (see the module docstring); 0, or 1 after a FAIL line."""
    rig = Rig(Flash())
    app = rig.app
    choose_game(rig, 0)
    before = idle()
    lay_out(rig, HARD_TURN, 0)
    app.dice = Dice()
    bamode_board.peak = 0
    rig.press(rig.g.BTN_WHITE_ROLL)
    ctl = app.ctl
    if ctl.phase_name() != "moving" or loaded():
        print("FAIL: the hard turn was not rolled (%s; fault %r), or loaded %r" % (ctl.message, app.last_fault,
                                                                                  loaded()))
        return 1
    from pipcore.board import slot_loc
    from pipcore.position import Position
    from pipcore.rules import apply_move

    trial = Position.from_id(HARD_TURN)
    plays = ctl.turn
    for s, t, _die in plays.moves(plays.plays[len(plays.plays) // 2]):  # as bench_controller plays it
        hit = t > 0 and trial.opp[25 - t] == 1
        apply_move(trial, s, t)
        change(rig, slot_loc(0, s), -1)
        if hit:  # the blot to its bar first, then the hitter in its place
            change(rig, slot_loc(0, t), -1)
            change(rig, rig.g.LOC_BAR_BLACK, 1)
        change(rig, slot_loc(0, t), 1)
    ctl = plays = None
    rig.press(rig.g.BTN_WHITE_ROLL)  # DONE: the play committed and saved
    if app.ctl.phase_name() != "turn-start" or loaded() or app.faults or app.error:
        print("FAIL: the hard turn was not committed (%s; fault %r; error %r), or loaded %r" % (
            app.ctl.message, app.last_fault, app.error, loaded()))
        return 1
    print("backgammon idle=%d turn=%d" % (before, bamode_board.peak))
    return 0


if __name__ == "__main__":
    sys.exit(run(turn))
