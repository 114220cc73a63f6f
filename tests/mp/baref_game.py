"""Back Alley's referee mode on the board: a whole refereed game in the Pico's heap, with power cuts.

Run by tests/test_baref_heap.py under the unix MicroPython with a fixed heap
(``-X heapsize=240k``, the backgammon board's budget), the firmware and the
harness compiled to .mpy (the board of ``bamode_board``, shared with the
scorekeeper's ``bamode_game``), three times on one flash folder, as the board
lives through two power cuts: ``micropython -m baref_game PART FILE`` with
PART 0, 1, 2 (``measure`` added: every press measured, in a roomy heap).

FILE is a game written by the test with the card engine on CPython (the engine
never loads here; the format: ``baref_play.game_actions``, which reads it
once the mode is on, so that its code and names are not in the heap before).

* 0: the app starts as a backgammon board (none of the mode's modules may be
  loaded); the menu, walked with the buttons, chooses Back Alley with referee
  mode on; North deals first; the deals are keyed with the buttons, every card
  on the side of the seat to act, up to the first cut (deal 3, after the second
  card of trick 3), where the process ends: the power goes.
* 1: the board powers up from its flash in a fresh heap (the trick must resume
  where it was) and keys on up to the second cut (between deals 12 and 13).
* 2: powers up again, keys the rest of the game, then the menu chooses
  backgammon again, after which none of the mode's modules may stay.

Each run prints ``part N resumed=R heap=H save=S faults=F`` (``heap``: see
``bamode_board``; ``heap`` and ``save`` measured with ``measure`` only); part 2
also the game's line ``baref deals=... first=... last=...`` (the live heap
after deal 13 and after the last: what a refereed game keeps grows by its keys
only) and the modules during and after the game; exits 1 on a failure.
"""

import gc
import sys

import bamode_board
from bamode_board import Flash, Rig, choose_game, loaded, run

CUTS = ((2, 15), (12, 0))  # where the power goes: (deals counted, action of the deal) before the action


def actions(path, part):
    """The keys and cards of ``part`` (``baref_play.game_actions``), up to the next cut."""
    from baref_play import game_actions

    at = 0  # cuts passed
    for counted, i, action in game_actions(path):
        if at < len(CUTS) and (counted, i) == CUTS[at]:
            at += 1
            if at > part:
                return
        if at == part:
            yield counted, i, action


def key_all(rig, path, part):
    """The keys and cards of ``part`` on the buttons: (biggest save (measured), the live heap after the first
    deal of the part and after its last), or None after a FAIL line."""
    from baref_play import CardKeyer, board_state

    app = rig.app
    keyer = CardKeyer(rig.press, lambda: board_state(rig))
    save = 0
    first = last = None
    for counted, i, action in actions(path, part):
        try:
            if type(action) is str:
                keyer.key(action)
            else:
                keyer.card(action[0], action[1])
        except AssertionError as exc:  # (the board showed something else: say what the board said)
            print("FAIL: deal %d, action %d of part %d: %s (error %r; fault %r)" % (
                counted + 1, i, part, exc, app.error, app.last_fault))
            return None
        if bamode_board.MEASURE:  # (reading the save back takes heap the board does not spend)
            save = max(save, len(app.hw.state_store.load()))
        if rig.state()["deal"] != counted + 1 or app.mode.phase_name() == "game over":  # a deal was scored
            gc.collect()
            last = gc.mem_alloc()
            if first is None:
                first = last
    return save, first or 0, last or 0


def game(path, part):
    """One part of the game (see the module docstring); 0, or 1 after a FAIL line."""
    rig = Rig(Flash(part == 0))
    app = rig.app
    if part == 0:
        if app.ctl.variant != "backgammon" or loaded():
            print("FAIL: a backgammon board loaded %r" % loaded())
            return 1
        choose_game(rig, 2, True)  # backgammon -> nardy -> Back Alley; referee on
        if app.mode is None or not app.mode.referee:
            print("FAIL: the menu did not start a refereed game: %r (fault %r)" % (app.ctl.message, app.last_fault))
            return 1
    elif app.mode is None or not app.mode.referee:
        print("FAIL: the power-up lost the refereed game (%r; fault %r)" % (app.load_error, app.last_fault))
        return 1
    bamode_board.peak = 0  # (the press that loads the mode is the menu's: below, every key and card of the game)
    got = key_all(rig, path, part)
    for name in ("baref_play", "bamode_play"):
        sys.modules.pop(name, None)  # the harness's keying code leaves the heap once the keys are in
    if got is None:
        return 1
    save, first, last = got
    print("part %d resumed=%d heap=%d save=%d faults=%d" % (part, part > 0, bamode_board.peak, save, app.faults))
    if app.faults or app.error:
        print("FAIL: a fault on the way: %r (error %r)" % (app.last_fault, app.error))
        return 1
    if part < len(CUTS):
        return 0
    st = rig.state()
    if st["phase"] != "game over" or st["deal"] != 25:
        print("FAIL: the game did not end: %r" % st)
        return 1
    during = loaded()
    choose_game(rig, -2)  # Back Alley -> nardy -> backgammon: the game is over, so at once
    gc.collect()
    after = loaded()
    if app.mode is not None or app.ctl.variant != "backgammon":
        print("FAIL: the board did not go back to backgammon (error %r; fault %r)" % (app.error, app.last_fault))
        return 1
    print("baref deals=%d first=%d last=%d ns=%d ew=%d" % (st["deal"], first, last, st["scores"]["NS"],
                                                             st["scores"]["EW"]))
    print("modules during the game %r, after it %r" % (during, after))
    return 0


if __name__ == "__main__":
    part = int(sys.argv[1])
    path = sys.argv[2]
    sys.exit(run(lambda: game(path, part), part < len(CUTS)))
