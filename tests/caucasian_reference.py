"""Reference copy of the first (breadth-first, whole-board states) Caucasian/jail generator, kept for the differential tests (slow; not firmware).

Original docstring:

RULES.md section 3: with ``caucasian`` a checker that hits (on the mover's
points 1-6, or anywhere with ``scope = "board"``) is *marked* for the rest of
the turn and may not land on a point that already holds the mover's own
checkers (C1-C5); with ``jail`` a checker that hits on points 1-6 may not be
borne off that turn, nor may any checker from a point where such a hit
happened (J1, J2). Both remove single moves before the obligation rules
O1/O2 choose among complete plays.

C4 demands checker identity within the turn, so the search state carries
where the marked checkers stand (at most four: one per move). A checker falls in
one of three kinds: plain, marked by a hit outside the home board (only
with scope ``board``), or marked by a hit in the home board (also jailed).
Where a point holds checkers of several kinds, each kind that may legally
move is tried: the board looks the same, the rest of the turn may not.

``Turn`` offers the interface of ``pipcore.rules.Turn``: ``plays``,
``dice_used``, ``moves``, ``result``, ``results``, ``result_for``,
``steps`` and ``is_complete``. When no hit can mark a checker this turn the
rules are those of standard backgammon, and ``pipcore.variants.make_turn``
uses the plain generator instead (``restriction_possible``).
"""

from pipcore.compat import const
from pipcore.options import ConfigError
from pipcore.playcodes import PlayList, orders
from pipcore.position import BAR, CHECKERS
from pipcore.rules import apply_move, check_dice

# search state: one 40-byte bytearray (bytes as a dict key)
_HITS = const(26)  # 3 bytes: bit t-1 set when the opponent's blot on point t was hit
_K2 = const(29)  # 4 slots: points of checkers marked by a hit in the home board (also jailed), 0 = none
_K1 = const(33)  # 4 slots: points of checkers marked by a hit outside it (scope "board")
_JAIL = const(37)  # bit p set: a hit happened on point p (1-6)
_HIGH = const(38)  # high dice left (doubles: all four)
_LOW = const(39)  # low dice left
_SIZE = const(40)


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


def _count(st, base, p):
    """Marked checkers of one kind on point ``p``."""
    return (st[base] == p) + (st[base + 1] == p) + (st[base + 2] == p) + (st[base + 3] == p)


def _move_mark(new, base, s, t):
    """Move one mark of a kind from ``s`` to ``t`` (s 0: add, t 0: drop); keep
    the four slots sorted so equal states have equal bytes."""
    slots = [new[base], new[base + 1], new[base + 2], new[base + 3]]
    if s:
        slots.remove(s)
        slots.append(0)
    if t:
        slots[slots.index(0)] = t
    slots.sort()
    slots.reverse()
    new[base:base + 4] = bytes(slots)


