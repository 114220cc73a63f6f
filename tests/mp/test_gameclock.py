"""The tournament clock (pipcore.gameclock): the clock alone, then through the controller.

Plain test functions: they run under pytest and under the real MicroPython
(unix and WebAssembly ports). Time is explicit everywhere: ``now`` in ms.
"""

import json

from pipcore.board import NLOC, fill_counts
from pipcore.controller import CUBE_OFFERED, GAME_OVER, MATCH_OVER, MOVING, OPENING, TURN_START, Controller
from pipcore.gameclock import BRONSTEIN, SIMPLE, GameClock, format_ms
from pipcore.match import TIME, Referee
from pipcore.options import make_options
from pipcore.record import read_record, replay

MIN = 60000


def raises(exc_type, func, *args):
    try:
        func(*args)
    except exc_type as exc:
        return str(exc)
    raise AssertionError("%s was not raised" % exc_type.__name__)


# -- the clock alone ---------------------------------------------------------------
def test_simple_delay_leaves_the_first_seconds_of_every_turn_free():
    c = GameClock(SIMPLE, 12000, 2 * MIN)
    c.run(0, 1000)
    c.charge(1000 + 12000)
    assert c.left == [2 * MIN, 2 * MIN]  # the whole delay used: nothing charged yet
    c.charge(1000 + 15000)
    assert c.left[0] == 2 * MIN - 3000
    c.run(1, 20000)  # white's DONE: black's turn of the clock starts
    assert c.left[0] == 2 * MIN - 7000
    c.charge(25000)
    assert c.left[1] == 2 * MIN  # within black's own delay
    c.run(0, 40000)  # black used 20 s: 8 s past his delay
    assert c.left[1] == 2 * MIN - 8000
    c.charge(50000)
    assert c.left[0] == 2 * MIN - 7000  # a fresh delay for white's new turn


def test_a_pause_does_not_give_a_new_delay():
    c = GameClock(SIMPLE, 10000, MIN)
    c.run(0, 0)
    c.run(-1, 8000)  # a pause (the game over, setup): nothing runs, the turn stays open
    c.charge(500000)
    assert c.left[0] == MIN and c.turn == 0
    c.run(0, 600000)
    c.charge(600000 + 5000)  # 2 s left of the delay, then 3 s charged
    assert c.left[0] == MIN - 3000


def test_bronstein_gives_back_the_time_used_up_to_the_delay():
    c = GameClock(BRONSTEIN, 12000, 2 * MIN)
    c.run(0, 0)
    c.charge(5000)
    assert c.left[0] == 2 * MIN - 5000  # the reserve runs from the first second
    c.run(1, 5000)  # a quick move: all 5 s come back
    assert c.left[0] == 2 * MIN
    c.run(0, 5000 + 30000)  # black thought 30 s: 12 s come back
    assert c.left[1] == 2 * MIN - 18000
    c.run(-1, 40000)  # white's turn pauses: nothing is given back yet
    assert c.left[0] == 2 * MIN - 5000 and c.turn == 0
    c.end_turn()
    assert c.left[0] == 2 * MIN


def test_the_flag_falls_when_the_reserve_is_spent():
    c = GameClock(SIMPLE, 5000, MIN)
    c.run(1, 0)
    assert c.charge(5000 + MIN - 1) == -1 and c.left[1] == 1
    assert c.charge(5000 + MIN) == 1 and c.flag == 1 and c.left[1] == 0
    c.charge(5000 + 2 * MIN)
    assert c.left[1] == 0 and c.flag == 1  # never below zero


def test_an_older_time_stamp_changes_nothing():
    c = GameClock(BRONSTEIN, 0, MIN)
    c.run(0, 10000)
    c.charge(9000)  # from another time base: ignored
    c.charge(11000)
    assert c.left[0] == MIN - 1000


def test_reserves_from_the_options_match_and_money():
    m = GameClock.for_options(make_options({"matchLength": 7, "clock": "simple", "clockMinutes": 2}))
    assert m.full == 14 * MIN and m.delay == 12000 and m.mode == SIMPLE and not m.per_game
    money = GameClock.for_options(make_options({"clock": "bronstein", "clockMinutes": 3, "clockDelay": 0}))
    assert money.full == 3 * MIN and money.delay == 0 and money.mode == BRONSTEIN and money.per_game
    biggest = GameClock.for_options(make_options({"matchLength": 255, "clock": "simple", "clockMinutes": 60}))
    assert biggest.full == 255 * 60 * MIN and biggest.full < (1 << 30)  # a small int on the Pico
    for c in (m, money):
        c.new_game(1)
        c.run(0, 0)
        c.charge(40000)
        c.new_game(2)
    assert m.left[0] < m.full and money.left == [money.full, money.full]


