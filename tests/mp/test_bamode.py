"""The Back Alley scorekeeper mode (pipcore.bamode) on the board's own App, under CPython and MicroPython.

The firmware's ``App`` on minimal twins with the protocol handler in front
(``resilience.Bench``), its buttons pressed and held through the debounce
as people press them: the menu chooses the game, a deal is keyed and scored
(RULES.md 5.9, worked by hand here), the LEDs draw calls in the seats'
quadrants, refused keys change nothing and show red, undo, a power cut, a
damaged save refused whole, and the way back to backgammon.
"""

import json

from bamode_play import Keyer
from pipcore import geometry as g
from resilience import Bench

BLINK = 1
PULSE = 2


def hold(bench, button, long=False):
    if not long:
        bench.press(button)
        return
    bench.pressed |= 1 << button
    bench.advance(900)
    bench.pressed &= ~(1 << button)
    bench.advance(40)


def ask(bench, msg):
    """One protocol request; its reply."""
    bench.out[:] = []
    bench.handler.feed((json.dumps(msg) + "\n").encode())
    for line in bench.out:
        reply = json.loads(line)
        if "id" in reply:
            return reply
    raise AssertionError("no reply to %r" % (msg,))


def start(options=None, bench=None):
    bench = bench or Bench()
    msg = {"id": 1, "cmd": "new_game", "variant": "backalley"}
    if options is not None:
        msg["options"] = options
    reply = ask(bench, msg)
    assert reply["ok"], reply
    return bench


def state(bench):
    return ask(bench, {"id": 2, "cmd": "snapshot"})["snapshot"]["backalley"]


def keyer(bench):
    return Keyer(lambda button, long=False: hold(bench, button, long), lambda: bench.app.mode.state())


def quadrant_lit(bench, seat):
    """The location pixels lit in ``seat``'s quadrant (slots 2..6): {index: (rgb, effect)}."""
    from pipcore.bamode import QUADRANTS

    px = bench.app.hw.pixels
    out = {}
    for loc in QUADRANTS[seat]:
        for slot in range(1, g.SLOTS):
            i = g.led_index(loc, slot)
            if px[i] != (0, 0, 0):
                out[i] = (px[i], px._effect[i])
    return out


def test_the_menu_starts_a_back_alley_game():
    bench = Bench()
    hold(bench, g.BTN_MENU, True)
    assert bench.app.overlay is not None
    for _ in range(2):  # the game: backgammon -> nardy -> Back Alley
        hold(bench, g.BTN_WHITE_TAKE)
    snap = ask(bench, {"id": 3, "cmd": "snapshot"})["snapshot"]
    assert snap["menu"]["item"] == "variant" and snap["menu"]["value"] == "backalley", snap["menu"]
    hold(bench, g.BTN_WHITE_ROLL)  # OK: between games the new game starts at once
    assert bench.app.mode is not None and bench.app.overlay is bench.app.mode
    snap = ask(bench, {"id": 4, "cmd": "snapshot"})["snapshot"]
    assert snap["variant"] == "backalley" and snap["backalley"]["phase"] == "dealer", snap
    assert "who deals first" in snap["message"]


def test_a_deal_is_keyed_with_the_buttons_and_scored():
    bench = start()
    k = keyer(bench)
    k.key("S")  # S deals first: W calls first
    st = state(bench)
    assert st["phase"] == "trump" and st["dealer"] == "S" and st["cards"] == 13 and st["to_act"] == "S"
    k.key("S")  # spades
    for call in ("3", "4", "P", "2"):  # W 3, N 4, E pass, S 2
        k.key(call)
    st = state(bench)
    assert st["phase"] == "tricks" and st["trump"] == "spades"
    assert st["contracts"] == {"NS": "6", "EW": "3"} and st["leader"] == "N"  # the first to call 4 leads
    assert st["view"] == "contracts"
    for n in ("3", "5", "2", "3"):  # W 3, N 5, E 2, S 3
        k.key(n)
    st = state(bench)
    # NS called 6 and took 8: 5 x 6 + 2 = 32; EW called 3 and took 5: 15 + 2 = 17 (RULES.md 5.9)
    assert st["scores"] == {"NS": 32, "EW": 17}, st
    assert st["deal"] == 2 and st["cards"] == 12 and st["dealer"] == "W" and st["view"] == "scores"
    assert k.presses < 40, k.presses  # a few presses per entry


