"""Hands at the board: a legal play executed in an order people use, checked against the guidance.

Shared by the CPython property test (tests/test_hands_property.py) and the
same property under the real MicroPython (tests/mp/test_hands.py), so it is
plain Python of the MicroPython subset with its own small random generator.

``hand_events(rng, pos, mover, turn, code)`` turns a play into hand steps on
locations (``(loc, +1, colour)`` a checker put down, ``(loc, -1, colour)`` one lifted): the
play's single moves in a random order the rules allow, a checker's moves run
together in one motion or through the intermediate point, and each hit blot
lifted and put on the bar at random instants (before the hitter is lifted,
while it is in the hand, after it landed; the bar put later still).

``check_play`` feeds the steps to a ``Controller`` as settled counts and
asserts at every step that the guidance asks for nothing leading away from the
play being made (a checker flashed as wrong, a "take from here" where the play
takes nothing, "put here" marks none of which the play puts), and at the end
that the board shows a finished play and DONE commits that play.
"""

from pipcore.board import BAR0, NLOC, fill_counts, slot_loc
from pipcore.names import (
    GAME_OVER,
    M_ERROR,
    M_FIX_FROM,
    M_FIX_TO,
    M_MISSING,
    M_TARGET,
    MATCH_OVER,
    MOVING,
    PICK,
    TURN_START,
)
from pipcore.rules import apply_move

_TAKE = (M_ERROR, M_FIX_FROM)
_PUT = (M_FIX_TO, M_MISSING, M_TARGET)


class Rng:
    """A small linear congruential generator (the same numbers under CPython and MicroPython)."""

    def __init__(self, seed):
        self.state = (seed * 2654435761 + 12345) & 0x7FFFFFFF

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n

    def choice(self, seq):
        return seq[self.below(len(seq))]


def _order(rng, pos, turn, moves):
    """The play's single moves in a random order in which each is a legal step of the turn."""
    for _attempt in range(4):
        cur = pos.copy()
        left = list(moves)
        out = []
        while left:
            steps = turn.steps(cur) or ()
            ok = []
            for i in range(len(left)):
                s, t = left[i][0], left[i][1]
                for st in steps:
                    if st[0] == s and st[1] == t:
                        ok.append(i)
                        break
            if not ok:
                break
            m = left.pop(rng.choice(ok))
            apply_move(cur, m[0], m[1])
            out.append(m)
        if not left:
            return out
    return list(moves)


def hand_events(rng, pos, mover, turn, code):
    """Hand steps ``[(loc, delta, colour)]`` executing the play ``code`` of ``turn`` from ``pos``
    (seen from ``mover``)."""
    moves = [(s, t) for s, t, _d in turn.moves(code)]
    moves = _order(rng, pos, turn, moves)
    # motions: a checker's consecutive moves in one motion (or not)
    motions = []
    for s, t in moves:
        if motions and motions[-1][-1] == s and s != 0 and rng.below(2):
            motions[-1].append(t)
        else:
            motions.append([s, t])
    other = 1 - mover
    bar = BAR0 + other
    cur = pos.copy()
    events = []
    for chain in motions:
        base = [(slot_loc(mover, chain[0]), -1, mover), (slot_loc(mover, chain[-1]), 1, mover)]
        hits = []
        for i in range(1, len(chain)):
            t = chain[i]
            if t and cur.opp[25 - t] == 1:
                hits.append(slot_loc(other, 25 - t))
            apply_move(cur, chain[i - 1], t)
        for loc in hits:
            n = len(base)
            i = rng.below(n + 1)
            j = i + rng.below(n + 1 - i)
            base.insert(j, (bar, 1, other))
            base.insert(i, (loc, -1, other))
        events.extend(base)
    return events


def _fail(msg, pid, mover, dice, events, k):
    raise AssertionError("%s: %s,%d,%d,%d after %d of %s" % (msg, pid, mover, dice[0], dice[1], k, events))


def _per_colour(pos, mover):
    """Checkers of each colour per location: ``(mover's, the opponent's)``."""
    out = (bytearray(NLOC), bytearray(NLOC))
    for p in range(26):
        out[0][slot_loc(mover, p)] += pos.me[p]
        out[1][slot_loc(1 - mover, p)] += pos.opp[p]
    return out


