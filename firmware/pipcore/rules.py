"""Standard backgammon rules: legal plays, play checking, end of game.

The generator follows gnubg's idea (moves generated once, for the player on
roll, on two 26-slot arrays) with shortcuts that keep it fast and small
enough for the Pico:

* Whether a die may land on a point never changes during a turn (the mover
  only ever hits blots, so the opponent's made points stay made), so the
  opponent's array is only read, never changed, while searching.
* **Doubles** are searched with non-increasing source points only, over a
  per-turn list of the points a checker may leave (landing open) and can
  reach. Any multiset of single moves that can be played in some order can
  be played in that order (open points stay open, checkers arrive before
  they leave, outside checkers come home before any bear-off), and different
  multisets give different positions, so every legal result is found exactly
  once and no de-duplication is needed. The fourth move is only counted.
* **Non-doubles** try both dice orders. A two-move play's result depends only
  on which point the high die left and which the low die left (``a``, ``b``),
  so a 26x26 byte table drops the second order's repeats; the only other
  repeats are a checker running ``a/a-hi/a-hi-lo`` against ``a/a-lo/a-lo-hi``
  with no blot on either way point, and two checkers both borne off by either
  die, which are checked directly.

A play is kept as a *play code*, one small integer (no allocation per
result): the number of single moves (bits 0-2), up to four source points (5
bits each from bit 3, in play order; non-increasing for doubles) and whether
the high die went first (bit 23). ``Turn.moves(code)`` expands it;
``Turn.result(code)`` builds the position.

Measured by ``make bench`` (tests/bench/bench_rules.py, CPU time): the
slowest position we could build (1-1, 2226 distinct plays) takes 2.7 ms in
WASM MicroPython (Pico estimate 55 ms, budget 150), the corpus median 0.09 ms;
at most 18.4 KB of heap per generation, nearly all of it the list of plays.
"""

from pipcore.compat import const
from pipcore.notation import format_play
from pipcore.playcodes import CodeStore, PlayList, compact
from pipcore.position import BAR, CHECKERS

try:  # a double's third and fourth moves in native code where the port has it (pipcore.native)
    from pipcore.native import expand
except Exception:  # CPython, no native emitter, a .mpy for another CPU: the loop in ``_double_search``
    expand = None

SINGLE = const(1)
GAMMON = const(2)
BACKGAMMON = const(3)
RESULT_NAMES = {SINGLE: "single", GAMMON: "gammon", BACKGAMMON: "backgammon"}


class IllegalPlayError(ValueError):
    """A play that breaks the rules; ``str()`` says which rule."""


class AmbiguousPlayError(IllegalPlayError):
    """Text that fits more than one legal play; ``str()`` lists them."""


class DiceError(ValueError):
    """Dice values outside 1..6, or not two of them."""


def check_dice(dice):
    """Return ``(high, low)`` for two dice values, or raise DiceError."""
    try:
        a, b = dice
        a = int(a)
        b = int(b)
    except (TypeError, ValueError):
        raise DiceError("dice must be two numbers from 1 to 6, got %r" % (dice,))
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise DiceError("dice must be two numbers from 1 to 6, got %r" % (dice,))
    return (a, b) if a >= b else (b, a)


_HIGH_FIRST = const(1 << 23)  # play-code bit: the high die was played first


def _pack(n, s1, s2, s3, s4, high_first):
    """A play code: ``n`` moves, sources in play order, whether the high die went first."""
    return n | (s1 << 3) | (s2 << 8) | (s3 << 13) | (s4 << 18) | (high_first << 23)


