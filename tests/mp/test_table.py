"""At the table: resignations offered and answered with the buttons, physical dice keyed in, fair dice.

Controller-level tests (CPython and the real MicroPython, unix and WASM):
``pipcore.resign`` (offer, raise, withdraw, accept, decline, scored by the
referee with the cube, the match and the Crawford rule, kept across a power
cut and in the record), ``pipcore.keyed`` (the entry, its refusals, the
correction before the first checker moves) and a provably fair match
(``pipcore.fairdice``: commitment first in the record, every roll from the
seed, the seed revealed at the end).
"""

from pipcore.board import NLOC
from pipcore.controller import (CUBE_OFFERED, GAME_OVER, MATCH_OVER, MOVING, OPENING, SETUP, TURN_START, Controller,
                                ControllerError)
from pipcore.fairmatch import FairnessError, verify
from pipcore.record import read_record, replay
from test_controller import Table, resumed, started


def press(t, name, player):
    t.now += 10
    t.ctl.step(("button", name, player), t.now)


def host(t, *event):
    t.now += 10
    t.ctl.step(("resign",) + event, t.now)


def next_game(t):
    """DONE after a game: the hands clear the board and set up the next game (a game resigned at its
    start left the start position: set up at once)."""
    t.press("DONE")
    if t.ctl.phase == SETUP:
        t.counts = bytearray(NLOC)
        t.send()
        t.setup()
    assert t.ctl.phase == OPENING


def entries(t, kind):
    return [e for e in read_record(t.ctl.record_bytes()).entries if e[0] == kind]


def raises(fn, *args):
    try:
        fn(*args)
    except ValueError as exc:
        return str(exc)
    raise AssertionError("no ValueError")


# -- resignations ----------------------------------------------------------------
def test_a_gammon_resigned_while_moving_is_scored_with_the_cube():
    t = started((3, 1))
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    press(t, "DOUBLE", 1)  # black doubles, white takes: the cube is on 2
    press(t, "TAKE", 0)
    press(t, "ROLL", 1)
    t.dice(6, 5)
    t.lift(24)  # a checker in hand when black gives up
    press(t, "RESIGN", 1)  # black holds DROP: a single
    ctl = t.ctl
    assert ctl.display == ("resign", 1, 1, 2) and "black offers to resign a single (2 points)" in ctl.message
    press(t, "DROP", 1)  # his DROP again: a gammon
    assert ctl.display == ("resign", 1, 2, 4) and ctl.pending.saved() == [1, 2] and ctl.save_due
    press(t, "TAKE", 0)  # white accepts
    assert ctl.phase == GAME_OVER and ctl.result == (0, 4, "gammon") and list(ctl.scores) == [4, 0]
    assert ctl.pending is None and "white wins 4 points" in ctl.message
    assert entries(t, "resign") == [("resign", 1, 2)] and entries(t, "end") == [("end", 0, 2, 4)]
    ref = replay(t.ctl.record_bytes())
    assert ref.result.resigned and ref.result.points == 4 and ref.match.score == [4, 0]
    assert "black resigns a gammon" in ctl.record


def test_a_declined_resignation_goes_on_where_the_hands_were():
    t = started((3, 1))
    t.lift(8)  # white has a checker in hand
    press(t, "RESIGN", 0)
    press(t, "DONE", 0)  # the game waits for the answer: refused, nothing changes
    assert t.ctl.pending is not None and "waits for black's answer" in t.ctl.message
    press(t, "ROLL", 1)
    assert "TAKE accepts, DROP declines" in t.ctl.message and t.ctl.refused >= 2
    press(t, "DROP", 1)  # black declines
    ctl = t.ctl
    assert ctl.pending is None and ctl.phase == MOVING and "resignation declined" in ctl.message
    assert ctl.display[0] == "dice"
    t.place(5)  # the checker in hand lands: the play goes on as if nothing happened
    t.move(6, 5)
    t.press("DONE")
    assert ctl.phase == TURN_START and ctl.mover == 1 and entries(t, "resign") == []


