"""Backgammon with the Caucasian restriction and the jail bear-off clause.

RULES.md section 3: with ``caucasian`` a checker that hits (on the mover's
points 1-6, or anywhere with ``scope = "board"``) is *marked* for the rest of
the turn and may not land on a point that already holds the mover's own
checkers (C1-C5); with ``jail`` a checker that hits on points 1-6 may not be
borne off that turn, nor may any checker from a point where such a hit
happened (J1, J2). Both remove single moves before the obligation rules
O1/O2 choose among complete plays.

``Turn`` offers the interface of ``pipcore.rules.Turn``: ``plays`` (play
codes, ``pipcore.playcodes``), ``dice_used``, ``moves``, ``result``,
``results``, ``result_for``, ``steps`` and ``is_complete``. When no hit can
mark a checker this turn the rules are those of standard backgammon, and
``pipcore.variants.make_turn`` uses the plain generator instead
(``restriction_possible``).

Why the shortcuts below are exact (the result of a play is fixed by the
multiset of its single moves, so a play is legal when *some* order of its
moves and *some* choice of which checker makes each move obeys the rules):

* **Non-doubles** have two single moves. Nothing restricts the first (no
  checker is marked yet); a checker that hits on ``t`` stands there *alone*
  (``t`` held an opponent blot), so the second move is the marked checker's
  exactly when it starts from ``t``. Both dice orders are tried, as in
  ``pipcore.rules``, and the same table drops repeated results.
* **Doubles** are searched like ``pipcore.rules``: sources in non-increasing
  order, one node per multiset of moves. In that order every checker that
  will ever stand on a point has arrived before the first one leaves it, so
  each node carries the few *mark states* (where the marked checkers stand)
  that some choice of movers reaches; the node is legal when one survives.
  The only thing that order cannot do is let a point's checkers leave
  *before* a marked checker lands there (C2 needs the point empty). Such a
  landing is kept as a *debt*: the checkers standing there must all leave
  later in the play. A play reached only through paid debts is checked
  exactly by trying every order of its (at most four) moves (``_exact``),
  which is rare; unpaid debts or a jailed bear-off (J1) drop the state, and
  J2 (a bear-off from a point where a hit happened) depends on the multiset
  only. Dice used (O1) follow: the most moves of any legal multiset, a play
  that bears off the last checker counting as all four.

Most of the cost is calls and loops, not the rules: MicroPython puts the
frame of a function with more than about 11 locals and stack slots on the
heap, and in a fragmented heap such a call costs far more than its work. So
the search of a double is one loop (``_explore``, per-depth arrays instead of
a call per node), the hot paths are written in line, and the plain third and
fourth moves run in native code where the port has it (``pipcore.caunative``).
The figures, before and after each step: tests/bench/README.md, "Caucasian".
The first generator
(a breadth-first search over whole-board states with marks, kept in
tests/caucasian_reference.py for the differential tests) took 140 ms median,
up to 1.1 s and ~460 KB. ``steps`` at the start of a double is answered from
the plays (the first call also groups them by their first three sources);
later calls scan the groups. Non-doubles list their legal ways (pairs of
moves) and results on the first call.
"""

from pipcore.compat import const
from pipcore.names import ConfigError
from pipcore.causteps import ExactAndSteps, _remark
from pipcore.playcodes import PlayList
from pipcore.position import BAR, CHECKERS
from pipcore.rules import _may_move, _occupied_above, _repeats, apply_move, check_dice

try:  # a double's plain third and fourth moves in native code where the port has it (pipcore.caunative)
    from pipcore.caunative import extend, thirds
except Exception:  # CPython, no native emitter, a .mpy for another CPU: the loops in ``_explore``
    extend = thirds = None

_HIGH_FIRST = const(1 << 23)  # play-code bit: the high die went first (always set for doubles)
# A mark state is one small int: four 6-bit slots, sorted high to low, each
# ``point | _JAILED`` of a marked checker (0 = empty slot).
_JAILED = const(32)  # the checker hit on points 1-6 (jail applies); else only on points 7-24 / entry
# A debt state: two 8-bit slots ``point | count << 5`` (checkers that must
# leave ``point`` before a marked checker lands there) and _OWED.
_OWED = const(1 << 16)  # a marked checker landed on own checkers: exact check needed
_SLOTS = const(0xFFFF)


