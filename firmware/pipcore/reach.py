"""One checker moved from a point to a point with the dice left: the nodes a tracker has not kept.

The tracker (``pipcore.tracker``) keeps the lift targets of the node it
believes; for a node on the way back or a node found during a search it asks
here for only the moves that could explain what the switches show: one
checker from ``p`` to ``q`` (each way through the dice: hits on the way
differ), judged by the turn's own ``steps``.
"""

from pipcore.rules import apply_move


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
        path = []
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
                path.append(t)
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