def test_the_panel_reading():
    c = GameClock(SIMPLE, 0, 20 * MIN)
    c.run(0, 0)
    c.show(0)
    assert (c.face_a, c.face_b, c.bar, c.warn) == (6, 6, 4, False)  # 12 minutes or more: 6-6
    c.charge(11 * MIN + 1)  # 8:59.999 left: 9 minutes, rounded up
    c.show(11 * MIN + 1)
    assert (c.face_a, c.face_b, c.bar) == (6, 3, 2)
    c.charge(20 * MIN - 42000)  # 42 s left: die A counts the tens of seconds (5), blinking
    c.show(20 * MIN - 42000)
    assert (c.face_a, c.face_b, c.bar, c.warn) == (5, 0, 1, True)
    assert c.wake == 20 * MIN - 41000  # the app steps again within a second
    c.charge(20 * MIN - 300)
    c.show(20 * MIN - 300)
    assert c.wake == 20 * MIN  # ... or exactly when the flag falls
    shown = c.shown
    c.run(-1, 20 * MIN - 200)
    c.show(20 * MIN - 200)
    assert c.shown == 0 and c.wake == -1 and shown != 0


def test_the_save_keeps_the_clock_but_not_the_time_off():
    c = GameClock(BRONSTEIN, 12000, 5 * MIN)
    c.run(0, 1000)
    c.charge(31000)
    data = json.loads(json.dumps(c.state()))
    back = GameClock.restore(data)
    assert back.state() == c.state() and back.at == -1
    back.charge(10 * 3600000)  # the board was off for hours: not charged
    assert back.left[0] == 5 * MIN - 30000
    back.charge(10 * 3600000 + 2000)
    assert back.left[0] == 5 * MIN - 32000
    assert "list" in raises(ValueError, GameClock.restore, {"left": 1})
    bad = c.state()
    bad[6] = 3
    assert "player" in raises(ValueError, GameClock.restore, bad)
    bad = c.state()
    bad[4] = "x"
    assert "holds" in raises(ValueError, GameClock.restore, bad)


def test_times_for_people():
    assert format_ms(0) == "0:00" and format_ms(1) == "0:01" and format_ms(59001) == "1:00"
    assert format_ms(14 * MIN) == "14:00" and format_ms(3 * 3600000 + 5000) == "3:00:05"


# -- the referee -------------------------------------------------------------------
def started_referee(opts):
    ref = Referee(make_options(opts), log=[])
    ref.new_game()
    ref.opening_roll(3, 1)
    return ref


def test_a_loss_on_time_wins_the_match_with_the_smallest_result_that_ends_it():
    ref = started_referee({"matchLength": 3})
    result = ref.lose_on_time(0)  # white's clock ran out while he moved
    assert ref.match.is_over() and result.winner == 1 and result.kind == TIME and result.points == 3
    assert ref.kind_name(result.kind) == "time" and ref.log[-1] == "black wins 3 points (time)"
    ref = started_referee({"matchLength": 7})
    ref.match.score = [5, 2]
    ref.cube.value = 2
    assert ref.lose_on_time(1).points == 2  # white needed 2: a single at cube 2
    ref = started_referee({"matchLength": 7})
    ref.match.score = [2, 5]
    ref.cube.value = 2
    assert ref.lose_on_time(1).points == 6  # white needed 5: a backgammon at cube 2 (gnubg's reading)
    ref = started_referee({"matchLength": 11})
    assert ref.lose_on_time(1).points == 11  # more than a backgammon: the points the match needed
    assert ref.match.winner() == 0


def test_a_loss_on_time_in_money_play_costs_what_a_backgammon_costs():
    ref = started_referee({})
    ref.cube.value = 4
    assert ref.lose_on_time(0).points == 12
    assert not ref.match.is_over() and ref.phase != MATCH_OVER
    ref = started_referee({"jacoby": True})
    assert ref.lose_on_time(0).points == 1  # the Jacoby rule: no gammons on a cube never turned


def test_the_clock_runs_out_while_a_double_waits():
    ref = Referee(make_options({"matchLength": 3}))
    ref.new_game()
    ref.opening_roll(3, 1)
    ref.play([(8, 5), (6, 5)])
    ref.double()
    result = ref.lose_on_time(0)  # black doubled: the taker's (white's) clock ran out
    assert result.winner == 1 and result.points == 3 and ref.cube.state == 0 and ref.cube.value == 1


# -- through the controller ------------------------------------------------------------
class Table:
    def __init__(self, options):
        self.ctl = Controller(options)
        self.counts = bytearray(NLOC)
        self.now = 0

    def step(self, event, dt=10):
        self.now += dt
        self.ctl.step(event, self.now)

    def setup(self):
        fill_counts(self.ctl.ref.start_position(), 0, self.counts)
        self.step(("board", bytes(self.counts)), 50)

    def opening(self, a, b):
        self.step(("button", "ROLL"))
        self.step(("dice", a, b))


CLOCKED = {"matchLength": 5, "clock": "simple", "clockMinutes": 1, "clockDelay": 10}


def test_the_clock_is_there_only_when_the_options_ask():
    t = Table({"matchLength": 5})
    assert t.ctl.clock is None and t.ctl.snapshot()["clock"] is None
    t = Table(CLOCKED)
    assert t.ctl.clock.full == 5 * MIN


