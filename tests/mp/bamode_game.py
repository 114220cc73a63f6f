"""The board's Back Alley scorekeeper mode: a whole game in the Pico's heap, with power cuts.

Run by tests/test_bamode_heap.py under the unix MicroPython with a fixed heap
(``-X heapsize=240k``), the firmware and the harness compiled to .mpy
(``bamode_board``), three times on one flash folder, as the board lives
through two power cuts: ``micropython -m bamode_game PART`` with PART 0, 1, 2.

* 0: the app starts as a backgammon board (none of the mode's modules may be
  loaded); the menu is opened and left, then chooses Back Alley; the first
  dealer and the deals of ``bamode_play.deals`` (25 counted deals and the
  redeals) are keyed with the buttons, pressed through the debounce, up to
  the first cut (between deals 12 and 13), where the process ends: the power
  goes.
* 1: the board powers up from its flash in a fresh heap (the mode must
  resume where it was) and keys on up to the second cut (in deal 19, after
  the trump and two calls); in the middle of deal 16 (after its trump and
  two calls) the menu is opened over the game and left: the game goes on
  where it was.
* 2: powers up again, keys the rest of the game, then the menu chooses
  backgammon again, after which the mode's modules must have left the heap.

Each run prints ``part N resumed=R heap=H save=S`` (``heap``: see
``bamode_board``, measured with ``measure``), part 0 also ``idle=``, part 2
also the game's line ``bamode deals=... ``; exits 1 on a failure.
"""

import sys

import bamode_board
from bamode_board import Flash, Rig, choose_game, idle, loaded, run

CUTS = ((12, 0), (18, 3))  # where the power goes: (deals counted, key of the deal) before the key
MENU_AT = (15, 3)  # where the menu is opened over the game and left


def keys(part):
    """The keys of ``part`` in the order keyed: (deals counted before it, key of the deal, its text)."""
    from bamode_play import Lcg, deal_texts, deals

    at = 0  # cuts passed

    def stream():
        yield 0, -1, "W"  # West deals first
        counted = 0
        for trump, calls, tricks in deals(Lcg(11)):
            texts = deal_texts(trump, calls, tricks)
            for i in range(len(texts)):
                yield counted, i, texts[i]
            if tricks is not None:
                counted += 1

    for counted, i, text in stream():
        if at < len(CUTS) and (counted, i) == CUTS[at]:
            at += 1
            if at > part:
                return
        if at == part:
            yield counted, i, text


def key_all(rig, part):
    """The keys of ``part`` on the buttons; the biggest save (measured), or None after a FAIL line."""
    from bamode_play import Keyer

    app = rig.app
    save = 0
    first = True
    for counted, i, text in keys(part):
        if first and part and rig.state()["deal"] != counted + 1:
            print("FAIL: the board resumed at deal %d, not %d" % (rig.state()["deal"], counted + 1))
            return None
        first = False
        if (counted, i) == MENU_AT:  # the menu over the game, left as it was
            shown = rig.state()
            choose_game(rig, 0)
            if app.mode is None or rig.state() != shown:
                print("FAIL: the menu over the game lost it: %r, not %r" % (app.mode and rig.state(), shown))
                return None
        try:
            Keyer(rig.press, rig.state).key(text)
        except AssertionError as exc:  # (the board showed something else: say what the board said)
            print("FAIL: key %r of part %d: %s (error %r; fault %r)" % (text, part, exc, app.error, app.last_fault))
            return None
        if bamode_board.MEASURE:  # (reading the save back takes heap the board does not spend)
            save = max(save, len(app.hw.state_store.load()))
    return save


def game(part):
    """One part of the game (see the module docstring); 0, or 1 after a FAIL line."""
    rig = Rig(Flash(part == 0))
    app = rig.app
    before = 0
    if part == 0:
        if app.ctl.variant != "backgammon" or loaded():
            print("FAIL: a backgammon board loaded %r" % loaded())
            return 1
        choose_game(rig, 0)  # the menu opened and left (its names stay interned), as in ``bamode_turn``
        before = idle()  # the backgammon board waiting for its checkers
        choose_game(rig, 2)  # backgammon -> nardy -> Back Alley
        if app.mode is None:
            print("FAIL: the menu did not start Back Alley: %r (fault %r)" % (app.ctl.message, app.last_fault))
            return 1
    elif app.mode is None:
        print("FAIL: the power-up lost the Back Alley game (%r; fault %r)" % (app.load_error, app.last_fault))
        return 1
    bamode_board.peak = 0  # (the press that loads the mode is the menu's: below, every key of the game)
    save = key_all(rig, part)
    sys.modules.pop("bamode_play", None)  # the harness's keying code leaves the heap once the keys are in
    if save is None:
        return 1
    if app.faults or app.error:
        print("FAIL: a fault on the way: %r (error %r)" % (app.last_fault, app.error))
        return 1
    print("part %d resumed=%d heap=%d save=%d idle=%d" % (part, part > 0, bamode_board.peak, save, before))
    if part < len(CUTS):
        return 0
    st = rig.state()
    if st["phase"] != "game over" or st["deal"] != 25:
        print("FAIL: the game did not end: %r" % st)
        return 1
    during = loaded()
    choose_game(rig, -2)  # Back Alley -> nardy -> backgammon: the game is over, so at once
    idle()
    after = loaded()
    if app.mode is not None or app.ctl.variant != "backgammon":
        print("FAIL: the board did not go back to backgammon (error %r; fault %r)" % (app.error, app.last_fault))
        return 1
    print("bamode deals=%d redeals=%d during=%d after=%d ns=%d ew=%d" % (
        st["deal"], st["redeals"], len(during), len(after), st["scores"]["NS"], st["scores"]["EW"]))
    print("modules during the game %r, after it %r" % (during, after))
    return 0


if __name__ == "__main__":
    part = int(sys.argv[1])
    sys.exit(run(lambda: game(part), part < len(CUTS)))
