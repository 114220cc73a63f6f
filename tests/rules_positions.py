"""Seeded generators of backgammon positions (CPython test helper).

Shared by the gnubg differential test and the rules benchmark. Everything is
drawn from a ``random.Random`` passed in, so a seed gives the same corpus on
every run and machine; nothing is cached on disk.

Positions are ``pipcore.position.Position`` objects seen from the player on
roll; every generator returns a valid position (15 checkers a side, no point
held by both sides).
"""

from pipcore.position import BAR, CHECKERS, Position

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def roll(rng):
    """Two dice, as the real dice fall (doubles 1 in 6)."""
    return (rng.randint(1, 6), rng.randint(1, 6))


def _free_for_me(pos, p):
    return not pos.opp[25 - p]


def _free_for_opp(pos, p):
    """``p`` in the mover's numbering."""
    return not pos.me[p]


def _put(pos, side, p, n):
    """Put ``n`` checkers of ``side`` ("me"/"opp") on mover's point p (or BAR)."""
    if side == "me":
        pos.me[p] += n
    elif p == BAR:
        pos.opp[BAR] += n
    else:
        pos.opp[25 - p] += n


def _fix_off(pos):
    for side in (pos.me, pos.opp):
        side[0] = CHECKERS - pos.on_board(side)
    pos.validate()
    return pos


def _scatter(rng, pos, side, count, points, stack=0.5):
    """Spread ``count`` checkers of ``side`` over ``points`` (mover's numbering).

    ``stack`` is the chance that a checker joins a point the side already
    holds, so small values spread the checkers over many points.
    """
    free = _free_for_me if side == "me" else _free_for_opp
    held = []
    for _ in range(count):
        if held and rng.random() < stack:
            p = rng.choice(held)
        else:
            options = [p for p in points if free(pos, p) and p not in held]
            if not options:
                options = held or [BAR]
            p = rng.choice(options)
        _put(pos, side, p, 1)
        if p != BAR and p not in held:
            held.append(p)


def scatter(rng):
    """Both sides anywhere, a few on the bar or borne off now and then."""
    pos = Position()
    order = ["me", "opp"] if rng.random() < 0.5 else ["opp", "me"]
    for side in order:
        bar = rng.choice([0, 0, 0, 1, 1, 2, 3])
        off = rng.choice([0, 0, 0, 0, 2, 5])
        _put(pos, side, BAR, bar)
        _scatter(rng, pos, side, CHECKERS - bar - off, range(1, 25), rng.choice([0.2, 0.5, 0.7]))
    return _fix_off(pos)


def bar_entry(rng):
    """The mover on the bar against a home board of 2 to 6 made points."""
    pos = Position()
    made = rng.sample(range(19, 25), rng.randint(2, 6))
    used = 0
    for p in made:
        n = 2 if len(made) > 4 else rng.choice([2, 2, 2, 3])
        _put(pos, "opp", p, n)
        used += n
    opp_rest = CHECKERS - used - rng.choice([0, 0, 1, 3])
    _scatter(rng, pos, "opp", max(0, opp_rest), range(7, 19), 0.6)
    bar = rng.randint(1, 4)
    _put(pos, "me", BAR, bar)
    _scatter(rng, pos, "me", CHECKERS - bar - rng.choice([0, 0, 2]), range(1, 25), 0.5)
    if pos.opp[BAR] and all(pos.me[p] >= 2 for p in range(1, 7)):
        pos.opp[BAR] = 0
    return _fix_off(pos)


def closed_board(rng):
    """A closed board on one side: the mover shut out, stuck behind, or closing it."""
    pos = Position()
    kind = rng.randint(0, 2)
    if kind < 2:  # the opponent holds all six of the mover's entry points
        for p in range(19, 25):
            _put(pos, "opp", p, 2)
        _scatter(rng, pos, "opp", 3, range(1, 19), 0.5)
        if kind == 0:
            _put(pos, "me", BAR, rng.randint(1, 3))
        _scatter(rng, pos, "me", CHECKERS - pos.me[BAR], range(1, 19), 0.4)
    else:  # the mover has closed its own board against a checker on the bar
        for p in range(1, 7):
            _put(pos, "me", p, 2)
        _scatter(rng, pos, "me", 3, range(1, 25), 0.5)
        _put(pos, "opp", BAR, rng.randint(1, 2))
        _scatter(rng, pos, "opp", CHECKERS - pos.opp[BAR], range(7, 25), 0.5)
    return _fix_off(pos)


def bear_off(rng):
    """The mover bearing off (sometimes with one straggler), with or without contact."""
    pos = Position()
    kind = rng.randint(0, 3)
    if kind == 1:  # contact: opponent anchors or blots in the mover's home board
        _scatter(rng, pos, "opp", rng.randint(1, 4), range(1, 7), 0.4)
    on_board = rng.randint(1, CHECKERS)
    straggler = 1 if kind == 2 else 0
    if straggler:
        _scatter(rng, pos, "me", 1, range(7, 13), 0.0)
    _scatter(rng, pos, "me", on_board - straggler, range(1, 7), rng.choice([0.3, 0.6]))
    if kind == 3 and rng.random() < 0.5:
        _put(pos, "opp", BAR, 1)
    rest = CHECKERS - pos.on_board(pos.opp)
    _scatter(rng, pos, "opp", rng.randint(0 if pos.on_board(pos.opp) else 1, rest), range(13, 25), 0.6)
    return _fix_off(pos)


