"""A naive generator for backgammon with the Caucasian and jail options.

Written from RULES.md sections 1.6-1.10 and 3, sharing no code with
``pipcore.caucasian``: every checker carries a name, every order of single
moves of every named checker is tried, the marks (C1), the hiding ban (C2),
the jail clauses (J1, J2) are checked on the named checker, and O1/O2 pick
among the complete plays. Slow on purpose; see ``tests/test_caucasian_diff.py``.
"""

BAR = 25


def legal_plays(me, opp, dice, caucasian=True, scope="home", jail=False):
    """``(dice_used, set of final (me, opp) tuples)``."""
    hi, lo = max(dice), min(dice)
    roll = [hi] * 4 if hi == lo else [hi, lo]
    where = []  # the point of each named checker (0 = off)
    for p in range(26):
        where += [p] * me[p]
    plays = []

    def count(points, p):
        return sum(1 for w in points if w == p)

    def explore(points, o, marked, jailed, jail_points, left, used):
        moves = 0
        if count(points, 0) < 15:
            for i in range(len(left)):
                d = left[i]
                if d in left[:i]:
                    continue
                for c in range(len(points)):
                    s = points[c]
                    if s == 0:
                        continue
                    if count(points, BAR) and s != BAR:
                        continue  # B1: enter first
                    t = s - d
                    if t >= 1:
                        opposing = o[25 - t]
                        if opposing >= 2:
                            continue  # closed point
                        if caucasian and c in marked and count(points, t) > 0:
                            continue  # C2: the hitter may not hide
                    else:
                        if any(w >= 7 for w in points):
                            continue  # E1 (bar is 25)
                        if t < 0 and any(s < w <= 6 for w in points):
                            continue  # E3
                        if jail and c in jailed:
                            continue  # J1
                        if jail and s in jail_points:
                            continue  # J2
                        opposing = 0
                    new_points = list(points)
                    new_points[c] = t if t > 0 else 0
                    new_o = list(o)
                    new_marked = set(marked)
                    new_jailed = set(jailed)
                    new_jail_points = set(jail_points)
                    if t >= 1 and opposing == 1:  # hit
                        new_o[25 - t] = 0
                        new_o[BAR] += 1
                        if caucasian and (t <= 6 or scope == "board"):
                            new_marked.add(c)  # C1
                        if jail and t <= 6:
                            new_jailed.add(c)
                            new_jail_points.add(t)
                    moves += 1
                    explore(new_points, new_o, new_marked, new_jailed, new_jail_points,
                            left[:i] + left[i + 1:], used + [d])
        if moves == 0:  # a complete play
            board = [0] * 26
            for w in points:
                board[w] += 1
            # O1 counts the dice used: a one-die finish loses to a two-die play
            # (6/3*/off over 6/off, as gnubg); a double that finishes counts as
            # four, as in rules.Turn (it cannot change the set of results).
            n = len(roll) if board[0] == 15 and len(roll) == 4 else len(used)
            plays.append((n, used[0] if used else 0, tuple(board), tuple(o)))

    explore(where, list(opp), set(), set(), set(), roll, [])
    most = max(n for n, _, _, _ in plays)
    chosen = [p for p in plays if p[0] == most]  # O1
    if hi != lo and most == 1:
        with_high = [p for p in chosen if p[1] == hi]  # O2
        if with_high:
            chosen = with_high
    return most, set((b, o) for _, _, b, o in chosen)