def test_refused_keys_change_nothing_and_show_red():
    bench = start({"dealer": "S"})
    k = keyer(bench)
    k.key("H")
    keys = state(bench)["state"]["keys"]
    # a forbidden call: 13 with 13 cards (RULES.md 5.6: at most 12)
    for _ in range(13):
        hold(bench, g.BTN_WHITE_TAKE)  # W calls first: the white side's buttons
    assert state(bench)["entry"] == "13"
    hold(bench, g.BTN_WHITE_ROLL)
    st = state(bench)
    assert st["state"]["keys"] == keys and st["calls"] == {} and "13" in st["refused"], st
    lit = quadrant_lit(bench, 3)  # W's quadrant: the refused value blinks red
    assert lit and all(rgb[0] > 0 and rgb[1] == 0 and effect == BLINK for rgb, effect in lit.values()), lit
    assert "REFUSED" in ask(bench, {"id": 5, "cmd": "snapshot"})["snapshot"]["message"]
    # out of turn: the black side's buttons while W (white side) calls
    for button in (g.BTN_BLACK_TAKE, g.BTN_BLACK_ROLL, g.BTN_BLACK_DOUBLE):
        hold(bench, button)
        st = state(bench)
        assert st["state"]["keys"] == keys and st["entry"] == "13" and "West's turn" in st["refused"], st
    # the calls go in; then tricks that do not add up to 13
    for call in ("3", "4", "P", "2"):
        k.key(call)
    for n in ("3", "5", "2"):
        k.key(n)
    keys = state(bench)["state"]["keys"]
    hold(bench, g.BTN_WHITE_TAKE)  # S's value was the 3 left: 4 makes 14
    hold(bench, g.BTN_WHITE_ROLL)
    st = state(bench)
    assert st["state"]["keys"] == keys and st["phase"] == "tricks" and "14 tricks" in st["refused"], st
    hold(bench, g.BTN_WHITE_DROP)
    hold(bench, g.BTN_WHITE_ROLL)
    st = state(bench)
    assert st["refused"] is None and st["deal"] == 2 and st["scores"] == {"NS": 32, "EW": 17}


def test_the_leds_draw_each_seats_call_in_its_quadrant():
    from pipcore.bamode import QUADRANTS
    from pipcore.glyphs import rows

    bench = start({"dealer": "N"})
    k = keyer(bench)
    k.key("D")
    k.key("3")  # E calls 3
    k.key("B")  # S calls Board
    lit = quadrant_lit(bench, 1)
    want = []
    for row in range(5):
        for col in range(3):
            if rows("3")[row][col] == "#":
                want.append(g.led_index(QUADRANTS[1][3 + col], 5 - row))  # right-aligned, rows facing the edge
    assert sorted(lit) == sorted(want), (sorted(lit), sorted(want))
    assert all(effect == 0 and rgb[2] > rgb[0] for rgb, effect in lit.values())  # EW: blue, steady
    assert len(quadrant_lit(bench, 2)) == sum(r.count("#") for r in rows("B"))  # S: Board
    assert all(effect == PULSE for _rgb, effect in quadrant_lit(bench, 3).values())  # W's value, being keyed
    px = bench.app.hw.pixels
    assert px[g.led_index(g.LOC_BAR_WHITE, 2)] != (0, 0, 0)  # the trump: diamonds, slot 3 of the top bar
    assert px[g.led_index(QUADRANTS[0][0], 0)] != (0, 0, 0)  # N deals


def test_undo_takes_back_keys_even_across_a_deal():
    bench = start({"dealer": "S"})
    k = keyer(bench)
    for text in ("C", "P", "P", "P", "P"):  # four passes: a redeal by W, same 13 cards
        k.key(text)
    st = state(bench)
    assert st["dealer"] == "W" and st["deal"] == 1 and st["redeals"] == 1 and st["cards"] == 13
    hold(bench, g.BTN_UNDO)
    st = state(bench)
    assert st["dealer"] == "S" and st["phase"] == "calling" and st["to_act"] == "S" and st["redeals"] == 0
    for _ in range(4):
        hold(bench, g.BTN_UNDO)
    assert state(bench)["phase"] == "trump"
    hold(bench, g.BTN_UNDO)  # nothing left, and the dealer was given: refused
    assert state(bench)["phase"] == "trump" and state(bench)["refused"]