def test_the_offering_side_withdraws_and_the_other_side_cannot_offer_out_of_turn():
    t = started((3, 1))
    press(t, "RESIGN", 1)  # black cannot resign during white's turn
    assert t.ctl.pending is None and "black cannot resign now" in t.ctl.message
    press(t, "RESIGN", 0)
    press(t, "DROP", 0)
    press(t, "DROP", 0)
    assert t.ctl.display == ("resign", 0, 3, 3)  # a backgammon
    press(t, "DROP", 0)
    assert t.ctl.display == ("resign", 0, 1, 1)  # round again to a single
    press(t, "TAKE", 0)  # his own TAKE is no answer
    assert t.ctl.pending is not None
    press(t, "RESIGN", 0)  # held again: withdrawn
    assert t.ctl.pending is None and "withdrawn" in t.ctl.message and t.ctl.phase == MOVING


def test_gammons_that_do_not_count_leave_only_a_single():
    t = started((3, 1), {"jacoby": True})  # money play, the cube centred: gammons count single
    press(t, "RESIGN", 0)
    press(t, "DROP", 0)
    assert t.ctl.display == ("resign", 0, 1, 1)
    assert "single" in raises(t.ctl.step, ("resign", 0, "offer", 2), t.now)
    press(t, "TAKE", 1)
    assert t.ctl.result == (1, 1, "single")


def test_resigning_instead_of_answering_a_double_scores_the_old_cube():
    t = started((3, 1))
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    press(t, "DOUBLE", 1)
    assert t.ctl.phase == CUBE_OFFERED
    press(t, "RESIGN", 1)  # the doubler cannot
    assert t.ctl.pending is None
    press(t, "RESIGN", 0)  # white, facing the double, resigns a single instead
    press(t, "TAKE", 1)
    assert t.ctl.result == (1, 1, "single") and t.ctl.cube == 1
    assert entries(t, "cube") and entries(t, "resign") == [("resign", 0, 1)]


def test_resignations_through_a_match_with_the_crawford_rule():
    t = Table({"matchLength": 3})
    t.setup()
    t.press("ROLL")
    t.dice(3, 1)
    press(t, "RESIGN", 0)
    press(t, "TAKE", 1)  # game 1: white resigns a single: 0-1
    next_game(t)
    t.press("ROLL")
    t.dice(5, 2)  # white starts
    press(t, "RESIGN", 0)
    press(t, "DROP", 0)
    press(t, "TAKE", 1)  # game 2: a gammon: black reaches 3 and wins the match
    assert t.ctl.phase == MATCH_OVER and list(t.ctl.scores) == [0, 3]
    assert "black wins the match 3-0" in t.ctl.message
    t = Table({"matchLength": 3})
    t.setup()
    t.press("ROLL")
    t.dice(3, 1)
    press(t, "RESIGN", 0)
    press(t, "DROP", 0)
    press(t, "TAKE", 1)  # a gammon: 0-2, black 1-away: the next game is the Crawford game
    next_game(t)
    assert t.ctl.crawford_game
    t.press("ROLL")
    t.dice(1, 4)  # black starts
    t.move(6, 2)
    t.move(6, 5)
    t.press("DONE")
    assert t.ctl.phase == TURN_START and not t.ctl.can_double()
    host(t, 0, "offer", 1)  # the host's resignation, answered at the table
    press(t, "TAKE", 1)
    assert t.ctl.phase == MATCH_OVER and list(t.ctl.scores) == [0, 3]
    assert replay(t.ctl.record_bytes()).match.score == [0, 3]


def test_a_resignation_waits_across_a_power_cut():
    t = started((3, 1))
    press(t, "RESIGN", 0)
    press(t, "DROP", 0)
    resumed(t)
    assert t.ctl.display == ("resign", 0, 2, 2) and "white offers to resign a gammon" in t.ctl.message
    press(t, "TAKE", 1)
    assert t.ctl.result == (1, 2, "gammon")


