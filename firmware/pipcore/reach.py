"""One checker moved from a point to a point with the dice left: the nodes a tracker has not kept;
and the top count a turn can show per location (``top``).

The tracker (``pipcore.tracker``) keeps the lift targets of the node it
believes; for a node on the way back or a node found during a search it asks
here for only the moves that could explain what the switches show: one
checker from ``p`` to ``q`` (each way through the dice: hits on the way
differ), judged by the turn's own ``steps``.
"""

from pipcore.board import index, BAR0, NLOC, find, loc_point, slot_table
from pipcore.rules import apply_move


def top(tr):
    """Per location, more checkers than any position of the turn of ``tr`` (a ``Tracker``, standard
    movement) shows there: counts above it read as no position (``Tracker._follow``: a wrong placement
    is answered without a search). 255 where no bound is kept (the opponent's bar: hits pending and
    blots barred early are judged by the search).

    An upper bound, not the exact most: a point gains at most one checker per die, and only
    checkers standing a die or a sum of dice away (the bar included) can come; where a blot stands,
    one more (its hitter may land while it is still on the point)."""
    pos = tr.pos
    me = pos.me
    opp = pos.opp
    dice = tr.tmap.dice
    n = len(dice)
    cap = tr.capacity
    most = bytearray(NLOC)
    for i in range(NLOC):
        most[i] = 255
    mine = slot_table(tr.mover)
    theirs = slot_table(1 - tr.mover)
    most[theirs[0]] = opp[0] if opp[0] < cap[theirs[0]] else cap[theirs[0]]  # their tray never changes
    c = me[25]  # the mover's bar only empties
    most[mine[25]] = c if c < cap[mine[25]] else cap[mine[25]]
    c = me[0] + n  # a bear-off per die at most
    most[mine[0]] = c if c < cap[mine[0]] else cap[mine[0]]
    for q in range(1, 25):
        o = opp[25 - q]
        c = o
        if o < 2:  # open: checkers may come
            come = 0
            if dice[0] == dice[-1]:
                for k in range(1, n + 1):
                    if q + k * dice[0] <= 25:
                        come += me[q + k * dice[0]]
            else:
                for d in (dice[0], dice[1], dice[0] + dice[1]):
                    if q + d <= 25:
                        come += me[q + d]
            c = me[q] + (come if come < n else n)
            if c < o:
                c = o
        loc = mine[q]
        most[loc] = (c if c < cap[loc] else cap[loc]) + (1 if o == 1 else 0)
    return most


def reach(tr, node, p, q, out):
    """Append to ``out`` the children of ``node`` where one checker goes from ``p`` to ``q`` (0: off)
    with some of the dice left, each way (hits on the way differ), judged by the turn's ``steps``.

    Used where ``node``'s lift targets are not kept (a node on the way back): a few single moves and
    one ``steps`` call per way instead of every target of the checker."""
    left = node.left
    n = len(left)
    if not n:
        return
    ways = []
    if left[0] == left[-1]:
        for m in range(1, n + 1):
            ways.append(left[:m])
    else:
        a = left[0]
        b = left[1]
        ways = [(a,), (b,), (a, b), (b, a)]
    for dice in ways:
        total = 0
        for d in dice:
            total += d
        if q:
            if total != p - q:
                continue
        elif total < p or total - dice[-1] >= p:
            continue
        pos = node.pos.copy()
        opp = pos.opp
        at = p
        path = ()  # (a tuple: ``Tracker._child`` adds it to one)
        ok = True
        for d in dice:
            t = at - d
            if t < 0:
                t = 0
            if t and opp[25 - t] > 1:
                ok = False
                break
            apply_move(pos, at, t)
            if t != q:
                path += (t,)
            at = t
        if not ok:
            continue
        if tr.budget <= 0:
            tr.starved = True
            continue
        tr.budget -= 1
        if tr.turn.steps(pos) is None:
            continue
        rest = list(left)
        for d in dice:
            rest.remove(d)
        rest = tuple(rest)
        shared = tr._lefts.get(rest)
        if shared is None:
            shared = tr._lefts[rest] = rest
        kid = tr._child(node, pos, shared, p, q, path)
        out.append(kid)


def _moved(tr, node, s):
    """Children of ``node`` whose landing shows more checkers than ``node`` does (or a hit's bar).

    One pass over the counts finds where checkers are missing (sources) and where more show
    (landings); a kept list of lift targets is filtered, otherwise only the moves from a source
    to a landing the dice left can make are tried (``_reach``)."""
    k = node.key
    mover = tr.mover
    nardy = tr.nardy
    obar = BAR0 + 1 - mover
    gains = []
    losses = []
    gain = 0
    loss = 0
    find(s, k)  # (the locations that differ, in ``index``)
    j = 0
    i = index[0]
    while i < NLOC:
        d = s[i] - k[i]
        if d > 0:
            gains.append(i)
            gain += d
        else:
            losses.append(i)
            loss -= d
        j += 1
        i = index[j]
    out = []
    cap = tr.capacity
    hidden = s[obar] >= cap[obar]  # the opponent's bar is clipped: a hit there shows nowhere
    if not gains and not hidden:
        return out
    bar_up = hidden or s[obar] > tr.root.key[obar]  # hits made (one may wait on its point: not yet on the bar)
    # as many checkers showing up as missing: one may come from a stack the switches clip (``full``: the
    # locations of ``s`` at their capacity, a bit each, found by ``Tracker._follow``)
    if gain >= loss and tr.full:
        v = tr.full
        i = 0
        while v:
            if v & 1 and s[i] == k[i]:
                losses.append(i)
            v >>= 1
            i += 1
    me = node.pos.me
    memo = node.memo
    kept = memo[1] if memo is not None else None  # (the tracker's memo entry of lift targets)
    # a node on the way back keeps the list of the way taken: enough, no search from it
    search = tr._reach is not None and node is not tr.cur and (node.parent is None or kept is None)
    if bar_up:
        for i in tr.blot_locs:  # a hit lands without changing the count
            if i not in gains:
                gains.append(i)
    for i in losses:
        p = loc_point(mover, i, nardy)
        if p <= 0 or not me[p]:
            continue
        kids = kept.get(p) if kept is not None else None
        if kids is None and not search and (node is tr.cur or tr._reach is None):
            kids = tr.lift_targets(node, p)
        if kids is not None:
            table = tr._table  # (the mover's slot -> location)
            for child in kids:
                t = table[child.to]
                if (s[t] > k[t] or (bar_up and child.key[obar] > k[obar]) or (s[t] >= cap[t] and t != i)
                        or (hidden and tr.blots[t] and node.pos.opp[tr.blots[t]])):
                    out.append(child)  # (landing on a stack the switches clip is not seen either, nor a hit)
        elif search and tr.budget <= 0:
            tr.starved = True
        elif search and tr._reach is not None:
            reach = tr._reach
            for j in gains:
                q = loc_point(mover, j, False)
                if 0 <= q < p:
                    reach(tr, node, p, q, out)
    return out