def test_nothing_runs_in_setup_and_the_opening_then_the_movers_clock():
    t = Table(CLOCKED)
    t.step(("tick",), 3 * MIN)  # setup: however long it takes
    t.setup()
    assert t.ctl.phase == OPENING
    t.step(("tick",), 3 * MIN)
    assert t.ctl.clock.left == [5 * MIN, 5 * MIN] and t.ctl.clock.running == -1
    t.opening(3, 1)  # white plays 3-1 first
    assert t.ctl.phase == MOVING and t.ctl.clock.running == 0
    t.step(("tick",), 25000)
    assert t.ctl.clock.left[0] == 5 * MIN - 15000
    assert t.ctl.clock.shown and t.ctl.clock.wake > t.now


def test_a_double_runs_the_takers_clock_then_the_doublers_afresh():
    t = Table(CLOCKED)
    t.setup()
    t.opening(3, 1)
    t.ctl.ref.play([(8, 5), (6, 5)])  # (the referee's play: this test is about the clock)
    t.ctl._enter()
    t.step(("tick",))
    assert t.ctl.phase == TURN_START and t.ctl.clock.running == 1
    t.step(("button", "DOUBLE"), 4000)
    assert t.ctl.phase == CUBE_OFFERED and t.ctl.clock.running == 0
    t.step(("button", "TAKE"), 30000)  # white thought 30 s: 20 s past his delay
    assert t.ctl.clock.left[0] == 5 * MIN - 20000 and t.ctl.clock.running == 1
    assert t.ctl.clock.used == 0  # black's new turn of the clock, a new delay


def test_a_flag_fall_loses_the_match_and_a_late_press_is_ignored():
    t = Table(CLOCKED)
    t.setup()
    t.opening(3, 1)
    t.step(("tick",), 10000 + 5 * MIN)  # white's delay and whole reserve: his flag falls
    ctl = t.ctl
    assert ctl.phase == MATCH_OVER and ctl.result == (1, 5, "time") and ctl.scores == [0, 5]
    assert ctl.message.startswith("white lost on time") and ctl.save_due
    assert ctl.clock.flag == 0 and ctl.clock.running == -1 and ctl.clock.wake == -1
    assert ctl.record[-2:] == ["white loses on time", "black wins 5 points (time)"]
    entries = read_record(ctl.record_bytes()).entries
    assert entries[-2:] == [("timeout", 0), ("end", 1, TIME, 5)]
    assert replay(ctl.record_bytes()).match.score == [0, 5]  # the record replays to the same result
    assert ctl.match_id() is not None


def test_a_press_that_comes_after_the_flag_fell_does_not_count():
    t = Table(CLOCKED)
    t.setup()
    t.opening(3, 1)
    game = t.ctl.game_no
    t.step(("button", "DONE", 0), 10001 + 5 * MIN)  # no tick came: the press finds the flag fallen
    assert t.ctl.phase == MATCH_OVER and t.ctl.game_no == game and t.ctl.result[2] == "time"


def test_money_play_loses_the_game_and_fills_both_reserves_for_the_next():
    t = Table({"clock": "bronstein", "clockMinutes": 1, "clockDelay": 0})
    t.setup()
    t.opening(3, 1)
    t.step(("tick",), MIN)
    ctl = t.ctl
    assert ctl.phase == GAME_OVER and ctl.result == (1, 3, "time") and ctl.scores == [0, 3]
    t.step(("button", "DONE"))
    assert ctl.game_no == 2 and ctl.clock.left == [MIN, MIN] and ctl.clock.flag == -1


def test_a_power_cut_does_not_charge_the_time_the_board_was_off():
    t = Table(CLOCKED)
    t.setup()
    t.opening(3, 1)
    t.step(("tick",), 40000)  # 30 s past the delay
    saved = json.loads(json.dumps(t.ctl.snapshot()))
    left = t.ctl.clock.left[0]
    assert left == 5 * MIN - 30000
    # the power is cut; the board comes back two hours later
    ctl = Controller.restore(saved)
    now = t.now + 2 * 3600000
    ctl.step(("board", bytes(t.counts)), now)
    assert ctl.phase == MOVING and ctl.clock.left[0] == left and ctl.clock.running == 0
    ctl.step(("tick",), now + 5000)
    assert ctl.clock.left[0] == left - 5000  # from the first step after the restore, and no new delay
    ctl.step(("tick",), now + 5000 + left)
    assert ctl.phase == MATCH_OVER and ctl.result[2] == "time"


def test_a_tick_of_the_running_clock_allocates_nothing():
    """The app steps the controller with one ``("tick",)`` every second while a clock runs: the clock's
    part of that step (charge, whose clock runs, the panel's reading) allocates nothing."""
    from test_zero_alloc import measure

    t = Table(CLOCKED)
    t.setup()
    t.opening(3, 1)
    ctl = t.ctl
    tick = ("tick",)
    base = t.now

    def loop():
        for k in range(1000):
            ctl.step(tick, base + 100 * k)

    assert measure(loop) == 0
    assert ctl.phase == MOVING and ctl.clock.left[0] == 5 * MIN - (100 * 999 - 10000)