def test_a_power_cut_resumes_the_same_game():
    bench = start({"names": ["Ann", "Bob", "Cy", "Di"], "dealer": "E"})
    k = keyer(bench)
    for text in ("J", "2", "P", "B"):
        k.key(text)
    before = state(bench)
    flash = bench.flash
    bench = None
    bench = Bench(flash)  # the power comes back: the app reads its save
    assert bench.app.mode is not None and bench.app.overlay is bench.app.mode
    after = state(bench)
    assert after == before, (after, before)
    assert after["names"] == ["Ann", "Bob", "Cy", "Di"] and after["trump"] == "no trump"
    k = keyer(bench)
    k.key("1")  # W calls on where N's save left off
    assert state(bench)["phase"] == "tricks"


def test_a_damaged_save_is_refused_whole():
    bench = start({"dealer": "S"})
    k = keyer(bench)
    for text in ("S", "3", "4"):
        k.key(text)
    store = bench.app.hw.state_store
    data = json.loads(bytes(store.load()))
    data["backalley"]["keeper"]["keys"] = data["backalley"]["keeper"]["keys"] + "d"  # a call of 13: impossible
    store.save(json.dumps(data).encode())
    bench = Bench(bench.flash)
    st = state(bench)
    assert st["phase"] == "dealer" and st["state"] is None, st  # a new game, nothing half-loaded
    assert "refused" in st["refused"] and "key 4" in st["refused"], st
    assert "refused" in bench.app.load_error
    data["backalley"] = "garbage"
    store.save(json.dumps(data).encode())
    bench = Bench(bench.flash)
    assert state(bench)["phase"] == "dealer" and "not a Back Alley save" in state(bench)["refused"]


def test_the_backgammon_game_waits_without_its_code_as_a_fresh_game_shows_it():
    """While the board keeps a Back Alley score the backgammon game waits as a stand-in of its controller
    (pipcore.bawait.Waiting): a host reads it as it reads a fresh game of the same options (the snapshot's
    backgammon fields, the Match ID), and its part of the save (the options, tournament mode) reads back."""
    from pipcore.bawait import Waiting
    from pipcore.controller import Controller

    # (not its clock: a match with one starts it with the match, not while it waits: ``clock`` None)
    fields = ("variant", "phase", "mover", "cube", "owner", "dice", "result", "pending", "fair", "game_no",
              "record_count", "display", "want_roll", "transit_since", "coach", "pick")
    for options in ({}, {"matchLength": 5}, {"matchLength": 1}, {"matchLength": 7, "crawford": False},
                    {"jacoby": True}, {"matchLength": 3, "crawford": True}, {"matchLength": 2, "cubeEnabled": False},
                    {"beavers": True, "autoDoubles": 2}, {"clock": "simple", "matchLength": 3}):
        fresh = Controller(options, "backgammon")
        waiting = Waiting({"options": options, "tournament": True})
        assert waiting.options == fresh.options, options
        assert waiting.match_id() == fresh.match_id(), (options, waiting.match_id(), fresh.match_id())
        assert waiting.position_id() == fresh.pos.position_id() and waiting.phase_name() == fresh.phase_name()
        for name in fields:
            assert getattr(waiting, name) == getattr(fresh, name), (name, getattr(waiting, name))
        assert list(waiting.scores) == list(fresh.scores) and list(waiting.dice_left()) == list(fresh.dice_left())
        again = Waiting(json.loads(json.dumps(waiting.snapshot())))
        assert again.options == fresh.options and again.tournament is True and waiting.clock is None
    for damaged in ({}, {"options": "none", "tournament": False}, {"options": {"matchLength": -3}, "tournament": 0}):
        try:
            Waiting(damaged)
        except ValueError:
            continue
        raise AssertionError("a damaged waiting game was taken: %r" % (damaged,))