def primed(rng):
    """The mover behind a prime of 3 to 6 points: partial plays and forced dice."""
    pos = Position()
    length = rng.randint(3, 6)
    top = rng.randint(length + 1, 24)
    for p in range(top - length + 1, top + 1):
        _put(pos, "opp", p, 2 if length > 4 else rng.choice([2, 2, 3]))
    _scatter(rng, pos, "opp", CHECKERS - pos.on_board(pos.opp) - rng.choice([0, 0, 2]), range(1, 25), 0.6)
    behind = [p for p in range(top + 1, 25)]
    n = rng.randint(1, 4)
    if behind:
        _scatter(rng, pos, "me", n, behind, 0.3)
    else:
        _put(pos, "me", BAR, n)
    rest = CHECKERS - pos.on_board(pos.me) - rng.choice([0, 0, 3])
    _scatter(rng, pos, "me", rest, range(1, top - length + 1) if top - length >= 1 else range(1, 25), 0.6)
    return _fix_off(pos)


def spread(rng):
    """The mover's checkers one or two a point over many points (the slow cases)."""
    pos = Position()
    opp_points = rng.sample(range(1, 25), rng.randint(1, 4))
    for i in range(CHECKERS):
        _put(pos, "opp", opp_points[i % len(opp_points)], 1)
    _scatter(rng, pos, "me", CHECKERS, range(1, 25), rng.choice([0.0, 0.1, 0.3]))
    return _fix_off(pos)


ENRICHERS = (scatter, bar_entry, closed_board, bear_off, primed, spread)


def _stuck_position(rng, dice, src, path_open, first_block):
    """A position where only the checker on ``src`` can move, along ``path_open``.

    The opponent makes ``first_block`` (and up to three more points); the
    mover's other checkers stand where every die lands on a made point.
    Returns None when the draw does not fit.
    """
    blocks = set([first_block])
    for p in rng.sample(range(1, 25), rng.randint(0, 3)):
        if p not in path_open and p != src:
            blocks.add(p)
    stuck = [q for q in range(7, 25)
             if q != src and q not in blocks and q not in path_open and all(q - d in blocks for d in dice)]
    if len(blocks) > 7 or (src <= 6 and not stuck):
        return None
    pos = Position()
    for b in blocks:
        _put(pos, "opp", b, 2)
    spare = CHECKERS - 2 * len(blocks)
    if spare and rng.random() < 0.5:  # a blot to hit on the way
        _put(pos, "opp", rng.choice(sorted(path_open)), 1)
        spare -= 1
    for _ in range(spare):
        _put(pos, "opp", rng.choice(sorted(blocks)), 1)
    _put(pos, "me", src, 1)
    for _ in range(rng.randint(0, CHECKERS - 1) if stuck else 0):
        _put(pos, "me", rng.choice(stuck), 1)
    return _fix_off(pos)


def forced_die(rng):
    """``(position, roll)``: either die alone can be played but not both (RULES O2)."""
    while True:
        hi = rng.randint(2, 6)
        lo = rng.randint(1, hi - 1)
        src = rng.choice([BAR] + list(range(hi + lo + 1, 25)))
        pos = _stuck_position(rng, (hi, lo), src, (src - hi, src - lo), src - hi - lo)
        if pos is not None:
            return pos, (hi, lo) if rng.random() < 0.5 else (lo, hi)


def partial_double(rng):
    """``(position, double)``: only 1 to 3 of the four moves can be played."""
    while True:
        d = rng.randint(1, 6)
        steps = rng.randint(1, 3)
        top = 24 if rng.random() < 0.7 else BAR
        if top - (steps + 1) * d < 1:
            continue
        src = rng.randint((steps + 1) * d + 1, top)
        path = tuple(src - d * i for i in range(1, steps + 1))
        pos = _stuck_position(rng, (d,), src, path, src - (steps + 1) * d)
        if pos is not None:
            return pos, (d, d)


TARGETED = (forced_die, partial_double)


def random_walk(rng, count, choose):
    """Positions (with their roll) met in random self-play from the start.

    ``choose(position, dice)`` returns the position after some legal play,
    still seen from the player who moved (or None when nothing can be
    played); the walk then hands the dice to the other side.
    """
    out = []
    pos = Position.start()
    while len(out) < count:
        dice = roll(rng)
        out.append((pos, dice))
        after = choose(pos, dice)
        if after is None:
            after = pos
        if after.me[0] == CHECKERS:
            pos = Position.start()
        else:
            pos = after.swapped()
    return out
