"""Hypothesis properties of long nardy over random games.

Every turn of a random game (Hypothesis draws the rolls and which legal play
is chosen): 15 checkers per side, never both colours on one point, never a
forbidden six-block (judged by the naive reference's literal check), the
head rule (one checker off the head, two only on a first-turn double when
one cannot use all four dice), ``steps`` leading through every legal
play move by move, and ``check`` accepting every legal play.
"""

import nardy_naive as naive
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pipcore import nardy

GAME = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

die = st.integers(min_value=1, max_value=6)
turns = st.lists(st.tuples(die, die, st.integers(min_value=0, max_value=10 ** 6)), min_size=1, max_size=120)
modes = st.sampled_from(["per-move", "end-of-turn"])


def play_game(moves, mode, check):
    """Play the drawn turns; ``check(before, turn, after, number)`` each turn."""
    pos = nardy.start_position()
    for number, (a, b, pick) in enumerate(moves):
        turn = nardy.Turn(pos, (a, b), first_turn=number < 2, block_check=mode)
        after = turn.result(turn.plays[pick % len(turn.plays)])
        check(pos, turn, after, number)
        if after.me[0] == 15:
            assert nardy.winner_of(after)[0] == 0
            return
        pos = after.swapped()


@GAME
@given(turns, modes)
def test_checkers_colours_and_blocks(moves, mode):
    def check(before, turn, after, number):
        for result in turn.results():
            assert sum(result.me) == 15 and sum(result.opp) == 15
            result.validate("nardy")  # never both colours on one point, no bar
            assert not naive.contains_forbidden_block(result.me, result.opp)
            assert result.opp == before.opp  # nothing is ever hit

    play_game(moves, mode, check)


@GAME
@given(turns, modes)
def test_head_rule_every_turn(moves, mode):
    def check(before, turn, after, number):
        for result in turn.results():
            left = before.me[24] - result.me[24]
            if left <= 1:
                continue
            # only H2: a first-turn double that one head checker cannot use whole
            assert left == 2 and number < 2 and turn.double, (before.describe("nardy"), turn.high)
            one = nardy.Turn(before, (turn.high, turn.low), first_turn=False, block_check=mode)
            assert one.dice_used < 4

    play_game(moves, mode, check)


@GAME
@given(turns, modes)
def test_steps_lead_through_every_play(moves, mode):
    def check(before, turn, after, number):
        for code in turn.plays[:12]:
            cur = before.copy()
            for s, t, d in turn.moves(code):
                options = turn.steps(cur)
                assert options is not None and (s, t, d) in options
                cur.me[s] -= 1
                cur.me[t] += 1
            assert turn.is_complete(cur)
            assert turn.steps(cur) is not None
            # check() takes the play back, move by move
            code2, result = turn.check([(s, t, None) for s, t, _ in turn.moves(code)])
            assert result == cur and turn.result(code2) == cur

    play_game(moves, mode, check)


@GAME
@given(turns, modes)
def test_the_results_known_to_steps_are_the_plays_results(moves, mode):
    """``is_complete``'s keys (made in one buffer, nardysteps) are exactly the positions ``result`` makes,
    and a double's next moves are exactly the moves of the plays still open from the position reached."""

    def check(before, turn, after, number):
        assert turn._keys() == set(bytes(turn.result(code).me) for code in turn.plays)
        if not turn.double:
            return
        for code in turn.plays[:8]:
            moves_of = turn.moves(code)
            for made in range(len(moves_of)):  # every part of the play made so far
                cur = before.copy()
                taken = [0] * 25  # the moves made, by source
                for s, t, _ in moves_of[:made]:
                    cur.me[s] -= 1
                    cur.me[t] += 1
                    taken[s] += 1
                want = set()
                for other in turn.plays:  # every play whose moves include those made: its other sources
                    mine = turn.moves(other)
                    left = [0] * 25
                    for s, _, _ in mine:
                        left[s] += 1
                    if len(mine) > made and all(left[p] >= taken[p] for p in range(25)):
                        for p in range(1, 25):
                            if left[p] > taken[p] and cur.me[p]:
                                want.add((p, p - turn.high if p > turn.high else 0, turn.high))
                assert set(turn.steps(cur)) == want, (before.describe("nardy"), turn.high, code, made)

    play_game(moves, mode, check)
