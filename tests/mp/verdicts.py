"""Verdicts that do not depend on timing (issue 23, point 5): the harness, CPython and MicroPython alike.

What the board says about the hands (a wrong point, a complete play, a pick,
DONE's verdict) must be the same whether no quiet poll, one, some or all of
them ran between two changes: the quiet polls (``Controller.idle``) only
prepare work ahead (the tracker's lift targets, the turn's bound on counts)
and judge the last counts again with the full budget (``Tracker.refine``).

``episode(rng, pid, mover, dice)`` writes one roll's events from the rules
alone (never from what a controller answered, so every run gets the same
events): a legal play of the roll executed as hands do (``hands.hand_events``:
random orders, one motion or through the intermediate points, hits barred
before or after), with wrong placements and lifts put back, a wrong checker
left while DONE is pressed, DONE pressed half-way, an illegal play made and
undone, a pause long enough for missing checkers, then DONE (and NEXT and
DONE again, where the board asks to pick).

``run(events, polls)`` plays them on a fresh controller; ``polls(k)`` says how
many quiet polls run after event ``k`` (and whether they may prepare, as a
heap below the reserve says no). It returns what the board says after every
event and its polls: the phase, the message, the marks and their colours, the
dice display, and the position and record once DONE committed.

``check(rng, pid, mover, dice)`` compares the run with no quiet polls, the
run with all of them, the run where the heap allows no work ahead, and a run
with a random number of polls (0 included) between events; any difference is
an ``AssertionError`` naming the event and both verdicts.
"""

import hands
from pipcore.board import NLOC, fill_counts, slot_loc
from pipcore.names import M_ERROR, MOVING, PICK

STRICT = True
ALL = 1000  # "all of them": polls run until one finds nothing left to do (never this many)
PAUSE_MS = 25000  # a pause past the missing checkers' delay (pipcore.guide.MISSING_MS)


def _lift_put(events, have, mover, colour, loc, rng, ncap):
    """A checker of ``colour`` lifted from ``loc`` and put down at a random location, then back."""
    w = rng.below(NLOC)
    if w == loc:
        return
    events.append(("hand", loc, -1, colour))
    if rng.below(2):
        events.append(("hand", w, 1, colour))
        if rng.below(3) == 0:
            events.append(("button", "DONE"))  # DONE with a checker on a wrong point
        events.append(("hand", w, -1, colour))
    events.append(("hand", loc, 1, colour))


def episode(rng, pid, mover, dice, illegal=True):
    """The events of one roll from ``pid`` (``mover`` on roll with ``dice``): see the module."""
    from pipcore.position import Position
    from pipcore.rules import Turn

    pos = Position.from_id(pid)
    turn = Turn(pos, dice)
    code = turn.plays[rng.below(len(turn.plays))]
    steps = hands.hand_events(rng, pos, mover, turn, code)
    have = hands._per_colour(pos, mover)
    events = []
    if illegal and rng.below(3) == 0:  # an illegal play: a checker moved by a wrong number, DONE, undone
        srcs = [p for p in range(1, 26) if pos.me[p]]
        p = srcs[rng.below(len(srcs))]
        d = 1 + rng.below(6)
        while d == dice[0] or d == dice[1] or d == dice[0] + dice[1]:
            d = 1 + rng.below(6)
        t = p - d if p - d > 0 else 0
        if t == 0 or pos.opp[25 - t] < 2:
            a, b = slot_loc(mover, p), slot_loc(mover, t)
            events.append(("hand", a, -1, mover))
            events.append(("hand", b, 1, mover))
            events.append(("button", "DONE"))
            events.append(("hand", b, -1, mover))
            events.append(("hand", a, 1, mover))
    for k in range(len(steps)):
        loc, delta, colour = steps[k]
        r = rng.below(9)
        side = 0 if colour == mover else 1
        if r == 0:  # a wrong placement, then taken back
            w = rng.below(NLOC)
            events.append(("hand", w, 1, mover))
            events.append(("hand", w, -1, mover))
        elif r == 1 and delta < 0 and have[side][loc] > 1:  # another checker of that point lifted and put back
            _lift_put(events, have, mover, colour, loc, rng, None)
        elif r == 2:
            events.append(("button", "DONE"))  # DONE half-way: refused, or a pick of what shows
        elif r == 3 and delta > 0:
            events.append(("pause",))  # checkers in hand long enough to be missing
        events.append(("hand", loc, delta, colour))
        have[side][loc] += delta
        r = rng.below(4)
        if r:  # the app's tick: before the deeper reading is due, or after it (or none: the next change came first)
            events.append(("tick", 5 if r == 1 else 25))
    events.append(("button", "DONE"))
    for _ in range(rng.below(3)):
        events.append(("button", "NEXT"))
    events.append(("button", "DONE"))
    return events


def hasty():
    """A controller whose quiet polls show the deeper reading of counts as soon as they make it (the firmware
    before issue 23's point 5): what it says hangs on how many polls ran, which ``check`` must catch."""
    from pipcore.controller import Controller

    class Hasty(Controller):
        def idle(self, prepare=True):
            tr = self.tracker
            if self.phase == MOVING and tr is not None and tr.deep is not None and tr.refine(bytes(self.sensed)):
                self._evaluate()
                return True
            return Controller.idle(self, prepare)

    return Hasty


