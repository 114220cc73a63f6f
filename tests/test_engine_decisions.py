"""The gnubg engine's decisions on positions whose answers every player knows."""

import pytest

pytest.importorskip("gnubg")

from pipboard.engine import GnubgEngine  # noqa: E402
from pipcore.position import Position  # noqa: E402


@pytest.fixture(scope="module")
def engine():
    return GnubgEngine()


def test_opening_position_is_no_double_and_take(engine):
    pid = Position.start().position_id()
    assert not engine.should_double(pid)
    assert not engine.should_drop(pid)


def test_crushing_race_lead_is_double_and_drop(engine):
    # on roll: 45 pips; opponent: 69 pips (keys in the mover's numbering)
    pid = Position.from_dicts({6: 3, 5: 3, 4: 3}, {19: 4, 20: 4, 21: 4, 22: 3}).position_id()
    assert engine.should_double(pid)
    assert engine.should_drop(pid)


def test_blitz_with_big_gammon_chances_is_too_good_to_double(engine):
    pid = Position.from_dicts({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {"bar": 2, 24: 13}).position_id()
    assert engine.probabilities(pid)[1] > 0.3
    assert not engine.should_double(pid)


def test_best_play_is_legal_notation_and_gnubgs_choice(engine):
    # 3-1 from the start: gnubg (and everyone) makes the 5-point
    assert engine.best_play("4HPwATDgc/ABMA", (3, 1)) == "8/5 6/5"
    # a bear-off with a 4-4 that also moves a checker off (gnubg's tuple drops the trailing off)
    play = engine.best_play("7QUAgD9utx0AAA", (4, 4))
    assert play.count("/") >= 2 and "off" in play, play


@pytest.mark.skipif(not __import__("os").path.exists("/usr/games/gnubg"), reason="the gnubg program is not installed")
def test_cube_advisor_gives_gnubgs_cubeful_actions():
    from pipboard.engine import GnubgCubeAdvisor

    advisor = GnubgCubeAdvisor()
    try:
        money = "cAkAAAAAAAAA"
        assert advisor.cube_action(Position.start().position_id(), money)[0] is False
        race = Position.from_dicts({6: 3, 5: 3, 4: 3}, {19: 4, 20: 4, 21: 4, 22: 3}).position_id()
        assert advisor.cube_action(race, money) == (True, "drop")
        # an even race a little ahead: not a double, an easy take
        even = Position.from_dicts({6: 4, 5: 4, 4: 4, 3: 3}, {19: 4, 20: 4, 21: 4, 22: 3}).position_id()
        doubles, response = advisor.cube_action(even, money)
        assert doubles is False and response in ("take", "beaver")
    finally:
        advisor.close()
