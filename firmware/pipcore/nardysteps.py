"""A long-nardy turn checking a typed play, and read by hands: part of ``pipcore.nardy.Turn``.

``ChecksAndSteps`` holds the search of another legal order for a double's
moves when the canonical one meets a forbidden block (``_legal_order``, the
generator's rare path), whether a position is a legal result
(``is_complete``), why a single move is refused (``move_error``), the
check of a play typed in notation (``check``), and the single moves still to
make part-way through the turn (``steps``: the board's guidance as hands
move). ``pipcore.nardy`` has the rules and the generator, and imports this
module after the names read here are defined.
"""

from pipcore.nardy import (END_OF_TURN, HEAD, PER_MOVE, IllegalPlayError, _count_outside, apply_move,
                           forbidden_block)
from pipcore.playcodes import orders
from pipcore.position import CHECKERS


class ChecksAndSteps:
    """The checks and the step tables of ``pipcore.nardy.Turn`` (see there)."""

    # -- the block rule's orders, and results ------------------------------
    def _legal_order(self, sources):
        """An order of the double's moves ``sources`` that keeps every
        intermediate position free of forbidden blocks, or None."""
        saved = self._m
        saved_outside = self._outside
        found = None
        for order in orders(sources):
            self._m = bytearray(self._start)
            self._outside = _count_outside(self._m)
            ok = True
            for s in order:
                if self._play(s, self.high, True) < 0:
                    ok = False
                    break
            if ok:
                found = order
                break
        self._m = saved
        self._outside = saved_outside
        return found

    def _result_me(self, code, me):
        """The mover's checkers after the play ``code``, written into ``me`` (a bytearray as long as ``Position.me``): the moves of
        ``PlayList.moves`` applied as ``nardy.apply_move`` applies them, nothing made."""
        me[:] = self.position.me
        if self.double:
            first = second = self.high
        elif code >> 23 & 1:  # the high die first
            first, second = self.high, self.low
        else:
            first, second = self.low, self.high
        for i in range(code & 7):
            s = code >> (3 + 5 * i) & 31
            t = s - (first if i == 0 else second)
            me[s] -= 1
            me[t if t > 0 else 0] += 1
        return me

    def _keys(self):
        if self._result_keys is None:  # every result's checkers, made in one kept buffer (no Position a play)
            keys = set()
            me = bytearray(len(self.position.me))
            for code in self.plays:
                keys.add(bytes(self._result_me(code, me)))
            self._result_keys = keys
        return self._result_keys

    def result_for(self, position):
        """The play code whose result is ``position``, or None (``PlayList.result_for`` without a Position
        a play: DONE on a long nardy 1-1 made ~115 KB of garbage finding its play on the unix port)."""
        if bytes(position.opp) != bytes(self.position.opp):
            return None
        want = bytes(position.me)
        me = bytearray(len(want))
        for code in self.plays:
            if self._result_me(code, me) == want:
                return code
        return None

    def is_complete(self, position):
        """True when ``position`` is the result of a legal play of this turn."""
        if bytes(position.opp) != bytes(self.position.opp):
            return False
        return bytes(position.me) in self._keys()

    # -- checking a proposed play -------------------------------------------
    def move_error(self, position, s, d):
        """Why die ``d`` cannot move a checker from ``s`` at ``position`` (a
        position reached during this turn), or None if the rules allow it."""
        me = position.me
        if not 1 <= s <= HEAD or not me[s]:
            return "you have no checker on point %d" % s if 1 <= s <= HEAD else "long nardy has no bar"
        t = s - d
        if t >= 1:
            if self._blocked[t]:
                return "point %d is held by your opponent (a single checker blocks it)" % t
            if s == HEAD and self._start_head - me[HEAD] >= self._head_limit:
                if self._head_limit == 1:
                    return "only one checker may leave the head (24-point) in a turn"
                return "at most two checkers may leave the head on the first turn"
            if self.block_check == PER_MOVE:
                after = bytearray(me)
                after[s] -= 1
                after[t] += 1
                if forbidden_block(after, position.opp):
                    return "that makes six points in a row with no opponent checker ahead of them"
            return None
        for p in range(7, HEAD + 1):
            if me[p]:
                return "you cannot bear off while checkers are outside your home (one is on %d)" % p
        if t < 0:
            for p in range(s + 1, 7):
                if me[p]:
                    return "a %d bears off from %d only when no checker stands higher (one is on %d)" % (d, s, p)
        return None

    def check(self, segments):
        """Check a play given as ``pipcore.notation.parse_play`` segments
        (``[(from, to, hit), ...]``; a segment may span several dice). Returns
        ``(code, result)`` or raises IllegalPlayError saying which rule."""
        pos = self.position.copy()
        left = [self.high] * 4 if self.double else [self.high, self.low]
        used = []
        for seg in segments:
            s, t = seg[0], seg[1]
            if t and s <= t:
                raise IllegalPlayError("checkers move toward your 1-point: %d/%d goes backwards" % (s, t))
            path = self._path(pos, s, t, left)
            for a, b, d in path:
                apply_move(pos, a, b)
                left.remove(d)
                used.append(d)
        code = self.result_for(pos)
        if code is not None:
            return code, pos
        if len(used) < self.dice_used and pos.me[0] < CHECKERS:
            if self.double:
                raise IllegalPlayError("you must play %d %ss; this play uses %d"
                                       % (self.dice_used, self.high, len(used)))
            raise IllegalPlayError("you must use both dice")
        if self.dice_used == 1 and used == [self.low] and self._one_die == self.high:
            raise IllegalPlayError("you must play the higher die (%d)" % self.high)
        if self.block_check == END_OF_TURN and forbidden_block(pos.me, pos.opp):
            raise IllegalPlayError("that leaves six points in a row with no opponent checker ahead of them")
        raise IllegalPlayError("that play is not legal with %d-%d" % (self.high, self.low))

    def _path(self, pos, s, t, left):
        """Single-die steps ``[(from, to, die)]`` carrying one checker from s
        to t: the fewest dice that add up, in any order the rules allow."""
        if not left:
            raise IllegalPlayError("no dice left for %d/%s" % (s, t or "off"))
        first_error = None
        for n in range(1, len(left) + 1):
            for dice in orders(left):
                dice = dice[:n]
                landings = []
                cur = s
                for d in dice:
                    cur = cur - d if cur - d > 0 else 0
                    landings.append(cur)
                if landings[-1] != t or 0 in landings[:-1]:
                    continue  # these dice do not carry the checker to t
                trial = pos.copy()
                cur = s
                error = None
                for d in dice:
                    error = self.move_error(trial, cur, d)
                    if error:
                        break
                    nxt = cur - d if cur - d > 0 else 0
                    apply_move(trial, cur, nxt)
                    cur = nxt
                if error is None:
                    steps = []
                    cur = s
                    for d in dice:
                        nxt = cur - d if cur - d > 0 else 0
                        steps.append((cur, nxt, d))
                        cur = nxt
                    return steps
                first_error = first_error or error
            if first_error:
                break
        raise IllegalPlayError(first_error or "the dice left (%s) do not carry a checker from %d to %s"
                               % ("-".join(str(d) for d in left), s, t or "off"))

    # -- guidance during the turn -----------------------------------------
    def steps(self, position):
        """Single moves ``[(from, to, die), ...]`` still to make at ``position``,
        reached part-way through this turn; None when ``position`` is not on
        the way to a legal play, ``[]`` when it is a legal result.

        As for backgammon (``pipcore.steps``) positions are judged, not the
        order of moves: ``position`` is on the way when it is the start plus
        some of the single moves of one legal way to play, made in any order
        the checkers physically allow (e.g. a bear-off before the last
        checker comes home, when both moves belong to one legal play).
        """
        if bytes(position.opp) != bytes(self.position.opp):
            return None
        key = bytes(position.me)
        if self.double:
            found = self._double_steps(position.me)
        else:
            found = self._mixed_index().get(key)
            found = list(found) if found else None
        if found:
            return found
        return [] if key in self._keys() else None

    def _double_steps(self, pm):
        """Next moves at ``pm`` for a double: decode the moves made so far
        (every move uses the same die, so the net change fixes them) and
        compare with each legal play's moves."""
        d = self.high
        start = self._start
        made = bytearray(25)  # moves made from each point
        total = 0
        for p in range(HEAD, 0, -1):
            n = start[p] - pm[p] + (made[p + d] if p + d <= HEAD else 0)
            if n < 0:
                return None
            made[p] = n
            total += n
        off = 0
        for p in range(1, min(d, HEAD) + 1):
            off += made[p]
        if off != pm[0] - start[0] or total >= self.dice_used:
            return None
        ways = self._ways
        if ways is None:  # once per turn (steps is asked at every lift): each play's sources, highest first,
            ways = self._ways = _sources_of(self.plays)  # 4 bytes a play (0: no move), in one piece
        done = bytearray(total)  # the moves made so far, by source, highest first
        k = 0
        for p in range(HEAD, 0, -1):
            for _ in range(made[p]):
                done[k] = p
                k += 1
        # the sources of each play not made yet (both lists highest first), if every move made is the play's;
        # walked without making anything (a 1-1 of 183 plays made ~150 KB of garbage here on the unix port)
        out = []
        seen = bytearray(HEAD + 1)  # sources already in ``out`` (the die is the same for every move)
        for w in range(0, len(ways), 4):
            i = 0
            n = 0
            for j in range(w, w + 4):
                s = ways[j]
                if not s:
                    break
                n += 1
                if i < total and done[i] == s:
                    i += 1
                elif i < total and done[i] > s:
                    i = -1
                    break
            if i != total or n <= total:
                continue
            i = 0
            for j in range(w, w + n):
                s = ways[j]
                if i < total and done[i] == s:
                    i += 1
                elif pm[s] and not seen[s]:
                    seen[s] = 1
                    out.append((s, s - d if s > d else 0, d))
        return out

    def _mixed_index(self):
        """``{position: [moves]}`` over every legal way to play a non-double,
        each also in the other order when the checkers allow it."""
        if self._index is not None:
            return self._index
        keys = self._keys()
        ways = []
        self._m = bytearray(self._start)
        self._outside = _count_outside(self._m)
        m = self._m
        each = self._check_each
        for d1, d2 in ((self.high, self.low), (self.low, self.high)):
            if self.dice_used == 1 and d1 != self._one_die:
                continue
            for a in range(HEAD, 0, -1):
                a2 = self._play(a, d1, each)
                if a2 < 0:
                    continue
                if self.dice_used == 1 or m[0] == CHECKERS:
                    if bytes(m) in keys:
                        ways.append(((a, a2, d1), None))
                else:
                    for b in range(HEAD, 0, -1):
                        b2 = self._play(b, d2, each)
                        if b2 < 0:
                            continue
                        if bytes(m) in keys:
                            ways.append(((a, a2, d1), (b, b2, d2)))
                        self._undo(b, b2)
                self._undo(a, a2)
        index = {}
        start = self._start
        for first, second in ways:
            _add_step(index, start, first)
            if second is None:
                continue
            _add_step(index, _moved(start, first), second)
            if start[second[0]]:  # the other way round
                _add_step(index, start, second)
                other = _moved(start, second)
                if other[first[0]]:
                    _add_step(index, other, first)
        self._index = index
        return index


def _sources_of(plays):
    """Each play's sources, highest first, 4 bytes a play (0 after its last move): a double's plays."""
    ways = bytearray(4 * len(plays))
    w = 0
    for code in plays:
        n = code & 7
        for i in range(n):  # insertion, highest first (at most 4)
            s = code >> (3 + 5 * i) & 31
            j = w + i
            while j > w and ways[j - 1] < s:
                ways[j] = ways[j - 1]
                j -= 1
            ways[j] = s
        w += 4
    return ways


def _moved(me, move):
    out = bytearray(me)
    out[move[0]] -= 1
    out[move[1]] += 1
    return bytes(out)


def _add_step(index, key, move):
    entry = index.get(key)
    if entry is None:
        index[key] = [move]
    elif move not in entry:
        entry.append(move)
