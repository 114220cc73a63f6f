"""Long nardy (long backgammon): RULES.md section 4.

Positions use the same container as backgammon (``pipcore.position``): each
side's checkers in its **own** numbering, own 24 being its head, 1-6 its home,
slot 0 borne off and the bar slot always empty. Only the geometry between the
sides differs: the opponent's point ``q`` is the mover's ``q + 12`` (``q <= 12``)
or ``q - 12`` (``opposite_point``).

``Turn(position, dice, first_turn, block_check)`` offers the interface of
``pipcore.rules.Turn``: ``plays`` (play codes, one per distinct result),
``dice_used``, ``moves(code)``, ``result(code)``, ``results()``,
``result_for(position)``, plus ``steps(position)`` (the single-die moves that
keep a position reached during the turn on the way to a legal play) and
``is_complete(position)``.

How the generator stays fast: the opponent never moves during a turn and
nothing is hit, so the blocked points are fixed for the turn. Non-doubles
try both dice orders; doubles walk multisets of source points in
non-increasing order (any multiset playable in some order is playable in
that one: checkers only move down, landings are fixed, and the head rule
only counts). The one rule that depends on the order inside a double is the
per-move six-block check; when the canonical order meets a transient
forbidden block, the other orders of that multiset are tried.

Readings of RULES.md used where the text needs one (the naive reference
generator in ``tests/nardy_naive.py`` makes the same ones):

* H2 applies on a first turn with a double when at most one checker leaving
  the head cannot use all four dice; then at most two may leave.
* With ``block_check = "end-of-turn"`` a play is legal when its final
  position has no forbidden block; O1 then picks the most dice among the
  legal plays, so a shorter play is legal when every longer one ends in a
  forbidden block.
* A play that bears off the 15th checker ends the game and counts as using
  every die (the rest are void).
"""

from pipcore.compat import const
from pipcore.names import ConfigError
from pipcore.playcodes import PlayList
from pipcore.position import BAR, CHECKERS, Position, PositionError
from pipcore.rules import check_dice

HEAD = const(24)
OIN = const(1)
MARS = const(2)
RESULT_NAMES = {OIN: "oin", MARS: "mars"}

PER_MOVE = "per-move"
END_OF_TURN = "end-of-turn"

_NONE = const(25)  # "no point" in a de-duplication key
_CANON = 1  # search node state: legal in the canonical order
_BAD = 0  # search node state: not a legal play by itself


class IllegalPlayError(ValueError):
    """A long-nardy play that breaks the rules; ``str()`` says which rule."""


def opposite_point(p):
    """The other player's name for point ``p`` (RULES.md 4.1)."""
    return p + 12 if p <= 12 else p - 12


def start_position():
    """Both players with all 15 checkers on their heads (RULES.md 4.2)."""
    pos = Position()
    pos.me[HEAD] = CHECKERS
    pos.opp[HEAD] = CHECKERS
    return pos


def opening(die_a, die_b, ln_opening="fresh-roll"):
    """Who starts after the single-die opening roll (RULES.md 4.4).

    Returns ``(starter, first_dice)``: starter 0 (player A) or 1 (player B),
    or ``(None, None)`` on a tie (roll again). ``first_dice`` is None when the
    starter rolls two fresh dice (``lnOpening = fresh-roll``), else the two
    opening dice as his first roll.
    """
    if ln_opening not in ("fresh-roll", "opening-dice"):
        raise ConfigError("lnOpening must be 'fresh-roll' or 'opening-dice', not %r" % (ln_opening,))
    high, low = check_dice((die_a, die_b))
    if high == low:
        return None, None
    starter = 0 if die_a > die_b else 1
    return starter, (None if ln_opening == "fresh-roll" else (high, low))


def apply_move(pos, s, t):
    """Move one of the mover's checkers from ``s`` to ``t`` (0 = off). Long
    nardy never hits: use this, not ``rules.apply_move``, whose backgammon
    geometry would "hit" an opponent checker on the mover's ``25 - t``."""
    pos.me[s] -= 1
    pos.me[t] += 1


def game_result(winner, loser):
    """OIN or MARS for a winner who bore off 15, 0 if the game is not over."""
    if winner[0] != CHECKERS:
        return 0
    return OIN if loser[0] else MARS


def winner_of(pos):
    """``(side, kind)`` if the game is over: side 0 = player on roll, 1 = opponent."""
    if pos.me[0] == CHECKERS:
        return 0, game_result(pos.me, pos.opp)
    if pos.opp[0] == CHECKERS:
        return 1, game_result(pos.opp, pos.me)
    return None


