"""Back Alley referee mode on the board (pipcore.baref), under CPython and MicroPython.

The firmware's ``App`` on minimal twins with the protocol handler in front
(``resilience.Bench``), its buttons pressed through the debounce as people
press them: a game with the ``referee`` option (the protocol's and the
menu's), a whole deal dealt by the card engine and keyed card by card on
the buttons of the seat to act, scored as the engine scores it; the card
being entered and the trick's winner on the LEDs; refusals (a revoke
against a shown void, the other side's buttons, a trump led before trumps
are broken) that change nothing and blink red; undo across the deal's end;
a power cut in the middle of a trick; a damaged part of the save refused.
"""

import json

from baref_play import CardKeyer, Lcg, next_card, table_deal
from pipcore import geometry as g
from resilience import Bench
from test_bamode import BLINK, PULSE, ask, hold, quadrant_lit

STEADY = 0
SEATS = "NESW"


def start(options, bench=None):
    bench = bench or Bench()
    reply = ask(bench, {"id": 1, "cmd": "new_game", "variant": "backalley", "options": options})
    assert reply["ok"], reply
    return bench


def state(bench):
    return ask(bench, {"id": 2, "cmd": "snapshot"})["snapshot"]["backalley"]


def message(bench):
    return ask(bench, {"id": 3, "cmd": "snapshot"})["snapshot"]["message"]


def keyer(bench):
    return CardKeyer(lambda button, long=False: hold(bench, button, long), lambda: bench.app.mode.state())


def call_text(call):
    return {0: "P", -1: "B"}.get(call, str(call))


def bid(k, d, calls):
    """The trump of the engine's deal ``d`` and ``calls`` keyed on the board (and made in ``d``)."""
    k.key("J" if d.trump < 0 else "CDHS"[d.trump])
    for call in calls:
        d.bid(d.to_act, call)
        k.key(call_text(call))


def glyph_pixels(seat, text):
    """The pixels of ``text`` right-aligned in ``seat``'s quadrant (as pipcore.bamode draws it)."""
    from pipcore.bamode import QUADRANTS
    from pipcore.glyphs import rows

    out = []
    n = len(text)
    for i in range(n):
        ch = text[n - 1 - i]
        c0 = (1 - i) * 3
        for row in range(5):
            for col in range(3):
                if rows(ch)[row][col] == "#":
                    out.append(g.led_index(QUADRANTS[seat][c0 + col], 5 - row))
    return sorted(out)


def as_glyphs(text):
    """A card's text (``"10H"``) as its quadrant shows it (``"HT"``)."""
    if text in ("LJ", "BJ"):
        return text
    return text[-1] + {"10": "T"}.get(text[:-1], text[:-1])


def unchanged(bench, before, *words):
    """The last key was refused with ``words`` in the reason, and nothing of the game changed."""
    st = state(bench)
    assert st["state"] == before["state"] and st["referee"]["state"] == before["referee"]["state"], st
    assert st["referee"]["entry"] == before["referee"]["entry"] and st["to_act"] == before["to_act"], st
    for w in words:
        assert w in st["refused"], (w, st["refused"])
    assert message(bench).startswith("REFUSED: ")
    return st


