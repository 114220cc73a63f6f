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
from pipcore.notation import format_play
from pipcore.position import BAR, CHECKERS, Position

_NONE = const(26)  # "no point" in a de-duplication key

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
        from pipcore.steps import code_for

        return code_for(self, position)

    def steps(self, position):
        """Single moves ``[(from, to, die)]`` still legal at ``position``, reached
        part-way through this turn in any order; None when ``position`` is not
        on the way to a legal play (see ``pipcore.steps``)."""
        from pipcore.steps import legal_steps

        return legal_steps(self, position)

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
    ``pipcore.notation.parse_play`` returns them. A segment spanning several
    dice (``13/5`` with 5-3) is split every way the dice allow. A play is a
    set of moves, so the order in which segments are written does not matter
    (``24/18 bar/21`` is ``bar/21 24/18``): the moves are checked in the one
    order that is always legal when any order is (highest source first).

    Hit marks ``*`` choose between readings (``13/7`` with 4-2 and a blot on
    9 is ``13/11/7``; ``13/7*`` is ``13/9*/7``). Raises AmbiguousPlayError
    (an IllegalPlayError) when the text still fits two legal plays with
    different results (``13/7*`` with blots on both 9 and 11).
    """
    turn = Turn(position, dice)
    if turn.double:
        dice_left = [turn.high] * 4
    else:
        dice_left = [turn.high, turn.low]
    segments = []
    for seg in moves:
        s, t = seg[0], seg[1]
        if not 1 <= s <= BAR:
            raise IllegalPlayError("there is no point %r to move from" % (s,))
        if not 0 <= t < BAR:
            raise IllegalPlayError("there is no point %r to move to" % (t,))
        if t and t >= s:
            raise IllegalPlayError("checkers move toward your 1-point: %s/%s goes backwards" % (_pt(s), _pt(t)))
        segments.append((s, t, seg[2] if len(seg) > 2 else None))
    _check_sources(position, segments)
    readings = []
    _readings(segments, 0, dice_left, [], readings)
    if not readings:
        raise IllegalPlayError(_dice_mismatch(segments, dice_left, turn))
    legal = []  # [(result, how well the hit marks fit, steps with hits)]
    first_error = None
    most_used = -1
    least_short = None  # a playable reading that used too few dice
    for steps in readings:
        pos, done, error = _play_steps(position, steps)
        if error is not None:
            first_error = first_error or error
            continue
        if turn.result_for(pos) is None:
            if len(steps) > most_used:
                most_used = len(steps)
                least_short = steps
            continue
        # 2: the hit marks match exactly; 1: every marked segment hits; 0: neither
        fit = 2
        for i in range(len(segments)):
            hit = _segment_hit(done, i)
            if segments[i][2] and not hit:
                fit = 0
                break
            if hit and not segments[i][2]:
                fit = 1
        legal.append((pos, fit, done))
    if legal:
        chosen = _choose(legal)
        if chosen is not None:
            return turn.result_for(chosen), chosen
        raise AmbiguousPlayError(_ambiguity(legal))
    if least_short is not None:
        raise IllegalPlayError(_usage_error(turn, least_short))
    raise IllegalPlayError(first_error)


def _check_sources(position, segments):
    """Refuse segments that start where no checker is or can arrive."""
    for s, _, _ in segments:
        need = 0
        arrive = 0
        for s2, t2, _ in segments:
            if s2 == s:
                need += 1
            if t2 == s:
                arrive += 1
        have = position.me[s]
        if need > have + arrive:
            if have == 0:
                raise IllegalPlayError("you have no checker on %s" % point_name(s))
            raise IllegalPlayError("you have only %d checker%s on %s"
                                   % (have, "" if have == 1 else "s", point_name(s)))


def _readings(segments, i, dice_left, acc, out):
    """Every way to split the segments into single-die steps ``(from, to, die, segment)``."""
    if i == len(segments):
        out.append(list(acc))
        return
    s, t, _ = segments[i]
    chains = []
    _chains(s, t, dice_left, [], chains)
    for chain in chains:
        left = list(dice_left)
        cur = s
        n = len(acc)
        for d in chain:
            nxt = cur - d
            acc.append((cur, nxt if nxt > 0 else 0, d, i))
            left.remove(d)
            cur = nxt
        _readings(segments, i + 1, left, acc, out)
        del acc[n:]


def _chains(cur, t, dice_left, prefix, out):
    """Die sequences carrying one checker from ``cur`` to ``t`` (0 = off)."""
    tried = []
    for k in range(len(dice_left)):
        d = dice_left[k]
        if d in tried:
            continue
        tried.append(d)
        nxt = cur - d
        if nxt == t or (t == 0 and nxt < 0):
            out.append(prefix + [d])
        elif nxt > t:
            _chains(nxt, t, dice_left[:k] + dice_left[k + 1:], prefix + [d], out)


def _play_steps(position, steps):
    """Play steps highest source first; ``(result, steps_with_hits, error)``."""
    order = sorted(steps, key=_minus_source)
    pos = position.copy()
    done = []
    for s, t, d, i in order:
        error = single_move_error(pos, s, d)
        if error is not None:
            return None, None, error
        hit = t > 0 and pos.opp[25 - t] == 1
        apply_move(pos, s, t)
        done.append((s, t, hit, i))
    return pos, done, None


def _minus_source(step):
    return -step[0]


def _segment_hit(done, i):
    for step in done:
        if step[3] == i and step[2]:
            return True
    return False


def _choose(legal):
    """The one result the text means, or None when it stays ambiguous.

    As in gnubg notation, a hit is marked with ``*`` and an unmarked landing
    does not hit: readings whose hits match the marks win; a play typed
    without its marks is still understood when only one result fits.
    """
    for need in (2, 1, 0):
        found = None
        for pos, fit, _ in legal:
            if fit < need:
                continue
            if found is None:
                found = pos
            elif found != pos:
                return None
        if found is not None:
            return found
    return None


def _ambiguity(legal):
    texts = []
    for _, _, done in legal:
        text = format_play([(s, t, hit or None) for s, t, hit, _ in done])
        if text not in texts:
            texts.append(text)
    return "ambiguous: this can be %s; write the intermediate points" % " or ".join(texts)


def _dice_mismatch(segments, dice_left, turn):
    """Why no split of the segments fits the dice."""
    for k in range(len(segments)):
        out = []
        _readings(segments[:k + 1], 0, dice_left, [], out)
        if out:
            continue
        s, t, _ = segments[k]
        alone = []
        _readings(segments[k:k + 1], 0, dice_left, [], alone)
        if k and alone:
            return "no dice left for %s/%s" % (_pt(s), _pt(t))
        return "the dice %s cannot make %s/%s" % (_dice_text(turn), _pt(s), _pt(t))
    return "the play does not fit the dice %s" % _dice_text(turn)


def _usage_error(turn, steps):
    """The obligation (O1, O2, B4) a playable but short play breaks."""
    used = len(steps)
    if turn.double:
        return "you must play %d %ss; this play uses %d" % (turn.dice_used, turn.high, used)
    if turn.dice_used == 2:
        return "you must use both dice"
    if turn.dice_used == 1:
        legal_die = turn.moves(turn.plays[0])[0][2]
        if used == 1 and steps[0][2] != legal_die and legal_die == turn.high:
            return "you must play the higher die (%d)" % turn.high
        return "you must play the %d" % legal_die
    return "no move is possible with %s" % _dice_text(turn)


def _dice_text(turn):
    return "%d-%d" % (turn.high, turn.low)


def _pt(p):
    return "bar" if p == BAR else ("off" if p == 0 else str(p))
