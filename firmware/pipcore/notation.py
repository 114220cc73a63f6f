"""GNU Backgammon move notation: ``13/9 6/5*``, ``bar/22``, ``6/off``, ``24/18(2)``.

``parse_play`` turns text into segments ``(from, to, hit)`` where ``from`` is
25 for the bar, ``to`` is 0 for off and ``hit`` is True when the text marks a
hit with ``*`` (None otherwise). ``format_play`` writes single moves the way
gnubg does: sources high to low, one checker's moves chained (``13/7*/1``),
repeated moves counted (``24/18(2)``). ``parse_play(format_play(m))``
gives back the same segments.
"""

from pipcore.position import BAR


class NotationError(ValueError):
    """Text that is not gnubg move notation."""


def parse_play(text):
    """Parse a whole play; returns a list of ``(from, to, hit)`` segments.

    An empty string or ``-`` (no move possible) gives an empty list. (The
    parser lives in ``pipcore.playcheck``, loaded on demand: the board's
    hands never type.)
    """
    from pipcore.playcheck import parse_play as parse

    return parse(text)


def _label(p):
    return "bar" if p == BAR else ("off" if p == 0 else str(p))


def format_play_from(position, moves, apply):
    """Format single moves ``[(from, to, ...)]`` played from ``position`` with their hits marked
    where they happen when the text is replayed move by move (``13/7/1* 8/2*``, not ``13/7/1
    8/2* 7/1*``): the chains are written first, then replayed on a copy with ``apply(pos, s, t)``."""
    text = format_play([(mv[0], mv[1]) for mv in moves])
    if not text:
        return text
    pos = position.copy()
    words = []
    for word in text.split():
        count = 1
        if word.endswith(")"):
            at = word.find("(")
            count = int(word[at + 1:-1])
            word = word[:at]
        parts = word.split("/")
        for _ in range(count):
            out = [parts[0]]
            prev = _at(parts[0])
            for part in parts[1:]:
                t = _at(part)
                hit = t != 0 and pos.opp[25 - t] == 1
                apply(pos, prev, t)
                out.append(part + ("*" if hit else ""))
                prev = t
            words.append("/".join(out))
    return _counted(words)


def _at(label):
    """The point of a label ``format_play`` wrote (``bar``, ``off`` or a number)."""
    return BAR if label == "bar" else (0 if label == "off" else int(label))


def _counted(words):
    out = []
    counts = []
    for w in words:
        if out and out[-1] == w:
            counts[-1] += 1
        else:
            out.append(w)
            counts.append(1)
    return " ".join(w if c == 1 else "%s(%d)" % (w, c) for w, c in zip(out, counts))


def canonical(text):
    """gnubg's way of writing a play, for comparing texts: a chain keeps only its ends and the
    points where it hits (``17/13/7*`` is ``17/7*``; ``17/11*/7*`` stays), moves sorted."""
    words = []
    for word in format_play(parse_play(text)).split():
        count = 1
        if word.endswith(")"):
            at = word.find("(")
            count = int(word[at + 1:-1])
            word = word[:at]
        parts = word.split("/")
        kept = [parts[0]] + [p for p in parts[1:-1] if p.endswith("*")] + [parts[-1]]
        for _ in range(count):
            words.append("/".join(kept))
    words.sort()
    return " ".join(words)


def format_play(moves, hits=None):
    """Format single moves ``[(from, to, ...), ...]`` in gnubg's style.

    ``hits`` is an optional set of landing points that hit a blot; without
    it the third item of each move (True/None) is used.
    """
    singles = []
    for mv in moves:
        s, t = mv[0], mv[1]
        h = (t in hits) if hits is not None else bool(len(mv) > 2 and mv[2] is True)
        singles.append([s, t, h])
    singles.sort(key=lambda x: (-x[0], -x[1]))
    used = [False] * len(singles)
    chains = []
    for i in range(len(singles)):
        if used[i]:
            continue
        used[i] = True
        chain = [singles[i][0], (singles[i][1], singles[i][2])]
        cur = singles[i][1]
        extended = True
        while extended and cur != 0:
            extended = False
            for j in range(len(singles)):
                if not used[j] and singles[j][0] == cur:
                    used[j] = True
                    chain.append((singles[j][1], singles[j][2]))
                    cur = singles[j][1]
                    extended = True
                    break
        chains.append(chain)
    words = []
    counts = []
    for chain in chains:
        text = _label(chain[0]) + "".join("/" + _label(t) + ("*" if h else "") for t, h in chain[1:])
        if words and words[-1] == text:
            counts[-1] += 1
        else:
            words.append(text)
            counts.append(1)
    return " ".join(w if c == 1 else "%s(%d)" % (w, c) for w, c in zip(words, counts))

