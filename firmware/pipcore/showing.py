"""What the counts may show when DONE is pressed: the legal results the switches cannot tell apart.

The tracker (``pipcore.tracker``) follows the hands; at DONE the question is
different: which complete legal plays could lie on the board now? Without a
full stack and without a hit the counts name the position; otherwise every
legal result showing these counts is a candidate, built from the counts
(``readings``) instead of listing every legal result (2,226 for the worst 1-1).
"""

from pipcore.board import BAR0, NLOC, opp_slot, slot_table
from pipcore.position import Position
from pipcore.tracker import Node


def at_done(tr, sensed):
    """The complete legal plays the board may show: ``(nodes, unsure)``.

    Without a full location or a hit the counts name the position, so the
    nodes showing them say it all; otherwise every legal result the
    switches cannot tell from this board (``_readings``: built from the
    counts). ``unsure`` is True when, after a hit, the same counts could
    also be a play not finished yet (colours differ): the player confirms.
    """
    s = bytes(sensed)
    cur = tr.cur
    cap = tr.capacity
    full = False
    for i in range(NLOC):
        if sensed[i] >= cap[i]:
            full = True
            break
    if full or s != cur.key:
        return tr._results_showing(s), False
    cands = list(tr.cands or [cur])
    bar = BAR0 + 1 - tr.mover
    if s[bar] != tr.root.key[bar]:
        # only hits move the opponent's checkers: without one the counts name the play;
        # with one, every position of the turn showing these counts (a colour swap on
        # single checkers gives the same counts)
        if tr.only is None:
            done, way = readings(tr, s, 3)
            # the hands were followed to a finished play: it is the one; else confirm
            unsure = bool(done) and bool(way) and not tr.tmap.complete(cur.pos)
            return _result_nodes(tr, done, s), unsure
        seen = {}
        for n in cands:
            seen[n.pos.key()] = 1
        best = [None, [], []]
        tr._consider([tr.root], s, best, {}, True)  # a host's play: the positions on its way
        if best[0] == 0:
            for n in best[1]:
                if n.pos.key() not in seen:
                    seen[n.pos.key()] = 1
                    cands.append(n)
    done = []
    for n in cands:
        if tr.tmap.complete(n.pos):
            done.append(n)
    return done, 0 < len(done) < len(cands)

def results_showing(tr, s):
    """Nodes of the legal results whose sensed key is ``s`` (``showing``), the current node first."""
    return _result_nodes(tr, readings(tr, s, 1)[0], s)

def _result_nodes(tr, results, s):
    out = []
    cur = tr.cur
    for pos in results:
        if pos == cur.pos:
            out.insert(0, cur)
        else:
            out.append(Node(pos, (), s, tr.root))
    return out

def readings(tr, s, want):
    """``(results, on_the_way)``: the positions of this turn whose sensed counts are ``s``, legal
    results (if ``want & 1``) and positions on the way to one that are not results (``want & 2``).

    Built from the counts, not from the plays: the opponent's checkers only ever go from a blot
    to the bar, so every location but a few names the mover's count there. The unknowns are the
    mover's stacks the switches clip (at least ``capacity``, together making 15) and blots
    still showing one checker (the blot, or the mover's checker that hit it): a handful of
    positions to judge, where listing every legal result took 2,226 for the worst 1-1.
    """
    mover = tr.mover
    nardy = tr.nardy
    cap = tr.capacity
    root = tr.pos
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
                if tr.key(pos) == s:
                    if tr.tmap.complete(pos):
                        if want & 1 and (tr.only is None or pos == tr.only):
                            done.append(pos)
                    elif want & 2 and tr.turn.steps(pos):
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