def check_play(ctl, pos, mover, dice, turn, code, events, now=0):
    """Play ``events`` on ``ctl`` (MOVING on this roll, board showing ``pos``); assert the property.

    A mark asking to take a checker from a location is right when the play
    still takes a checker of some colour from there; marks asking to put one
    down (a target, "put it here", missing) are right when one of them is
    where the play still puts a checker of the mark's colour.
    """
    cap = ctl.capacity
    have = _per_colour(pos, mover)
    result = turn.result(code)
    final = _per_colour(result, mover)
    sensed = bytearray(NLOC)
    pid = pos.position_id()
    clipped = False  # a stack taller than its switches: the finished play may read as one in hand
    for i in range(NLOC):
        if final[0][i] + final[1][i] > cap[i]:
            clipped = True
    for k in range(len(events)):
        loc, delta, colour = events[k]
        have[0 if colour == mover else 1][loc] += delta
        for i in range(NLOC):
            c = have[0][i] + have[1][i]
            sensed[i] = c if c < cap[i] else cap[i]
        now += 50
        ctl.step(("board", bytes(sensed)), now)
        ctl.idle()  # a quiet poll, as the app's: the next lift's targets
        if ctl.deep_at >= 0:  # the app's tick when the deeper reading of the counts is due
            now = ctl.deep_at
            ctl.step(("tick",), now)
        if ctl.phase != MOVING:
            _fail("left the moving phase (%d)" % ctl.phase, pid, mover, dice, events, k + 1)
        marks = ctl.marks
        who = ctl.mark_player
        want_put = False
        put_ok = False
        any_put = False
        for i in range(NLOC):
            role = marks[i]
            if have[0][i] + have[1][i] >= cap[i] or final[0][i] + final[1][i] >= cap[i]:
                if role in _PUT:  # the switches cannot count this stack: any guidance may be right
                    any_put = put_ok = True
                continue
            more = (final[0][i] > have[0][i], final[1][i] > have[1][i])
            if more[0] or more[1]:
                want_put = True
            if role in _TAKE and final[0][i] >= have[0][i] and final[1][i] >= have[1][i]:
                _fail("asks to take from %d (%s)" % (i, ctl.message), pid, mover, dice, events, k + 1)
            if role in _PUT:
                any_put = True
                p = who[i]
                if more[0 if p == mover else 1] if p < 2 else (more[0] or more[1]):
                    put_ok = True
        if any_put and want_put and not put_ok:
            _fail("asks to put elsewhere (%s)" % ctl.message, pid, mover, dice, events, k + 1)
        if k == len(events) - 1 and not clipped and ctl.message.startswith(("move", "wrong", "hit", "put")):
            _fail("the finished play is not recognised (%s)" % ctl.message, pid, mover, dice, events, k + 1)
    now += 50
    ctl.step(("button", "DONE"), now)
    if ctl.phase == PICK:
        for _ in range(len(ctl.pick[0])):
            if ctl.pick_candidate() == result:
                break
            now += 10
            ctl.step(("button", "NEXT"), now)
        if ctl.pick_candidate() != result:
            _fail("the play is not among the candidates", pid, mover, dice, events, len(events))
        now += 10
        ctl.step(("button", "DONE"), now)
    if ctl.phase not in (TURN_START, GAME_OVER, MATCH_OVER):
        _fail("DONE did not commit (%s)" % ctl.message, pid, mover, dice, events, len(events))
    if ctl.ref.position.swapped() != result:
        _fail("DONE committed another play", pid, mover, dice, events, len(events))
    return now


def run(seed, plays, capacity=None):
    """Random legal plays of random games (one controller, games played through), each executed by
    ``hand_events`` and checked by ``check_play``; returns how many plays were checked."""
    from pipcore.controller import Controller
    from pipcore.position import Position

    rng = Rng(seed)
    ctl = None
    now = 0
    done = 0
    counts = bytearray(NLOC)
    while done < plays:
        if ctl is None or ctl.phase in (GAME_OVER, MATCH_OVER):
            ctl = Controller(None, "backgammon", capacity)
            fill_counts(Position.start(), 0, counts)
            now += 50
            ctl.step(("board", bytes(counts)), now)
            while ctl.phase != MOVING:
                now += 10
                ctl.step(("button", "ROLL"), now)
                a = 1 + rng.below(6)
                ctl.step(("dice", a, 1 + (a + rng.below(5)) % 6), now)
        elif ctl.phase == TURN_START:
            now += 10
            ctl.step(("button", "ROLL"), now)
            ctl.step(("dice", 1 + rng.below(6), 1 + rng.below(6)), now)
        turn = ctl.turn
        pos = ctl.pos
        mover = ctl.mover
        dice = ctl.dice
        code = turn.plays[rng.below(len(turn.plays))]
        events = hand_events(rng, pos, mover, turn, code)
        now = check_play(ctl, pos, mover, dice, turn, code, events, now)
        done += 1
    return done


def parse_steps(spec):
    """``"POSITION_ID,MOVER,D1,D2 9-w 3+w ..."`` (the issue's notation) -> ``(pid, mover, dice, events)``;
    ``DONE`` words are left out (the scenario presses it itself)."""
    words = spec.split()
    pid, mover, a, b = words[0].split(",")
    events = []
    for w in words[1:]:
        if w == "DONE":
            continue
        events.append((int(w[:-2]), 1 if w[-2] == "+" else -1, 0 if w[-1] == "w" else 1))
    return pid, int(mover), (int(a), int(b)), events


def scenario(spec, capacity=None):
    """A controller MOVING on the roll of ``spec`` with its board laid out; returns
    ``(ctl, pos, mover, dice, events)``."""
    from pipcore.controller import Controller
    from pipcore.position import Position

    pid, mover, dice, events = parse_steps(spec)
    ctl = Controller(None, "backgammon", capacity)
    ctl.step(("load", pid, mover, dice), 0)
    pos = Position.from_id(pid)
    counts = bytearray(NLOC)
    fill_counts(pos, mover, counts, ctl.capacity)
    ctl.step(("board", bytes(counts)), 10)
    assert ctl.phase == MOVING, ctl.message
    return ctl, pos, mover, dice, events


def play_spec(spec):
    """Play the issue's sequence ``spec`` with ``check_play``: the play is the one its steps end on."""
    ctl, pos, mover, dice, events = scenario(spec)
    turn = ctl.turn
    have = _per_colour(pos, mover)
    for loc, delta, colour in events:
        have[0 if colour == mover else 1][loc] += delta
    for code in turn.plays:
        if _per_colour(turn.result(code), mover) == have:
            check_play(ctl, pos, mover, dice, turn, code, events, 100)
            return ctl
    raise AssertionError("the steps of %s end on no legal play" % spec)
