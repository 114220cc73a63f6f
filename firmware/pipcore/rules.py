"""Standard backgammon rules: legal plays, play checking, end of game.

The generator follows gnubg's idea (moves generated once, for the player on
roll, on two 26-slot arrays) with two shortcuts that keep it small enough
for the Pico:

* **Doubles** are searched with non-increasing source points only. Any
  multiset of single moves that can be played in some order can be played in
  that order (open points stay open, checkers arrive before they leave,
  outside checkers come home before any bear-off), and different multisets
  give different positions, so every legal result is found exactly once and
  no de-duplication is needed.
* **Non-doubles** try both dice orders and de-duplicate on a small integer
  key built from the net change (checkers removed, added, blots hit).

A play is kept as a *play code*, one small integer (no allocation per
result): the number of single moves, up to four source points, and which
die went first. ``Turn.moves(code)`` expands it; ``Turn.result(code)``
builds the position.
"""

from pipcore.compat import const
from pipcore.position import BAR, CHECKERS, Position

_NONE = const(26)  # "no point" in a de-duplication key

SINGLE = const(1)
GAMMON = const(2)
BACKGAMMON = const(3)
RESULT_NAMES = {SINGLE: "single", GAMMON: "gammon", BACKGAMMON: "backgammon"}


class IllegalPlayError(ValueError):
    """A play that breaks the rules; ``str()`` says which rule."""


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


def _pack(n, s1, s2, s3, s4, high_first):
    return n | (s1 << 3) | (s2 << 8) | (s3 << 13) | (s4 << 18) | (high_first << 23)


def _key2(a, a2, b, b2, h1, h2):
    """De-duplication key of a two-move play (net change and blots hit)."""
    if a2 == b:  # chain: a -> a2 -> b2
        r1 = a
        r2 = _NONE
        x1 = b2
        x2 = _NONE
    elif b2 == a:  # the second checker lands where the first started
        r1 = b
        r2 = _NONE
        x1 = a2
        x2 = _NONE
    else:
        if a >= b:
            r1, r2 = a, b
        else:
            r1, r2 = b, a
        if a2 >= b2:
            x1, x2 = a2, b2
        else:
            x1, x2 = b2, a2
    if h1 < h2:
        h1, h2 = h2, h1
    return ((((r1 * 27 + r2) * 27 + x1) * 27 + x2) * 27 + h1) * 27 + h2


