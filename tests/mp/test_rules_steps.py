"""Turn.steps / Turn.is_complete: single moves still legal part-way through a turn.

The board controller asks this each time a checker is lifted; positions are
judged, not the order of moves. Runs under CPython and MicroPython.
"""

from pipcore.notation import parse_play
from pipcore.position import BAR, Position
from pipcore.rules import Turn, apply_move


def pos(me, opp=None):
    return Position.from_dicts(me, opp or {})


def after(position, text):
    result = position.copy()
    for s, t, _ in parse_play(text):
        apply_move(result, s, t)
    return result


def steps(turn, text):
    found = turn.steps(after(turn.position, text))
    return None if found is None else sorted(found)


def test_start_of_turn_lists_every_first_move():
    turn = Turn(pos({13: 1, 6: 14}, {9: 1}), (4, 1))  # BG-11
    assert steps(turn, "") == [(6, 2, 4), (6, 5, 1), (13, 9, 4), (13, 12, 1)]
    assert not turn.is_complete(turn.position)


def test_after_one_move_the_other_die_remains():
    turn = Turn(pos({13: 1, 6: 14}, {9: 1}), (4, 1))
    assert steps(turn, "13/9*") == [(6, 5, 1), (9, 8, 1)]
    assert steps(turn, "13/12") == [(6, 2, 4), (12, 8, 4)]
    assert steps(turn, "6/2") == [(2, 1, 1), (6, 5, 1), (13, 12, 1)]
    assert steps(turn, "6/5") == [(5, 1, 4), (6, 2, 4), (13, 9, 4)]


def test_complete_play_has_no_steps_left():
    turn = Turn(pos({13: 1, 6: 14}, {9: 1}), (4, 1))
    for text in ("13/9*/8", "13/12/8", "6/5 6/2", "6/2/1", "13/12 6/2", "13/9* 6/5"):
        done = after(turn.position, text)
        assert turn.steps(done) == []
        assert turn.is_complete(done)


def test_position_off_every_legal_path_gives_none():
    turn = Turn(pos({13: 1, 6: 14}, {9: 1}), (4, 1))
    assert steps(turn, "13/10") is None  # a 3 was not rolled
    assert steps(turn, "6/5 6/5") is None  # the 1 used twice
    assert steps(turn, "13/9* 6/2") is None  # the 4 used twice
    # the checker landed on 9 but the opponent's blot was not put on the bar
    unhit = turn.position.copy()
    unhit.me[13] -= 1
    unhit.me[9] += 1
    assert turn.steps(unhit) is None
    assert not turn.is_complete(unhit)


def test_order_on_the_board_does_not_matter():
    turn = Turn(pos({7: 1, 5: 14}), (6, 2))  # BG-16
    # bearing off first, then bringing the outside checker home
    assert steps(turn, "") == [(5, 0, 6), (5, 3, 2), (7, 1, 6), (7, 5, 2)]
    assert steps(turn, "5/off") == [(7, 5, 2)]
    assert steps(turn, "7/1") == [(5, 3, 2)]  # 1/off with the 2 is never legal
    assert steps(turn, "5/3") == [(7, 1, 6)]
    assert turn.is_complete(after(turn.position, "5/off 7/5"))
    # entering is not forced first on the board either, if the whole play is legal
    enter = Turn(pos({"bar": 1, 24: 1, 13: 5, 8: 3, 6: 5}, {19: 2}), (6, 4))  # BG-13
    assert steps(enter, "24/18") == [(BAR, 21, 4)]
    assert steps(enter, "13/9") is None  # the 4 must enter
    assert sorted(set(s[0] for s in steps(enter, ""))) == [8, 13, 24, BAR]


def test_higher_die_and_forced_single_die():
    turn = Turn(pos({14: 1, 1: 14}, {3: 2}), (6, 5))  # BG-06
    assert steps(turn, "") == [(14, 8, 6)]
    assert steps(turn, "14/9") is None
    assert turn.is_complete(after(turn.position, "14/8"))
    partial = Turn(pos({"bar": 2, 13: 5, 8: 3, 6: 5}, {19: 2}), (6, 4))  # BG-14
    assert steps(partial, "") == [(BAR, 21, 4)]
    assert steps(partial, "bar/21") == []


def test_forfeited_turn_is_complete_at_once():
    turn = Turn(pos({"bar": 1, 24: 1, 13: 5, 8: 3, 6: 5}, {20: 2, 22: 2}), (5, 3))  # BG-10
    assert turn.steps(turn.position) == []
    assert turn.is_complete(turn.position)
    assert steps(turn, "24/21") is None