class Turn(PlayList):
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
        # the opponent's points for the turn: closed ones stay closed, blots
        # can only be hit (the state records which)
        opp = position.opp
        self._closed = bytearray(25)
        self._blot = bytearray(25)
        for t in range(1, 25):
            if opp[25 - t] >= 2:
                self._closed[t] = 1
            elif opp[25 - t] == 1:
                self._blot[t] = 1
        self._graph = None
        self.dice_used = 0
        self.plays = []
        self._generate()

    # -- single moves on a search state ------------------------------------
    def _successors(self, st, only=None):
        """Every legal single move ``[(s, t, die, kind, new_state)]``."""
        out = []
        if st[0] == CHECKERS:
            return out
        if not st[_HIGH]:
            if not st[_LOW]:
                return out
            dice = (self.low,)
        elif st[_LOW] and self.low != self.high:
            dice = (self.high, self.low)
        else:
            dice = (self.high,)
        if st[BAR]:
            top = low = BAR
        else:
            top = 24
            low = 1
        home_only = True
        for p in range(7, 26):
            if st[p]:
                home_only = False
                break
        closed = self._closed
        blot = self._blot
        marks = st[_K1] or st[_K2]
        for d in dice:
            for s in range(top, low - 1, -1):
                if not st[s]:
                    continue
                t = s - d
                if t >= 1:
                    if closed[t]:
                        continue
                    hit = blot[t] and not (st[_HITS + ((t - 1) >> 3)] >> ((t - 1) & 7) & 1)
                    own_there = st[t] > 0
                elif not home_only:
                    continue
                else:
                    if t < 0:
                        higher = False
                        for p in range(s + 1, 7):
                            if st[p]:
                                higher = True
                                break
                        if higher:
                            continue
                    if self.jail and st[_JAIL] >> s & 1:
                        continue  # J2
                    hit = False
                    own_there = False
                if not marks or not (_count(st, _K1, s) or _count(st, _K2, s)):
                    # only plain checkers here: the usual case
                    out.append((s, t if t > 0 else 0, d, 0, self._apply(st, s, t, d, hit, 0)))
                    continue
                k1 = _count(st, _K1, s)
                k2 = _count(st, _K2, s)
                for kind, count in ((0, st[s] - k1 - k2), (1, k1), (2, k2)):
                    if not count:
                        continue
                    if kind and own_there and self.caucasian:
                        continue  # C2: a marked checker may not hide
                    if kind == 2 and t <= 0 and self.jail:
                        continue  # J1: the jailed hitter stays on the board
                    out.append((s, t if t > 0 else 0, d, kind, self._apply(st, s, t, d, hit, kind)))
        return out

    def _apply(self, st, s, t, d, hit, kind):
        new = bytearray(st)
        new[s] -= 1
        after = kind
        if t >= 1:
            new[t] += 1
            if hit:
                new[_HITS + ((t - 1) >> 3)] |= 1 << ((t - 1) & 7)
                if t <= 6:
                    after = 2 if (self.caucasian or self.jail) else 0
                    if self.jail:
                        new[_JAIL] |= 1 << t
                elif self._wide and kind == 0:
                    after = 1
        else:
            new[0] += 1
            t = 0
        if kind or after:
            if kind == after:
                _move_mark(new, _K1 if kind == 1 else _K2, s, t)
            else:
                if kind:
                    _move_mark(new, _K1 if kind == 1 else _K2, s, 0)
                if after:
                    _move_mark(new, _K1 if after == 1 else _K2, 0, t)
        if d == self.high and new[_HIGH]:
            new[_HIGH] -= 1
        else:
            new[_LOW] -= 1
        return new

    def _start_state(self):
        st = bytearray(_SIZE)
        st[0:26] = self.position.me
        if self.double:
            st[_HIGH] = 4
        else:
            st[_HIGH] = 1
            st[_LOW] = 1
        return st

    def _board(self, st):
        """The position key (``Position.key()``) of a search state."""
        opp = bytearray(self.position.opp)
        for t in range(1, 25):
            if st[_HITS + ((t - 1) >> 3)] >> ((t - 1) & 7) & 1:
                opp[25 - t] = 0
                opp[BAR] += 1
        return bytes(st[0:26]) + bytes(opp)

    # -- generation -----------------------------------------------------------
    def _search(self, keep_graph):
        """Breadth-first over states, keeping for each a play code that reaches
        it. Returns ``(best, finals, graph)``: the most dice a complete play
        uses, ``{board (+ first die for one-die plays): code}`` of the complete
        plays using that many, and if asked the move graph
        ``{state: [(s, t, d, next_state), ...]}``."""
        level = {bytes(self._start_state()): 0}
        finals = {}
        best = -1
        graph = {} if keep_graph else None
        total = 4 if self.double else 2
        depth = 0
        while level:
            nxt = {}
            shift = 3 + 5 * depth
            for key, code in level.items():
                moves = self._successors(key)
                if keep_graph:
                    graph[key] = [(s, t, d, bytes(new)) for s, t, d, _, new in moves]
                if not moves:
                    used = total if self.double and key[0] == CHECKERS else depth
                    if used < best:
                        continue
                    if used > best:
                        best = used
                        finals = {}
                    board = self._board(key)
                    if used == 1 and not self.double:
                        board += b"\x01" if code >> 23 & 1 else b"\x00"
                    if board not in finals:
                        finals[board] = code
                    continue
                for s, _, d, _, new in moves:
                    k = bytes(new)
                    if k not in nxt:
                        c = (code & ~7) | (depth + 1) | (s << shift)
                        if depth == 0 and d == self.high:
                            c |= 1 << 23
                        nxt[k] = c
            level = nxt
            depth += 1
        return best, finals, graph

    def _generate(self):
        best, finals, _ = self._search(False)
        self._one_die = 0
        if not self.double and best == 1:
            high = [b for b in finals if b[-1]]  # O2: the higher die if it can be played
            chosen = high or list(finals)
            self._one_die = self.high if high else self.low
            boards = {}
            for b in chosen:
                boards[b[:-1]] = finals[b]
        else:
            boards = finals
        self.dice_used = best
        self.plays = list(boards.values()) or [0]
        self._legal_boards = boards

    def is_complete(self, position):
        """True when ``position`` is the result of a legal play of this turn."""
        return bytes(position.me) + bytes(position.opp) in self._legal_boards

    # -- guidance during the turn ---------------------------------------------
    def steps(self, position):
        """Single moves ``[(from, to, die), ...]`` still to make at ``position``,
        reached part-way through this turn; None when ``position`` is not on
        the way to a legal play, ``[]`` when it is a legal result.

        As for standard backgammon (``pipcore.steps``) positions are judged,
        not the order: ``position`` is on the way when it is the start plus
        some of the single moves of one legal way to play (legal with the
        marks of C1-C5 and J1-J2), made in any order the checkers allow.
        """
        if self._graph is None:
            self._graph = self._index()
        key = bytes(position.me) + bytes(position.opp)
        found = self._graph.get(key)
        if found:
            return list(found)
        return [] if key in self._legal_boards else None

    def _index(self):
        """``{board: [moves]}`` over every order of every legal way to play."""
        _, _, graph = self._search(True)
        good = set()
        for key, moves in graph.items():
            if not moves and self._board(key) in self._legal_boards and self._finished_right(key):
                good.add(key)
        changed = True
        while changed:  # a state is good when one of its moves leads to a good one
            changed = False
            for key, moves in graph.items():
                if key in good:
                    continue
                for _, _, _, nxt in moves:
                    if nxt in good:
                        good.add(key)
                        changed = True
                        break
        memo = {}

        def ways_from(key):
            # the move multisets (sorted tuples) of the legal ways on from ``key``
            if key in memo:
                return memo[key]
            out = set()
            for s, t, d, nxt in graph[key]:
                if nxt in good:
                    for rest in ways_from(nxt):
                        out.add(tuple(sorted(((s, t, d),) + rest)))
            if not out:
                out.add(())
            memo[key] = out
            return out

        table = {}
        start = self.position
        for way in ways_from(bytes(self._start_state())):
            for order in orders(list(way)):
                pos = start.copy()
                for s, t, d in order:
                    if not pos.me[s]:
                        break  # that checker is not there yet
                    key = pos.key()
                    entry = table.get(key)
                    if entry is None:
                        table[key] = [(s, t, d)]
                    elif (s, t, d) not in entry:
                        entry.append((s, t, d))
                    apply_move(pos, s, t)
        return table

    def _finished_right(self, key):
        """A complete state whose play uses the dice the obligations demand."""
        total = 4 if self.double else 2
        left = key[_HIGH] + key[_LOW]
        used = total if self.double and key[0] == CHECKERS else total - left
        if used != self.dice_used:
            return False
        if not self.double and used == 1:
            return (self.high if key[_HIGH] == 0 else self.low) == self._one_die
        return True
