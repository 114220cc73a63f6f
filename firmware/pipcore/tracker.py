"""The tracker: one roll being played by hand on the board.

A person moves checkers one at a time, in any order, sometimes straight to
the end of a combined move, and the switches only count checkers per
location. The tracker follows the sensed counts through the positions the
turn can pass through (``pipcore.turnmap``), as a tree of ``Node`` s grown
on demand from the position at the roll:

* ``follow(sensed)`` finds the reading of the counts: the current node (or
  nodes that show the same counts), a node reached by the moves made since,
  a node on the way back, or a node whose hit checkers are not yet on the
  bar. It answers ``AT_REST``, ``HIT_PENDING`` or ``ELSEWHERE`` (checkers in
  hand, or a checker where none may go: the controller guides back);
* ``at_done(sensed)`` lists the complete legal plays the board may show when
  DONE is pressed (several where the switches cannot tell them apart);
* ``idle()`` prepares the lift targets of one more movable checker while
  nothing happens, so a lift is answered from what is ready.

The tracker knows nothing of the cube, the score or the LEDs. Its tables
belong to this roll: ``drop_caches`` lets them go (they are rebuilt on
demand), and the controller drops the whole tracker when the play is made.
"""

from pipcore.board import BAR0, NLOC, fill_counts, loc_point, opp_slot, slot_loc, slot_table
from pipcore.compat import const
from pipcore.position import Position

AT_REST = const(0)  # the counts show ``cands`` (the current node first)
HIT_PENDING = const(1)  # the counts show ``cur`` with hit checkers still on their points (``hits``)
ELSEWHERE = const(2)  # no node of the turn shows the counts: checkers in hand, or misplaced

# Child nodes idle() keeps ready at the current node (about 400 B each on the unix port, half on
# the Pico): the worst 1-1 of the bench has 58, so every lift there is answered from what is ready.
IDLE_NODES = const(64)


_SRCS = const(0)  # Node.memo entries: movable sources
_TARGETS = const(1)  # source -> [child nodes]
_PEND = const(2)  # [(key, hit locations)] with hit checkers not yet on the bar


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
            apply, at, path = way
            pos = self.parent.pos.copy()
            for q in path:
                apply(pos, at, q)
                at = q
            apply(pos, at, self.to)
            self.way = way = pos
        return way


def _memo(node):
    memo = node.memo
    if memo is None:
        memo = node.memo = [None, None, None]
    return memo


def distance(a, b):
    """Checkers out of place between two count vectors (L1 distance)."""
    d = 0
    for i in range(NLOC):
        x = a[i]
        y = b[i]
        if x != y:
            d += x - y if x > y else y - x
    return d