class Turn:
    """The legal plays of one roll in one position (standard backgammon).

    ``plays`` lists play codes, one per distinct resulting position;
    ``dice_used`` is how many dice every legal play uses (O1).
    """

    def __init__(self, position, dice):
        self.position = position
        self.high, self.low = check_dice(dice)
        self.double = self.high == self.low
        self.dice_used = 0
        self.plays = []
        self._m = bytearray(position.me)
        self._o = bytearray(position.opp)
        if self.double:
            self._generate_double()
        else:
            self._generate_mixed()
        self._m = None
        self._o = None

    # -- generation -----------------------------------------------------
    def _generate_double(self):
        m = self._m
        o = self._o
        d = self.high
        plays = self.plays
        best = [0]
        outside = [0]
        for p in range(7, 26):
            outside[0] += m[p]
        srcs = [0, 0, 0, 0]

        def search(depth, top):
            found = False
            if depth < 4 and m[0] < CHECKERS:
                bar = m[BAR]
                s = BAR if bar else top
                low = BAR if bar else 1
                while s >= low:
                    if m[s]:
                        t = s - d
                        if t >= 1:
                            if o[25 - t] < 2:
                                found = True
                                hit = o[25 - t]
                                m[s] -= 1
                                m[t] += 1
                                if hit:
                                    o[25 - t] = 0
                                    o[BAR] += 1
                                moved_home = s > 6 and t <= 6
                                if moved_home:
                                    outside[0] -= 1
                                srcs[depth] = s
                                search(depth + 1, s)
                                if moved_home:
                                    outside[0] += 1
                                if hit:
                                    o[25 - t] = 1
                                    o[BAR] -= 1
                                m[t] -= 1
                                m[s] += 1
                        elif outside[0] == 0 and (t == 0 or _highest(m) == s):
                            found = True
                            m[s] -= 1
                            m[0] += 1
                            srcs[depth] = s
                            search(depth + 1, s)
                            m[0] -= 1
                            m[s] += 1
                    s -= 1
            if not found:
                n = 4 if m[0] == CHECKERS else depth
                if n > best[0]:
                    best[0] = n
                    del plays[:]
                if n == best[0]:
                    plays.append(_pack(depth, srcs[0] if depth > 0 else 0,
                                       srcs[1] if depth > 1 else 0,
                                       srcs[2] if depth > 2 else 0,
                                       srcs[3] if depth > 3 else 0, 1))

        search(0, BAR)
        self.dice_used = best[0]
        if best[0] == 0:
            self.plays = [0]

    def _generate_mixed(self):
        m = self._m
        o = self._o
        hi = self.high
        lo = self.low
        seen = {}
        one_high = {}
        one_low = {}
        for d1, d2, high_first in ((hi, lo, 1), (lo, hi, 0)):
            for a in _sources(m):
                a2, h1 = _try(m, o, a, d1)
                if a2 < 0:
                    continue
                second = False
                if m[0] < CHECKERS:
                    for b in _sources(m):
                        b2, h2 = _try(m, o, b, d2)
                        if b2 < 0:
                            continue
                        second = True
                        _undo(m, o, b, b2, h2)
                        key = _key2(a, a2, b, b2, a2 if h1 else 0, b2 if h2 else 0)
                        if key not in seen:
                            seen[key] = _pack(2, a, b, 0, 0, high_first)
                _undo(m, o, a, a2, h1)
                if not second:
                    key = _key2(a, a2, 0, 0, a2 if h1 else 0, 0)
                    table = one_high if d1 == hi else one_low
                    if key not in table:
                        table[key] = _pack(1, a, 0, 0, 0, high_first)
        if seen:
            self.dice_used = 2
            self.plays = list(seen.values())
        elif one_high:
            self.dice_used = 1
            self.plays = list(one_high.values())
        elif one_low:
            self.dice_used = 1
            self.plays = list(one_low.values())
        else:
            self.plays = [0]

    # -- expanding play codes -------------------------------------------
    def moves(self, code):
        """The single moves of a play as ``[(from, to, die), ...]``; 0 is off."""
        n = code & 7
        out = []
        if self.double:
            dice = (self.high,) * 4
        elif code >> 23 & 1:
            dice = (self.high, self.low)
        else:
            dice = (self.low, self.high)
        for i in range(n):
            s = code >> (3 + 5 * i) & 31
            t = s - dice[i]
            out.append((s, t if t > 0 else 0, dice[i]))
        return out

    def result(self, code):
        """The position after the play ``code``."""
        pos = self.position.copy()
        for s, t, _ in self.moves(code):
            apply_move(pos, s, t)
        return pos

    def results(self):
        """All distinct legal resulting positions."""
        return [self.result(code) for code in self.plays]

    def result_for(self, position):
        """The play code whose result is ``position``, or None."""
        for code in self.plays:
            if self.result(code) == position:
                return code
        return None


def _sources(m):
    """Points the mover may move from: only the bar while it holds checkers."""
    if m[BAR]:
        return (BAR,)
    return [p for p in range(24, 0, -1) if m[p]]


def _highest(m):
    """The mover's highest occupied point (0 when none is left)."""
    for p in range(BAR, 0, -1):
        if m[p]:
            return p
    return 0


def _try(m, o, s, d):
    """Play die ``d`` from ``s`` on the arrays if legal.

    Returns ``(to, hit)`` with ``to`` 0 for a bear-off, or ``(-1, 0)`` when
    the move is illegal (arrays untouched).
    """
    if not m[s]:
        return -1, 0
    t = s - d
    if t >= 1:
        if o[25 - t] >= 2:
            return -1, 0
        hit = o[25 - t]
        m[s] -= 1
        m[t] += 1
        if hit:
            o[25 - t] = 0
            o[BAR] += 1
        return t, hit
    for p in range(7, 26):
        if m[p]:
            return -1, 0
    if t < 0:
        for p in range(s + 1, 7):
            if m[p]:
                return -1, 0
    m[s] -= 1
    m[0] += 1
    return 0, 0


