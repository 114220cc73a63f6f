"""The Caucasian generator's innermost loop in native code (``@micropython.viper``), where the port has it.

``pipcore.caucasian`` appends a play per fourth move of a double; this
module, loaded only with it (a backgammon board never holds it), does that
loop natively. ``pipboard deploy`` compiles it for the board's CPU like
``pipcore.native``; where the import fails the loop stays in bytecode
(tests/mp/test_native.py compares both).
"""

import micropython


@micropython.viper
def extend(m, cand, i: int, moving: int, c: int, codes, marks: int, d: int, third: int) -> int:
    """The Caucasian generator's fourth moves (``pipcore.caucasian``): for each candidate ``cand[i:moving]``
    holding a checker in ``m``, the play ``c`` with that source appended to ``codes``; how many.

    ``marks`` (a mark state, 0 without the Caucasian restriction): a source whose checkers are all
    marked, with the mover's own checkers ``d`` points on, is skipped (C2: a marked checker may
    not land there). With ``third`` the third move (from ``cand[i]``, ``d`` points on) is made
    in ``m`` first and undone at the end."""
    pm = ptr8(m)  # noqa: F821  (viper built-ins)
    pc = ptr8(cand)  # noqa: F821
    n = 0
    s = int(pc[i])
    if third:
        pm[s] -= 1
        pm[s - d] += 1
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
    if third:
        pm[s] += 1
        pm[s - d] -= 1
    return n