def _double_search(m, cand, moving, n, d, i0, depth, code, outside, plays, best):
    """Moves ``depth + 1``.. of a double from sources ``cand[i0:]`` (non-increasing).

    ``cand[:moving]`` land on a point, ``cand[moving:n]`` bear off. Appends
    the play codes of the longest plays to ``plays`` (the shorter ones are
    dropped when a longer play turns up) and returns that length; a play that
    bears off the last checker counts as complete. The third move is made
    in line with the fourth, which is only counted (no call per leaf: the
    leaves are most of the work).

    Recursion: one level per move of the double, ``depth`` 0..3, so at most
    four frames deep (tests/test_recursion_budget.py runs the worst turns
    under a small stack).
    """
    codes = plays.codes
    if depth == 3:
        k = len(codes)
        _double_last(m, cand, moving, n, d, i0, code | 4, outside, codes)
        if len(codes) > k:
            if best < 4:
                plays.start = k  # the shorter plays before k are dropped
            return 4
        return _double_end(m, 3, code, plays, best)
    shift = 3 + 5 * depth
    found = False
    bear = moving if i0 < moving else i0
    if depth < 2:
        for i in range(i0, moving):
            s = cand[i]
            if m[s]:
                found = True
                t = s - d
                m[s] -= 1
                m[t] += 1
                best = _double_search(m, cand, moving, n, d, i, depth + 1, code | (s << shift),
                                      outside - 1 if s > 6 and t <= 6 else outside, plays, best)
                m[t] -= 1
                m[s] += 1
        if not outside:
            for i in range(bear, n):
                s = cand[i]
                if m[s] and (s == d or not _occupied_above(m, s)):
                    found = True
                    m[s] -= 1
                    m[0] += 1
                    best = _double_search(m, cand, moving, n, d, i, depth + 1, code | (s << shift),
                                          outside, plays, best)
                    m[0] -= 1
                    m[s] += 1
        if found:
            return best
        return _double_end(m, depth, code, plays, best)
    # depth 2: the third move, and the fourth counted in line
    if expand is not None and outside > 1:  # (no bear-off can come: the loop below in native code)
        i = i0
        while i < moving:
            k = len(codes)
            i = expand(m, cand, i, moving, d, code | 4, codes)  # (where it stopped << 1 | a third found)
            if len(codes) > k and best < 4:
                plays.start = k
                best = 4
            if i & 1:
                found = True
            i >>= 1
            if i < moving:  # a third move no fourth can follow: a play of three, if none is longer
                s = cand[i]
                m[s] -= 1
                m[s - d] += 1
                best = _double_end(m, 3, code | (s << 13), plays, best)
                m[s - d] -= 1
                m[s] += 1
                i += 1
        if found:
            return best
        return _double_end(m, 2, code, plays, best)
    append = codes.append
    for i in range(i0, moving):
        s = cand[i]
        if m[s]:
            found = True
            t = s - d
            m[s] -= 1
            m[t] += 1
            c = code | (s << 13) | 4
            k = len(codes)
            for j in range(i, moving):
                s4 = cand[j]
                if m[s4]:
                    append(c | (s4 << 18))
            if not outside or (s > 6 and t <= 6 and outside == 1):
                _double_last(m, cand, moving, n, d, moving if i < moving else i, c, 0, codes)
            if len(codes) > k:
                if best < 4:
                    plays.start = k
                    best = 4
            else:
                best = _double_end(m, 3, c & ~7, plays, best)
            m[t] -= 1
            m[s] += 1
    if not outside:
        for i in range(bear, n):
            s = cand[i]
            if m[s] and (s == d or not _occupied_above(m, s)):
                found = True
                m[s] -= 1
                m[0] += 1
                best = _double_search(m, cand, moving, n, d, i, 3, code | (s << 13), 0, plays, best)
                m[0] -= 1
                m[s] += 1
    if found:
        return best
    return _double_end(m, 2, code, plays, best)


def _double_last(m, cand, moving, n, d, i0, code, outside, codes):
    """Append the fourth moves of a double from ``cand[i0:]`` (``code`` holds the first three)."""
    for i in range(i0, moving):
        s = cand[i]
        if m[s]:
            codes.append(code | (s << 18))
    if not outside:
        for i in range(moving if i0 < moving else i0, n):
            s = cand[i]
            if m[s] and (s == d or not _occupied_above(m, s)):
                codes.append(code | (s << 18))


def _double_end(m, depth, code, plays, best):
    """Record a play that stops after ``depth`` moves if it is among the longest."""
    length = 4 if m[0] == CHECKERS else depth
    if length >= best:
        codes = plays.codes
        if length > best:
            plays.start = len(codes)  # every play found so far is shorter: dropped
            best = length
        codes.append(code | depth)
    return best