def restriction_possible(position, caucasian=True, scope="home", jail=False, dice=None):
    """Could a hit this turn mark a checker that still has a move to make
    after it? If not, the standard rules give the same plays.

    With ``dice`` the hit must be in reach of some checker before the last
    die of the turn (one die of a non-double; one to three of a double).
    """
    opp = position.opp
    me = position.me
    wide = caucasian and scope == "board"
    if dice is None:
        reach = None
    else:
        high, low = check_dice(dice)
        reach = (high, 2 * high, 3 * high) if high == low else (high, low)
    for t in range(1, 25):
        if opp[25 - t] == 1 and (t <= 6 or wide):
            if reach is None:
                return True
            for r in reach:
                if t + r <= 25 and me[t + r]:
                    return True
    return False


def _marked_at(marks, s):
    """Marked checkers on ``s``: plain-marked count + 8 * jailed count."""
    n = 0
    while marks:
        v = marks & 63
        if v & 31 == s:
            n += 8 if v & _JAILED else 1
        marks >>= 6
    return n


def _owe(debts, t, count):
    """A marked checker landed on ``count`` own checkers on ``t``: they must leave first.

    A third debt is not kept (the exact check still decides the play)."""
    debts |= _OWED
    if count > 7:
        count = 7  # more than seven cannot leave in four moves anyway
    if not debts & 255:
        return debts | t | count << 5
    if not debts & 0xFF00:
        return debts | (t | count << 5) << 8
    return debts