# -- a whole deal -------------------------------------------------------------------------------------------
def test_a_refereed_deal_keyed_card_by_card_with_a_power_cut_and_undo_scored_as_the_engine_scores_it():
    bench = start({"dealer": "N", "referee": True, "names": ["Ann", "Bob", "Cy", "Di"]})
    k = keyer(bench)
    d = table_deal(3, 0, 13)
    bid(k, d, (3, 0, -1, 2))  # E 3, S pass, W Board, N 2: W leads
    st = state(bench)
    assert st["phase"] == "tricks" and st["view"] == "trick" and st["to_act"] == SEATS[d.leader] == "W"
    ref = st["referee"]
    assert ref["playing"] and ref["trick"] == 1 and ref["of"] == 13 and ref["cards"] == [] and ref["last"] is None
    assert "Trick 1 of 13: Di to lead" in message(bench)
    rng = Lcg(5)
    presses = -k.presses  # the presses of the 52 cards
    cut = undone = 0
    while d.to_act is not None:
        text, word = next_card(d, rng)
        k.card(text, word)
        if d.to_act is None:
            break
        st = state(bench)
        assert st["referee"]["taken"] == dict(zip(SEATS, d.taken)) and st["to_act"] == SEATS[d.to_act], st
        if len(d.trick) == 2 and sum(d.taken) == 4:  # the power goes with two cards of trick 5 keyed
            bench = Bench(bench.flash)
            presses += k.presses
            k = keyer(bench)
            cut += 1
            assert state(bench) == st, (state(bench), st)  # the same trick, the same cards, the same entry
        if len(d.trick) == 1 and sum(d.taken) == 7:  # the first card of trick 8 taken back, and played again
            hold(bench, g.BTN_UNDO)
            back = state(bench)
            assert back["referee"]["cards"] == [] and back["referee"]["entry"] == text and back["to_act"] == st[
                "referee"]["leader"] and not back["referee"]["showing_last"]
            assert "taken back" in message(bench)
            roll = g.BTN_WHITE_ROLL if back["to_act"] in "SW" else g.BTN_BLACK_ROLL
            for _ in range(2 if word else 1):  # (a trump led on the leader's word: twice)
                hold(bench, roll)
            assert state(bench)["referee"]["state"] == st["referee"]["state"]
            undone += 1
    assert cut == 1 and undone == 1
    presses += k.presses
    assert 52 < presses < 52 * 5, presses  # a few presses a card (the seat's own: DOUBLE, TAKE/DROP, ROLL)
    st = state(bench)
    assert st["phase"] == "trump" and st["deal"] == 2 and st["dealer"] == "E", st
    assert [st["scores"]["NS"], st["scores"]["EW"]] == d.scores(), (st["scores"], d.scores())
    assert st["referee"]["taken"] == dict(zip(SEATS, d.taken)) and not st["referee"]["playing"]
    assert st["view"] == "scores"  # between deals the scores, as the scorekeeper shows them
    assert st["state"]["keys"].endswith("".join("%x" % d.taken[(0 + 1 + i) % 4] for i in range(4)))
    assert "All 13 tricks played" in message(bench)
    # undo: the deal's last card, and its score with it; played again
    hold(bench, g.BTN_UNDO)
    back = state(bench)
    assert back["phase"] == "tricks" and back["scores"] == {"NS": 0, "EW": 0} and back["referee"]["entry"] == text
    assert len(back["referee"]["cards"]) == 3 and "and the deal's score" in message(bench)
    k.card(text, word)
    assert state(bench)["scores"] == st["scores"] and state(bench)["state"] == st["state"]


