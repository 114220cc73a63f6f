"""Hypothesis properties of the rules core (CPython).

Position ID round trips, checker conservation, the obligation to use the
most dice (against an exhaustive reference), distinct results, check_play
accepting every generated play, notation round trips, and garbage IDs.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipcore.notation import format_play, parse_play
from pipcore.position import Position, PositionError
from pipcore.rules import Turn, check_play
from rules_reference import Reference, dice, positions

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


@FAST
@given(positions())
def test_position_id_round_trip(position):
    pid = position.position_id()
    assert len(pid) == 14 and all(ch in B64 for ch in pid)
    assert Position.from_id(pid) == position
    assert Position.from_id(pid).position_id() == pid
    assert Position.from_id(position.swapped().position_id()) == position.swapped()


@FAST
@given(st.text(alphabet=B64, min_size=14, max_size=14))
def test_any_decodable_id_encodes_back_to_itself(pid):
    try:
        position = Position.from_id(pid)
    except PositionError:
        return
    assert position.position_id() == pid
    position.validate()


@FAST
@given(st.one_of(st.text(max_size=30), st.text(alphabet=B64 + " =.-_", max_size=20), st.binary(max_size=20),
                 st.integers(), st.none(), st.lists(st.integers(), max_size=3), st.floats()))
def test_garbage_ids_raise_position_error_only(garbage):
    try:
        position = Position.from_id(garbage)
    except PositionError as exc:
        assert isinstance(exc, ValueError) and str(exc)
        return
    # the rare string that is a valid ID decodes to a valid position
    position.validate()
    assert position.position_id() == garbage.strip()


@SLOW
@given(positions(), dice)
def test_plays_match_the_exhaustive_reference(position, roll):
    turn = Turn(position, roll)
    ref = Reference(position, roll)
    results = turn.results()
    keys = [r.key() for r in results]
    assert len(set(keys)) == len(keys), "a result is offered twice"
    assert set(keys) == set(ref.results), "%s %r" % (position.describe(), roll)
    # O1: every play uses the most dice any sequence of legal moves can use
    assert turn.dice_used == ref.max_used
    for code in turn.plays:
        moves = turn.moves(code)
        won = turn.result(code).me[0] == 15
        assert len(moves) == turn.dice_used or won
        assert turn.result_for(turn.result(code)) == code
    assert turn.result_for(position) == (None if turn.dice_used else turn.plays[0])


@SLOW
@given(positions(), dice)
def test_every_play_keeps_fifteen_checkers_and_checks_as_legal(position, roll):
    turn = Turn(position, roll)
    for code in turn.plays:
        result = turn.result(code)
        for side in (result.me, result.opp):
            assert side[0] + result.on_board(side) == 15
        result.validate()
        assert result.opp[0] == position.opp[0]  # the opponent bears nothing off
    # check_play takes generated plays back (a spread of them: it regenerates the turn each time)
    step = max(1, len(turn.plays) // 5)
    for code in turn.plays[::step]:
        result = turn.result(code)
        # the single moves, in any order ...
        moves = turn.moves(code)
        got_code, got = check_play(position, roll, [(s, t) for s, t, _ in reversed(moves)])
        assert got == result and turn.result(got_code) == result
        # ... and the play written in gnubg notation with its hits
        text = turn.notation(code)
        got_code, got = check_play(position, roll, parse_play(text))
        assert got == result, text


@FAST
@given(positions(), dice)
def test_notation_round_trips(position, roll):
    turn = Turn(position, roll)
    for code in turn.plays:
        text = turn.notation(code)
        segments = parse_play(text)
        assert format_play(segments) == text
        singles = sorted((s, t) for s, t, _ in turn.moves(code))
        # written chains (13/9*/8) are the single moves themselves
        assert sorted((s, t) for s, t, _ in segments) == singles
        marked = parse_play(format_play([(s, t, h) for s, t, h in segments]))
        assert sorted(marked, key=repr) == sorted(segments, key=repr)
