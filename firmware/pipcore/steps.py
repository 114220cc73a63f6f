"""Which single moves remain legal part-way through a turn (the board's view).

On the physical board the player moves checkers one at a time, in any order,
and the controller sees only positions. ``legal_steps(turn, position)``
answers, for whatever the checkers now show, which single moves
``(from, to, die)`` (``to`` 0 = off, ``from`` 25 = bar) still lead to a legal
play of ``turn``; ``None`` when ``position`` is not on the way to any legal
play (the controller then guides the player back). ``is_complete`` says
whether ``position`` is one of the legal results.

Positions are judged, not the order of moves: a position is on the way when
it is the start position plus some of the single moves of one legal play
(a multiset of moves that can be played legally in some order), applied in
any order the checkers physically allow. So bearing off first and bringing
the last outside checker home afterwards is fine when the two moves together
are a legal play. Hits count: the opponent's bar and blots must match too.

Doubles: every move uses the same die, so the multiset of source points is
fixed by the mover's net change (decoded from the bar down). Whether that
set plus one more move can grow into a legal play is decided from a few
order-free conditions (below); most answers come from a per-turn table of
how far each point can still move, and only bear-offs need a short search.
Non-doubles: the move made so far is read from the difference with the
start, and each candidate move of the other die is checked as a pair.

Cost, measured by ``make bench`` (tests/bench/bench_steps.py) over 100 rolls
including the slowest found: a call part-way through a turn takes at most
about 0.2-0.6 ms in WASM MicroPython (Pico estimate 4-12 ms, budget 20 ms),
median about 0.04 ms; the first call of a turn sets up the per-turn data
(at most about 0.8 ms WASM); at most 576 bytes of heap per call.
"""

from pipcore.position import BAR, CHECKERS
from pipcore.rules import _pack, apply_move



def legal_steps(turn, position, src=-1):
    """Single moves ``[(from, to, die), ...]`` still legal at ``position``, or None.

    Treat the list as read-only (non-doubles share it between calls). With ``src`` (a point) the
    moves from other points may be left out (doubles judge only ``src``'s: a lifted checker's
    targets ask for no more).
    """
    return _index(turn).steps(position, src)


def is_complete(turn, position):
    """True iff ``position`` is one of the turn's legal results."""
    return _index(turn).is_complete(position)


def code_for(turn, position):
    """The play code of ``turn`` whose result is ``position``, or None."""
    return _index(turn).code_for(position)


def index_of(turn):
    """The turn's step index (made at the first question): ``index_of(turn).steps(position, src)`` is
    ``legal_steps`` a frame higher on the Pico's 8 KB C stack (the roll's marks go through it)."""
    return _index(turn)


def _index(turn):
    try:  # (an attribute, not getattr with a name: the name is interned when this module loads)
        index = turn._steps_index
    except AttributeError:
        index = None
    if index is None:
        if turn.double:
            index = _Doubles(turn)
        else:
            index = _Mixed(turn)
        turn._steps_index = index
    return index


# -- doubles --------------------------------------------------------------
_OFF_PATH = -1  # decode(): not on the way to a legal play
_COMPLETE = -2  # decode(): a legal result

# What a set of moves S (all with die d) needs for S plus more moves to be a
# legal play, whatever the order on the board (RULES.md 1.7-1.10): every
# landing point open (openness never changes during a turn: hits only empty
# points), a checker on each source when played highest source first, all
# bar checkers entered before any other move counts (B1), and, for each
# bear-off, at the end of the play no checker outside the home board (E1)
# and, for a bear-off from p with a higher die, none above p (E3).