def forbidden_block(me, opp):
    """True if ``me`` holds six points in a row (along ``opp``'s route) with no
    ``opp`` checker ahead of them (RULES.md 4.8). Arrays in own numbering."""
    if opp[0]:
        return False
    qmin = 1
    while qmin < 25 and not opp[qmin]:
        qmin += 1
    run = 0
    for q in range(1, qmin):
        if me[opposite_point(q)]:
            run += 1
            if run >= 6:
                return True
        else:
            run = 0
    return False


def _pack(n, s1, s2, s3, s4, high_first):
    return n | (s1 << 3) | (s2 << 8) | (s3 << 13) | (s4 << 18) | (high_first << 23)


def _key1(a, a2):
    """De-duplication key of a one-move play (same form as a chain in _key2)."""
    return ((a * 26 + _NONE) * 26 + a2) * 26 + _NONE


def _key2(a, a2, b, b2):
    """De-duplication key of a two-move play: its net change."""
    if a2 == b:  # one checker a -> a2 -> b2
        r1, r2, x1, x2 = a, _NONE, b2, _NONE
    elif b2 == a:  # the second checker lands where the first started
        r1, r2, x1, x2 = b, _NONE, a2, _NONE
    else:
        if a >= b:
            r1, r2 = a, b
        else:
            r1, r2 = b, a
        if a2 >= b2:
            x1, x2 = a2, b2
        else:
            x1, x2 = b2, a2
    return ((r1 * 26 + r2) * 26 + x1) * 26 + x2


def _fed(me, p, d):
    """Can a checker arrive on ``p`` with up to three moves of ``d``?"""
    for k in (1, 2, 3):
        q = p + k * d
        if q > HEAD:
            return False
        if me[q]:
            return True
    return False


def _occupied_above(m, s):
    """Does the mover hold a checker on a home point above ``s`` (a bear-off with a higher die)?"""
    for p in range(s + 1, 7):
        if m[p]:
            return True
    return False


def _count_outside(m):
    n = 0
    for p in range(7, 25):
        n += m[p]
    return n


# (imported here, not at the top: pipcore.nardysteps reads the names above from this module)
from pipcore.nardysteps import ChecksAndSteps  # noqa: E402


