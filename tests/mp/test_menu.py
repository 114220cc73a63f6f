"""The board's menu and self-test logic, and the app's hooks for them (CPython and MicroPython).

``pipcore.menu`` (items, values, buttons, LEDs), ``pipcore.selftest`` (the walk over the switches) and
``pipcore.settings`` (the menu on the app, the settings file) on the firmware's own ``App`` with
stand-in hardware (``resilience.Bench``: the same one the fault tests use).
"""

import json

from pipcore import geometry as g
from pipcore import menu as m
from pipcore import selftest as st
from pipcore.board import NLOC, fill_counts
from pipcore.options import UNLIMITED, make_options
from pipcore.position import Position
from resilience import Bench, Flash

SHORT = 1
LONG = 2


class Px:
    """Pixels that remember what was set (``pipdrivers.leds.Pixels.set``'s signature)."""

    def __init__(self):
        self.rgb = {}
        self.effects = {}

    def set(self, i, r, gr, b, effect=0):
        if r or gr or b:
            self.rgb[i] = (r, gr, b)
            self.effects[i] = effect
        else:
            self.rgb.pop(i, None)
            self.effects.pop(i, None)

    def lit(self):
        return sorted(self.rgb)


class Display:
    """The panel calls the menu makes (a DiceDisplay's)."""

    def __init__(self, px):
        self.px = px
        self.calls = []

    def blank(self):
        self.calls.append(("blank",))

    def turn(self, player, low=False):
        self.calls.append(("turn", player))

    def cube(self, value, owner):
        self.calls.append(("cube", value, owner))

    def moves(self, n, colour=0):
        self.calls.append(("moves", n))

    def dice(self, a, b, player, used_a=False, used_b=False, moves=-1):
        self.calls.append(("dice", a, b, moves))


def fresh(variant="backgammon", options=None):
    return m.Menu(variant, make_options(options, variant), 5, False)


def visible(menu):
    return [item[0] for item in m.ITEMS if m.shown(item[0], menu.v)]


# -- the menu on its own ---------------------------------------------------------------------
def test_items_have_their_own_places_and_every_option_of_the_board():
    places = [item[1] for item in m.ITEMS]
    assert len(set(places)) == len(places)
    keys = [item[0] for item in m.ITEMS]
    for name in make_options():
        assert name in keys, name  # every option (RULES.md 0.4 and the board's own) has an item
    for key in ("variant", "tournament", "brightness", m.SELF_TEST):
        assert key in keys


def test_next_and_previous_walk_the_items_of_the_game_chosen():
    menu = fresh()
    seen = [menu.key]
    for _ in range(len(visible(menu)) - 1):
        menu.press(g.BTN_MENU, SHORT)
        seen.append(menu.key)
    assert seen == visible(menu)
    assert "crawford" not in seen and "beavers" in seen and "lnOpening" not in seen  # money backgammon
    menu.press(g.BTN_MENU, SHORT)
    assert menu.key == "variant"  # round again
    menu.press(g.BTN_UNDO, SHORT)
    assert menu.key == m.SELF_TEST  # undo goes back, round the end
    nardy = fresh("nardy", {"matchLength": 3})
    keys = visible(nardy)
    assert "lnOpening" in keys and "crawford" in keys and "caucasian" not in keys and "beavers" not in keys
    assert "cubeCap" not in keys  # the cube is off in long nardy by default


def test_values_change_wrap_and_stop_at_the_ends():
    menu = fresh()
    menu.press(g.BTN_MENU, SHORT)
    assert menu.key == "matchLength" and menu.value() == 0
    assert menu.press(g.BTN_WHITE_TAKE, SHORT) == m.STAY
    assert menu.value() == 1
    menu.press(g.BTN_BLACK_TAKE, LONG)
    assert menu.value() == 11
    for _ in range(3):
        menu.press(g.BTN_WHITE_TAKE, LONG)
    assert menu.value() == 25  # the end of the list
    menu.press(g.BTN_WHITE_DROP, SHORT)
    assert menu.value() == 24
    menu.v["matchLength"] = 0
    menu.press(g.BTN_BLACK_DROP, SHORT)
    assert menu.value() == 0
    menu.item = m.item_index("clock")
    menu.press(g.BTN_WHITE_DROP, SHORT)
    assert menu.value() == "bronstein"  # choices go round
    menu.press(g.BTN_WHITE_TAKE, SHORT)
    assert menu.value() == "off"
    menu.item = m.item_index("autoDoubles")
    menu.v["autoDoubles"] = 10
    menu.press(g.BTN_WHITE_TAKE, SHORT)
    assert menu.value() == UNLIMITED and menu.text() == "unlimited"
    menu.v["cubeCap"] = 128  # a host's value the list lacks: the nearest one goes on
    menu.item = m.item_index("cubeCap")
    menu.press(g.BTN_WHITE_DROP, SHORT)
    assert menu.value() == 32