def _repeats(seen, o, a, b, hi, lo):
    """True if the play (high die from a, low die from b) repeats one already seen.

    One checker running both dice gives the same result in either order
    unless a blot stands on a way point; two checkers borne off by either die
    give the same result both ways round.
    """
    if b == a - hi:  # a/a-hi/a-hi-lo; the other way is a/a-lo/a-lo-hi, seen as (a - lo, a)
        w = a - lo
        return w >= 1 and seen[w * 26 + a] and o[25 - b] != 1 and o[25 - w] != 1
    if b == a + lo:  # b/a/a-hi; the other way is b/b-hi/b-hi-lo, seen as (b, b - hi)
        w = b - hi
        return w >= 1 and seen[b * 26 + w] and o[25 - w] != 1 and o[25 - a] != 1
    if a <= lo and b <= lo and a != b:  # both borne off whichever die each uses
        return seen[b * 26 + a]
    return False


def _may_move(m, o, s, d, outside):
    """Whether die ``d`` may move a checker from ``s`` (which holds one); ``outside``: checkers not home."""
    t = s - d
    if t >= 1:
        return o[25 - t] < 2
    return not outside and (t == 0 or not _occupied_above(m, s))


def _occupied_above(m, s):
    """True if the mover has a checker on a home point above ``s`` (E3: no overshooting bear-off)."""
    for p in range(s + 1, 7):
        if m[p]:
            return True
    return False


class Turn(PlayList):
    """The legal plays of one roll in one position (standard backgammon).

    ``plays`` lists play codes, one per distinct resulting position;
    ``dice_used`` is how many dice every legal play uses (O1).
    """

    def __init__(self, position, dice, store=None):
        self.position = position
        self.high, self.low = check_dice(dice)
        self.double = self.high == self.low
        self.dice_used = 0
        self.plays = []
        m = bytearray(position.me)  # changed and restored while searching; the opponent's array is only read
        if self.double:
            self._generate_double(m, position.opp, store)
        else:
            self._generate_mixed(m, position.opp)
        self.plays = compact(self.plays)  # kept for the whole roll: 4 bytes a play

    # -- generation -----------------------------------------------------
    def _generate_double(self, m, o, store):
        d = self.high
        plays = self.plays
        code = _HIGH_FIRST
        depth = 0
        bar = m[BAR]
        if bar:
            if o[d] >= 2:  # the entry point 25 - d is the opponent's point d
                self.plays = [0]
                return
            depth = bar if bar < 4 else 4
            for i in range(depth):
                code |= BAR << (3 + 5 * i)
            if depth == 4:
                plays.append(code | 4)
                self.dice_used = 4
                return
            m[BAR] = 0
            m[BAR - d] += depth
        # candidate sources, high to low: points a checker may leave with d
        # (landing open) that hold a checker or can receive one this turn;
        # bear-off candidates (s <= d) come last
        cand = bytearray(24)
        n = 0
        reach = 0
        outside = 0
        for s in range(24, 0, -1):
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
            else:
                cand[n] = s
                n += 1
        moving = n
        while moving and cand[moving - 1] <= d:
            moving -= 1
        found = CodeStore(store)
        best = _double_search(m, cand, moving, n, d, 0, depth, code, outside, found, -1)
        self.plays = found.plays()
        found = None
        if best <= 0:
            self.plays = [0]
            best = 0
        self.dice_used = best

    def _generate_mixed(self, m, o):
        hi = self.high
        lo = self.low
        plays = self.plays
        outside = 0
        for s in range(7, 26):
            outside += m[s]
        # seen[a * 26 + b]: a two-move play where the high die left a and the low die left b
        seen = bytearray(676)
        first_hi = 0  # bit s: the high die alone can move from s
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
                    if t >= 1:
                        m[t] += 1
                        out1 = outside - 1 if s > 6 and t <= 6 else outside
                    else:
                        m[0] += 1
                        out1 = outside
                    if m[0] < CHECKERS:
                        bar2 = m[BAR]
                        s2 = BAR if bar2 else 24
                        while s2 >= 1:
                            if m[s2]:  # _may_move in line: this runs for every pair
                                t2 = s2 - d2
                                if t2 >= 1:
                                    ok = o[25 - t2] < 2
                                else:
                                    ok = not out1 and (t2 == 0 or not _occupied_above(m, s2))
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
                    if t >= 1:
                        m[t] -= 1
                    else:
                        m[0] -= 1
                    m[s] += 1
                if bar1:
                    break
                s -= 1
        if plays:
            self.dice_used = 2
            return
        # one die only: the higher one if it can move at all (O2)
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

    # -- expanding play codes (moves, result, results: playcodes.PlayList) ----
    def _apply_move(self, pos, s, t):
        apply_move(pos, s, t)

    def result_for(self, position):
        """The play code whose result is ``position``, or None."""
        from pipcore.steps import code_for

        return code_for(self, position)

    def steps(self, position, src=-1):
        """Single moves ``[(from, to, die)]`` still legal at ``position``, reached
        part-way through this turn in any order; None when ``position`` is not
        on the way to a legal play (see ``pipcore.steps``). With ``src``, those
        from other points may be left out."""
        from pipcore.steps import legal_steps

        return legal_steps(self, position, src)

    def is_complete(self, position):
        """True iff ``position`` is one of this turn's legal results."""
        from pipcore.steps import is_complete

        return is_complete(self, position)

    def notation(self, code):
        """The play in gnubg notation with hits marked (``13/9*/8``); "" for no move."""
        pos = self.position.copy()
        marked = []
        for s, t, _ in self.moves(code):
            marked.append((s, t, True if t and pos.opp[25 - t] == 1 else None))
            apply_move(pos, s, t)
        return format_play(marked)


