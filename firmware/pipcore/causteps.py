"""A Caucasian turn checked exactly, and read by hands: part of ``pipcore.caucasian.Turn``.

``ExactAndSteps`` holds what the generator's search leaves to a slower path:
the exact check of a play whose marked checkers landed on their own side
(every order of its moves and every choice of movers, ``_exact``), and the
single moves still to make part-way through the turn (``steps``: the board's
guidance as hands move), and the play a position hands made stands for
(``result_for``). ``pipcore.caucasian`` has the rules and the
generator; the mark states (``_remark``) are shared by both.
"""

from pipcore.compat import const
from pipcore.position import BAR, CHECKERS
from pipcore.rules import _occupied_above, apply_move

# The same values as pipcore.caucasian's (MicroPython inlines only a module's own private constants;
# tests/mp/test_caucasian.py checks they agree).
_HIGH_FIRST = const(1 << 23)  # play-code bit: the high die went first (always set for doubles)
_JAILED = const(32)  # a mark's flag: the checker was hit on points 1-6 (jail applies)


def _remark(marks, old, new):
    """Replace the slot ``old`` by ``new`` (old 0: add; new 0: drop), keep the slots sorted."""
    if marks < 64:  # at most one mark (the usual case): nothing to sort
        if old:  # the marked checker moves on
            return new
        return new | marks << 6 if new > marks else marks | new << 6
    a = marks & 63
    b = marks >> 6 & 63
    c = marks >> 12 & 63
    d = marks >> 18 & 63
    if not old:
        d = new  # the smallest slot is free: at most four marks in a turn
    elif a == old:
        a = new
    elif b == old:
        b = new
    elif c == old:
        c = new
    else:
        d = new
    if a < b:
        a, b = b, a
    if c < d:
        c, d = d, c
    if a < c:
        a, c = c, a
    if b < d:
        b, d = d, b
    if b < c:
        b, c = c, b
    return a | b << 6 | c << 12 | d << 18