def test_the_host_offers_and_answers_with_reasons_when_it_cannot():
    t = started((3, 1))
    assert "no resignation" in raises(t.ctl.step, ("resign", 1, "accept"), t.now)
    assert "black cannot resign now" in raises(t.ctl.step, ("resign", 1, "offer", 1), t.now)
    host(t, 0, "offer", 3)
    assert "black answers" in raises(t.ctl.step, ("resign", 0, "accept"), t.now)
    assert "only white can withdraw" in raises(t.ctl.step, ("resign", 1, "withdraw"), t.now)
    host(t, 1, "decline")
    assert t.ctl.pending is None and t.ctl.phase == MOVING
    assert "single (1), a gammon (2)" in raises(t.ctl.step, ("resign", 0, "offer", 4), t.now)
    host(t, 0, "offer", 1)
    host(t, 0, "offer", 2)  # raised
    host(t, 1, "accept")
    assert t.ctl.result == (1, 2, "gammon")


# -- physical dice keyed in ----------------------------------------------------------
def test_keyed_dice_are_stepped_confirmed_and_recorded():
    t = Table({"dice": "physical"})
    t.setup()
    t.press("ROLL")
    ctl = t.ctl
    assert ctl.want_roll == 0 and ctl.display == ("keyed", 0, 0, -1) and ctl.phase == OPENING
    t.press("ROLL")  # not both keyed yet
    assert "both dice" in ctl.message and ctl.pending is not None
    for _ in range(4):
        press(t, "DOUBLE", 0)
    press(t, "TAKE", 1)  # at the opening, either side keys
    press(t, "TAKE", 1)
    assert ctl.display == ("keyed", 4, 2, -1)
    t.press("ROLL")
    assert ctl.phase == MOVING and ctl.dice == (4, 2) and ctl.mover == 0 and ctl.pending is None
    t.move(8, 4)
    t.move(6, 4)
    t.press("DONE")
    press(t, "ROLL", 1)
    assert ctl.display == ("keyed", 0, 0, 1)
    press(t, "DOUBLE", 0)  # white's buttons do not key black's roll
    assert ctl.display == ("keyed", 0, 0, 1) and "black keys" in ctl.message
    press(t, "DROP", 1)  # cancelled: black may still double
    assert ctl.pending is None and ctl.phase == TURN_START and ctl.can_double()
    assert [e[0] for e in read_record(ctl.record_bytes()).entries] == ["game", "opening", "play"]


def test_a_wrong_value_is_corrected_before_the_first_checker_moves():
    t = Table({"dice": "physical"})
    t.setup()
    t.press("ROLL")
    for name in ("DOUBLE", "DOUBLE", "DOUBLE", "TAKE"):
        t.press(name)
    t.press("ROLL")  # 3-1: white plays
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    t.press("ROLL")
    for name in ("DOUBLE",) * 6 + ("TAKE",) * 5:
        t.press(name)
    t.press("ROLL")
    ctl = t.ctl
    assert ctl.dice == (6, 5) and ctl.phase == MOVING and ctl.mover == 1
    t.press("UNDO")  # 6-5 was keyed, 6-4 was rolled: the entry again
    assert ctl.display == ("keyed", 6, 5, 1) and "correct the dice" in ctl.message
    for _ in range(5):
        t.press("TAKE")  # 5 -> 6 -> 1 .. 4
    t.press("DONE")
    assert ctl.dice == (6, 4) and ctl.phase == MOVING and ctl.pending is None
    rec = read_record(ctl.record_bytes())
    assert rec.version == 3 and [e for e in rec.entries if e[0] in ("roll", "unroll")] == [
        ("roll", 1, 6, 5), ("unroll", 1), ("roll", 1, 6, 4)]
    assert replay(rec).dice == (6, 4)
    t.lift(24)  # a checker moved: too late to correct
    t.press("UNDO")
    assert ctl.pending is None and "before the first checker moves" in ctl.message
    t.place(18)
    t.move(13, 9)
    t.press("DONE")
    assert ctl.mover == 0 and ctl.phase == TURN_START


