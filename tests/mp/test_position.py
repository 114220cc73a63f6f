"""Position and Position ID basics (runs under CPython and MicroPython)."""

from pipcore.position import Position, PositionError


def test_start_position_id_matches_gnubg():
    assert Position.start().position_id() == "4HPwATDgc/ABMA"


def test_start_pips():
    pos = Position.start()
    assert pos.pips() == 167
    assert pos.pips(pos.opp) == 167


def test_round_trip_start():
    pos = Position.start()
    assert Position.from_id(pos.position_id()) == pos


def test_bad_ids_raise_position_error():
    for bad in ["", "4HPwATDgc/ABM", "4HPwATDgc/AB!A", "//////////////", 42]:
        try:
            Position.from_id(bad)
        except PositionError:
            continue
        raise AssertionError("accepted %r" % (bad,))