class _Doubles:
    """Per-turn data for doubles: static capacities and scratch arrays."""

    def __init__(self, turn):
        d = turn.high
        self.d = d
        self.n = turn.dice_used
        self.start = turn.position
        self.turn = turn
        o = turn.position.opp
        closed = bytearray(26)
        cap = bytearray(26)  # steps a checker could take from here without bearing off
        for q in range(1, 26):
            t = q - d
            if 1 <= t and o[25 - t] >= 2:
                closed[q] = 1  # the landing point of a move from q is closed
            elif t >= 1:
                cap[q] = 1 + cap[t]
        self.closed = closed
        self.cap = cap
        self.counts = bytearray(26)
        self.srcs = bytearray(4)  # sources of the moves made so far, highest first
        self.me = bytearray(26)
        self.opp = bytearray(26)
        # what decode() found about the moves made so far
        self.made = 0
        self.nonbar = False
        self.bear = False
        self.over = 0

    def decode(self, position):
        """Find the moves made so far; _OFF_PATH, _COMPLETE or how many were made."""
        d = self.d
        p0 = self.start.me
        pm = position.me
        total = count(self.counts, p0, pm, self.closed, self.srcs, d)
        if total < 0:
            return _OFF_PATH
        bear = total & 0x100 != 0
        over = total >> 9
        total &= 0xFF
        if total > self.n:
            return _OFF_PATH
        # replay them and compare whole positions (borne off, hits, opponent)
        me = self.me
        opp = self.opp
        me[:] = p0
        opp[:] = self.start.opp
        srcs = self.srcs
        for k in range(total):
            p = srcs[k]
            me[p] -= 1
            t = p - d
            if t > 0:
                me[t] += 1
                if opp[25 - t] == 1:
                    opp[25 - t] = 0
                    opp[BAR] += 1
            else:
                me[0] += 1
        if me != pm or opp != position.opp:
            return _OFF_PATH
        self.made = total
        self.nonbar = total > self.counts[BAR]
        self.bear = bear
        self.over = over
        if pm[0] == CHECKERS or (total == self.n and self._final_ok(pm, self.nonbar, bear, over)):
            return _COMPLETE
        if total == self.n:
            return _OFF_PATH
        return total

    def is_complete(self, position):
        return self.decode(position) == _COMPLETE

    def code_for(self, position):
        if self.decode(position) != _COMPLETE:
            return None
        # the play whose sources are the ones decoded (one play per multiset):
        # first the code the generator packs for them, checked; else a scan
        srcs = self.srcs
        made = self.made
        turn = self.turn
        guess = _pack(made, srcs[0] if made > 0 else 0, srcs[1] if made > 1 else 0,
                      srcs[2] if made > 2 else 0, srcs[3] if made > 3 else 0, 1)
        if turn.result(guess) == position:
            for code in turn.plays:  # (the plays are an array: no ``in`` on MicroPython)
                if code == guess:
                    return guess
        for code in turn.plays:
            moves = turn.moves(code)
            if len(moves) != made:
                continue
            sources = [m[0] for m in moves]
            sources.sort()
            same = True
            for i in range(made):
                if sources[made - 1 - i] != srcs[i]:
                    same = False
                    break
            if same:
                return code
        return None

    def steps(self, position, src=-1):
        made = self.decode(position)
        if made == _COMPLETE:
            return []
        if made == _OFF_PATH:
            return None
        d = self.d
        m = self.n - made - 1  # moves still to make after the next one
        me = self.me
        me[:] = position.me
        cap = self.cap
        closed = self.closed
        nonbar = self.nonbar
        bear = self.bear
        over = self.over
        capacity = 0  # (from the bar down, only until it passes ``m``: the one question asked of it)
        q = BAR
        while q and capacity <= m:
            if me[q]:
                capacity += me[q] * cap[q]
            q -= 1
        out = []
        s = BAR if src < 0 else src
        low = 1 if src < 0 else src
        while s >= low:
            if not me[s] or closed[s]:
                s -= 1
                continue
            t = s - d
            me[s] -= 1
            if t > 0:
                me[t] += 1
                # fast answer: no bear-off involved and room for the rest
                nonbar2 = nonbar or s != BAR
                if not bear and (not nonbar2 or me[BAR] <= m) and capacity - 1 >= m:
                    ok = True
                else:
                    ok = self._extends(me, m, nonbar2, bear, over)
                me[t] -= 1
            else:
                me[0] += 1
                ok = self._extends(me, m, True, True, s if s < d and (not over or s < over) else over)
                me[0] -= 1
                t = 0
            me[s] += 1
            if ok:
                out.append((s, t, d))
            s -= 1
        return out if out or src >= 0 else None

    def _final_ok(self, me, nonbar, bear, over):
        if nonbar and me[BAR]:
            return False
        if bear:
            for p in range(7 if not over else over + 1, BAR + 1):
                if me[p]:
                    return False
        return True

    def _extends(self, me, m, nonbar, bear, over):
        """Can ``m`` more moves (or the last checker off) finish a legal play?"""
        if me[0] == CHECKERS:
            return True
        if nonbar and me[BAR] > m:
            return False
        if bear:
            # each checker above the limit needs its own moves to get there
            limit = over if over else 6
            d = self.d
            need = 0
            for q in range(limit + 1, BAR + 1):
                if me[q]:
                    need += me[q] * ((q - limit + d - 1) // d)
            if need > m:
                return False
        return self._search(me, m, BAR, nonbar, bear, over)

    def _search(self, me, m, top, nonbar, bear, over):
        """Depth-first, highest source first, the rules checked move by move.

        Recursion: one level per move still to make (``m`` <= 3)."""
        if me[0] == CHECKERS:
            return True
        if m == 0:
            return self._final_ok(me, nonbar, bear, over)
        cap = self.cap
        if not bear:
            capacity = 0  # (from the bar down, only until it reaches ``m``)
            q = BAR
            while q and capacity < m:
                if me[q]:
                    capacity += me[q] * cap[q]
                q -= 1
            if capacity >= m and (not me[BAR] or cap[BAR]):
                return True
        d = self.d
        closed = self.closed
        s = BAR if me[BAR] else top
        low = BAR if me[BAR] else 1
        while s >= low:
            if me[s] and not closed[s]:
                t = s - d
                if t > 0:
                    me[s] -= 1
                    me[t] += 1
                    ok = self._search(me, m - 1, s, nonbar or s != BAR, bear, over)
                    me[t] -= 1
                    me[s] += 1
                    if ok:
                        return True
                elif _may_bear_off(me, s, t):
                    me[s] -= 1
                    me[0] += 1
                    ok = self._search(me, m - 1, s, True, bear, over)
                    me[0] -= 1
                    me[s] += 1
                    if ok:
                        return True
            s -= 1
        return False


try:  # a double's moves made, counted in native code where the port has it (``count``)
    from pipcore.native import count
except Exception:  # CPython, no native emitter, a .mpy for another CPU: the same in bytecode
    from pipcore.plain import count


def _may_bear_off(me, s, t):
    """E1 and E3 now: nothing outside home, and nothing above ``s`` unless exact."""
    for p in range(7, BAR + 1):
        if me[p]:
            return False
    if t < 0:
        for p in range(s + 1, 7):
            if me[p]:
                return False
    return True


# -- non-doubles ------------------------------------------------------------
class _Mixed:
    """Per-turn data for two different dice.

    A legal play is one or two single moves (O1, O2); two moves are a legal
    play iff they can be played highest source first. A position that differs
    from the start by one move ``m`` offers every move ``m2`` of the other die
    with ``{m, m2}`` legal; the start offers every move that belongs to some
    legal play (worked out on the first call, then kept).
    """

    def __init__(self, turn):
        self.turn = turn
        self.start = turn.position
        self.me = bytearray(26)
        self.opp = bytearray(26)
        self.first = None  # steps at the start position, once asked
        self.results = None  # {result key: play code}, once needed
        # one die only (O2): the die every legal play uses
        self.single = turn.moves(turn.plays[0])[0][2] if turn.dice_used == 1 else 0

    def is_complete(self, position):
        turn = self.turn
        start = self.start
        if position.me == start.me and position.opp == start.opp:
            return turn.dice_used == 0
        if turn.dice_used == 2:
            moved = self._one_move(position)
            if moved >= 0:
                s = moved >> 5
                t = moved & 31
                if t and (s - t == turn.high or s - t == turn.low):
                    return False  # one die played: a second must follow
        return self.code_for(position) is not None

    def code_for(self, position):
        if self.results is None:
            turn = self.turn
            results = {}
            for code in turn.plays:
                results[turn.result(code).key()] = code
            self.results = results
        return self.results.get(position.key())

    def steps(self, position, src=-1):
        turn = self.turn
        start = self.start
        if position.me == start.me and position.opp == start.opp:
            if self.first is None:
                self.first = self._first_steps()
            return self.first
        out = []
        if turn.dice_used == 2:
            moved = self._one_move(position)
            if moved >= 0:
                s = moved >> 5
                t = moved & 31
                for d in (turn.high, turn.low):
                    if (t and s - t == d) or (not t and s <= d):
                        self._seconds(position, s, t, d, out)
        if out:
            return out
        return [] if self.is_complete(position) else None

    def _one_move(self, position):
        """``from * 32 + to`` if ``position`` is the start with one checker moved
        (hitting as it must), else -1."""
        s = -1
        t = -1
        p0 = self.start.me
        pm = position.me
        for p in range(BAR + 1):
            diff = pm[p] - p0[p]
            if not diff:
                continue
            if diff == -1 and s < 0 and p:
                s = p
            elif diff == 1 and t < 0 and p < BAR:
                t = p
            else:
                return -1
        if s < 0 or t < 0 or (t and t >= s) or not self._one_move_away(position, s, t):
            return -1
        return s * 32 + t

    def _one_move_away(self, position, s, t):
        """Is ``position`` the start with one checker moved s -> t (hitting as it must)?"""
        me = self.me
        opp = self.opp
        me[:] = self.start.me
        opp[:] = self.start.opp
        me[s] -= 1
        me[t] += 1
        if t and opp[25 - t] == 1:
            opp[25 - t] = 0
            opp[BAR] += 1
        return me == position.me and opp == position.opp

    def _first_steps(self):
        """Every single move of every legal play that can be made from the start."""
        turn = self.turn
        start = self.start
        out = []
        if turn.dice_used == 0:
            return out
        me = self.me
        opp = self.opp
        o = start.opp
        pos = start.copy()
        outside = 0
        for p in range(7, BAR + 1):
            outside += start.me[p]
        for d in (turn.high, turn.low):
            if self.single and d != self.single:
                continue
            for s in range(BAR, 0, -1):
                if not start.me[s]:
                    continue
                t = s - d if s > d else 0
                if t and o[25 - t] >= 2:
                    continue  # a closed point
                if not t and outside > 1:
                    continue  # the other die brings home one checker at most
                if s != BAR and start.me[BAR] > 1:
                    continue  # both dice must enter
                if self.single:
                    me[:] = start.me
                    opp[:] = o
                    if _play(me, opp, s, d) >= 0:
                        out.append((s, t, d))
                    continue
                pos.me[:] = start.me
                pos.opp[:] = o
                apply_move(pos, s, t)
                found = []
                self._seconds(pos, s, t, d, found, True)
                if found:
                    out.append((s, t, d))
        return out

    def _seconds(self, position, s, t, d, out, one=False):
        """Add the moves of the other die that make a legal play with ``s -> t`` (die d).

        A pair is legal iff it can be played highest source first from the start.
        """
        turn = self.turn
        d2 = turn.low if d == turn.high else turn.high
        me = self.me
        opp = self.opp
        me[:] = self.start.me
        opp[:] = self.start.opp
        pm = position.me
        # second moves from s or below: ``s -> t`` first
        r1 = _play(me, opp, s, d)
        if r1 >= 0:
            for s2 in range(s, 0, -1):
                if pm[s2]:
                    r2 = _play(me, opp, s2, d2)
                    if r2 >= 0:
                        _unplay(me, opp, s2, r2)
                        step = (s2, r2 & 31, d2)
                        if step not in out:
                            out.append(step)
                            if one:
                                return
            _unplay(me, opp, s, r1)
        # second moves from above s: they come first
        for s2 in range(BAR, s, -1):
            if pm[s2]:
                r2 = _play(me, opp, s2, d2)
                if r2 >= 0:
                    r1 = _play(me, opp, s, d)
                    if r1 >= 0:
                        _unplay(me, opp, s, r1)
                    _unplay(me, opp, s2, r2)
                    if r1 >= 0:
                        step = (s2, r2 & 31, d2)
                        if step not in out:
                            out.append(step)
                            if one:
                                return


def _play(me, opp, s, d):
    """Play die ``d`` from ``s`` on the arrays if the rules allow it now.

    Returns the target (0 = off), plus 32 when a blot was hit; -1 if illegal.
    """
    if not me[s] or (me[BAR] and s != BAR):
        return -1
    t = s - d
    if t >= 1:
        hit = opp[25 - t]
        if hit >= 2:
            return -1
        me[s] -= 1
        me[t] += 1
        if hit:
            opp[25 - t] = 0
            opp[BAR] += 1
            return t + 32
        return t
    for p in range(7, BAR + 1):
        if me[p]:
            return -1
    if t < 0:
        for p in range(s + 1, 7):
            if me[p]:
                return -1
    me[s] -= 1
    me[0] += 1
    return 0


def _unplay(me, opp, s, played):
    """Undo ``_play`` given what it returned."""
    t = played & 31
    me[s] += 1
    if t:
        me[t] -= 1
        if played & 32:
            opp[25 - t] = 1
            opp[BAR] -= 1
    else:
        me[0] -= 1
