"""Backgammon with the Caucasian restriction and the jail bear-off clause.

RULES.md section 3: with ``caucasian`` a checker that hits (on the mover's
points 1-6, or anywhere with ``scope = "board"``) is *marked* for the rest of
the turn and may not land on a point that already holds the mover's own
checkers (C1-C5); with ``jail`` a checker that hits on points 1-6 may not be
borne off that turn, nor may any checker from a point where such a hit
happened (J1, J2). Both remove single moves before the obligation rules
O1/O2 choose among complete plays.

C4 demands checker identity within the turn, so the search state carries,
per point, how many of the mover's checkers are marked. A checker falls in
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
from pipcore.playcodes import PlayList, orders, pack
from pipcore.position import BAR, CHECKERS
from pipcore.rules import apply_move, check_dice

# state layout: one bytearray per search state
_M = const(0)  # mover's checkers, 26 slots
_O = const(26)  # opponent's checkers, 26 slots
_K1 = const(52)  # marked outside the home board (scope "board"), 26 slots
_K2 = const(78)  # marked in the home board (also jailed), 26 slots
_JAIL = const(104)  # bit p set: a hit happened on point p (1-6)
_HIGH = const(105)  # high dice left (doubles: all four)
_LOW = const(106)  # low dice left
_SIZE = const(107)


def restriction_possible(position, caucasian=True, scope="home", jail=False):
    """Could a hit this turn mark a checker? (Else standard rules apply.)"""
    opp = position.opp
    wide = caucasian and scope == "board"
    for t in range(1, 25):
        if opp[25 - t] == 1 and (t <= 6 or wide):
            return True
    return False


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
        self._graph = None
        self._result_keys = None
        self.dice_used = 0
        self.plays = []
        self._generate()

    # -- single moves on a search state ------------------------------------
    def _successors(self, st):
        """Yield ``(s, t, die, kind, new_state)`` for every legal single move."""
        out = []
        m = st  # _M is 0: mover slots are st[0..25]
        if m[0] == CHECKERS:
            return out
        dice = []
        if st[_HIGH]:
            dice.append(self.high)
        if st[_LOW] and self.low != self.high:
            dice.append(self.low)
        if m[BAR]:
            sources = (BAR,)
        else:
            sources = [p for p in range(24, 0, -1) if m[p]]
        home_only = True
        for p in range(7, 26):
            if m[p]:
                home_only = False
                break
        for d in dice:
            for s in sources:
                t = s - d
                if t >= 1:
                    here = st[_O + 25 - t]
                    if here >= 2:
                        continue
                    hit = here == 1
                    own_there = m[t] > 0
                elif not home_only:
                    continue
                else:
                    if t < 0:
                        higher = False
                        for p in range(s + 1, 7):
                            if m[p]:
                                higher = True
                                break
                        if higher:
                            continue
                    if self.jail and st[_JAIL] >> s & 1:
                        continue  # J2
                    hit = False
                    own_there = False
                k1 = st[_K1 + s]
                k2 = st[_K2 + s]
                plain = m[s] - k1 - k2
                for kind, count in ((0, plain), (1, k1), (2, k2)):
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
        if kind == 1:
            new[_K1 + s] -= 1
        elif kind == 2:
            new[_K2 + s] -= 1
        if t >= 1:
            new[t] += 1
            if hit:
                new[_O + 25 - t] = 0
                new[_O + BAR] += 1
                if t <= 6:
                    kind = 2 if (self.caucasian or self.jail) else 0
                    if self.jail:
                        new[_JAIL] |= 1 << t
                elif self._wide and kind == 0:
                    kind = 1
            if kind == 1:
                new[_K1 + t] += 1
            elif kind == 2:
                new[_K2 + t] += 1
        else:
            new[0] += 1
        if d == self.high and new[_HIGH]:
            new[_HIGH] -= 1
        else:
            new[_LOW] -= 1
        return new

    def _start_state(self):
        st = bytearray(_SIZE)
        st[0:26] = self.position.me
        st[_O:_O + 26] = self.position.opp
        if self.double:
            st[_HIGH] = 4
        else:
            st[_HIGH] = 1
            st[_LOW] = 1
        return st

    # -- generation -----------------------------------------------------------
    def _search(self, keep_graph):
        """Breadth-first over states; returns complete plays and, if asked,
        the move graph ``{state: [(s, t, d, next_state), ...]}``."""
        start = bytes(self._start_state())
        level = {start: []}  # state -> one move sequence reaching it
        complete = []  # (dice used, first die, board key, sequence)
        graph = {} if keep_graph else None
        total = 4 if self.double else 2
        while level:
            nxt = {}
            for key, seq in level.items():
                moves = self._successors(key)
                if keep_graph:
                    graph[key] = [(s, t, d, bytes(new)) for s, t, d, _, new in moves]
                if not moves:
                    used = total if key[0] == CHECKERS else len(seq)
                    first = seq[0][1] if seq else 0
                    complete.append((used, first, key[:52], seq))
                    continue
                for s, t, d, _, new in moves:
                    k = bytes(new)
                    if k not in nxt:
                        nxt[k] = seq + [(s, d)]
            level = nxt
        return complete, graph

    def _generate(self):
        complete, _ = self._search(False)
        best = 0
        for used, _, _, _ in complete:
            if used > best:
                best = used
        chosen = [c for c in complete if c[0] == best]
        self._one_die = 0
        if not self.double and best == 1:
            with_high = [c for c in chosen if c[1] == self.high]  # O2
            if with_high:
                chosen = with_high
            self._one_die = self.high if with_high else self.low
        self.dice_used = best
        seen = {}
        for used, _, board, seq in chosen:
            if board not in seen:
                srcs = [s for s, _ in seq]
                high_first = 1 if (self.double or not seq or seq[0][1] == self.high) else 0
                seen[board] = pack(srcs, high_first)
        self.plays = list(seen.values()) or [0]
        self._legal_boards = seen

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
        _, graph = self._search(True)
        good = set()
        for key, moves in graph.items():
            if not moves and key[:52] in self._legal_boards and self._finished_right(key):
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
        used = total if key[0] == CHECKERS else total - left
        if used != self.dice_used:
            return False
        if not self.double and used == 1 and key[0] != CHECKERS:
            return (self.high if key[_HIGH] == 0 else self.low) == self._one_die
        return True