def test_buttons_answer_what_the_app_must_do():
    menu = fresh()
    assert menu.press(g.BTN_WHITE_ROLL, SHORT) == m.CLOSE
    assert menu.press(g.BTN_BLACK_DOUBLE, SHORT) == m.CANCEL
    assert menu.press(g.BTN_MENU, LONG) == m.CLOSE
    assert menu.press(g.BTN_MENU, 0) == m.STAY and menu.press(g.BTN_MENU, 3) == m.STAY  # down, up
    menu.item = m.item_index("brightness")
    assert menu.press(g.BTN_WHITE_TAKE, SHORT) == m.LIVE and menu.value() == 6
    menu.item = m.item_index("tournament")
    assert menu.press(g.BTN_WHITE_TAKE, SHORT) == m.LIVE and menu.value() is True
    menu.item = m.item_index(m.SELF_TEST)
    assert menu.press(g.BTN_BLACK_ROLL, SHORT) == m.START_TEST
    assert menu.press(g.BTN_WHITE_TAKE, SHORT) == m.STAY  # the self-test has no value
    assert not menu.game_changed()


def _rng(seed):
    state = [seed * 2654435761 & 0xFFFFFFFF or 1]

    def below(n):
        x = state[0]
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        state[0] = x
        return x % n

    return below


def test_every_reachable_combination_is_a_legal_match():
    """Random presses for a long while: the settings always make a legal match (make_options checks)."""
    buttons = (g.BTN_MENU, g.BTN_UNDO, g.BTN_WHITE_TAKE, g.BTN_BLACK_DROP, g.BTN_WHITE_TAKE, g.BTN_WHITE_DROP)
    below = _rng(7)
    menu = fresh()
    seen = {}
    for _ in range(3000):
        menu.press(buttons[below(len(buttons))], LONG if below(5) == 0 else SHORT)
        variant, opts = menu.game()  # raises ConfigError if the combination were illegal
        assert m.shown(menu.key, menu.v)
        seen[menu.key] = 1
        if variant == m.BACKALLEY:  # the scorekeeper (pipcore.bamode): no match options, only referee mode
            assert opts == {"referee": menu.v["referee"]} and menu.key in ("variant", "referee") + m.BOARD_ITEMS
            continue
        assert menu.key != "referee"
        if opts["matchLength"]:
            assert not opts["beavers"] and not opts["jacoby"] and opts["autoDoubles"] == 0
    assert len(seen) >= 20, sorted(seen)


def test_repair_turns_off_what_a_match_forbids():
    menu = fresh(options={"beavers": True, "raccoons": True, "jacoby": True, "autoDoubles": 2})
    menu.item = m.item_index("matchLength")
    menu.press(g.BTN_WHITE_TAKE, SHORT)
    v = menu.v
    assert v["matchLength"] == 1 and v["crawford"] is True
    assert not v["beavers"] and not v["raccoons"] and not v["jacoby"] and v["autoDoubles"] == 0
    menu.press(g.BTN_WHITE_DROP, SHORT)
    assert v["crawford"] is False  # money play: no Crawford game
    menu.item = m.item_index("variant")
    menu.v["caucasian"] = True
    menu.press(g.BTN_WHITE_TAKE, SHORT)
    assert v["variant"] == "nardy" and not v["caucasian"] and not v["cubeEnabled"]
    assert menu.game()[0] == "nardy" and menu.game_changed()


