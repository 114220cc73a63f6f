"""Long-nardy positions for the differential and property tests.

Each case is ``(position, dice, first_turn)``. The families cover what the
fast generator could get wrong: first turns (both players, every roll, after
every opening of the first player), positions from random games, six-block
situations, bear-offs, and scattered random positions.
"""


from pipcore import nardy
from pipcore.position import Position

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def _position(me, opp):
    """A Position from two own-numbered arrays, or None with too many checkers."""
    if sum(me[1:25]) > 15 or sum(opp[1:25]) > 15:
        return None
    pos = Position(me, opp)
    pos.me[0] = 15 - sum(pos.me[1:25])
    pos.opp[0] = 15 - sum(pos.opp[1:25])
    return pos


def first_turn_cases():
    """Every first-player roll, and every second-player roll after every
    legal opening play of the first player."""
    start = nardy.start_position()
    cases = [(start, roll, True) for roll in ALL_ROLLS]
    openings = set()
    for roll in ALL_ROLLS:
        for result in nardy.Turn(start, roll, first_turn=True).results():
            openings.add(bytes(result.me))
    for opened in sorted(openings):
        pos = Position(start.me, opened)  # the second player is on roll
        for roll in ALL_ROLLS:
            cases.append((pos, roll, True))
    return cases


def random_roll(rng):
    return (rng.randint(1, 6), rng.randint(1, 6))


def random_game(rng, block_check="per-move", max_turns=400):
    """Positions (before each roll) of one game of random legal plays:
    yields ``(position, dice, first_turn)``; the next position is a random
    result of that roll, seen from the next player."""
    pos = nardy.start_position()
    turns = 0
    while turns < max_turns:
        dice = random_roll(rng)
        first = turns < 2
        yield pos, dice, first
        turn = nardy.Turn(pos, dice, first_turn=first, block_check=block_check)
        after = turn.result(rng.choice(turn.plays))
        if after.me[0] == 15:
            return
        pos = after.swapped()
        turns += 1


def random_game_cases(rng, count, block_check="per-move", keep=0.25):
    cases = []
    while len(cases) < count:
        for case in random_game(rng, block_check):
            if rng.random() < keep:
                cases.append(case)
                if len(cases) >= count:
                    break
    return cases


def _place(rng, side, points, checkers):
    for _ in range(checkers):
        side[rng.choice(points)] += 1


def block_cases(rng, count):
    """Five of six points in a row (along the opponent's route) held by the
    mover, a checker that can fill the sixth with one die of the roll, and the
    opponent mostly behind the block, so the block rule often decides."""
    opp_point = nardy.opposite_point
    cases = []
    while len(cases) < count:
        me = bytearray(26)
        opp = bytearray(26)
        k = rng.randint(1, 19)  # opponent-numbered first point of the six
        gap = rng.randint(k, k + 5)
        for q in range(k, k + 6):
            if q != gap:
                me[opp_point(q)] += 1
        die = rng.randint(1, 6)
        source = opp_point(gap) + die
        if source > 24:
            continue
        me[source] += 1
        for _ in range(rng.randint(0, 7)):
            me[rng.randint(max(1, opp_point(gap) - 6), 24)] += 1
        behind = [q for q in range(k + 6, 25) if not me[opp_point(q)]]
        if not behind:
            continue
        # all 15 opponent checkers on the board (one borne off is "ahead")
        _place(rng, opp, behind, 15 if rng.random() < 0.85 else 14)
        if rng.random() < 0.2:
            ahead = [q for q in range(1, k) if not me[opp_point(q)]]
            if ahead:
                opp[rng.choice([q for q in behind if opp[q]])] -= 1
                opp[rng.choice(ahead)] += 1
        pos = _position(me, opp)
        if pos is None or nardy.forbidden_block(pos.me, pos.opp):
            continue  # a forbidden block cannot arise in play
        other = rng.randint(1, 6)
        dice = (die, other) if rng.random() < 0.5 else (other, die)
        cases.append((pos, dice, rng.random() < 0.1))
    return cases


def bear_off_cases(rng, count):
    """The mover at home (or one checker just outside), some borne off; the
    opponent's checkers on points its route still has to pass (mover's home)."""
    cases = []
    while len(cases) < count:
        me = bytearray(26)
        opp = bytearray(26)
        n = rng.randint(1, 15)
        _place(rng, me, list(range(1, 7)), n)
        if rng.random() < 0.3 and n < 15:
            me[rng.randint(7, 12)] += 1
        free = [q for q in range(1, 25) if not me[nardy.opposite_point(q)]]
        opp_n = rng.randint(1, 15)
        near = [q for q in free if 13 <= q <= 18]  # the mover's home
        pool = free if rng.random() < 0.5 or not near else near + free
        _place(rng, opp, pool, opp_n)
        pos = _position(me, opp)
        if pos is not None:
            cases.append((pos, random_roll(rng), False))
    return cases


def scattered_cases(rng, count):
    """Checkers of both sides strewn over the board (never on one point)."""
    cases = []
    while len(cases) < count:
        me = bytearray(26)
        opp = bytearray(26)
        mine = rng.sample(range(1, 25), rng.randint(1, 10))
        _place(rng, me, mine, rng.randint(len(mine), 15))
        free = [q for q in range(1, 25) if not me[nardy.opposite_point(q)]]
        theirs = rng.sample(free, min(len(free), rng.randint(1, 10)))
        _place(rng, opp, theirs, rng.randint(len(theirs), 15))
        pos = _position(me, opp)
        if pos is None:
            continue
        if nardy.forbidden_block(pos.me, pos.opp):
            continue
        cases.append((pos, random_roll(rng), rng.random() < 0.05))
    return cases