def apply_move(pos, s, t):
    """Move one of the mover's checkers from ``s`` to ``t`` (0 = off), hitting a blot."""
    m = pos.me
    o = pos.opp
    m[s] -= 1
    if t >= 1:
        m[t] += 1
        if o[25 - t] == 1:
            o[25 - t] = 0
            o[BAR] += 1
    else:
        m[0] += 1


def single_move_error(pos, s, d):
    """Why die ``d`` cannot move a checker from ``s`` now, or None if it can."""
    m = pos.me
    o = pos.opp
    if m[BAR] and s != BAR:
        return "you must enter from the bar first"
    if not 1 <= s <= BAR or not m[s]:
        return "you have no checker on %s" % point_name(s)
    t = s - d
    if t >= 1:
        if o[25 - t] >= 2:
            return "point %d is closed" % t
        return None
    for p in range(7, 26):
        if m[p]:
            return "you cannot bear off while checkers are outside your home board"
    if t < 0:
        for p in range(s + 1, 7):
            if m[p]:
                return "a %d bears off from %d only when no checker stands higher (one is on %d)" % (d, s, p)
    return None


def point_name(p):
    return "the bar" if p == BAR else ("off" if p == 0 else "point %d" % p)


def game_result(winner, loser_side_backgammon_zone):
    """Kind of win (SINGLE/GAMMON/BACKGAMMON) for a winner who bore off 15.

    ``winner`` is the winner's array; ``loser_side_backgammon_zone`` the
    loser's array in its own numbering (RULES.md 1.11).
    """
    loser = loser_side_backgammon_zone
    if winner[0] != CHECKERS:
        return 0
    if loser[0]:
        return SINGLE
    for p in range(19, 26):
        if loser[p]:
            return BACKGAMMON
    return GAMMON


def winner_of(pos):
    """``(side, kind)`` if the game is over: side 0 = player on roll, 1 = opponent."""
    if pos.me[0] == CHECKERS:
        return 0, game_result(pos.me, pos.opp)
    if pos.opp[0] == CHECKERS:
        return 1, game_result(pos.opp, pos.me)
    return None


def check_play(position, dice, moves):
    """Check a proposed play: ``pipcore.playcheck.check_play`` (loaded on demand: no hand on the board
    needs it); returns ``(code, result)`` or raises IllegalPlayError."""
    from pipcore.playcheck import check_play as check

    return check(position, dice, moves)