def test_the_card_entered_and_the_tricks_winner_on_the_leds():
    bench = start({"dealer": "S", "referee": True})
    k = keyer(bench)
    for text in ("H", "2", "P", "P", "P"):  # hearts; W calls 2 and leads
        k.key(text)
    st = state(bench)
    assert st["to_act"] == "W" and st["referee"]["entry"] == "8C"  # the first lead opens on clubs, mid-way
    lit = quadrant_lit(bench, 3)
    assert sorted(lit) == glyph_pixels(3, "C8") and all(e == PULSE for _rgb, e in lit.values()), lit
    assert bench.app.hw.pixels[g.led_index(g.LOC_BAR_WHITE, 3)] != (0, 0, 0)  # the trump: hearts
    for text in ("KC", "2C"):
        k.card(text)
    lit = quadrant_lit(bench, 3)  # W's king stays on W's quadrant in the team's colour, steady
    assert sorted(lit) == glyph_pixels(3, "CK") and all(e == STEADY and rgb[2] > rgb[0] for rgb, e in
                                                         lit.values()), lit
    assert sorted(quadrant_lit(bench, 0)) == glyph_pixels(0, "C2")
    assert all(e == PULSE for _rgb, e in quadrant_lit(bench, 1).values())  # E enters its card
    k.card("10C")
    assert sorted(quadrant_lit(bench, 1)) == glyph_pixels(1, "CT")
    k.card("3H")  # S trumps: S wins the trick
    st = state(bench)
    ref = st["referee"]
    assert ref["showing_last"] and ref["last"] == {"trick": 1, "leader": "W", "cards": ["KC", "2C", "10C", "3H"],
                                                   "winner": "S"}, ref
    assert ref["to_act"] == "S" and ref["taken"]["S"] == 1 and ref["cards"] == []
    winner = quadrant_lit(bench, 2)
    assert sorted(winner) == glyph_pixels(2, "H3") and all(e == PULSE and rgb[1] > rgb[0] and rgb[1] > rgb[2]
                                                           for rgb, e in winner.values()), winner
    for seat, text in ((3, "CK"), (0, "C2"), (1, "CT")):
        assert sorted(quadrant_lit(bench, seat)) == glyph_pixels(seat, text)
    from pipcore.bamode import QUADRANTS

    px = bench.app.hw.pixels
    leads = [seat for seat in range(4) if px[g.led_index(QUADRANTS[seat][1], 0)] != (0, 0, 0)]
    assert leads == [2], leads  # the green "leads" marker: on the winner, who leads next
    assert "Trick 1 to South with" in message(bench) and "a key of South shows the card entry" in message(bench)
    hold(bench, g.BTN_WHITE_DROP)  # S's first key opens the entry (it changes nothing else)
    st = state(bench)
    assert not st["referee"]["showing_last"] and st["referee"]["state"] == ref["state"]
    assert st["referee"]["entry"] == ref["entry"]
    assert all(e == PULSE for _rgb, e in quadrant_lit(bench, 2).values())
    assert quadrant_lit(bench, 3) == {} and quadrant_lit(bench, 0) == {}  # a new trick: no cards yet
    hold(bench, g.BTN_MENU)  # the next view: the deal (the calls), with the entry on S's quadrant
    assert state(bench)["view"] == "deal"
    assert sorted(quadrant_lit(bench, 3)) == glyph_pixels(3, "2")
    assert sorted(quadrant_lit(bench, 2)) == glyph_pixels(2, as_glyphs(st["referee"]["entry"]))
    for view in ("contracts", "scores", "trick"):
        hold(bench, g.BTN_MENU)
        assert state(bench)["view"] == view


def test_refusals_change_nothing_and_blink_red():
    bench = start({"dealer": "N", "referee": True})
    k = keyer(bench)
    for text in ("S", "3", "P", "P", "2"):  # spades; E 3, S pass, W pass, N 2: E leads
        k.key(text)
    for text in ("5H", "2C", "7H", "9H"):  # S shows a void in hearts; N wins
        k.card(text)
    k.card("3H")  # N leads hearts again
    k.card("4H")  # E follows
    before = state(bench)
    assert before["to_act"] == "S"
    # a revoke against a shown void: S showed no hearts in trick 1
    for _ in range(12):
        if state(bench)["referee"]["entry"] == "8H":
            break
        hold(bench, g.BTN_WHITE_TAKE)
    stepped = state(bench)
    assert stepped["referee"]["entry"] == "8H"
    hold(bench, g.BTN_WHITE_ROLL)
    unchanged(bench, stepped, "South cannot hold", "no hearts in trick 1")
    lit = quadrant_lit(bench, 2)  # the refused card blinks red on S's quadrant
    assert sorted(lit) == glyph_pixels(2, "H8") and all(rgb[0] > 0 and rgb[1] == 0 and e == BLINK
                                                        for rgb, e in lit.values()), lit
    # the other side's buttons while S (the white side) plays
    for button in (g.BTN_BLACK_ROLL, g.BTN_BLACK_TAKE, g.BTN_BLACK_DOUBLE, g.BTN_BLACK_DROP):
        hold(bench, button)
        unchanged(bench, stepped, "South's turn")
    # the entry never shows a card already played
    for button in (g.BTN_WHITE_DOUBLE, g.BTN_WHITE_DROP, g.BTN_WHITE_DROP) * 5:
        hold(bench, button)
        assert state(bench)["referee"]["entry"] not in ("5H", "2C", "7H", "9H", "3H", "4H")
    k.card("3C")
    k.card("6H")  # W follows; N's 3H was beaten by E's 4H, then W's 6H: W wins
    st = state(bench)
    assert st["referee"]["last"]["winner"] == "W" and st["referee"]["taken"] == {"N": 1, "E": 0, "S": 0, "W": 1}
    # a trump led before trumps are broken by a seat that did not call Board: refused once, then the word
    hold(bench, g.BTN_WHITE_TAKE)  # W's key shows the entry
    for _ in range(8):
        if state(bench)["referee"]["entry"][-1] == "S":
            break
        hold(bench, g.BTN_WHITE_DOUBLE)
    before = state(bench)
    hold(bench, g.BTN_WHITE_ROLL)
    unchanged(bench, before, "trumps are not broken", "key it again")
    hold(bench, g.BTN_WHITE_ROLL)  # again at once: the leader's word that he holds only trumps
    st = state(bench)
    assert st["referee"]["cards"] == [before["referee"]["entry"]] and st["refused"] is None


