"""The tracker: one roll being played by hand on the board.

A person moves checkers one at a time, in any order, sometimes straight to
the end of a combined move, and the switches only count checkers per
location. The tracker follows the sensed counts through the positions the
turn can pass through (``pipcore.turnmap``), as a tree of ``Node`` s grown
on demand from the position at the roll:

* ``follow(sensed)`` finds, after every settled change, the readings of the
  counts: a node of the turn with checkers in hand, hit checkers still on
  their points and blots already on the bar before their hitter. It looks at
  the nodes believed so far, the nodes a checker (or a few) away from them,
  and the nodes on the way back, and keeps the best (fewest checkers in hand,
  then fewest adjustments; without checkers in hand, the fewest moves from
  the last reading; a finished play the counts show first). It answers
  ``AT_REST``, ``ADJUST``, ``IN_HAND`` or ``WRONG``; ``cands`` holds the
  readings that stay equally good, ``cur`` the one believed;
* ``at_done(sensed)`` lists the complete legal plays the board may show when
  DONE is pressed (several where the switches cannot tell them apart);
* ``idle()`` prepares the lift targets of one more movable checker while
  nothing happens, so a lift is answered from what is ready. What it
  prepares makes a change cheaper, never read differently: a node that
  stops being believed loses its kept targets whether they were prepared
  or made on demand (``_set_cur``, ``refine``).

The tracker knows nothing of the cube, the score or the LEDs. Its tables
belong to this roll: ``drop_caches`` lets them go (they are rebuilt on
demand), and the controller drops the whole tracker when the play is made.
"""

from pipcore.board import index, BAR0, NLOC, find, fill_counts, opp_slot, slot_loc, slot_table
from pipcore.compat import const
from pipcore.reach import _moved

AT_REST = const(0)  # the counts show ``cands`` (the current node first)
ADJUST = const(1)  # ``cur`` with hit checkers still on their points, or blots on the bar before their hitter
IN_HAND = const(2)  # ``cur`` with checkers in hand (and maybe adjustments)
WRONG = const(3)  # no reading of the turn shows the counts: a checker where none may be

# Child nodes idle() keeps ready at the current node (about 400 B each on the unix port, half on
# the Pico): the worst 1-1 of the bench has 58, so every lift there is answered from what is ready.
IDLE_NODES = const(40)

# Ways judged by the turn's steps() (``_reach``) when a settled change is answered (QUICK_BUDGET)
# and when the same counts are judged again (``refine``, REACH_BUDGET). The change is answered at
# once from the kept lift targets; the deeper search that real plays need (at 4 ways, 2 of 20,000
# random plays in random hand orders were misread) is the controller's tick ``DEEP_MS`` later (or
# DONE): at a set time, never at whichever quiet poll comes first (pipcore.controller).
QUICK_BUDGET = const(0)
REACH_BUDGET = const(12)


_SRCS = const(0)  # Node.memo entries: movable sources (bit per point)
_TARGETS = const(1)  # source -> [child nodes]
_DONE = const(2)  # a legal result (``complete``)


class Node:
    """A position passed through during the turn, with the dice still to play.

    ``to`` is where the checker that made it landed (-1 at the root). A child
    keeps the way it was made (``(apply, from, points passed)``) instead of
    its Position until someone asks for ``pos`` (most children are only
    compared by their sensed ``key``). What is worked out about a node lives
    in ``memo`` (None until asked). Measured on the unix port (64-bit, the
    58 children of the worst 1-1's movable checkers): about 310 bytes per
    child with its key and list entry (about half on the Pico), where a
    Position, (to, node) tuples and seven attributes took 500.
    """

    def __init__(self, pos, left, key, parent, to=-1):
        self.way = pos  # the Position, or how to rebuild it from the parent's
        self.left = left
        self.key = key
        self.parent = parent
        self.to = to
        self.memo = None

    @property
    def pos(self):
        way = self.way
        if type(way) is tuple:
            return self._build(way)
        return way  # (this path has a small frame: read often, it must not allocate one on the heap)

    def _build(self, way):
        apply, at, path = way
        pos = self.parent.pos.copy()
        for q in path:
            apply(pos, at, q)
            at = q
        apply(pos, at, self.to)
        self.way = pos
        return pos