def _undo(m, o, s, t, hit):
    m[s] += 1
    if t:
        m[t] -= 1
        if hit:
            o[25 - t] = 1
            o[BAR] -= 1
    else:
        m[0] -= 1


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
    """Check a proposed play; return ``(code, result)`` or raise IllegalPlayError.

    ``moves`` is a list of ``(from, to)`` or ``(from, to, hit)`` segments as
    ``pipcore.notation.parse_play`` returns them; a segment spanning several
    dice (``13/5`` with 5-3) is split as the dice allow.
    """
    turn = Turn(position, dice)
    pos = position.copy()
    if turn.double:
        left = [turn.high] * 4
    else:
        left = [turn.high, turn.low]
    used = []
    # Segments may be written in any order ("bar/23/21 bar/23" enters the
    # second checker first): play whatever is playable now, defer the rest.
    pending = list(moves)
    while pending:
        first_error = None
        for i in range(len(pending)):
            seg = pending[i]
            try:
                steps = _split_segment(pos, seg[0], seg[1], left, seg[2] if len(seg) > 2 else None)
            except IllegalPlayError as exc:
                first_error = first_error or exc
                continue
            for s1, t1, d in steps:
                apply_move(pos, s1, t1)
                left.remove(d)
                used.append(d)
            del pending[i]
            break
        else:
            raise first_error
    if not used and turn.dice_used == 0:
        return turn.plays[0], pos
    code = turn.result_for(pos)
    if code is not None:
        return code, pos
    if len(used) < turn.dice_used:
        if turn.double:
            raise IllegalPlayError("you must play %d %ss; this play uses %d" % (turn.dice_used, turn.high, len(used)))
        raise IllegalPlayError("you must use both dice")
    if turn.dice_used == 1 and len(used) == 1 and used[0] == turn.low:
        raise IllegalPlayError("you must play the higher die (%d)" % turn.high)
    raise IllegalPlayError("that play is not legal with %d-%d" % (turn.high, turn.low))


def _split_segment(pos, s, t, left, want_hit):
    """Dice steps ``[(from, to, die)]`` that carry one checker from s to t."""
    if not left:
        raise IllegalPlayError("no dice left for %s/%s" % (_pt(s), _pt(t)))
    if s <= t and not (t == 0):
        raise IllegalPlayError("checkers move toward your 1-point: %s/%s goes backwards" % (_pt(s), _pt(t)))
    # one die
    candidates = []
    for d in sorted(set(left)):
        if (t > 0 and s - d == t) or (t == 0 and s - d <= 0):
            candidates.append(d)
    if candidates:
        if t == 0:
            exact = [d for d in candidates if s - d == 0]
            candidates = exact + [d for d in candidates if s - d < 0]
        first_error = None
        for d in candidates:
            err = single_move_error(pos, s, d)
            if err is None:
                return [(s, t if t > 0 else 0, d)]
            first_error = first_error or err
        raise IllegalPlayError(first_error)
    # several dice, one checker: try each order of the remaining dice
    best = None
    first_error = None
    for order in _orders(left):
        trial = pos.copy()
        cur = s
        steps = []
        err = None
        hit_any = False
        for d in order:
            err = single_move_error(trial, cur, d)
            if err:
                break
            nxt = cur - d if cur - d > 0 else 0
            if nxt and trial.opp[25 - nxt] == 1:
                hit_any = True
            apply_move(trial, cur, nxt)
            steps.append((cur, nxt, d))
            cur = nxt
            if cur == t or (t == 0 and cur == 0):
                break
            if cur == 0 or (t and cur < t):
                err = "the dice do not add up to %s/%s" % (_pt(s), _pt(t))
                break
        if err is None and (cur == t):
            if best is None or (want_hit is not None and hit_any == want_hit):
                best = steps
                if want_hit is None or hit_any == want_hit:
                    return best
            continue
        first_error = first_error or err
    if best:
        return best
    raise IllegalPlayError(first_error or "the dice do not add up to %s/%s" % (_pt(s), _pt(t)))


def _orders(left):
    if len(left) == 2 and left[0] != left[1]:
        return ([left[0], left[1]], [left[1], left[0]])
    return (list(left),)


def _pt(p):
    return "bar" if p == BAR else ("off" if p == 0 else str(p))