def test_a_damaged_waiting_game_in_the_save_is_refused_whole():
    bench = start({"dealer": "S"})
    keyer(bench).key("S")
    store = bench.app.hw.state_store
    data = json.loads(bytes(store.load()))
    # the game that waits is saved by its options, not as a controller's state
    assert data["waiting"] and data["variant"] == "backgammon" and "ref" not in data, data
    data["options"] = {"matchLength": -3}
    store.save(json.dumps(data).encode())
    bench = Bench(bench.flash)
    assert bench.app.mode is None and bench.app.ctl.variant == "backgammon", bench.app.mode
    assert "unusable" in bench.app.load_error and "matchLength" in bench.app.load_error, bench.app.load_error


def test_the_menu_over_the_game_and_the_way_back_to_backgammon():
    bench = start({"dealer": "W"})
    k = keyer(bench)
    k.key("C")
    hold(bench, g.BTN_MENU, True)  # the menu opens over the game; the snapshot still carries the score
    snap = ask(bench, {"id": 6, "cmd": "snapshot"})["snapshot"]
    assert snap["menu"]["open"] and snap["backalley"]["trump"] == "clubs"
    hold(bench, g.BTN_WHITE_DROP)  # Back Alley -> nardy
    hold(bench, g.BTN_WHITE_DROP)  # -> backgammon
    hold(bench, g.BTN_WHITE_ROLL)  # OK: the game is under way, so the match waits
    assert bench.app.mode is not None and bench.app.pending and bench.app.overlay is bench.app.mode
    assert "next game" in ask(bench, {"id": 7, "cmd": "snapshot"})["snapshot"]["message"]
    refused = ask(bench, {"id": 8, "cmd": "roll"})  # the backgammon game waits meanwhile
    assert not refused["ok"] and "Back Alley" in refused["message"], refused
    hold(bench, g.BTN_UNDO, True)
    assert bench.app.mode is not None  # once: asked
    hold(bench, g.BTN_UNDO, True)  # twice: the waiting backgammon match starts
    assert bench.app.mode is None and bench.app.overlay is None and not bench.app.pending
    snap = ask(bench, {"id": 9, "cmd": "snapshot"})["snapshot"]
    assert snap["variant"] == "backgammon" and "backalley" not in snap and snap["phase"] == "setup"


def test_chosen_during_a_backgammon_game_it_waits_for_the_next_match():
    from resilience import SCRIPT

    bench = Bench()
    for action in SCRIPT[:3]:  # set up, the opening roll, a play under way
        bench.step(action)
    assert bench.app.ctl.phase_name() in ("moving", "turn-start"), bench.app.ctl.phase_name()
    hold(bench, g.BTN_MENU, True)
    hold(bench, g.BTN_WHITE_TAKE)
    hold(bench, g.BTN_WHITE_TAKE)
    hold(bench, g.BTN_WHITE_ROLL)  # OK: the game goes on, Back Alley waits
    assert bench.app.mode is None and bench.app.pending
    hold(bench, g.BTN_UNDO, True)  # a new match: the one waiting
    assert bench.app.mode is not None and not bench.app.pending
    assert state(bench)["phase"] == "dealer"


def test_double_draws_the_first_dealer_with_the_boards_dice():
    bench = start()
    dice = bench.dice.rolled
    hold(bench, g.BTN_BLACK_DOUBLE)  # either side's buttons choose the first dealer
    assert bench.dice.rolled == dice + 1  # the next roll is 3-1: die A 3 names the third seat
    assert state(bench)["entry"] == "S"
    hold(bench, g.BTN_WHITE_ROLL)
    assert state(bench)["dealer"] == "S"


def test_the_self_test_borrows_the_board_and_gives_it_back():
    bench = start({"dealer": "E"})
    keyer(bench).key("C")
    reply = ask(bench, {"id": 11, "cmd": "self_test", "action": "start"})
    assert reply["ok"], reply
    assert bench.app.overlay is not bench.app.mode and bench.app.mode is not None
    assert ask(bench, {"id": 12, "cmd": "snapshot"})["snapshot"]["backalley"]["trump"] == "clubs"
    reply = ask(bench, {"id": 13, "cmd": "self_test", "action": "stop"})
    assert reply["ok"], reply
    assert bench.app.overlay is bench.app.mode and state(bench)["phase"] == "calling"