class Turn(ChecksAndSteps, PlayList):
    """The legal plays of one roll in one long-nardy position.

    ``first_turn`` enables the head-rule exception H2 (the mover's first turn
    of the game); ``block_check`` is option ``lnBlockCheck``.
    """

    _apply_move = staticmethod(apply_move)

    def __init__(self, position, dice, first_turn=False, block_check=PER_MOVE):
        if block_check not in (PER_MOVE, END_OF_TURN):
            raise ConfigError("lnBlockCheck must be 'per-move' or 'end-of-turn', not %r" % (block_check,))
        self.position = position
        self.high, self.low = check_dice(dice)
        self.double = self.high == self.low
        self.first_turn = bool(first_turn)
        self.block_check = block_check
        self.dice_used = 0
        self.plays = []
        self._one_die = 0  # the die a one-die play must use (O2), non-doubles
        self._result_keys = None
        self._index = None
        self._ways = None  # a double's plays as their sources (nardysteps)
        self._source_cache = {}
        me = position.me
        opp = position.opp
        self._m = bytearray(me)
        self._start = bytes(me)
        # the opponent never moves during the turn: its points are fixed
        # (validated here in one pass, as Position.validate("nardy") would)
        blocked = bytearray(25)
        outside = 0
        for t in range(1, 25):
            if opp[t + 12 if t <= 12 else t - 12]:
                if me[t]:
                    raise PositionError("both players have checkers on point %d" % t)
                blocked[t] = 1
            if t > 6:
                outside += me[t]
        if me[BAR] or opp[BAR]:
            raise PositionError("long nardy has no bar")
        if sum(me) != CHECKERS or sum(opp) != CHECKERS:
            position.validate("nardy")  # says which count is wrong
        self._blocked = blocked
        self._start_head = me[HEAD]
        self._head_limit = 1
        self._outside = outside
        self._zone = self._block_zone(me, opp)
        zone_at = bytearray(25)  # 1 + index in the zone, 0 outside it
        if self._zone:
            for i in range(len(self._zone)):
                zone_at[self._zone[i]] = i + 1
        self._zone_at = zone_at
        self._full = False  # re-scan the whole board after every move
        if self._zone and forbidden_block(me, opp):
            self._full = True
        # per-move check inside _play; end-of-turn check on finished plays
        self._check_each = self._zone and block_check == PER_MOVE
        self._check_end = self._zone and block_check == END_OF_TURN
        self._generate()
        if self.double and self.first_turn and self.dice_used < 4:
            self._head_limit = 2  # H2: a second checker may leave the head
            self._generate()

    # -- set-up ---------------------------------------------------------
    def _block_zone(self, me, opp):
        """Mover points, in the opponent's route order, where a block would be
        forbidden (ahead of every opponent checker); empty when no forbidden
        block can arise this turn."""
        if opp[0]:
            return None
        qmin = 1
        while not opp[qmin]:
            qmin += 1
        if qmin <= 6:
            return None
        zone = [opposite_point(q) for q in range(1, qmin)]
        held = 0
        for p in zone:
            if me[p]:
                held += 1
        if held + (4 if self.double else 2) < 6:
            return None  # too few points held to complete six this turn
        return zone

    def _forbidden(self):
        """A forbidden six-block in the current working position?"""
        m = self._m
        run = 0
        for p in self._zone:
            if m[p]:
                run += 1
                if run >= 6:
                    return True
            else:
                run = 0
        return False

    def _forbidden_through(self, t):
        """Does the newly held point ``t`` complete a forbidden block?"""
        zone = self._zone
        m = self._m
        i = self._zone_at[t] - 1
        if i < 0:
            return False
        run = 1
        j = i - 1
        while j >= 0 and m[zone[j]]:
            run += 1
            j -= 1
        j = i + 1
        n = len(zone)
        while j < n and m[zone[j]]:
            run += 1
            j += 1
        return run >= 6

    # -- single moves on the working position -----------------------------
    def _play(self, s, d, check_block):
        """Play die ``d`` from ``s`` if legal; returns the landing point (0 =
        off) or -1 with the working position untouched."""
        m = self._m
        if not m[s]:
            return -1
        t = s - d
        if t >= 1:
            if self._blocked[t]:
                return -1
            if s == HEAD and self._start_head - m[HEAD] >= self._head_limit:
                return -1
            new = not m[t]
            m[s] -= 1
            m[t] += 1
            if s > 6 and t <= 6:
                self._outside -= 1
            if check_block:
                if self._full:
                    bad = self._forbidden()
                else:
                    bad = new and self._forbidden_through(t)
                if bad:
                    self._undo(s, t)
                    return -1
            return t
        if self._outside:
            return -1
        if t < 0:
            for p in range(s + 1, 7):
                if m[p]:
                    return -1
        m[s] -= 1
        m[0] += 1
        if check_block and self._full and self._forbidden():
            self._undo(s, 0)
            return -1
        return 0

    def _undo(self, s, t):
        m = self._m
        m[s] += 1
        if t:
            m[t] -= 1
            if s > 6 and t <= 6:
                self._outside += 1
        else:
            m[0] -= 1

    # -- generation -------------------------------------------------------
    def _generate(self):
        self.plays = []
        self.dice_used = 0
        self._one_die = 0
        if self.double:
            self._generate_double()
        else:
            self._generate_mixed()

    def _sources(self, d):
        """Points a die ``d`` could ever move from this turn, high to low: the
        landing is not held by the opponent (fixed for the turn) or is off."""
        cache = self._source_cache
        if d in cache:
            return cache[d]
        blocked = self._blocked
        out = []
        for s in range(HEAD, 0, -1):
            t = s - d
            if t <= 0 or not blocked[t]:
                out.append(s)
        cache[d] = out
        return out

    def _generate_mixed(self):
        if self._full:
            return self._generate_mixed_plain()
        m = self._m
        hi = self.high
        lo = self.low
        each = self._check_each
        end = self._check_end
        limit = self._start_head - self._head_limit  # head count below which no checker may leave
        zone_at = self._zone_at
        two = {}
        one_high = {}
        one_low = {}
        for d1, d2, high_first in ((hi, lo, 1), (lo, hi, 0)):
            one = one_high if d1 == hi else one_low
            second = self._sources(d2)
            for a in self._sources(d1):
                if not m[a]:
                    continue
                a2 = a - d1
                if a2 >= 1:
                    if a == HEAD and m[HEAD] <= limit:
                        continue
                    m[a] -= 1
                    m[a2] += 1
                    if a > 6 and a2 <= 6:
                        self._outside -= 1
                    if each and m[a2] == 1 and zone_at[a2] and self._forbidden_through(a2):
                        self._undo(a, a2)
                        continue
                else:
                    a2 = self._play(a, d1, False)  # bear-off: eligibility checks
                    if a2 < 0:
                        continue
                    if m[0] == CHECKERS:  # game over: the other die is void
                        key = _key1(a, a2)
                        if key not in two:
                            two[key] = _pack(1, a, 0, 0, 0, high_first)
                        self._undo(a, a2)
                        continue
                head_left = m[HEAD] <= limit
                outside = self._outside
                for b in second:
                    if not m[b]:
                        continue
                    b2 = b - d2
                    if b2 >= 1:
                        if b == HEAD and head_left:
                            continue
                        if each and not m[b2] and zone_at[b2]:
                            m[b] -= 1
                            m[b2] += 1
                            bad = self._forbidden_through(b2)
                            m[b2] -= 1
                            m[b] += 1
                            if bad:
                                continue
                        if end:
                            m[b] -= 1
                            m[b2] += 1
                            bad = self._forbidden()
                            m[b2] -= 1
                            m[b] += 1
                            if bad:
                                continue
                    else:
                        if outside:
                            continue
                        if b2 < 0:
                            higher = False
                            for p in range(b + 1, 7):
                                if m[p]:
                                    higher = True
                                    break
                            if higher:
                                continue
                        b2 = 0
                        if end:
                            m[b] -= 1
                            bad = self._forbidden()
                            m[b] += 1
                            if bad:
                                continue
                    # the net change identifies the result (inline _key2)
                    if a2 == b:
                        key = ((a * 26 + _NONE) * 26 + b2) * 26 + _NONE
                    elif b2 == a:
                        key = ((b * 26 + _NONE) * 26 + a2) * 26 + _NONE
                    elif a >= b:
                        if a2 >= b2:
                            key = ((a * 26 + b) * 26 + a2) * 26 + b2
                        else:
                            key = ((a * 26 + b) * 26 + b2) * 26 + a2
                    elif a2 >= b2:
                        key = ((b * 26 + a) * 26 + a2) * 26 + b2
                    else:
                        key = ((b * 26 + a) * 26 + b2) * 26 + a2
                    if key not in two:
                        two[key] = 2 | (a << 3) | (b << 8) | (high_first << 23)
                if not (end and self._forbidden()):
                    key = _key1(a, a2)
                    if key not in one:
                        one[key] = _pack(1, a, 0, 0, 0, high_first)
                self._undo(a, a2)
        self._choose_mixed(two, one_high, one_low)

    def _choose_mixed(self, two, one_high, one_low):
        """O1 and O2 over the plays found."""
        if two:
            self.dice_used = 2
            self.plays = list(two.values())
        elif one_high:
            self.dice_used = 1
            self._one_die = self.high
            self.plays = list(one_high.values())
        elif one_low:
            self.dice_used = 1
            self._one_die = self.low
            self.plays = list(one_low.values())
        else:
            self.plays = [0]

    def _generate_mixed_plain(self):
        """Every rule through ``_play`` (used when the start position already
        holds a forbidden block, which no game can reach)."""
        m = self._m
        hi = self.high
        lo = self.low
        each = self._check_each
        end = self._check_end
        two = {}
        one_high = {}
        one_low = {}
        for d1, d2, high_first in ((hi, lo, 1), (lo, hi, 0)):
            one = one_high if d1 == hi else one_low
            for a in range(HEAD, 0, -1):
                a2 = self._play(a, d1, each)
                if a2 < 0:
                    continue
                if m[0] == CHECKERS:
                    key = _key1(a, a2)
                    if key not in two:
                        two[key] = _pack(1, a, 0, 0, 0, high_first)
                    self._undo(a, a2)
                    continue
                for b in range(HEAD, 0, -1):
                    b2 = self._play(b, d2, each)
                    if b2 < 0:
                        continue
                    if not (end and self._forbidden()):
                        key = _key2(a, a2, b, b2)
                        if key not in two:
                            two[key] = _pack(2, a, b, 0, 0, high_first)
                    self._undo(b, b2)
                if not (end and self._forbidden()):
                    key = _key1(a, a2)
                    if key not in one:
                        one[key] = _pack(1, a, 0, 0, 0, high_first)
                self._undo(a, a2)
        self._choose_mixed(two, one_high, one_low)

    def _generate_double(self):
        """Every play of the double: multisets of source points in non-increasing
        order, one level of the search per move (``depth`` 0..4).

        One loop, not a call per level (as ``pipcore.caucasian._explore``):
        where each level's loop stands, its move and its state are kept in
        per-depth arrays. Measured (callgrind, unix MicroPython,
        zwoALji2C0FQOA 1-1): a call per node put its frame on the heap, 46% of
        the generation's instructions in the allocator; on the emulated Pico,
        whose heap the bench fills with its cases, that case took 279 ms.

        A level's ``state``: _CANON (legal in the canonical order of its
        moves), a list (another legal order of its moves), or _BAD (not a
        legal play by itself: a forbidden block, only with the block rule)."""
        m = self._m
        d = self.high
        plays = self.plays
        append = plays.append
        each = self._check_each
        end = self._check_end
        checks = each or end
        full = self._full
        start = self._start
        # only points that hold a checker now or can receive one this turn
        cands = bytearray([p for p in self._sources(d) if start[p] or _fed(start, p, d)])
        ncand = len(cands)
        limit = self._start_head - self._head_limit  # head count below which no checker may leave
        outside = self._outside
        head = HEAD  # (locals: a global is looked up on every use)
        all_off = CHECKERS
        forbidden = self._forbidden
        through = self._forbidden_through
        zone_at = self._zone_at
        best = 0  # the most moves of a play found so far
        nxt = bytearray(5)  # per depth: the next candidate to try
        srcs = bytearray(4)  # per depth: the move made there (its source and landing)
        lands = bytearray(4)
        found = bytearray(5)  # per depth: a legal longer play extends its play
        states = [_CANON] * 5
        codes = [1 << 23, 0, 0, 0, 0]  # per depth: the play code of the moves made above it
        depth = 0
        while True:
            state = states[depth]
            if depth < 4 and m[0] < all_off:
                i = nxt[depth]
                if depth == 3 and not checks:
                    # the fourth move without the block rule: each legal one ends a play of four
                    c = codes[3] | 4
                    while i < ncand:
                        s = cands[i]
                        i += 1
                        if not m[s]:
                            continue
                        t = s - d
                        if t >= 1:
                            if s == head and m[head] <= limit:
                                continue
                        elif outside or (t < 0 and _occupied_above(m, s)):
                            continue
                        if best < 4:
                            best = 4
                            del plays[:]
                        append(c | (s << 18))
                        found[3] = 1
                else:
                    while i < ncand:
                        s = cands[i]
                        i += 1
                        if not m[s]:
                            continue
                        t = s - d
                        if t >= 1:
                            if s == head and m[head] <= limit:
                                continue
                            if s > 6 and t <= 6:
                                outside -= 1
                        elif outside or (t < 0 and _occupied_above(m, s)):
                            continue
                        else:
                            t = 0
                        m[s] -= 1
                        m[t] += 1
                        srcs[depth] = s
                        lands[depth] = t
                        if each:
                            if state == _BAD or full:
                                child = _BAD if forbidden() else self._legal_order(list(srcs[:depth + 1])) or _BAD
                            elif t and m[t] == 1 and zone_at[t] and through(t):
                                child = _BAD
                            elif state == _CANON:
                                child = _CANON
                            else:
                                child = state + [s]
                        elif end:
                            child = _BAD if forbidden() else _CANON
                        else:
                            child = _CANON
                        nxt[depth] = i
                        codes[depth + 1] = codes[depth] | (s << (3 + 5 * depth))
                        depth += 1
                        nxt[depth] = i - 1  # non-increasing: the same point again, or a lower one
                        states[depth] = child
                        found[depth] = 0
                        break
                    else:
                        i = -1  # every candidate tried
                    if i >= 0:
                        continue  # one level deeper
            # level ``depth`` is done
            if state == _BAD:
                legal = found[depth]
            else:
                if not found[depth]:  # a play no legal longer play extends
                    n = 4 if m[0] == all_off else depth
                    if n > best:
                        best = n
                        del plays[:]
                    if n == best:
                        if state == _CANON:
                            append(codes[depth] | depth)
                        else:
                            code = depth | (1 << 23)
                            for k in range(depth):
                                code |= state[k] << (3 + 5 * k)  # pyright: ignore[reportIndexIssue]  (a list here)
                            append(code)
                legal = 1
            if not depth:
                break
            depth -= 1
            s = srcs[depth]
            t = lands[depth]
            if s > 6 and t <= 6:
                outside += 1
            m[s] += 1
            m[t] -= 1
            if legal:
                found[depth] = 1
        self.dice_used = best
        if best == 0:
            self.plays = [0]