def _memo(node):
    memo = node.memo
    if memo is None:
        memo = node.memo = [None, None, None]
    return memo


def _distinct(nodes):
    """``nodes`` without repeats of a position with the same dice left (the first kept). (Compared in
    place: a few nodes, where keys made for a dict allocated three objects each.)"""
    out = []
    for n in nodes:
        for m in out:
            if m.left == n.left and m.pos == n.pos:
                break
        else:
            out.append(n)
    return out


def _keep_way(memo, node):
    """Keep, of a node's lift targets, only the list holding ``node`` or one of its ancestors."""
    cache = memo[_TARGETS]
    for src in cache:
        for kid in cache[src]:
            n = node
            while n is not None and n is not kid:
                n = n.parent
            if n is not None:
                memo[_TARGETS] = {src: cache[src]}
                return
    memo[_TARGETS] = None


class Tracker:
    """The hands' progress through one roll of ``turn`` from ``pos`` (seen from ``mover``).

    ``only`` (a result position) restricts the turn to one play, as when a
    host or an engine gives the play to execute.
    """

    _moved = _moved  # (pipcore.reach: the children of a node the counts may show)

    def __init__(self, turn, pos, mover, capacity, nardy=False, only=None):
        from pipcore.turnmap import TurnMap
        if nardy:
            from pipcore.nardy import apply_move as nardy_apply
            self.tmap = TurnMap(turn, only, nardy_apply)
        else:
            self.tmap = TurnMap(turn, only)
        self.turn = turn
        self.only = only
        self.pos = pos
        self.mover = mover
        self.capacity = capacity
        self.nardy = nardy
        self._scratch = bytearray(NLOC)
        self._lefts = {}  # dice-left tuples shared by the nodes
        self.root = Node(pos, self.tmap.dice, self.key(pos), None)
        self.cur = self.root
        self.cands = [self.root]  # the best readings (the believed one, ``cur``, first)
        self.kind = AT_REST
        self.hand = 0  # checkers in hand in the believed reading
        # location -> the opponent's point (his numbering) of a blot the mover may hit this turn, else 0
        blots = bytearray(NLOC)
        if not nardy:
            other = 1 - mover
            for q in range(1, 25):
                if pos.opp[q] == 1:
                    blots[slot_loc(other, q)] = q
        self.blots = bytes(blots)
        self.blot_locs = [i for i in range(NLOC) if blots[i]]
        self.budget = REACH_BUDGET
        self.starved = False  # a way was left unjudged for want of budget
        self.deep = None  # counts answered from a quick search, to judge again (``refine``)
        self._before = None  # (cands, cur) the deeper search starts from
        self._read = None  # the counts last read by ``_follow``
        self.full = 0  # the locations of the counts followed at their switches' capacity (bit per location)
        self._table = slot_table(mover, nardy)
        from pipcore.reach import reach
        self._reach = reach if (not nardy and only is None and self.tmap._rules_steps) else None
        self._most = None  # more checkers per location than any position of the turn shows (``_follow``)

    # -- keys and tables -------------------------------------------------------
    def key(self, pos):
        """The counts the switches would sense for ``pos``."""
        buf = self._scratch
        fill_counts(pos, self.mover, buf, self.capacity, self.nardy)
        return bytes(buf)

    def true_counts(self, out):
        """Unclipped counts of the current node into ``out``."""
        fill_counts(self.cur.pos, self.mover, out, None, self.nardy)
        return out

    def code_for(self, pos):
        return self.tmap.code_for(pos)

    def drop_caches(self):
        """Forget what can be recomputed: lift targets, sources, pending hits, the turn map's memo."""
        node = self.cur
        while node is not None:
            node.memo = None
            node = node.parent
        self.deep = None
        self._before = None
        self.tmap._ok = {}
        self._lefts = {}
        self._most = None

    def complete(self, node):
        """True when ``node`` is a legal result (kept on the node)."""
        memo = _memo(node)
        if memo[_DONE] is None:
            memo[_DONE] = self.tmap.complete(node.pos)
        return memo[_DONE]

    def sources(self, node):
        """Points a checker may start a move from at ``node``: bit ``p`` for point ``p`` (kept on the
        node)."""
        memo = _memo(node)
        srcs = memo[_SRCS]
        if srcs is None:
            srcs = memo[_SRCS] = self.tmap.sources(node.pos, node.left)
        return srcs

    def lift_targets(self, node, src):
        """The child nodes (``child.to``: where it lands) of a checker lifted from ``src`` at ``node``
        (kept on the node)."""
        cache = _memo(node)[_TARGETS]
        if cache is not None and src in cache:
            return cache[src]  # (the kept list: this path's frame stays off the heap)
        return self.targets(node, src)

    def targets(self, node, src):
        """``lift_targets`` worked out (and kept)."""
        memo = _memo(node)
        cache = memo[_TARGETS]
        if cache is None:
            cache = memo[_TARGETS] = {}
        out = cache.get(src)
        if out is None:
            out = []
            lefts = self._lefts
            apply = self.tmap.apply
            for t, child, left2, path in self.tmap.targets(node.pos, node.left, src):
                shared = lefts.get(left2)  # one tuple per dice left, not one per node
                if shared is None:
                    shared = lefts[left2] = left2
                kid = self._child(node, child, shared, src, t, path)
                kid.way = (apply, src, path)  # its Position is rebuilt when asked for
                out.append(kid)
            cache[src] = out
        return out

    def _child(self, parent, pos, left, src, to, path=()):
        """Node for ``pos`` reached from ``parent`` by one checker ``src`` -> ``to`` (through ``path``).

        The sensed key is patched from the parent's: only the source, the
        landing points and the opponent's bar can change.
        """
        key = bytearray(parent.key)
        cap = self.capacity
        me = pos.me
        opp = pos.opp
        table = self._table
        loc = BAR0 + 1 - self.mover  # the opponent's bar
        key[loc] = opp[25] if opp[25] < cap[loc] else cap[loc]
        for q in (src, to) + path:
            loc = table[q]
            if q == 0 or q == 25:  # the mover's tray or bar
                c = me[q]
            else:
                c = me[q] + opp[25 - q if not self.nardy else opp_slot(q, True)]
            key[loc] = c if c < cap[loc] else cap[loc]
        return Node(pos, left, bytes(key), parent, to)

    def _set_cur(self, node):
        """Believe ``node``. The targets kept on the way there: only the list holding the way taken
        (a checker moved on again, or a take-back, is read from it); the siblings go."""
        old = self.cur
        if old is node:
            return
        self.cur = node
        n = node.parent
        while n is not None:  # the new node's ancestors: keep one list each
            memo = n.memo
            if memo is not None and memo[_TARGETS]:
                _keep_way(memo, node)
            if n is old:
                return
            n = n.parent
        memo = old.memo
        if memo is not None:
            memo[_TARGETS] = None

    # -- following the hands ------------------------------------------------------
    def idle(self, sensed):
        """Prepare the lift targets of one more movable checker, then what a checker put down on one of
        them asks (is it a result, which checkers may move on); True if it did something."""
        cur = self.cur
        if sensed is not None and sensed != cur.key:
            return False
        if self._most is None and self._reach is not None:  # the bound a wrong placement is read against
            from pipcore.reach import top
            self._most = top(self)
            return True
        cache = _memo(cur)[_TARGETS]
        ready = 0
        if cache is not None:
            for kids in cache.values():
                ready += len(kids)
        if ready < IDLE_NODES:  # (enough kept ready: a lift from elsewhere is computed when it comes)
            srcs = self.sources(cur)
            p = 25
            while p >= 0:  # (the highest first)
                if srcs >> p & 1 and (cache is None or p not in cache):
                    self.lift_targets(cur, p)
                    return True
                p -= 1
        if cache is not None:
            for kids in cache.values():
                for kid in kids:
                    memo = kid.memo
                    if memo is None or memo[_SRCS] is None:
                        way = kid.way
                        self.complete(kid)
                        self.sources(kid)
                        kid.way = way  # (its Position is built again when asked: not kept for every child)
                        return True
        return False

    def follow(self, s, budget=QUICK_BUDGET):
        """Read the sensed counts ``s`` (bytes): AT_REST, ADJUST, IN_HAND or WRONG (see the module).

        Readings are nodes of the turn with checkers in hand, hit checkers
        still on their points (``pend``) and blots already on the bar before
        their hitter came (``pre``). Looked at: the nodes believed so far and
        the nodes one checker (or a few, moved before the switches settled)
        away from them; if none reads the counts without an adjustment, the
        nodes on the way back and theirs too. The best reading has the
        fewest checkers in hand, then the fewest adjustments, then the
        fewest moves from the node believed before.

        With the quick ``budget`` (a settled change) only a few ways off the
        kept lift targets are judged; if some were left, ``deep`` holds the
        counts and ``refine`` judges them again from the same readings with
        the full budget (the app's quiet polls).
        """
        cur = self.cur
        if s == cur.key:
            cands = self.cands
            if not (cands and cands[0] is cur and cands[0].key == s):
                self.cands = [cur]
            self.kind = AT_REST
            self._read = s  # (the kind kept for ``_read`` must be the one of its counts)
            if self.deep is not None:
                self.deep = s
            return AT_REST
        if s == self._read:
            return self.kind  # (the same counts shown again: read already, or judged again by ``refine``)
        if self.deep is None:
            self._before = (self.cands, cur)  # (a pending deeper search keeps its older start)
        return self._follow(s, budget)

    def refine(self, s):
        """Judge the counts ``s`` answered from a quick search again with the full budget, from the
        readings held before it; True if it did (the caller shows the readings again)."""
        if self.deep is None or s != self.deep or self._before is None:
            return False
        cands, cur = self._before
        self._set_cur(cur)  # (as any change of reading: what quiet polls prepared on the hasty one goes, as
        self.cands = cands  # it would have if none had run; a search reads kept targets, so this matters)
        self.deep = None
        self._follow(s, REACH_BUDGET)
        self.deep = None
        self._before = None
        return True

    def _follow(self, s, budget):
        # [score: checkers in hand << 8 | adjustments, nodes, nodes as many in hand with more adjustments]
        best = [None, [], []]
        seen = {}
        self.budget = budget
        self.starved = False
        self._read = s
        cap = self.capacity
        most = self._most
        if most is None:  # (no bound where the search is not the standard one)
            from pipcore.reach import top
            most = self._most = top(self) if self._reach is not None else b"\xff" * NLOC
        full = 0
        for i in range(NLOC):
            if s[i] >= cap[i]:
                full |= 1 << i
        cannot = False  # no position of the turn reads ``s``: a location shows more than any has there
        find(s, self.cur.key)  # (a node of the turn is within ``most``: only where ``s`` differs can it pass)
        i = 0
        while index[i] < NLOC:
            if s[index[i]] > most[index[i]]:
                cannot = True
                break
            i += 1
        self.full = full
        if cannot:
            # no search: it would find no reading. What it leaves behind is done: the lift targets of
            # the checkers missing at ``cur`` (kept on it) and, in a quick search, ``starved`` (judged
            # again by ``refine``): it starves at the root, which it always reaches from a node moved
            # on from, when a checker missing there has no kept list. Otherwise the search runs.
            self._moved(self.cur, s)
            if budget <= 0 and self.cur is not self.root:
                self._moved(self.root, s)
            if budget > 0 or self.starved:
                self.kind = WRONG
                if self.starved or self.deep is not None:
                    self.deep = s
                return WRONG
        self._consider(None, s, best, seen, True)
        if self.starved or self.deep is not None:
            self.deep = s  # (judged again from ``_before`` by ``refine``)
        score = best[0]
        if score is None:
            self.kind = WRONG
            return WRONG
        nodes = best[1]
        if len(nodes) > 1:
            nodes = _distinct(nodes)
        if len(nodes) > 1:
            if score == 0:  # a finished play the counts show comes first: never guided away from
                done = [n for n in nodes if self.complete(n)]
                if done:
                    nodes = done
            if len(nodes) > 1:
                nodes = self._by_nearness(nodes, score >> 8 != 0)
        if score >> 8 and best[2] and self._blot_held(nodes, s):
            # every best reading holds a blot in hand while the bar shows another hit: a reading as
            # many in hand with more adjustments that is nearer to the last one is kept instead (a blot
            # barred early while a move hides on a full stack reads as well as an unseen hit)
            near = self._by_nearness(best[1] + best[2], False)
            for n in near:
                if n not in nodes:
                    nodes = near
                    break
        self._set_cur(nodes[0])
        self.cands = nodes
        self.hand = score >> 8
        kind = AT_REST if not score else (ADJUST if not score >> 8 else IN_HAND)
        self.kind = kind
        return kind

    def _blot_held(self, nodes, s):
        """True if each of ``nodes`` reads ``s`` with an opponent's blot off its point and not on the bar."""
        o = BAR0 + 1 - self.mover
        for node in nodes:
            k = node.key
            barred = s[o] - k[o]  # blots on the bar before their hitter
            lifted = 0
            for i in self.blot_locs:
                d = s[i] - k[i]
                if d == -1 and node.pos.opp[self.blots[i]]:
                    lifted += 1
                elif d > 0:
                    barred += 1  # (a hit still on its point: its checker is not on the bar yet)
            if lifted <= barred or not lifted:
                return False
        return True

    def _landed_lifted(self, s):
        """True if a checker is missing where one landed this turn (it may be read from before)."""
        k = self.cur.key
        r = self.root.key
        find(s, k)
        i = 0
        while index[i] < NLOC:
            if s[index[i]] < k[index[i]] and k[index[i]] > r[index[i]]:
                return True
            i += 1
        return False

    def next_reading(self):
        """Believe the next of readings that stay equally good (the player's choice)."""
        cands = self.cands
        if len(cands) > 1:
            cands.append(cands.pop(0))
            self._set_cur(cands[0])

    def _by_nearness(self, nodes, every):
        """The ``nodes`` fewest moves away from a node believed before (that one first), or with
        ``every`` all of them, nearest first (checkers in hand: any may be the one lifted)."""
        up = {}
        for c in self.cands:
            d = 0
            n = c
            while n is not None:
                if up.get(id(n), 99) > d:
                    up[id(n)] = d
                d += 1
                n = n.parent
        out = []
        near = 99
        for node in nodes:
            k = 0
            n = node
            while id(n) not in up:
                k += 1
                n = n.parent
            k += up[id(n)]
            if every:
                out.append((k, len(out)))
            elif k < near:
                near = k
                out = [node]
            elif k == near:
                out.append(node)
        if every:
            out.sort()
            return [nodes[i] for _, i in out]
        if self.cur in out:
            out.remove(self.cur)
            out.insert(0, self.cur)
        return out

    def _consider(self, nodes, s, best, seen, expand):
        """Judge each of ``nodes`` in turn and (if ``expand``) the nodes reached from it by
        moving checkers from locations that lost some to locations that gained some (an explicit
        stack: no recursion). ``nodes`` None: ``_follow``'s search, the readings held (``cands``),
        then the nodes on the way back: judged always (a checker set down and lifted again reads as
        well from before it moved), and moved on from when nothing reads the counts as well. (One
        call for it all: this frame is too big for the C stack, and a frame allocated on the heap
        costs more than judging a node.)"""
        back = nodes is None
        if back:
            nodes = self.cands
        stack = []
        o = BAR0 + 1 - self.mover
        hidden = s[o] >= self.capacity[o]  # the opponent's bar is clipped: a hit moves no count
        while True:
            for start in nodes:
                stack.append(start)
                while stack:
                    node = stack.pop()
                    if id(node) in seen:
                        continue  # (the same position reached two ways is told apart at the end)
                    seen[id(node)] = node  # (kept alive while judged: an id is not reused by a later node)
                    got = self.reading(node, s)
                    if got >= 0:
                        old = best[0]
                        if old is None or got >> 8 < old:
                            if old is not None and got >> 16 == old >> 8:
                                best[2] += best[1]  # as many in hand, more adjustments: kept aside
                            else:
                                best[2] = []
                            best[0] = got >> 8
                            best[1] = [node]
                        elif got >> 8 == old:
                            best[1].append(node)
                        elif got >> 16 == old >> 8:
                            best[2].append(node)
                        if not got & 0xFF and not hidden:
                            continue  # nothing sensed beyond this node: moving more only adds checkers out of place
                    if expand:
                        stack.extend(self._moved(node, s))
            if not back:
                return
            back = False
            expand = best[0] is None or best[0] & 0xFF or hidden
            if not expand and not self._landed_lifted(s):
                return
            nodes = []
            node = self.cur.parent
            while node is not None:
                nodes.append(node)
                node = node.parent

    def reading(self, node, s):
        """How ``s`` reads as ``node``: ``(in hand << 8 | adjustments) << 8 | surplus``, or -1.

        In hand: checkers missing from where ``node`` has them. Adjustments:
        hit checkers still on their points (sensed one more there, one less
        on the bar) and blots already on the bar before their hitter came
        (sensed one less on the point, one more on the bar; only while dice
        are left and a checker may still hit them). ``surplus``: locations showing more than ``node``. (One
        int, and locals reused: a frame of 12 locals and stack slots, or a
        tuple, is allocated on the heap, slow in a game's fragmented heap.)
        """
        find(s, node.key)  # (into index: the locations that find, then 255; a native pass where there is one)
        got = 0  # hits pending << 16 | blots lifted << 8 | checkers in hand
        i = 0  # (``index[i]``: the location; read in place, a frame of 12 slots would go on the heap)
        while index[i] < NLOC:
            if index[i] != BAR0 + 1 - self.mover:
                d = s[index[i]] - node.key[index[i]]
                if d > 0:
                    if d > 1 or not self.blots[index[i]] or node.pos.opp[self.blots[index[i]]]:
                        return -1
                    got += 0x10000
                elif d == -1 and self.blots[index[i]] and node.pos.opp[self.blots[index[i]]]:
                    d = 25 - self.blots[index[i]]
                    if not self._hitter(node, d):
                        return -1  # a blot lifted that no checker can still hit: not on its way to the bar
                    got += 0x100
                else:
                    got -= d
            i += 1
        q = self._unseen(node) if self.full else 0
        d = (got & 0xFF) + q  # in hand
        q = got >> 8 & 0xFF  # blots lifted
        got >>= 16  # hits pending (a surplus each)
        i = BAR0 + 1 - self.mover  # the opponent's bar: blots barred early
        if s[i] >= self.capacity[i] and q:
            i = q  # (a clipped bar shows no blot put on it: each lifted one may be there)
        else:
            i = s[i] - node.key[i] + got
        if i > 0:
            if i > q or not node.left:
                return -1
            return ((d + q - i) << 8 | got + i) << 8 | got + 1
        return ((d + q - i) << 8 | got) << 8 | got

    def _hitter(self, node, m):
        """True if a checker of the mover stands a throw of ``node``'s dice behind its point ``m``
        (a necessary condition for hitting there; points on the way are not checked)."""
        me = node.pos.me
        left = node.left
        x = 0
        for d in left:  # the sums of the first dice (doubles: all), and the second die alone
            x += d
            if m + x <= 25 and me[m + x]:
                return True
        if len(left) == 2:
            x = m + left[1]
            return x <= 25 and me[x] > 0
        return False

    def _unseen(self, node):
        """Checkers ``node`` puts on stacks beyond what their switches count: a reading that needs
        them is no better than one with them in hand (they are not seen either way)."""
        me = node.pos.me
        base = self.pos.me
        find(me, base)  # (the points whose checkers changed this turn, in ``index``)
        k = node.key
        cap = self.capacity
        n = 0
        j = 0
        p = index[0]
        while p < 25:  # (the bar aside)
            extra = me[p] - base[p]
            if extra > 0:
                loc = self._table[p]
                if k[loc] >= cap[loc]:
                    extra = me[p] - cap[loc] if me[p] - cap[loc] < extra else extra
                    n += extra  # (the mover's own stack: the opponent has none there)
            j += 1
            p = index[j]
        return n

    # -- DONE (pipcore.showing) ---------------------------------------------------
    def at_done(self, sensed):
        """The complete legal plays the board may show: ``(nodes, unsure)`` (``pipcore.showing``)."""
        from pipcore.showing import at_done
        return at_done(self, sensed)

    def _results_showing(self, s):
        from pipcore.showing import results_showing
        return results_showing(self, s)

    def showing(self, s, complete):
        """Positions of this turn whose sensed counts are ``s``: the legal results (``complete``), or
        the positions on the way to one that are not results (not ``complete``)."""
        from pipcore.showing import readings
        return readings(self, s, 1 if complete else 2)[0 if complete else 1]
