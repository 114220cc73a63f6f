"""GNU Backgammon Position ID: exact encoding, decoding and validation.

The IDs below were produced by gnubg's own encoder (PyPI ``gnubg``,
``gnubg.positionid((side_not_on_roll, side_on_roll))``); the side not on
roll is written first.
"""

from pipcore.position import BAR, Position, PositionError, decode_position_id

GNUBG_IDS = [
    ("4HPwATDgc/ABMA", {24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5}),
    ("AMAMAPz/gAAAAA", {13: 1, 6: 14}, {10: 2, 8: 2}),
    ("zAAAAHwOPgAKAA", {"bar": 1, 24: 1, 13: 5, 8: 3, 6: 5}, {20: 2, 22: 2}),
    ("AAAAwOfgA8AAAA", {"bar": 2, 13: 5, 8: 3, 6: 5}, {}),
    ("AAAAMgAAAAAAAA", {3: 2, 1: 1}, {}),
    ("BwAA/G9s9wEAcA", {"bar": 3, 6: 5, 5: 3, 4: 2, 3: 2}, {"bar": 2, 24: 3, 1: 10}),
    ("AAAAAgAAAAAAAA", {1: 1}, {}),
    ("AAAA/38AAAD/fw", {"bar": 15}, {"bar": 15}),
]


def test_encode_matches_gnubg():
    for pid, me, opp in GNUBG_IDS:
        assert Position.from_dicts(me, opp).position_id() == pid, (pid, me, opp)


def test_decode_matches_gnubg():
    for pid, me, opp in GNUBG_IDS:
        pos = Position.from_id(pid)
        assert pos == Position.from_dicts(me, opp), pid
        assert pos.position_id() == pid


def test_side_not_on_roll_comes_first():
    pos = Position.from_dicts({13: 1, 6: 14}, {10: 2, 8: 2})
    swapped = pos.swapped().position_id()
    assert swapped != pos.position_id()
    assert Position.from_id(swapped) == pos.swapped()
    assert Position.from_id(swapped).me[15] == 2  # opponent's 15 is the mover's 10


def test_borne_off_counts_follow_from_the_board():
    pos = Position.from_id("AAAAMgAAAAAAAA")
    assert pos.me[0] == 12 and pos.opp[0] == 15
    assert pos.me[3] == 2 and pos.me[1] == 1


def test_whitespace_around_an_id_is_ignored():
    assert Position.from_id("  4HPwATDgc/ABMA\n") == Position.start()


def expect_error(pid, words):
    try:
        Position.from_id(pid)
    except PositionError as exc:
        assert isinstance(exc, ValueError)
        assert words in str(exc), (pid, str(exc))
        return
    raise AssertionError("accepted %r" % (pid,))


def test_malformed_ids_say_what_is_wrong():
    expect_error("", "14 characters")
    expect_error("4HPwATDgc/ABM", "14 characters, not 13")
    expect_error("4HPwATDgc/ABMAA", "14 characters, not 15")
    expect_error("4HPwATDgc/AB!A", "not allowed")
    expect_error("4HPwATDgc/AB.A", "not allowed")
    expect_error("4HPwATDgc/ABMB", "stray bits")
    expect_error("//////////////", "stray bits")
    expect_error("/////////////A", "more than 15")
    expect_error("AAAAAAAABAAAAA", "more than 30")  # a checker after both sides are complete
    expect_error(None, "string")
    expect_error(12345678901234, "string")


def test_impossible_positions_are_refused():
    # both sides on the mover's 6-point (the opponent's 19)
    pos = Position.from_dicts({6: 15}, {6: 1})
    pid = pos.position_id()
    decode_position_id(pid)  # decoding alone succeeds; validation refuses
    expect_error(pid, "both players have checkers on point 6")
    # both on the bar against closed boards: nobody could ever move
    closed = {"bar": 3, 6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2}
    pos = Position.from_dicts(closed, {"bar": 3, 24: 2, 23: 2, 22: 2, 21: 2, 20: 2, 19: 2})
    expect_error(pos.position_id(), "closed boards")


def test_validate_checks_counts():
    pos = Position.start()
    pos.me[BAR] += 1
    try:
        pos.validate()
    except PositionError as exc:
        assert "16 checkers" in str(exc)
    else:
        raise AssertionError("16 checkers accepted")
    pos = Position.start()
    pos.opp[0] = 1
    try:
        pos.validate()
    except PositionError as exc:
        assert "borne-off" in str(exc)
    else:
        raise AssertionError("bad borne-off count accepted")


def test_every_single_checker_placement_round_trips():
    # one checker of each side on every pair of compatible slots
    for a in range(0, 26):
        for b in (0, 1, 7, 13, 24, 25):
            pos = Position()
            pos.me[a] += 1
            pos.opp[b] += 1
            pos.me[0] += 14
            pos.opp[0] += 14
            if a and b and a < 25 and b < 25 and a == 25 - b:
                continue
            back = Position.from_id(pos.position_id())
            assert back == pos, (a, b)
