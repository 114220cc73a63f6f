"""A deliberately naive long-nardy move generator, written from RULES.md section 4.

It shares no code with ``pipcore.nardy``: it tries every order of single-die
moves, checks each rule as the text states it, and applies the obligation
rules O1/O2 to the complete plays it finds. It is slow on purpose and exists
to judge the fast generator (``tests/test_nardy_diff.py``).

Positions are plain tuples or lists of 26 counts per side, each side in its
own numbering (slot 0 off, 1..24 points, 25 bar), as in ``pipcore.position``.

Readings shared with ``pipcore.nardy`` where RULES.md needs one: H2 allows a
second head checker when one head checker cannot use all four dice of a
first-turn double; with the end-of-turn block check, every sequence of legal
single moves whose final position has no forbidden block is a candidate play
(O1 then keeps those using the most dice); a play that bears off the 15th
checker counts as using every die.
"""

from itertools import permutations


def other_players_name(p):
    """4.1: a point called p by one player is p + 12 (p <= 12) or p - 12 for the other."""
    if p <= 12:
        return p + 12
    return p - 12


def opponent_checkers_on(opp, my_point):
    return opp[other_players_name(my_point)]


def contains_forbidden_block(me, opp):
    """4.8: six opponent-numbered points k..k+5 (1 <= k <= 19), each with a mover
    checker, with no opponent checker on an opponent point below k nor borne off."""
    for k in range(1, 20):
        six = range(k, k + 6)
        if all(me[other_players_name(q)] >= 1 for q in six):
            someone_ahead = opp[0] > 0 or any(opp[q] > 0 for q in range(1, k))
            if not someone_ahead:
                return True
    return False


def single_move(me, opp, start_me, s, d, head_limit):
    """The mover's checkers after moving one checker from s with die d, or None."""
    if me[s] == 0:
        return None
    t = s - d
    new = list(me)
    if t >= 1:
        if opponent_checkers_on(opp, t) > 0:  # 4.5: a single checker blocks
            return None
        if s == 24:
            left_head_already = start_me[24] - me[24]
            if left_head_already >= head_limit:  # 4.7 H1 / H2
                return None
        new[s] -= 1
        new[t] += 1
        return new
    # 4.9: bearing off only with all 15 on points 1-6 or off
    if any(me[p] > 0 for p in range(7, 25)):
        return None
    if t < 0 and any(me[p] > 0 for p in range(s + 1, 25)):  # E3
        return None
    new[s] -= 1
    new[0] += 1
    return new


def all_sequences(me, opp, dice, head_limit, block_check):
    """Every sequence of legal single moves: list of (moves, final me, complete)."""
    out = []

    def extend(cur, left, moves):
        continuations = 0
        if cur[0] < 15:
            for i in range(len(left)):
                d = left[i]
                if d in left[:i]:
                    continue  # the same number twice is the same move
                for s in range(1, 25):
                    new = single_move(cur, opp, me, s, d, head_limit)
                    if new is None:
                        continue
                    if block_check == "per-move" and contains_forbidden_block(new, opp):
                        continue
                    continuations += 1
                    t = s - d if s - d > 0 else 0
                    extend(new, left[:i] + left[i + 1:], moves + [(s, t, d)])
        out.append((moves, cur, continuations == 0))

    extend(list(me), list(dice), [])
    return out


def legal_plays(me, opp, dice, first_turn=False, block_check="per-move"):
    """``(dice_used, legal sequences)`` under every rule of section 4."""
    hi, lo = max(dice), min(dice)
    double = hi == lo
    roll = [hi] * 4 if double else [hi, lo]
    head_limit = 1
    used, plays = _apply_obligations(me, opp, roll, head_limit, block_check, double, hi)
    if double and first_turn and used < 4:
        head_limit = 2
        used, plays = _apply_obligations(me, opp, roll, head_limit, block_check, double, hi)
    return used, plays


def _apply_obligations(me, opp, roll, head_limit, block_check, double, hi):
    candidates = []
    for moves, final, complete in all_sequences(me, opp, roll, head_limit, block_check):
        if block_check == "per-move":
            if not complete:
                continue  # O1 is judged over complete plays
        elif block_check == "end-of-turn" and contains_forbidden_block(final, opp):
            continue  # any other value: no block rule (to measure its effect)
        n = len(roll) if final[0] == 15 else len(moves)  # game over: rest void
        candidates.append((n, moves, final))
    most = max(n for n, _, _ in candidates)
    plays = [(moves, final) for n, moves, final in candidates if n == most]  # O1
    if not double and most == 1:  # O2
        with_high = [(m, f) for m, f in plays if m and m[0][2] == hi]
        if with_high:
            plays = with_high
    return most, plays


def results(me, opp, dice, first_turn=False, block_check="per-move"):
    """``(dice_used, set of final mover arrays as tuples)``."""
    used, plays = legal_plays(me, opp, dice, first_turn, block_check)
    return used, set(tuple(final) for _, final in plays)


def steps_by_position(me, opp, dice, first_turn=False, block_check="per-move"):
    """For every position on the way to a legal play: the set of next moves.

    A position is on the way when it is the start plus some of the moves of
    one legal play, made in any order the checkers physically allow (the
    board sees positions, not the order; as in ``pipcore.steps``)."""
    _, plays = legal_plays(me, opp, dice, first_turn, block_check)
    table = {}
    finals = set()
    for way in set(tuple(sorted(moves)) for moves, _ in plays):
        for order in set(permutations(way)):
            cur = list(me)
            for s, t, d in order:
                if cur[s] == 0:
                    break  # that checker is not there yet
                table.setdefault(tuple(cur), set()).add((s, t, d))
                cur[s] -= 1
                cur[t] += 1
            else:
                finals.add(tuple(cur))
    for final in finals:
        table.setdefault(final, set())
    return table