class Turn(ExactAndSteps, PlayList):
    """The legal plays of one roll under the Caucasian and/or jail options."""

    _apply_move = staticmethod(apply_move)

    def __init__(self, position, dice, caucasian=True, scope="home", jail=False):
        if scope not in ("home", "board"):
            raise ConfigError("caucasianScope must be 'home' or 'board', not %r" % (scope,))
        self.position = position
        self.high, self.low = check_dice(dice)
        self.double = self.high == self.low
        self.caucasian = bool(caucasian)
        self.scope = scope
        self.jail = bool(jail)
        self._wide = self.caucasian and scope == "board"
        self.dice_used = 0
        self.plays = []
        self._ways = None  # non-doubles: the legal ways to play, listed by the first steps()
        self._first = None  # doubles: the steps at the start, once asked
        self._results = None  # non-doubles: {result key: play code}, once asked
        self._tops = self._lasts = self._reach = None  # doubles: the plays grouped for steps(), by the first call
        self._seen = None
        if self.double:
            self._generate_double()
        else:
            self._generate_mixed()

    # -- non-doubles --------------------------------------------------------
    def _generate_mixed(self):
        hi = self.high
        lo = self.low
        m = bytearray(self.position.me)
        o = self.position.opp
        caucasian = self.caucasian
        jail = self.jail
        wide = self._wide
        plays = self.plays
        outside = 0
        for s in range(7, 26):
            outside += m[s]
        seen = bytearray(676)  # seen[a * 26 + b]: legal, high die from a, low die from b
        first_hi = 0
        first_lo = 0
        for order in range(2):
            if order == 0:
                d1 = hi
                d2 = lo
                high_first = _HIGH_FIRST
            else:
                d1 = lo
                d2 = hi
                high_first = 0
            bar1 = m[BAR]
            s = BAR if bar1 else 24
            while s >= 1:
                if m[s] and _may_move(m, o, s, d1, outside):
                    t = s - d1
                    if order == 0:
                        first_hi |= 1 << s
                    else:
                        first_lo |= 1 << s
                    m[s] -= 1
                    hide = False  # the hitter on t may not land on own checkers (C2)
                    jailed = False  # the hitter on t may not bear off (J1, J2)
                    if t >= 1:
                        m[t] += 1
                        out1 = outside - 1 if s > 6 and t <= 6 else outside
                        if o[25 - t] == 1:
                            hide = caucasian and (t <= 6 or wide)
                            jailed = jail and t <= 6
                    else:
                        t = 0
                        m[0] += 1
                        out1 = outside
                    # Bearing off the last checker with one die is a one-die
                    # play: O1 still prefers any play that uses both dice
                    # (as gnubg and rules.Turn do), e.g. 6/3*/off over 6/off.
                    if m[0] != CHECKERS:
                        bar2 = m[BAR]
                        s2 = BAR if bar2 else 24
                        while s2 >= 1:
                            if m[s2]:
                                t2 = s2 - d2
                                if t2 >= 1:
                                    ok = o[25 - t2] < 2 and not (hide and s2 == t and m[t2])
                                else:
                                    ok = (not out1 and (t2 == 0 or not _occupied_above(m, s2))
                                          and not (jailed and s2 == t))
                                if ok:
                                    if order == 0:
                                        a = s
                                        b = s2
                                    else:
                                        a = s2
                                        b = s
                                    key = a * 26 + b
                                    if not seen[key]:
                                        seen[key] = 1
                                        if not _repeats(seen, o, a, b, hi, lo):
                                            plays.append(2 | (s << 3) | (s2 << 8) | high_first)
                            if bar2:
                                break
                            s2 -= 1
                    if t:
                        m[t] -= 1
                    else:
                        m[0] -= 1
                    m[s] += 1
                if bar1:
                    break
                s -= 1
        self._seen = seen
        if plays:
            self.dice_used = 2
            return
        # one die only: the higher one if it can move at all (O2); nothing restricts a first move
        if first_hi:
            sources = first_hi
            high_first = _HIGH_FIRST
        else:
            sources = first_lo
            high_first = 0
        for s in range(BAR, 0, -1):
            if sources >> s & 1:
                plays.append(1 | (s << 3) | high_first)
        if plays:
            self.dice_used = 1
        else:
            plays.append(0)

    # -- doubles ----------------------------------------------------------------
    def _generate_double(self):
        d = self.high
        me = self.position.me
        o = self.position.opp
        m = bytearray(me)
        self._m = m
        # blot[t]: a hit on t marks the hitter (C1, or J1 with jail); other
        # blots change nothing for these rules and count as empty points
        blot = bytearray(26)
        for t in range(1, 25):
            if o[25 - t] == 1 and ((t <= 6 and (self.caucasian or self.jail)) or self._wide):
                blot[t] = 1
        self._blot = blot
        # candidate sources, high to low: points a checker may leave with d
        # (landing open) that hold a checker or can receive one this turn
        cand = bytearray(25)
        n = 0
        reach = 0
        outside = 0
        for s in range(BAR, 0, -1):
            if s > 6:
                outside += m[s]
            if not (m[s] or reach >> s & 1):
                continue
            t = s - d
            if t >= 1:
                if o[25 - t] < 2:
                    cand[n] = s
                    n += 1
                    reach |= 1 << t
            elif not (self.jail and blot[s] and s <= 6):  # J2: never off from a point hit on
                cand[n] = s
                n += 1
        self._cand = cand
        self._n = n
        moving = n
        while moving and cand[moving - 1] <= d:
            moving -= 1
        self._moving = moving  # cand[:moving] land on a point, cand[moving:n] bear off
        # mark and debt states per depth (preallocated, reused)
        self._mk = [[0] * 8 for _ in range(5)]
        self._db = [[0] * 8 for _ in range(5)]
        self._ns = bytearray(5)
        self._ns[0] = 1
        self._last = [s << 18 for s in cand]
        self._memo = {}  # _exact: reduced play -> legal
        self._explore(outside)
        del self._m, self._mk, self._db, self._ns, self._memo, self._last
        if self._best <= 0 or not self.plays:
            self.plays = [0]
            self._best = 0
        self.dice_used = self._best

    def _explore(self, outside):
        """Every play of the double: its moves from ``cand`` in non-increasing
        order, one level of the search per move (``depth`` 0..3).

        One loop, not a call per level: the levels' states are per depth
        already (``_mk``, ``_db``, ``_ns``), and where each level's loop
        stands, its code and its ``outside`` are kept in ``at``, ``codes`` and
        ``outs``. Measured (callgrind, unix MicroPython): a call per node put
        this 40-local frame on the heap 100-140 times per generation;
        bwyGgKBSVSYqAA 1-1 8.19 -> 7.47 M instructions per generation."""
        m = self._m
        cand = self._cand
        n = self._n
        d = self.high
        blot = self._blot
        plays = self.plays
        append = plays.append  # bound once
        last = self._last  # cand[j] << 18: the fourth move's field
        moving = self._moving
        caucasian = self.caucasian
        jail = self.jail
        mks = self._mk
        dbs = self._db
        nss = self._ns
        # per depth: its states, the next depth's, the shift of its move's field (one unpacking per level entered)
        levels = [(mks[k], dbs[k], mks[k + 1], dbs[k + 1], 3 + 5 * k) for k in range(4)]
        native = extend  # pipcore.caunative's, or None
        run = thirds if native is not None else None
        bar_point = BAR  # (a local: an imported name is looked up on every use)
        all_off = CHECKERS
        best = 0  # the most moves of a play found so far (self._best around _last_moves)
        at = bytearray(3)  # per level above the current one: the candidate it moved
        codes = [0, 0, 0]  # ... its code before that move
        outs = bytearray(3)  # ... and its outside
        depth = 0
        i0 = 0
        code = _HIGH_FIRST
        while True:
            # enter level ``depth`` (or come back to it) at candidate i0
            mk, db, mk2, db2, shift = levels[depth]
            ns = nss[depth]
            nd = depth + 1
            single = ns == 1 and not db[0]  # one way of marking so far, owing nothing
            marks = mk[0]
            at_points = 0  # bit p set for each point p that holds a marked checker
            v = marks
            while v:
                at_points |= 1 << (v & 31)
                v >>= 6
            stop = n
            if m[bar_point]:  # B1: nothing moves while a checker is on the bar
                stop = 1 if cand[0] == bar_point else 0
            # the third move of one state owing nothing, four moves already found: the
            # usual case (below, in line), measured 9.03M -> 7.48M instructions per
            # generation for 3h6AiICKNFWqAA 1-1 (1528 plays)
            fast = nd == 3 and single and stop == n and best == 4
            done = 0  # with ``fast``, the candidates before it were moved natively (``thirds``)
            for i in range(i0, stop):
                s = cand[i]
                if not m[s]:
                    continue
                if fast and i < moving:  # a plain checker lands (no hit) and nothing bears off after
                    if i < done:
                        continue  # made by thirds
                    if run is not None:  # the plain third moves from here on, natively
                        done = run(m, cand, blot, i, moving, code | 4, plays, marks, d, outside, caucasian)
                        if done > i:
                            continue  # (else i is not plain: the general path below)
                    else:
                        t = s - d
                        if not at_points >> s & 1 and (m[t] or not blot[t]):
                            out = outside - 1 if s > 6 and t <= 6 else outside
                            if out:
                                c = code | (s << shift) | 4
                                if not at_points:  # m as before s -> t: s has one checker less, t one more
                                    if m[s] > 1:
                                        append(c | last[i])
                                    for j in range(i + 1, moving):
                                        s2 = cand[j]
                                        if m[s2] or s2 == t:
                                            append(c | last[j])
                                    continue
                                m[s] -= 1
                                m[t] += 1
                                for j in range(i, moving):
                                    s2 = cand[j]
                                    if m[s2]:
                                        if at_points >> s2 & 1 and caucasian and m[s2 - d]:
                                            v = marks  # the marked checkers on s2
                                            marked = 0
                                            while v:
                                                if v & 31 == s2:
                                                    marked += 1
                                                v >>= 6
                                            if m[s2] <= marked:
                                                continue  # C2
                                        append(c | last[j])
                                m[t] -= 1
                                m[s] += 1
                                continue
                t = s - d
                if t < 1:
                    if outside or (t < 0 and _occupied_above(m, s)):
                        continue
                    t = 0
                if nd == 4:
                    # The last move from several states: only whether one of them allows
                    # it, owing nothing (or only paid debts, and the exact check agrees).
                    # No child state is made: measured, the general path through
                    # _children took 13% of PwCeICA1VUJJAQ 1-1's generation, and a call
                    # here another 4%.
                    hide = t and caucasian and m[t]  # a marked checker landing here would owe (C2): never paid
                    maybe = False
                    for j in range(ns):
                        debts = db[j]
                        k1 = 0  # marked checkers on s: plain-marked, jailed
                        k2 = 0
                        v = mk[j]
                        while v:
                            if v & 31 == s:
                                if v & _JAILED:
                                    k2 += 1
                                else:
                                    k1 += 1
                            v >>= 6
                        if not (m[s] > k1 + k2 or (not hide and (k1 or (k2 and (t or not jail))))):
                            continue  # only marked checkers here; each would hide (C2) or is a jailed hitter (J1)
                        if debts & _SLOTS:  # the checker leaves s: one less owed there
                            if debts & 31 == s:
                                v = (debts & 255) - 32
                                debts = (debts & ~255) | (v if v >= 32 else 0)
                            elif debts >> 8 & 31 == s:
                                v = (debts >> 8 & 255) - 32
                                debts = (debts & ~0xFF00) | ((v if v >= 32 else 0) << 8)
                        if not debts:
                            break
                        if not debts & _SLOTS:
                            maybe = True
                    else:
                        if not maybe or not self._exact(code | (s << shift) | 4):
                            continue
                    if best < 4:
                        best = 4
                        del plays[:]
                    append(code | (s << shift) | 4)
                    continue
                hit = blot[t] and not m[t]
                if single and not at_points >> s & 1:  # one state, a plain checker moves: _children in line
                    if not hit:
                        mk2[0] = marks  # no hit: the usual case
                    elif marks:
                        mk2[0] = _remark(marks, 0, t | _JAILED if t <= 6 else t)  # it hits: marked (C1, J1)
                    else:
                        mk2[0] = t | _JAILED if t <= 6 else t
                    db2[0] = 0
                    k = 1
                else:
                    k = 0
                    for j in range(ns):
                        k = self._children(mk[j], db[j], s, t, hit, mk2, db2, k)
                    if not k:
                        continue
                nss[nd] = k
                m[s] -= 1
                m[t] += 1
                c = code | (s << shift)
                length = 4 if m[0] == all_off else nd
                if length >= best:
                    legal = True
                    if db2[0]:  # _legal in line: a state owing nothing, or one whose debts were paid and an exact check
                        legal = False
                        for j in range(k):
                            if not db2[j]:
                                legal = True
                                break
                            if not db2[j] & _SLOTS:
                                legal = None
                        if legal is None:
                            legal = self._exact(c | nd)
                    if legal:
                        if length > best:
                            best = length
                            del plays[:]
                        append(c | nd)
                if nd < 4 and m[0] < all_off:
                    out = outside - 1 if s > 6 and 1 <= t <= 6 else outside
                    if nd == 3 and k == 1 and not db2[0]:  # the fourth move, one mark state
                        after = mk2[0]
                        if after == marks:
                            points = at_points
                        else:
                            points = 0  # its points, as at_points
                            v = after
                            while v:
                                points |= 1 << (v & 31)
                                v >>= 6
                        if out and not m[bar_point] and best == 4:
                            # _last_moves in line for the usual case (nothing bears off, no bar):
                            # each open candidate holding a checker is one play, unless only
                            # marked checkers stand there and it would hide (C2)
                            c |= 4
                            if native is not None:
                                native(m, cand, i, moving, c, plays, after if caucasian else 0, d)
                            elif not points:
                                for j in range(i, moving):
                                    if m[cand[j]]:
                                        append(c | last[j])
                            else:
                                for j in range(i, moving):
                                    s2 = cand[j]
                                    if m[s2]:
                                        if points >> s2 & 1 and caucasian and m[s2 - d]:
                                            v = after  # _marked_at in line: the marked checkers on s2
                                            marked = 0
                                            while v:
                                                if v & 31 == s2:
                                                    marked += 1
                                                v >>= 6
                                            if m[s2] <= marked:
                                                continue
                                        append(c | last[j])
                        else:
                            self._best = best
                            self._last_moves(i, c | 4, 18, out, after, points)
                            best = self._best
                    else:  # one level down, from this candidate on
                        at[depth] = i
                        codes[depth] = code
                        outs[depth] = outside
                        depth = nd
                        i0 = i
                        code = c
                        outside = out
                        break
                m[t] -= 1
                m[s] += 1
            else:  # this level is done: back to the one above, its move undone, or the search is over
                if not depth:
                    break
                depth -= 1
                i = at[depth]
                code = codes[depth]
                outside = outs[depth]
                s = cand[i]
                t = s - d
                if t < 1:
                    t = 0
                m[t] -= 1
                m[s] += 1
                i0 = i + 1
        self._best = best

    def _last_moves(self, i0, code, shift, outside, marks, at_points):
        """Record every legal last move (the fourth) from ``cand[i0:]`` for one
        debt-free mark state (``at_points``: a bit per point holding a marked checker):
        a move no rule restricts, or a marked checker's that neither hides
        (C2) nor bears a jailed hitter off (J1).

        Used for the fourth move when something may bear off or a checker is
        on the bar; the usual fourth moves are made in line in _explore.
        Measured (unix MicroPython, GOAfBImULDEWCg 1-1 board scope, 920
        plays): the loops below, with the bar and bear-off tests taken out of
        the common case, cut the generation from 1480 to 1100 us."""
        m = self._m
        cand = self._cand
        plays = self.plays
        k0 = len(plays)
        append = plays.append
        end = self._moving  # candidates before it land on a point; the rest bear off
        if m[BAR]:  # B1: only the bar checker may move
            end = i0 + 1 if i0 < end and cand[i0] == BAR else i0
        if i0 < end:
            d = self.high
            if at_points:
                for i in range(i0, end):
                    s = cand[i]
                    if m[s]:
                        if at_points >> s & 1 and self.caucasian and m[s - d]:
                            at = _marked_at(marks, s)
                            if m[s] <= (at & 7) + (at >> 3):  # only marked checkers here: C2
                                continue
                        append(code | (s << shift))
            else:
                for i in range(i0, end):
                    if m[cand[i]]:
                        append(code | (cand[i] << shift))
        if not outside and not m[BAR]:
            self._last_bear_offs(i0 if i0 > end else end, code, shift, marks, at_points)
        if len(plays) > k0 and self._best < 4:
            self._best = 4
            del plays[:k0]

    def _last_bear_offs(self, i0, code, shift, marks, at_points):
        m = self._m
        cand = self._cand
        d = self.high
        for i in range(i0, self._n):
            s = cand[i]
            if not m[s] or (s < d and _occupied_above(m, s)):
                continue
            if at_points >> s & 1 and self.jail:
                at = _marked_at(marks, s)
                if m[s] <= (at & 7) + (at >> 3) and not at & 7:  # only jailed hitters here: J1
                    continue
            self.plays.append(code | (s << shift))

    def _children(self, marks, debts, s, t, hit, mk2, db2, k):
        """Add the states after a move s -> t from state (marks, debts) to mk2/db2[k:]; new k.

        _marked_at and _pay are in line (a call costs more than their loops)."""
        m = self._m
        k1 = 0  # marked checkers on s: plain-marked, jailed
        k2 = 0
        v = marks
        while v:
            if v & 31 == s:
                if v & _JAILED:
                    k2 += 1
                else:
                    k1 += 1
            v >>= 6
        if debts & _SLOTS:  # a checker leaves s, whichever it is: one less owed there
            if debts & 31 == s:
                v = (debts & 255) - 32
                debts = (debts & ~255) | (v if v >= 32 else 0)
            elif debts >> 8 & 31 == s:
                v = (debts >> 8 & 255) - 32
                debts = (debts & ~0xFF00) | ((v if v >= 32 else 0) << 8)
        hide = t and self.caucasian and m[t]  # a marked checker landing here owes (C2)
        for kind in range(3):
            if kind == 0:
                if m[s] <= k1 + k2:
                    continue
            elif kind == 1:
                if not k1:
                    continue
            elif not k2 or (not t and self.jail):
                continue  # J1: the jailed hitter stays on the board
            new_debts = _owe(debts, t, m[t]) if kind and hide else debts  # C2 unless these leave first
            after = kind
            if hit:
                if t <= 6:
                    after = 2
                elif not kind:
                    after = 1
            new_marks = marks
            if kind or after:
                new_marks = _remark(marks, (s | _JAILED if kind == 2 else s) if kind else 0,
                                    (t | _JAILED if after == 2 else t) if (after and t) else 0)
            # the same marks owing nothing dominate the same marks owing something
            dup = False
            for j in range(k):
                if mk2[j] == new_marks:
                    if not db2[j] or db2[j] == new_debts:
                        dup = True
                        break
                    if not new_debts:
                        db2[j] = 0
                        dup = True
                        break
            if dup:
                continue
            if k < len(mk2):
                mk2[k] = new_marks
                db2[k] = new_debts
            else:
                mk2.append(new_marks)
                db2.append(new_debts)
            k += 1
        return k