def test_the_dice_switch_between_games_but_a_fair_match_keeps_its_seed():
    from pipcore.keyed import set_source

    t = started((3, 1))  # the board's own dice
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    set_source(t.ctl, "physical")  # the players roll their own from now on
    t.press("ROLL")
    assert t.ctl.want_roll == 0 and t.ctl.display[0] == "keyed"
    set_source(t.ctl, "electronic")  # and change their minds: the entry closes, the board rolls
    assert t.ctl.pending is None and t.ctl.options["dice"] == "electronic"
    t.press("ROLL")
    assert t.ctl.want_roll
    assert "electronic and physical" in raises(set_source, t.ctl, "fair")
    t.ctl.options["dice"] = "fair"
    assert "committed seed" in raises(set_source, t.ctl, "physical")


def test_the_opening_roll_corrected_to_a_tie_rolls_again():
    t = Table({"dice": "physical"})
    t.setup()
    t.press("ROLL")
    for name in ("DOUBLE", "DOUBLE", "TAKE"):
        t.press(name)
    t.press("ROLL")  # 2-1: white starts
    resumed(t)  # a power cut: the keyed roll was saved
    assert t.ctl.dice == (2, 1)
    t.press("UNDO")
    t.press("TAKE")
    t.press("DONE")  # 2-2: a tie after all
    assert t.ctl.phase == OPENING and t.ctl.display[0] == "tie" and t.ctl.dice is None
    rec = read_record(t.ctl.record_bytes())
    assert rec.entries[1:] == [("opening", 2, 1), ("unroll", 0), ("opening", 2, 2)]
    assert replay(rec).phase == 0  # (the referee's opening roll)


# -- provably fair dice ----------------------------------------------------------------
def seeded(n):
    return bytes((i * 7 + 3) & 255 for i in range(n))


def roll(t):
    """What the app does when asked: the next dice of the match's seed."""
    a, b = t.ctl.fair.pair()
    t.dice(a, b)
    return a, b


def test_a_fair_match_commits_first_rolls_from_its_seed_and_reveals_at_the_end():
    t = Table()
    t.ctl = Controller({"dice": "fair", "matchLength": 1}, entropy=seeded)
    fair = t.ctl.fair
    commitment = fair.commitment
    t.setup()
    assert t.ctl.snapshot()["fair"][0] == fair.seed  # the save keeps the seed; the host sees only this:
    assert fair.public() == {"commitment": commitment, "rolls": 0, "seed": None}
    drawn = []
    while t.ctl.phase == OPENING:
        t.press("ROLL")
        assert t.ctl.want_roll
        a, b = fair.pair()
        try:
            t.dice(a % 6 + 1, b)
        except ControllerError as exc:  # other dice than the seed's are refused
            assert "seed" in str(exc)
        else:
            assert False
        drawn.extend(roll(t))
    resumed(t)  # a power cut: the dice used so far come back with the seed
    fair = t.ctl.fair
    assert fair.public()["rolls"] == len(drawn) // 2 and not fair.revealed
    press(t, "RESIGN", t.ctl.mover)
    press(t, "TAKE", 1 - t.ctl.mover)
    assert t.ctl.phase == MATCH_OVER and fair.revealed and fair.public()["seed"] == fair.seed
    rec = read_record(t.ctl.record_bytes())
    assert rec.version == 3 and rec.fair == {"commitment": commitment, "seed": fair.seed}
    dice = []
    for e in rec.entries:
        if e[0] == "opening":
            dice.extend(e[1:])
        elif e[0] == "roll":
            dice.extend(e[2:])
    assert dice == drawn and verify(fair.seed, commitment, dice) == len(dice)
    dice[-1] = dice[-1] % 6 + 1
    try:
        verify(fair.seed, commitment, dice)
    except FairnessError as exc:
        assert exc.index == len(dice) - 1
    else:
        assert False
