"""The Caucasian generator's innermost loops in native code (``@micropython.viper``), where the port has it.

``pipcore.caucasian`` appends a play per fourth move of a double, and most
third moves are plain ones followed by every fourth move; this module,
loaded only with it (a backgammon board never holds it), does those loops
natively. ``pipboard deploy`` compiles it for the board's CPU like
``pipcore.native``; where the import fails the loops stay in bytecode
(tests/mp/test_native.py compares both).
"""

import micropython


@micropython.viper
def extend(m, cand, i: int, moving: int, c: int, codes, marks: int, d: int) -> int:
    """The Caucasian generator's fourth moves (``pipcore.caucasian``): for each candidate ``cand[i:moving]``
    holding a checker in ``m``, the play ``c`` with that source appended to ``codes``; how many.

    ``marks`` (a mark state, 0 without the Caucasian restriction): a source whose checkers are all
    marked, with the mover's own checkers ``d`` points on, is skipped (C2: a marked checker may
    not land there)."""
    pm = ptr8(m)  # noqa: F821  (viper built-ins)
    pc = ptr8(cand)  # noqa: F821
    n = 0
    while i < moving:
        q = int(pc[i])
        i += 1
        if not pm[q]:
            continue
        if marks and pm[q - d]:
            marked = 0  # the marked checkers on q
            v = marks
            while v:
                if (v & 31) == q:
                    marked += 1
                v >>= 6
            if int(pm[q]) <= marked:
                continue
        codes.append(c | (q << 18))
        n += 1
    return n


@micropython.viper
def thirds(m, cand, blot, i: int, moving: int, c: int, codes, marks: int, d: int, outside: int, c2: int) -> int:
    """The Caucasian generator's plain third moves (``pipcore.caucasian``, one mark state owing
    nothing, four moves found already): from ``cand[i]`` on, each candidate holding a checker
    that is not marked (``marks``), hits nothing (``blot``) and leaves a checker outside the home
    board (``outside`` before it) moves, and ``c`` with that third source and each fourth
    source (``extend``'s loop; C2 only with ``c2``) is appended to ``codes``. Returns the index
    of the first candidate it cannot make that way (``moving`` when there is none)."""
    pm = ptr8(m)  # noqa: F821  (viper built-ins)
    pc = ptr8(cand)  # noqa: F821
    pb = ptr8(blot)  # noqa: F821
    while i < moving:
        s = int(pc[i])
        if pm[s]:
            t = s - d
            v = marks
            while v:
                if (v & 31) == s:
                    return i  # a marked checker may move: the general path decides
                v >>= 6
            if pb[t] and not pm[t]:
                return i  # a hit
            out = outside
            if s > 6 and t <= 6:
                out -= 1
            if not out:
                return i  # the fourth move may bear off
            pm[s] -= 1
            pm[t] += 1
            c3 = c | (s << 13)
            j = i
            while j < moving:
                q = int(pc[j])
                j += 1
                if not pm[q]:
                    continue
                if c2 and marks and pm[q - d]:
                    marked = 0  # the marked checkers on q: C2 as in extend
                    v = marks
                    while v:
                        if (v & 31) == q:
                            marked += 1
                        v >>= 6
                    if int(pm[q]) <= marked:
                        continue
                codes.append(c3 | (q << 18))
            pm[t] -= 1
            pm[s] += 1
        i += 1
    return i