def test_a_power_cut_while_a_finished_trick_is_shown():
    bench = start({"dealer": "S", "referee": True})
    k = keyer(bench)
    for text in ("H", "2", "P", "P", "P"):
        k.key(text)
    for text in ("KC", "2C", "10C", "3H"):
        k.card(text)
    before = state(bench)
    assert before["referee"]["showing_last"]
    bench = Bench(bench.flash)
    assert state(bench) == before  # the winner's card is shown again, its key opens the entry
    assert all(e == PULSE for _rgb, e in quadrant_lit(bench, 2).values())


def test_a_damaged_part_of_the_save_is_refused_with_a_clear_message():
    bench = start({"dealer": "S", "referee": True})
    k = keyer(bench)
    for text in ("H", "2", "P", "P", "P"):
        k.key(text)
    for text in ("KC", "2C", "10C"):
        k.card(text)
    keys = state(bench)["state"]["keys"]
    store = bench.app.hw.state_store
    data = json.loads(bytes(store.load()))
    data["backalley"]["tricks"]["cards"] += "0b"  # the KC again: a card played twice
    store.save(json.dumps(data).encode())
    bench = Bench(bench.flash)
    st = state(bench)
    assert st["state"]["keys"] == keys and st["phase"] == "tricks"  # the score stays
    assert st["referee"]["cards"] == [] and st["referee"]["trick"] == 1  # the deal's cards start again
    assert "saved cards were refused" in st["refused"] and "card 4" in st["refused"], st["refused"]
    assert "already played" in st["refused"] and "first trick" in st["refused"]
    assert "saved cards were refused" in bench.app.load_error
    assert all(rgb[0] > 0 and e == BLINK for rgb, e in quadrant_lit(bench, 3).values())  # W's entry: red
    k = keyer(bench)
    k.card("KC")  # the deal goes on from its first card
    assert state(bench)["refused"] is None and state(bench)["referee"]["cards"] == ["KC"]
    for garbage in ("x", {"batricks": 1, "h": 5, "trump": 2, "leader": "W", "boards": "", "cards": ""}):
        data["backalley"]["tricks"] = garbage  # not a save; another deal's
        store.save(json.dumps(data).encode())
        bench = Bench(bench.flash)
        st = state(bench)
        assert st["state"]["keys"] == keys and "saved cards were refused" in st["refused"], st
    # a referee flag that contradicts the options: the whole Back Alley save is refused
    data["backalley"]["options"]["referee"] = False
    store.save(json.dumps(data).encode())
    bench = Bench(bench.flash)
    st = state(bench)
    assert st["phase"] == "dealer" and "referee mode and its options disagree" in st["refused"], st


def test_a_fault_during_a_card_goes_back_to_the_last_card_committed():
    bench = start({"dealer": "S", "referee": True})
    k = keyer(bench)
    for text in ("H", "2", "P", "P", "P"):
        k.key(text)
    for text in ("KC", "2C"):
        k.card(text)
    before = state(bench)
    tricks = bench.app.mode.ref.tricks

    def fail(key):
        raise MemoryError("a heap cut up")

    tricks.press = fail  # the next key fails half-way, as a MemoryError may
    hold(bench, g.BTN_BLACK_TAKE)  # E steps its card: the fault
    assert bench.app.error_kind == "memory" and "key it again" in bench.app.error, bench.app.error
    st = state(bench)
    assert st["state"] == before["state"] and st["referee"]["state"] == before["referee"]["state"]
    assert bench.app.mode.ref.tricks is not tricks  # rebuilt from the last card committed
    k.card("10C")  # the board goes on
    assert state(bench)["referee"]["cards"] == ["KC", "2C", "10C"] and bench.app.error_kind is None