def test_the_leds_show_items_choice_and_digits():
    menu = fresh()
    px = Px()
    disp = Display(px)
    menu.draw(px, disp)
    for key, loc, _kind, _values, _title, _labels in m.ITEMS:
        lit = g.led_index(loc, 0) in px.rgb
        assert lit == m.shown(key, menu.v), key
    first = g.led_index(m.ITEMS[0][1], 0)
    assert px.effects[first] == 2  # the current item pulses
    assert g.led_index(0, 1) in px.rgb and g.led_index(0, 2) in px.rgb  # two games: two choice slots
    assert px.rgb[g.led_index(0, 1)][1] > px.rgb[g.led_index(0, 2)][1]  # backgammon (the first) is chosen
    assert ("dice", 1, 0, -1) in disp.calls  # die A: the first choice
    assert g.LED_TURN_WHITE in px.rgb and g.LED_TURN_BLACK in px.rgb  # the menu is open
    menu.item = m.item_index("matchLength")
    menu.v["matchLength"] = 25
    px = Px()
    disp = Display(px)
    menu.draw(px, disp)
    assert ("dice", 2, 5, -1) in disp.calls  # the panel says it too, never under a checker
    digits = [i for i in px.lit() if g.led_at(i)[0] in m.DIGIT_LOCS] if hasattr(g, "led_at") else None
    want = []
    for half, digit in ((0, 2), (1, 5)):
        rows = m.glyph_rows(digit)
        for row in range(5):
            for col in range(3):
                if rows[row][col] == "#":
                    want.append(g.led_index(m.DIGIT_LOCS[3 * half + col], 1 + row))
    for i in want:
        assert i in px.rgb
    assert digits is None or sorted(digits) == sorted(want)
    assert m.glyph_rows(8) == ["###", "#.#", "###", "#.#", "###"] and m.glyph_rows(1)[0] == ".#."
    menu.v["matchLength"] = 19
    disp = Display(px)
    menu.draw(px, disp)
    assert ("dice", 1, 6, 3) in disp.calls  # 9 units: six pips and three markers
    menu.item = m.item_index("cubeCap")
    menu.v["cubeCap"] = 16
    disp = Display(px)
    menu.draw(px, disp)
    assert ("cube", 16, -1) in disp.calls
    menu.item = m.item_index("autoDoubles")
    menu.v["autoDoubles"] = UNLIMITED
    px = Px()
    menu.draw(px, Display(px))
    for base in (g.LED_DIE_A, g.LED_DIE_B):
        lit = [pip for pip in range(g.DIE_PIPS) if base + pip in px.rgb]
        assert lit == [g.PIP_ML, g.PIP_C, g.PIP_MR]  # "--": no limit
    assert px.lit().count(g.led_index(m.DIGIT_LOCS[1], 3)) == 1  # and "--" in digits on the board


# -- the self-test on its own -------------------------------------------------------------------------
def _bits(*closed):
    buf = bytearray(g.SCAN_BYTES)
    for bit in closed:
        buf[bit >> 3] |= 1 << (bit & 7)
    return buf


def test_self_test_clear_then_walk_every_slot():
    test = st.SelfTest()
    stuck = g.sensor_bit(19, 5)
    forgotten = g.sensor_bit(4, 0)
    test.sensed(_bits(stuck, forgotten))
    assert test.step == st.CLEAR
    test.proceed()  # DONE with two switches closed: both counted stuck closed for now
    assert test.step == st.WALK and test.target == 0
    dead = g.sensor_bit(2, 3)
    lazy = g.sensor_bit(7, 1)  # closes only when its neighbour is covered
    test.sensed(_bits(stuck))  # the forgotten checker lifted: that switch works, and is walked in turn
    for bit in range(g.SENSORS):
        if bit == stuck:
            continue
        assert test.target == bit, (bit, test.target)
        if bit in (dead, lazy):
            test.proceed()  # DONE: it does not answer
            continue
        closed = (stuck, bit, lazy) if bit == lazy + 1 else (stuck, bit)
        test.sensed(_bits(*closed))
    assert test.step == st.DONE and test.complete
    assert test.problems() == [(dead, st.STUCK_OPEN), (lazy, st.MISPLACED), (stuck, st.STUCK_CLOSED)]
    state = test.state()
    assert state["problems"][0] == {"switch": "point 3 slot 4", "location": 2, "slot": 4, "bit": dead,
                                    "fault": "stuck open"}
    assert "3 faulty switches" in test.message()
    px = Px()
    test.draw(px, Display(px))
    assert px.effects[g.led_index(19, 5)] == 1  # stuck closed: blinking
    assert g.led_index(2, 3) in px.rgb and g.led_index(7, 1) in px.rgb


