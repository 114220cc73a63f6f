"""gnubg move notation: parsing, formatting, round trips and errors."""

from pipcore.notation import NotationError, format_play, parse_play
from pipcore.position import BAR, Position
from pipcore.rules import Turn


def test_parse_simple_and_chained_moves():
    assert parse_play("13/9 6/5*") == [(13, 9, None), (6, 5, True)]
    assert parse_play("13/7*/1") == [(13, 7, True), (7, 1, None)]
    assert parse_play("bar/22") == [(BAR, 22, None)]
    assert parse_play("25/22 3/0") == [(BAR, 22, None), (3, 0, None)]
    assert parse_play("6/off") == [(6, 0, None)]
    assert parse_play("Bar/20*/15") == [(BAR, 20, True), (20, 15, None)]


def test_parse_repeats_and_separators():
    assert parse_play("24/18(2) 13/7(2)") == [(24, 18, None)] * 2 + [(13, 7, None)] * 2
    assert parse_play("8/5, 6/5") == [(8, 5, None), (6, 5, None)]
    assert parse_play("6/2/1(2)") == [(6, 2, None), (2, 1, None)] * 2


def test_parse_no_move():
    for text in ("", "  ", "-", "pass"):
        assert parse_play(text) == []


def test_parse_errors_are_notation_errors():
    bad = {
        "13/": "not a point",
        "hello": "not a move",
        "30/2": "out of range",
        "6/off(9)": "repeat count",
        "6/off(x)": "bad repeat count",
        "6/off)": "unbalanced",
        "13/9*/20": "backwards",
        "*13/9": "not a point",
        "9/bar": "to the bar",
        "off/3": "borne-off checker",
        "6/off/3": "borne-off checker",
    }
    for text in bad:
        try:
            parse_play(text)
        except NotationError as exc:
            assert isinstance(exc, ValueError)
            assert bad[text] in str(exc), (text, str(exc))
            continue
        raise AssertionError("parsed %r" % text)
    try:
        parse_play(None)
    except NotationError:
        pass
    else:
        raise AssertionError("parsed None")


def test_format_orders_chains_and_counts():
    assert format_play([(6, 5), (8, 5)]) == "8/5 6/5"
    assert format_play([(24, 18), (13, 7), (24, 18), (13, 7)]) == "24/18(2) 13/7(2)"
    assert format_play([(9, 8), (13, 9, True)]) == "13/9*/8"
    assert format_play([(BAR, 22), (22, 19)]) == "bar/22/19"
    assert format_play([(3, 0), (3, 0)]) == "3/off(2)"
    assert format_play([(13, 9), (9, 8)], hits=set([9])) == "13/9*/8"
    assert format_play([]) == ""


def test_round_trip_of_formatted_single_moves():
    cases = [
        [(24, 18, None), (24, 18, None), (13, 7, None), (13, 7, None)],
        [(BAR, 20, True), (20, 15, None)],
        [(13, 9, True), (6, 5, None)],
        [(6, 2, None), (2, 1, None), (6, 2, None), (2, 1, None)],
        [(5, 0, None), (4, 0, None)],
    ]
    for moves in cases:
        text = format_play(moves)
        assert sorted(parse_play(text)) == sorted(moves), text
        assert format_play(parse_play(text)) == text


def test_turn_notation_marks_hits():
    pos = Position.from_dicts({13: 1, 6: 14}, {9: 1})
    turn = Turn(pos, (4, 1))
    texts = sorted(turn.notation(code) for code in turn.plays)
    assert texts == sorted(["13/9*/8", "13/9* 6/5", "13/12/8", "13/12 6/2", "6/5 6/2", "6/2/1"])
    forfeit = Turn(Position.from_dicts({"bar": 1, 13: 14}, {24: 2, 23: 2, 22: 2, 21: 2, 20: 2, 19: 2}), (6, 5))
    assert [forfeit.notation(code) for code in forfeit.plays] == [""]