class ExactAndSteps:
    """The exact check and the step tables of ``pipcore.caucasian.Turn`` (see there)."""

    def _exact(self, code):
        """Try every order of the play's moves and every choice of movers (rare).

        A move that shares no point with the others (no other move leaves or
        lands on its source or its landing), hits nothing, in a play that bears
        nothing off with no checker on the bar, can be made first and changes
        nothing for the others: it is left out, and the answer for the rest is
        kept for the plays that share it (``_memo``: GOAfBImULDEWCg 1-1, 23
        checks of 4 moves become 4 checks of 3)."""
        n = code & 7
        d = self.high
        if not self.position.me[BAR]:
            srcs = 0  # a bit per source
            twice = 0  # a bit per source of two moves or more
            low = 0
            v = code >> 3
            for i in range(n):
                low = v & 31  # non-increasing: the last is the lowest
                v >>= 5
                twice |= srcs & (1 << low)
                srcs |= 1 << low
            if low > d:  # nothing borne off
                blot = self._blot
                shared = twice | srcs >> d | srcs << d  # sources of two moves, or d from another source
                rest = 0
                kept = 0
                v = code >> 3
                for i in range(n):
                    s = v & 31
                    v >>= 5
                    if shared >> s & 1 or blot[s - d]:
                        rest |= s << (3 + 5 * kept)
                        kept += 1
                if kept < n:
                    if not kept:
                        return True
                    code = rest | kept
                    n = kept
                    if code in self._memo:
                        return self._memo[code]
        m = bytearray(self.position.me)
        outside = sum(m[7:])  # the checkers outside the home board (and on the bar)
        ok = self._exact_from(m, code, (1 << n) - 1, 0, 0, outside)
        if code & _HIGH_FIRST == 0:  # a reduced play (full codes carry the bit)
            self._memo[code] = ok
        return ok

    def _exact_from(self, m, code, left, marks, hits, outside):
        """Can the moves of ``code`` still to make (bit i of ``left``: move i) all be made?

        Recursion: one level per move of the play (at most four)."""
        d = self.high
        blot = self._blot
        tried = 0
        bar = m[BAR]
        i = 0
        while left >> i:
            if not left >> i & 1:
                i += 1
                continue
            s = code >> (3 + 5 * i) & 31
            rest = left & ~(1 << i)
            i += 1
            if tried >> s & 1 or not m[s] or (bar and s != BAR):
                continue
            tried |= 1 << s
            t = s - d
            if t < 1:
                if outside or (t < 0 and _occupied_above(m, s)):
                    continue
                t = 0
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
            hit = blot[t] and not hits >> t & 1
            hide = t and self.caucasian and m[t]  # a marked checker may not land here (C2)
            out = outside - 1 if s > 6 and t <= 6 else outside
            for kind in range(3):
                if kind == 0:
                    if m[s] <= k1 + k2:
                        continue
                elif hide:
                    break
                elif kind == 1:
                    if not k1:
                        continue
                elif not k2 or (not t and self.jail):
                    continue  # J1: the jailed hitter stays on the board
                if not rest:
                    return True
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
                m[s] -= 1
                m[t] += 1
                ok = self._exact_from(m, code, rest, new_marks, hits | (1 << t if hit else 0), out)
                m[t] -= 1
                m[s] += 1
                if ok:
                    return True
        return False

    # -- the board's view: positions part-way through the turn ------------------

    def _made(self, position):
        """For a double: the code of the moves that lead from the start to
        ``position`` (sources high to low), or -1 if no set of moves does."""
        d = self.high
        p0 = self.position.me
        pm = position.me
        counts = bytearray(BAR + d + 1)
        total = 0
        code = _HIGH_FIRST
        pos = self.position.copy()
        for p in range(BAR, 0, -1):
            c = counts[p + d] - pm[p] + p0[p]
            if c < 0 or c > 4:
                return -1
            counts[p] = c
            for _ in range(c):
                if total == 4:
                    return -1
                code |= p << (3 + 5 * total)
                total += 1
                apply_move(pos, p, p - d if p > d else 0)
        if pos.me != pm or pos.opp != position.opp:
            return -1
        return code | total

    def is_complete(self, position):
        """True when ``position`` is the result of a legal play of this turn."""
        return self.result_for(position) is not None

    def result_for(self, position):
        """The play code whose result is ``position``, or None."""
        if not self.dice_used:
            return 0 if position == self.position else None
        if not self.double:
            if self._results is None:  # a non-double has few plays: {result key: code}, once asked
                self._results = {}
                for code in self.plays:
                    self._results[self.result(code).key()] = code
            return self._results.get(position.key())
        code = self._made(position)
        return code if code > 0 and code in self.plays else None

    def steps(self, position):
        """Single moves ``[(from, to, die), ...]`` still to make at ``position``,
        reached part-way through this turn; None when ``position`` is not on
        the way to a legal play, ``[]`` when it is a legal result.

        As for standard backgammon (``pipcore.steps``) positions are judged,
        not the order: ``position`` is on the way when it is the start plus
        some of the single moves of one legal way to play (legal with the
        marks of C1-C5 and J1-J2), made in any order the checkers allow.
        """
        if self.double:
            return self._double_steps(position)
        out = self._mixed_steps(position)
        if out:
            return out
        return [] if self.is_complete(position) else None

    def _double_steps(self, position):
        """A double's plays are multisets of sources: the next steps at
        ``position`` are the sources some legal play has beyond the ones made.

        The plays come from a search in non-increasing order, so the plays that
        share their first three sources stand together: the first call groups
        them (``_tops``: those three sources; ``_lasts``: a bit per fourth
        source; ``_reach``: a bit per source of the group), and each call makes
        one pass over the groups (a third of the plays), stopping once every
        checker that could move is offered. Measured (unix MicroPython,
        callgrind), a call part-way: 1.08-1.44 M instructions -> 0.45-0.54 M.
        """
        if not self.dice_used:
            return [] if position == self.position else None
        if self._tops is None:
            self._group()
        made = self._made(position)
        if made < 0:
            return None
        n = made & 7
        pm = position.me
        if n >= self.dice_used or pm[0] == CHECKERS:
            # only a play's result (plays have dice_used moves, or bear the last checker off)
            return [] if made in self.plays else None
        if not n and self._first is not None:
            return list(self._first) if self._first else None
        d = self.high
        movable = 0  # points holding a checker that some play moves with d
        cand = self._cand
        for i in range(self._n):
            if pm[cand[i]]:
                movable |= 1 << cand[i]
        made_points = 0
        for j in range(n):
            made_points |= 1 << (made >> (3 + 5 * j) & 31)
        tops = self._tops
        lasts = self._lasts
        reach = self._reach
        want = movable  # movable points not offered yet
        for g in range(len(tops)):
            r = reach[g]
            # quick rejects: a point made but not in the group, or nothing new to offer
            if made_points & ~r or not r & want:
                continue
            top = tops[g]
            # the made moves against the group's first three sources (both non-increasing):
            # at most one made move may be left over, for the fourth source
            i = 0
            extra = 0  # sources of the three beyond the moves made (bit per point; 0 for none)
            left = -1  # the made move left over for the fourth source
            for j in range(n):
                ms = made >> (3 + 5 * j) & 31
                while i < 3:
                    ts = top >> (3 + 5 * i) & 31
                    if ts <= ms:
                        break
                    extra |= 1 << ts
                    i += 1
                if i < 3 and top >> (3 + 5 * i) & 31 == ms:
                    i += 1
                elif left < 0:
                    left = ms
                else:
                    left = 0  # two left over: no play of the group
                    break
            if not left:
                continue
            while i < 3:
                extra |= 1 << (top >> (3 + 5 * i) & 31)
                i += 1
            if left < 0:
                extra |= lasts[g]  # every fourth source
            elif not lasts[g] >> left & 1:
                continue
            want &= ~extra
            if not want:
                break
        offered = movable & ~want
        out = []
        for s in range(BAR, 0, -1):
            if offered >> s & 1:
                out.append((s, s - d if s > d else 0, d))
        if not n:
            self._first = out  # the start is asked most (every first lift)
        return list(out) if out else None

    def _group(self):
        """The plays grouped by their first three sources (a group stands together in the plays)."""
        tops = []
        lasts = []
        reach = []
        last = -1
        for code in self.plays:
            top = code & 0x3FFF8  # the first three sources (fields past a play's length read 0)
            bit = 1 << (code >> 18 & 31)
            if top == last:
                lasts[-1] |= bit
                reach[-1] |= bit
            else:
                last = top
                tops.append(top)
                lasts.append(bit)
                reach.append((1 << (code >> 3 & 31)) | (1 << (code >> 8 & 31)) | (1 << (code >> 13 & 31)) | bit)
        self._tops = tops
        self._lasts = lasts
        self._reach = reach

    def _mixed_ways(self):
        """The legal ways to play a non-double as ``[(move, move), ...]`` (the
        second None for one-move ways); several ways may give one result."""
        ways = []
        if self.dice_used == 2:
            seen = self._seen
            hi = self.high
            lo = self.low
            for a in range(1, 26):
                for b in range(1, 26):
                    if seen[a * 26 + b]:
                        ways.append(((a, a - hi if a > hi else 0, hi), (b, b - lo if b > lo else 0, lo)))
            for code in self.plays:
                if code & 7 == 1:  # bore off the last checker
                    ways.append((self.moves(code)[0], None))
        elif self.dice_used == 1:
            for code in self.plays:
                ways.append((self.moves(code)[0], None))
        return ways

    def _mixed_steps(self, position):
        """Non-doubles: at the start, every move of a legal way that a checker
        can make; one move in, the other move of each way with that move."""
        if self._ways is None:  # per-turn set-up on the first call (made while the dice roll)
            self._ways = self._mixed_ways()
            self.result_for(self.position)  # and the table of results
        start = self.position
        pm = position.me
        out = []
        if position == start:
            for m1, m2 in self._ways:
                for step in (m1, m2):
                    if step is not None and pm[step[0]] and step not in out:
                        out.append(step)
            return out
        made = _one_move(start, position)
        if made < 0:
            return out
        s = made >> 5
        t = made & 31
        for m1, m2 in self._ways:
            if m2 is None:
                continue
            for one, other in ((m1, m2), (m2, m1)):
                if one[0] == s and one[1] == t and pm[other[0]] and other not in out:
                    out.append(other)
        return out


def _outside(m):
    """True if the mover has a checker outside the home board (or on the bar)."""
    for p in range(7, BAR + 1):
        if m[p]:
            return True
    return False


def _one_move(start, position):
    """``from * 32 + to`` if ``position`` is ``start`` with one of the mover's
    checkers moved (hitting a blot where it lands), else -1."""
    s = -1
    t = -1
    p0 = start.me
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
    if s < 0 or t < 0 or (t and t >= s):
        return -1
    o0 = start.opp
    om = position.opp
    hit = t and o0[25 - t] == 1
    for q in range(BAR + 1):
        want = o0[q]
        if hit and q == 25 - t:
            want = 0
        elif hit and q == BAR:
            want += 1
        if om[q] != want:
            return -1
    return s * 32 + t
