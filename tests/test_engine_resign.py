"""``pipboard play --engine gnubg``: resignations between the person at the board and gnubg.

The person offers with a long DROP on the simulated board; gnubg answers by
its own evaluation (the gnubg program's "Correct resign decision"), over the
protocol as the command does. Before its roll in a lost race gnubg offers
its own, and the person answers with TAKE or DROP. The evaluator's fallback
(without the program) follows gnubg's rule.
"""

import os

import pytest

pytest.importorskip("gnubg")

from pipboard.engine import (BLACK, WHITE, EngineGame, GnubgCubeAdvisor, GnubgEngine, no_contact,  # noqa: E402
                             resign_level_for)
from pipboard.link import Link  # noqa: E402
from pipboard.websim import server  # noqa: E402
from pipcore.matchid import MatchState  # noqa: E402
from pipcore.position import Position  # noqa: E402

HAS_PROGRAM = os.path.exists("/usr/games/gnubg")
# the side on roll has 15 checkers far from home, the other one checker on its 1-point: a sure gammon lost
HOPELESS = Position.from_dicts({15: 5, 14: 5, 13: 5}, {24: 1}).position_id()
MONEY = MatchState(on_roll=0, turn=0, length=0).encode()


@pytest.fixture(scope="module")
def engine():
    return GnubgEngine()


def test_gnubgs_rule_without_the_program(engine):
    assert no_contact(HOPELESS) and not no_contact(Position.start().position_id())
    assert resign_level_for(engine.probabilities(HOPELESS)) == 2  # a gammon, no more, no less
    assert resign_level_for(engine.probabilities(Position.start().position_id())) == 0
    assert resign_level_for((0.0, 0.0, 0.0, 1.0, 1.0)) == 3
    assert resign_level_for((0.0, 0.0, 0.0, 0.0, 0.0)) == 1
    game = EngineGame(None, engine, BLACK, out=None)
    snap = {"position_id": HOPELESS, "mover": 0}
    assert not game._accepts(snap, 0, 1) and game._accepts(snap, 0, 2) and game._accepts(snap, 0, 3)


@pytest.mark.skipif(not HAS_PROGRAM, reason="the gnubg program is not installed")
def test_the_program_answers_and_offers_as_gnubg_plays():
    advisor = GnubgCubeAdvisor()
    try:
        assert advisor.resign_answer(HOPELESS, MONEY, 0, 1) is False  # a single for a sure gammon: no
        assert advisor.resign_answer(HOPELESS, MONEY, 0, 2) is True
        start = Position.start().position_id()
        assert advisor.resign_answer(start, MONEY, 0, 1) is True  # a gift
        assert advisor.resign_offer(HOPELESS, MONEY) == 2
        assert advisor.resign_offer(start, MONEY) == 0  # gnubg plays on (its turn taken, then forgotten)
        black = MatchState(on_roll=1, turn=1, length=0).encode()
        assert advisor.resign_offer(HOPELESS, black) == 2
        assert advisor.resign_answer(HOPELESS, MONEY, 0, 2) is True  # the session is set afresh each time
    finally:
        advisor.close()


@pytest.fixture
def table():
    sim = server.start(seed=9, test_mode=True, http_port=0, protocol_port=0)
    link = Link.open("sim:" + sim.protocol_address)
    advisor = GnubgCubeAdvisor() if HAS_PROGRAM else None
    try:
        yield sim, link, advisor
    finally:
        if advisor is not None:
            advisor.close()
        link.close()
        sim.close()


def set_up(sim, link, mover):
    """The hopeless position with ``mover`` on roll, before the roll, laid out by the simulated hands."""
    link.set_position(HOPELESS, MatchState(on_roll=mover, turn=mover, length=0).encode())
    with sim.sim.lock:
        sim.sim.board.follow_guidance()
    snap = link.snapshot()
    assert snap["phase"] == "turn-start" and snap["mover"] == mover, snap
    return snap


def press(sim, name, player=None):
    with sim.sim.lock:
        sim.sim.board.press(name, player)


def test_gnubg_declines_a_single_and_accepts_a_gammon_from_the_person(engine, table):
    sim, link, advisor = table
    game = EngineGame(link, engine, BLACK, out=None, cube_advisor=advisor)
    set_up(sim, link, WHITE)
    press(sim, "RESIGN", WHITE)  # the person (white) holds his DROP: a single
    snap = link.snapshot()
    assert snap["resign"] == {"player": 0, "level": 1, "points": 1}
    assert game.step(snap)  # gnubg answers over the protocol
    snap = link.snapshot()
    assert "resign" not in snap and snap["phase"] == "turn-start" and "declined" in snap["message"]
    press(sim, "RESIGN", WHITE)
    press(sim, "DROP", WHITE)  # raised to a gammon
    assert link.snapshot()["resign"]["level"] == 2
    assert game.step(link.snapshot())
    snap = link.snapshot()
    assert snap["phase"] == "game-over" and snap["result"] == [1, 2, "gammon"] and snap["score"] == [0, 2]
    assert game.resignations == 2
    if advisor is not None:
        assert advisor.questions == 2  # the program decided, not the thresholds


def test_gnubg_resigns_its_lost_race_and_the_person_answers(engine, table):
    sim, link, advisor = table
    game = EngineGame(link, engine, BLACK, out=None, cube_advisor=advisor)
    snap = set_up(sim, link, BLACK)
    assert game.step(snap)  # before its roll, gnubg offers a gammon
    snap = link.snapshot()
    assert snap["resign"] == {"player": 1, "level": 2, "points": 2}
    assert not game.step(snap)  # and waits for the person
    press(sim, "DROP", WHITE)  # the person declines
    snap = link.snapshot()
    assert "resign" not in snap and snap["phase"] == "turn-start"
    assert game.step(snap)  # not offered twice in one turn: gnubg rolls
    assert "resign" not in link.snapshot()
    set_up(sim, link, BLACK)  # the same lost race again, a later turn
    assert game.step(link.snapshot())
    press(sim, "TAKE", WHITE)  # this time the person accepts
    snap = link.snapshot()
    assert snap["phase"] == "game-over" and snap["result"] == [0, 2, "gammon"], snap
    assert any("black resigns a gammon" in line for line in sim.sim.board.ctl.record)


def test_with_physical_dice_gnubg_waits_for_the_person_to_key_its_roll(engine, table):
    sim, link, advisor = table
    game = EngineGame(link, engine, BLACK, out=None, cube_advisor=advisor, may_double=False)
    link.new_game(options={"dice": "physical"})
    start = Position.start().position_id()
    link.set_position(start, MatchState(on_roll=BLACK, turn=BLACK, length=0).encode())
    with sim.sim.lock:
        sim.sim.board.follow_guidance()
    assert game.step(link.snapshot())  # gnubg asks for its roll: the entry opens
    snap = link.snapshot()
    assert snap["keyed"] == {"dice": [0, 0], "player": BLACK, "correcting": False}
    assert not game.step(snap) and not game.step(link.snapshot())  # and it waits, pressing nothing
    for name in ("DOUBLE",) * 3 + ("TAKE",):
        press(sim, name, BLACK)  # the person keys gnubg's 3-1 on gnubg's side of the board
    press(sim, "ROLL", BLACK)
    snap = link.snapshot()
    assert snap["phase"] == "moving" and snap["dice"] == [3, 1] and "keyed" not in snap
    assert game.step(snap)  # gnubg shows its play for the dice thrown
    with sim.sim.lock:
        assert sim.sim.board.ctl.forced is not None