def test_a_save_with_tricks_keyed_by_hand_in_a_refereed_game_falls_back_to_the_counts():
    bench = start({"dealer": "S", "referee": True})
    k = keyer(bench)
    for text in ("H", "2", "P", "P", "P"):
        k.key(text)
    store = bench.app.hw.state_store
    data = json.loads(bytes(store.load()))
    data["backalley"]["keeper"]["keys"] += "3"  # (a save no board writes: W's tricks keyed by hand)
    data["backalley"]["tricks"] = None
    store.save(json.dumps(data).encode())
    bench = Bench(bench.flash)
    st = state(bench)
    assert st["phase"] == "tricks" and st["to_act"] == "N" and st["view"] == "deal" and st["entry"] == "0", st
    k = keyer(bench)
    for n in ("3", "3", "4"):  # the other counts keyed as in the scorekeeper: the deal is scored
        k.key(n)
    assert state(bench)["deal"] == 2


def test_the_menu_turns_referee_mode_on_for_a_back_alley_game():
    bench = Bench()
    hold(bench, g.BTN_MENU, True)
    seen = []
    for _ in range(30):  # a backgammon match has no referee item
        seen.append(ask(bench, {"id": 4, "cmd": "snapshot"})["snapshot"]["menu"]["item"])
        hold(bench, g.BTN_MENU)
    assert "referee" not in seen and "brightness" in seen
    while ask(bench, {"id": 4, "cmd": "snapshot"})["snapshot"]["menu"]["item"] != "variant":
        hold(bench, g.BTN_MENU)
    hold(bench, g.BTN_WHITE_TAKE)
    hold(bench, g.BTN_WHITE_TAKE)  # Back Alley
    hold(bench, g.BTN_MENU)  # the next item: referee, off
    menu = ask(bench, {"id": 5, "cmd": "snapshot"})["snapshot"]["menu"]
    assert menu["item"] == "referee" and menu["value"] is False and menu["text"] == "off", menu
    lit = bench.app.hw.pixels
    assert lit[g.led_index(g.LOC_OFF_BLACK, 0)] != (0, 0, 0) and lit[g.led_index(g.LOC_OFF_BLACK, 1)][1] > 0
    hold(bench, g.BTN_WHITE_TAKE)
    assert ask(bench, {"id": 6, "cmd": "snapshot"})["snapshot"]["menu"]["value"] is True
    hold(bench, g.BTN_WHITE_ROLL)  # OK: between games it starts at once
    assert bench.app.mode is not None and bench.app.mode.referee
    assert state(bench)["options"]["referee"] is True
    # the menu over a game under way: turning it off waits for the next game
    keyer(bench).key("N")
    keyer(bench).key("C")
    hold(bench, g.BTN_MENU, True)
    hold(bench, g.BTN_MENU)
    assert ask(bench, {"id": 7, "cmd": "snapshot"})["snapshot"]["menu"]["value"] is True
    hold(bench, g.BTN_WHITE_DROP)
    hold(bench, g.BTN_WHITE_ROLL)
    assert bench.app.pending and bench.app.mode.referee and "next game" in message(bench)
    hold(bench, g.BTN_UNDO, True)
    hold(bench, g.BTN_UNDO, True)  # a new game: the one chosen, without referee mode
    assert not bench.app.mode.referee and "referee" not in state(bench)
    assert state(bench)["options"]["referee"] is False


def test_a_game_without_referee_mode_keys_the_tricks():
    bench = start({"dealer": "N"})
    k = keyer(bench)
    for text in ("S", "3", "P", "P", "2"):
        k.key(text)
    st = state(bench)
    assert st["phase"] == "tricks" and st["view"] == "contracts" and "referee" not in st
    assert bench.app.mode.ref is None
    for n in ("3", "5", "2", "3"):
        k.key(n)
    assert state(bench)["deal"] == 2 and state(bench)["scores"] == {"NS": 16, "EW": 17}