def test_self_test_starts_the_walk_on_an_empty_board_and_can_stop():
    test = st.SelfTest()
    test.sensed(_bits())
    assert test.step == st.WALK
    px = Px()
    test.draw(px, Display(px))
    assert px.effects[g.led_index(0, 0)] == 2  # the slot to cover pulses
    test.sensed(_bits(0))
    test.sensed(_bits(0, 1))
    assert test.target == 2
    test.finish()
    assert test.step == st.DONE and not test.complete and test.problems() == []
    assert "of the slots reached" in test.message()


# -- on the app -------------------------------------------------------------------------------------------
def hold(bench, button, ms=900):
    bench.pressed |= 1 << button
    bench.advance(ms)
    bench.pressed &= ~(1 << button)
    bench.advance(40)


def set_up(bench):
    counts = bytearray(NLOC)
    fill_counts(Position.start(), 0, counts)
    bench.show(counts)


def snapshot(bench):
    return bench.bridge.snapshot()


def test_menu_on_the_board_starts_a_match_between_games_and_keeps_settings():
    bench = Bench()
    set_up(bench)
    assert bench.app.ctl.phase_name() == "opening"
    hold(bench, g.BTN_MENU)
    snap = snapshot(bench)
    assert snap["menu"]["open"] and snap["menu"]["item"] == "variant" and snap["message"].startswith("menu:")
    bench.press(g.BTN_MENU)
    for _ in range(5):
        bench.press(g.BTN_WHITE_TAKE)
    assert snapshot(bench)["menu"]["value"] == 5
    bench.pressed = 0
    for _ in range(15):  # to brightness (the items of a match)
        if snapshot(bench)["menu"]["item"] == "brightness":
            break
        bench.press(g.BTN_MENU)
    bench.press(g.BTN_BLACK_DROP)
    assert abs(bench.app.hw.pixels.brightness - 0.30) < 0.01  # at once
    bench.press(g.BTN_WHITE_ROLL)  # OK: leave
    snap = snapshot(bench)
    assert not snap["menu"]["open"] and snap["options"]["matchLength"] == 5 and snap["options"]["crawford"]
    assert snap["phase"] == "opening"  # a new match, on the checkers already set up
    data = json.loads(bench.app.hw.settings_store.load())
    assert data["light"] == 0.3 and data["next"] is None
    again = Bench(bench.flash)  # a power cut: settings and match resume
    assert abs(again.app.hw.pixels.brightness - 0.3) < 0.01
    assert again.app.ctl.options["matchLength"] == 5


def test_menu_during_a_game_waits_for_the_next_match_and_cancel_forgets():
    bench = Bench()
    set_up(bench)
    bench.press(g.BTN_WHITE_ROLL)  # the opening roll: the game is on
    phase = bench.app.ctl.phase_name()
    assert phase in ("moving", "turn-start"), phase
    hold(bench, g.BTN_MENU)
    bench.press(g.BTN_MENU)
    bench.press(g.BTN_WHITE_TAKE)
    bench.press(g.BTN_WHITE_DOUBLE)  # cancel
    assert bench.app.overlay is None and bench.app.ctl.options["matchLength"] == 0 and not bench.app.pending
    hold(bench, g.BTN_MENU)
    bench.press(g.BTN_MENU)
    bench.press(g.BTN_WHITE_TAKE)
    bench.press(g.BTN_WHITE_TAKE)
    hold(bench, g.BTN_MENU)  # leave, keeping: the match goes on, the new one waits
    snap = snapshot(bench)
    assert snap["options"]["matchLength"] == 0 and snap["menu"] == {"open": False, "pending": True}
    assert "next match" in bench.app.ctl.message
    hold(bench, g.BTN_MENU)
    assert snapshot(bench)["menu"]["value"] is not None
    bench.press(g.BTN_MENU)
    assert snapshot(bench)["menu"]["value"] == 2  # the menu shows the match waiting
    bench.press(g.BTN_BLACK_DOUBLE)
    again = Bench(bench.flash)  # a power cut keeps the waiting match
    assert again.app.pending
    hold(again, g.BTN_UNDO)  # a new match: the one waiting
    assert again.app.ctl.options["matchLength"] == 2 and not again.app.pending