def test_doubles_follow_the_sources_used():
    start = Position.start()
    turn = Turn(start, (6, 6))  # BG-05
    first = [(8, 2, 6), (13, 7, 6), (24, 18, 6)]
    assert steps(turn, "") == first
    assert steps(turn, "24/18") == first  # a second 24/18 is still fine; 18/12 is closed
    assert steps(turn, "24/18 24/18") == [(8, 2, 6), (13, 7, 6)]
    assert steps(turn, "13/7(3)") == [(8, 2, 6), (13, 7, 6), (24, 18, 6)]
    assert steps(turn, "8/2(3) 13/7") == []
    assert turn.is_complete(after(start, "8/2(3) 13/7"))
    assert steps(turn, "24/18/12") is None  # 12 is closed: no legal play passes there
    assert steps(turn, "13/7(2) 13/1") is None


def test_partial_double_and_chains():
    turn = Turn(pos({20: 1, 1: 14}, {8: 2}), (4, 4))  # BG-09: only 20/16/12
    assert steps(turn, "") == [(20, 16, 4)]
    assert steps(turn, "20/16") == [(16, 12, 4)]
    assert steps(turn, "20/16/12") == []
    assert steps(turn, "1/off") is None
    bar = Turn(pos({"bar": 2, 13: 5, 8: 3, 6: 5}), (3, 3))  # BG-15
    assert steps(bar, "bar/22(2) 22/19") == sorted([(13, 10, 3), (19, 16, 3), (22, 19, 3), (8, 5, 3), (6, 3, 3)])
    assert steps(bar, "13/10(3)") is None  # at most two 3s after both entries


def test_doubles_hits_must_show_on_the_board():
    position = pos({13: 2, 6: 13}, {10: 1, 7: 1})
    turn = Turn(position, (3, 3))
    assert (13, 10, 3) in turn.steps(position)
    hit = after(position, "13/10*")
    assert hit.opp[BAR] == 1
    assert (10, 7, 3) in turn.steps(hit)
    assert turn.steps(after(position, "13/10*/7*")) is not None
    unhit = position.copy()
    unhit.me[13] -= 1
    unhit.me[10] += 1
    assert turn.steps(unhit) is None


def test_game_ends_part_way_through_a_double():
    turn = Turn(pos({2: 1, 1: 1, "off": 13}, {19: 2}), (2, 2))
    assert steps(turn, "") == [(1, 0, 2), (2, 0, 2)]
    assert steps(turn, "2/off") == [(1, 0, 2)]
    assert turn.is_complete(after(turn.position, "2/off 1/off"))
    assert steps(turn, "2/off 1/off") == []


def _count_reference(counts, p0, pm, closed, srcs, d):
    """What ``pipcore.steps.count`` must answer, written plainly (the native one is checked against it)."""
    total = over = bear = 0
    for p in range(BAR, 0, -1):
        n = (counts[p + d] if p + d <= BAR else 0) - pm[p] + p0[p]
        if n < 0 or n > 4:
            return -1
        counts[p] = n
        if n and closed[p]:
            return -1
        if n and p <= d:
            bear = 1
            if p < d:
                over = p
        for _ in range(n):
            if total < 4:
                srcs[total] = p
            total += 1
    return total | bear << 8 | over << 9


def test_the_moves_made_are_counted_alike_natively_and_plainly():
    """``steps.count`` (native code where the port has it) against the plain reading, on positions part-way
    through doubles and on counts no double gives."""
    import sys

    from pipcore import steps as st

    arch = getattr(sys.implementation, "_mpy", 0) >> 10
    if sys.implementation.name == "micropython" and arch:
        from pipcore import native

        assert st.count is native.count
    seed = 9
    for trial in range(400):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        d = 1 + seed % 6
        start = bytearray(26)
        closed = bytearray(26)
        for p in range(1, 26):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            start[p] = seed >> 8 & 3 if seed >> 12 & 1 else 0
            closed[p] = 1 if seed >> 14 & 7 == 0 else 0
        now = bytearray(start)
        for _ in range(seed >> 16 & 3):  # some moves of d (or a wrong count)
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            p = 1 + seed % 25
            if now[p]:
                now[p] -= 1
                now[p - d if p > d else 0] += 1
        if trial % 7 == 0:
            now[1 + trial % 25] += 1
        got = [bytearray(26), bytearray(4)]
        want = [bytearray(26), bytearray(4)]
        a = st.count(got[0], start, now, closed, got[1], d)
        b = _count_reference(want[0], start, now, closed, want[1], d)
        assert a == b, (trial, a, b)
        if a >= 0:
            assert got == want, trial