class Tracker:
    """The hands' progress through one roll of ``turn`` from ``pos`` (seen from ``mover``).

    ``only`` (a result position) restricts the turn to one play, as when a
    host or an engine gives the play to execute.
    """

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
        self.cands = [self.root]
        self.hits = ()  # locations of hit checkers not yet on the bar (HIT_PENDING)

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

    def complete(self, pos):
        return self.tmap.complete(pos)

    def code_for(self, pos):
        return self.tmap.code_for(pos)

    def drop_caches(self):
        """Forget what can be recomputed: lift targets, sources, pending hits, the turn map's memo."""
        node = self.cur
        while node is not None:
            node.memo = None
            node = node.parent
        self.tmap._ok = {}
        self._lefts = {}

    def sources(self, node):
        """Points a checker may start a move from at ``node`` (kept on the node)."""
        memo = _memo(node)
        srcs = memo[_SRCS]
        if srcs is None:
            srcs = memo[_SRCS] = self.tmap.sources(node.pos, node.left)
        return srcs

    def lift_targets(self, node, src):
        """The child nodes (``child.to``: where it lands) of a checker lifted from ``src`` at ``node``
        (kept on the node)."""
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
        mover = self.mover
        nardy = self.nardy
        cap = self.capacity
        me = pos.me
        opp = pos.opp
        other_bar = BAR0 + 1 - mover
        locs = [slot_loc(mover, src, nardy), slot_loc(mover, to, nardy), other_bar]
        for q in path:
            locs.append(slot_loc(mover, q, nardy))
        for loc in locs:
            if loc < 24:
                q = loc_point(mover, loc, nardy)
                c = me[q] + opp[opp_slot(q, nardy)]
            elif loc == other_bar:
                c = opp[25]
            elif loc < BAR0 + 2:
                c = me[25]
            else:
                c = me[0]
            key[loc] = c if c < cap[loc] else cap[loc]
        return Node(pos, left, bytes(key), parent, to)

    def _pending(self, node):
        """Keys of ``node`` with some hit checkers not yet moved to the bar: ``[(key, locations)]``."""
        memo = _memo(node)
        if memo[_PEND] is not None:
            return memo[_PEND]
        base = self.pos.opp
        opp = node.pos.opp
        other = 1 - self.mover
        hits = []
        for q in range(1, 25):
            if base[q] == 1 and opp[q] == 0:
                hits.append(slot_loc(other, q, self.nardy))
        out = []
        if hits:
            bar = BAR0 + other
            n = len(hits)
            cap = self.capacity
            true = bytearray(NLOC)
            fill_counts(node.pos, self.mover, true, None, self.nardy)
            for mask in range(1, 1 << n):
                k = bytearray(node.key)  # node.key is clipped: the affected entries come from the true counts
                locs = []
                b = true[bar]
                for i in range(n):
                    if mask >> i & 1:
                        loc = hits[i]
                        locs.append(loc)
                        c = true[loc] + 1
                        k[loc] = c if c < cap[loc] else cap[loc]
                        b -= 1
                k[bar] = b if b < cap[bar] else cap[bar]
                out.append((bytes(k), locs))
        memo[_PEND] = out
        return out

    def _set_cur(self, node):
        old = self.cur
        if old is not None and old is not node:
            if old.memo is not None:
                old.memo[_TARGETS] = None  # siblings of the way taken: let them go (a take-back recomputes)
        self.cur = node

    # -- following the hands ------------------------------------------------------
    def idle(self, sensed):
        """Prepare the lift targets of one more movable checker; True if it did something."""
        cur = self.cur
        if sensed is not None and sensed != cur.key:
            return False
        cache = _memo(cur)[_TARGETS]
        if cache is not None:
            ready = 0
            for kids in cache.values():
                ready += len(kids)
            if ready >= IDLE_NODES:
                return False  # enough kept ready: a lift from elsewhere is computed when it comes
        for p in self.sources(cur):
            if cache is None or p not in cache:
                self.lift_targets(cur, p)
                return True
        return False

    def follow(self, s):
        """Read the sensed counts ``s`` (bytes): AT_REST, HIT_PENDING or ELSEWHERE (see the module)."""
        cur = self.cur
        # 1. the board still shows the current node (or one of the nodes showing the same counts)
        if s == cur.key:
            if not (self.cands and self.cands[0] is cur):
                self.cands = [cur]
            return AT_REST
        # 2. checkers moved on from points that lost some: one checker (also a combined
        #    move in one motion) or several before the switches settled
        exact, pend = self._search(cur, s)
        # 3. going back along the way we came
        if not exact:
            node = cur.parent
            while node is not None:
                if node.key == s:
                    exact.append(node)
                    break
                node = node.parent
        if exact:
            self._set_cur(exact[0])
            self.cands = exact
            return AT_REST
        # 4. a hit checker not yet moved to the bar (the current node or one reached now)
        for k, locs in self._pending(cur):
            if s == k:
                self.cands = [cur]
                self.hits = locs
                return HIT_PENDING
        if pend is not None:
            self._set_cur(pend[0])
            self.cands = [pend[0]]
            self.hits = pend[1]
            return HIT_PENDING
        return ELSEWHERE

    def only_lifted(self, s):
        """True when the counts ``s`` are the current node's minus checkers in hand."""
        k = self.cur.key
        for i in range(NLOC):
            if s[i] > k[i]:
                return False
        return True

    def _search(self, start, s):
        """Nodes reachable from ``start`` whose sensed key is ``s``: ``(exact, pending_hit)``.

        Follows only moves of checkers from locations the sensed board shows
        with fewer checkers, and only moves that bring the board closer to
        ``s``, so the search stays within the few moves a person made before
        the switches settled (an explicit stack: no recursion). Stacks taller
        than the switches can hide a move; DONE then consults every position
        of the turn.
        """
        exact = []
        pend = None
        mover = self.mover
        k0 = start.key
        only_lifted = True
        for i in range(NLOC):
            if s[i] > k0[i]:
                only_lifted = False
                break
        if only_lifted:
            # checkers in hand, none put down: nothing to find (a checker put on a stack taller
            # than its switches is found by DONE, which looks at every legal result)
            return exact, pend
        stack = [start]
        seen = {}
        bar = BAR0 + 1 - mover
        full = self.capacity[bar]
        while stack:
            node = stack.pop()
            k = node.key
            me = node.pos.me
            srcs = []
            for i in range(NLOC):
                if s[i] < k[i]:
                    p = loc_point(mover, i, self.nardy)
                    if p > 0 and me[p]:
                        srcs.append(p)
            if not srcs:
                continue
            dist = distance(k, s)
            for p in srcs:
                for child in self.lift_targets(node, p):
                    ck = child.key
                    if ck == s:
                        pk = child.pos.key()
                        if pk not in seen:
                            # several positions may show the same counts (colours differ): keep them all
                            seen[pk] = 1
                            exact.append(child)
                        continue
                    if pend is None and (s[bar] < ck[bar] or ck[bar] >= full):  # a hit checker may be in hand
                        for hk, locs in self._pending(child):
                            if hk == s:
                                pend = (child, locs)
                                break
                    if distance(ck, s) < dist:
                        pk = child.pos.key()
                        if pk not in seen:
                            seen[pk] = 1
                            stack.append(child)
        return exact, pend

    # -- DONE -----------------------------------------------------------------------
    def at_done(self, sensed):
        """The complete legal plays the board may show: ``(nodes, unsure)``.

        Without a full location or a hit the counts name the position, so the
        nodes showing them say it all; otherwise every legal result the
        switches cannot tell from this board (``_readings``: built from the
        counts). ``unsure`` is True when, after a hit, the same counts could
        also be a play not finished yet (colours differ): the player confirms.
        """
        s = bytes(sensed)
        cur = self.cur
        cap = self.capacity
        full = False
        for i in range(NLOC):
            if sensed[i] >= cap[i]:
                full = True
                break
        if full or s != cur.key:
            return self._results_showing(s), False
        cands = list(self.cands or [cur])
        bar = BAR0 + 1 - self.mover
        if s[bar] != self.root.key[bar]:
            # only hits move the opponent's checkers: without one the counts name the play;
            # with one, every position of the turn showing these counts (a colour swap on
            # single checkers gives the same counts)
            if self.only is None:
                done, way = self._readings(s, 3)
                return self._result_nodes(done, s), bool(done) and bool(way)
            seen = {}
            for n in cands:
                seen[n.pos.key()] = 1
            for n in self._search(self.root, s)[0]:  # a host's play: the positions on its way
                if n.pos.key() not in seen:
                    seen[n.pos.key()] = 1
                    cands.append(n)
        done = []
        for n in cands:
            if self.tmap.complete(n.pos):
                done.append(n)
        return done, 0 < len(done) < len(cands)

    def _results_showing(self, s):
        """Nodes of the legal results whose sensed key is ``s`` (``showing``), the current node first."""
        return self._result_nodes(self._readings(s, 1)[0], s)

    def _result_nodes(self, results, s):
        out = []
        cur = self.cur
        for pos in results:
            if pos == cur.pos:
                out.insert(0, cur)
            else:
                out.append(Node(pos, (), s, self.root))
        return out

    def showing(self, s, complete):
        """Positions of this turn whose sensed counts are ``s``: the legal results (``complete``), or
        the positions on the way to one that are not results (not ``complete``); see ``_readings``."""
        return self._readings(s, 1 if complete else 2)[0 if complete else 1]

    def _readings(self, s, want):
        """``(results, on_the_way)``: the positions of this turn whose sensed counts are ``s``, legal
        results (if ``want & 1``) and positions on the way to one that are not results (``want & 2``).

        Built from the counts, not from the plays: the opponent's checkers only ever go from a blot
        to the bar, so every location but a few names the mover's count there. The unknowns are the
        mover's stacks the switches clip (at least ``capacity``, together making 15) and blots
        still showing one checker (the blot, or the mover's checker that hit it): a handful of
        positions to judge, where listing every legal result took 2,226 for the worst 1-1.
        """
        mover = self.mover
        nardy = self.nardy
        cap = self.capacity
        root = self.pos
        ropp = root.opp
        mine = slot_table(mover, nardy)
        theirs = slot_table(1 - mover, nardy)
        loc = theirs[0]
        c = ropp[0]
        if s[loc] != (c if c < cap[loc] else cap[loc]):
            return [], []
        me = bytearray(26)
        opp = bytearray(ropp)
        fixed = 0
        hits = 0
        either = []  # mover points showing 1 where a blot stood: the blot, or one checker that hit it
        clipped = []  # mover slots the switches clip: at least capacity there
        for p in range(26):
            loc = mine[p]
            n = s[loc]
            full = n >= cap[loc]
            if 0 < p < 25:
                q = opp_slot(p, nardy)
                o = ropp[q]
                if o:
                    if o > 1 or nardy:  # a point the mover cannot take: its count cannot change
                        if n != (o if o < cap[loc] else cap[loc]):
                            return [], []
                        continue
                    if n == 1:
                        either.append(p)  # (with a one-checker switch the hitter's stack is clipped)
                        continue
                    opp[q] = 0  # hit (also when the hitter moved on and left the point empty)
                    hits += 1
            if full:
                clipped.append(p)
            else:
                me[p] = n
                fixed += n
        bar = theirs[25]
        hits_max = 15
        hits_min = s[bar] - ropp[25]
        if s[bar] < cap[bar]:
            hits_max = hits_min
        done = []
        way = []
        ne = len(either)
        base = len(clipped)
        for mask in range(1 << ne):
            h = hits
            ones = 0
            del clipped[base:]
            for i in range(ne):
                if mask >> i & 1:
                    h += 1
                    p = either[i]
                    if cap[mine[p]] > 1:
                        ones += 1
                    else:
                        clipped.append(p)
            if h < hits_min or h > hits_max:
                continue
            nc = len(clipped)
            parts = bytearray(nc)
            rest = 15 - fixed - ones
            for i in range(nc):
                rest -= cap[mine[clipped[i]]]
            if rest < 0 or (not nc and rest):
                continue
            # every split of ``rest`` extra checkers over the clipped slots (an odometer; the last takes the rest)
            while True:
                left = rest
                for i in range(nc - 1):
                    left -= parts[i]
                if left >= 0:
                    pos = Position(me, opp)
                    m = pos.me
                    o = pos.opp
                    for i in range(ne):
                        p = either[i]
                        if mask >> i & 1:
                            m[p] = 1  # (or more, below, when clipped)
                            o[opp_slot(p, nardy)] = 0
                    o[25] += h
                    for i in range(nc):
                        p = clipped[i]
                        m[p] = cap[mine[p]] + (parts[i] if i < nc - 1 else left)
                    if self.key(pos) == s:
                        if self.tmap.complete(pos):
                            if want & 1 and (self.only is None or pos == self.only):
                                done.append(pos)
                        elif want & 2 and self.turn.steps(pos):
                            way.append(pos)
                i = 0
                while i < nc - 1:
                    parts[i] += 1
                    if parts[i] <= rest:
                        break
                    parts[i] = 0
                    i += 1
                if i >= nc - 1:
                    break
        return done, way