def test_host_new_game_replaces_the_waiting_match_and_tournament_holds():
    bench = Bench()
    set_up(bench)
    bench.press(g.BTN_WHITE_ROLL)
    hold(bench, g.BTN_MENU)
    bench.app.overlay.menu.item = m.item_index("tournament")
    bench.press(g.BTN_WHITE_TAKE)
    assert bench.app.ctl.tournament  # at once, mid-game
    bench.app.overlay.menu.item = m.item_index("matchLength")
    bench.press(g.BTN_WHITE_TAKE)
    bench.press(g.BTN_WHITE_ROLL)
    assert bench.app.pending
    bench.handler.feed(b'{"id": 3, "cmd": "new_game", "options": {"matchLength": 7}}\n')
    assert not bench.app.pending and bench.app.ctl.options["matchLength"] == 7
    assert bench.app.ctl.tournament  # a board setting: every match
    assert json.loads(bench.app.hw.settings_store.load()) == {"v": 1, "light": 0.4, "tournament": True, "next": None}


def test_self_test_on_the_board_names_a_stuck_switch():
    bench = Bench()
    stuck = g.sensor_bit(13, 2)
    set_up(bench)
    hold(bench, g.BTN_MENU)
    bench.press(g.BTN_UNDO)  # previous item, round the start: the self-test
    bench.press(g.BTN_WHITE_ROLL)
    assert snapshot(bench)["self_test"]["step"] == "clear"
    bench.bits[:] = _bits(stuck)  # every checker lifted; one switch stays closed
    bench.counts = bytearray(NLOC)
    bench.advance(40)
    assert snapshot(bench)["self_test"]["step"] == "clear"
    bench.press(g.BTN_BLACK_ROLL)  # DONE: the board is empty
    for bit in range(g.SENSORS):
        if bit == stuck:
            continue
        assert snapshot(bench)["self_test"]["checked"] == bit
        bench.bits[:] = _bits(stuck, bit)
        bench.advance(30)
    result = snapshot(bench)["self_test"]
    assert result["step"] == "done" and result["switch_chain"]
    assert [(p["switch"], p["fault"]) for p in result["problems"]] == [("point 14 slot 3", "stuck closed")]
    assert bench.app.tested == result
    bench.press(g.BTN_WHITE_ROLL)  # DONE: back to the game, which asks for the checkers again
    assert bench.app.overlay is None and bench.app.ctl.phase_name() == "opening"
    assert "differs" in snapshot(bench)["message"]


def test_self_test_from_the_host_and_chain_faults():
    bench = Bench()
    set_up(bench)
    bench.handler.feed(b'{"id": 1, "cmd": "self_test"}\n')
    reply = json.loads(bench.out[-1])
    assert reply["ok"] and reply["self_test"]["step"] == "clear" and reply["snapshot"]["self_test"]["step"] == "clear"
    bench.handler.feed(b'{"id": 2, "cmd": "self_test", "action": "stop"}\n')
    reply = json.loads(bench.out[-1])
    assert reply["self_test"]["step"] == "done" and bench.app.overlay is None
    bench.handler.feed(b'{"id": 3, "cmd": "self_test", "action": "again"}\n')
    assert json.loads(bench.out[-1])["error"] == "bad_args"
    broken = Bench()

    def cut_chain(buf):  # the sentinel byte reads 0: a register of the chain does not pass the bits on
        buf[g.SCAN_BYTES] = 0

    broken.hw.scanner._readinto = cut_chain
    broken.advance(30)
    assert snapshot(broken)["hardware"] == []  # a glitch is not a broken chain
    broken.advance(60)
    snap = snapshot(broken)
    assert snap["hardware"] and "switch chain" in snap["hardware"][0] and snap["error"].startswith("hardware")
    broken.press(g.BTN_WHITE_ROLL)
    assert snapshot(broken)["error"].startswith("hardware")  # a broken chain stays shown
    broken.hw.scanner._readinto = broken.read_chain
    broken.advance(80)
    snap = snapshot(broken)
    assert snap["hardware"] == [] and snap["error"] is None


def test_settings_file_that_cannot_be_read_keeps_the_defaults():
    flash = Flash()
    bench = Bench(flash)
    bench.app.hw.settings_store.save(b"not json")
    again = Bench(flash)
    assert again.app.hw.pixels.brightness == 0.4 and not again.app.pending and again.app.tournament is None