def _start(pid, mover, dice, make=None):
    from pipcore.controller import Controller
    from pipcore.position import Position

    ctl = (make or Controller)(None, "backgammon")
    ctl.step(("load", pid, mover, dice), 0)
    counts = bytearray(NLOC)
    fill_counts(Position.from_id(pid), mover, counts, ctl.capacity)
    ctl.step(("board", bytes(counts)), 10)
    assert ctl.phase == MOVING, ctl.message
    return ctl, hands._per_colour(Position.from_id(pid), mover)


def verdict(ctl):
    """What the board says now (comparable with ==)."""
    wrong = 0
    for i in range(NLOC):
        if ctl.marks[i] == M_ERROR:
            wrong |= 1 << i
    out = (ctl.phase, ctl.message, wrong, ctl.display)
    if STRICT:
        out += (bytes(ctl.marks), bytes(ctl.mark_player))
    if ctl.phase not in (MOVING, PICK):
        out += (ctl.ref.position.position_id(), ctl.ref.turn, ctl.record_count)
    return out


def run(pid, mover, dice, events, polls, make=None):
    """Play ``events`` with ``polls(k)`` -> ``(how many, prepare)`` quiet polls after event ``k`` on a
    controller of class ``make`` (the firmware's by default); returns the verdicts after each event (and
    its polls)."""
    ctl, have = _start(pid, mover, dice, make)
    cap = ctl.capacity
    sensed = bytearray(NLOC)
    now = 10
    out = []
    for k in range(len(events)):
        ev = events[k]
        now += 50
        if ev[0] == "hand":
            loc, delta, colour = ev[1], ev[2], ev[3]
            side = 0 if colour == mover else 1
            if delta < 0 and not have[side][loc]:
                side = 1 - side  # (a wrong placement taken back: whichever colour is there)
                if not have[side][loc]:
                    out.append("nothing to lift")
                    continue
            have[side][loc] += delta
            for i in range(NLOC):
                c = have[0][i] + have[1][i]
                sensed[i] = c if c < cap[i] else cap[i]
            ctl.step(("board", bytes(sensed)), now)
        elif ev[0] == "pause":
            now += PAUSE_MS
            ctl.step(("tick",), now)
        elif ev[0] == "tick":
            now += ev[1] - 50
            ctl.step(("tick",), now)
        else:
            ctl.step(ev, now)
            if ctl.phase not in (MOVING, PICK):
                out.append(verdict(ctl))
                break
        n, prepare = polls(k)
        for _ in range(n):
            if not ctl.idle(prepare):
                break
        out.append(verdict(ctl))
    return out


def compare(name, pid, mover, dice, events, want, got):
    for k in range(len(want)):
        if k >= len(got) or got[k] != want[k]:
            raise AssertionError("%s,%d,%d,%d: %s differs after event %d %r of %r:\n  none: %r\n  %s: %r" % (
                pid, mover, dice[0], dice[1], name, k, events[k], events, want[k], name,
                got[k] if k < len(got) else None))
    if len(got) != len(want):
        raise AssertionError("%s,%d,%d,%d: %s ran %d events, not %d" % (pid, mover, dice[0], dice[1], name,
                                                                     len(got), len(want)))


def draw_polls(rng, n):
    """Quiet polls after each of ``n`` events: none, a few, or all of them; now and then none may prepare."""
    return [(rng.below(4) * rng.below(12) if rng.below(3) else ALL, rng.below(5) != 0) for _e in range(n)]


def _given(draws):
    return lambda k: draws[k]


def check(rng, pid, mover, dice, events=None, runs=1, make=None):
    """The runs with no, all, no-preparing and ``runs`` random quiet polls say the same; returns the
    verdicts (of the run without polls)."""
    if events is None:
        events = episode(rng, pid, mover, dice)
    none = run(pid, mover, dice, events, lambda k: (0, True), make)
    compare("all", pid, mover, dice, events, none, run(pid, mover, dice, events, lambda k: (ALL, True), make))
    compare("short heap", pid, mover, dice, events, none,
             run(pid, mover, dice, events, lambda k: (ALL, False), make))
    for _ in range(runs):
        compare("random", pid, mover, dice, events, none, run(pid, mover, dice, events,
                                                              _given(draw_polls(rng, len(events))), make))
    return none


def game_positions(rng, n):
    """``n`` rolls of random games from the start, played with random legal plays (the rules only):
    ``(pid, mover, dice)`` each."""
    from pipcore.position import Position
    from pipcore.rules import Turn

    out = []
    pos = Position.start()
    mover = 0
    while len(out) < n:
        a = 1 + rng.below(6)
        b = 1 + rng.below(6)
        turn = Turn(pos, (a, b))
        result = turn.result(turn.plays[rng.below(len(turn.plays))])
        if result != pos:  # (a roll that cannot move is not played by hand)
            out.append((pos.position_id(), mover, (a, b)))
        if result.me[0] == 15:
            pos = Position.start()
            mover = 0
            continue
        pos = result.swapped()
        mover = 1 - mover
    return out
