"""The board's worst turns, every variant: generation, then steps and is_complete
part-way. Shared by tests/test_recursion_budget.py under CPython (a low
recursion limit) and under the unix MicroPython (a thread with a small C stack).
"""

from pipcore import caucasian, nardy
from pipcore.position import decode_position_id
from pipcore.rules import Turn, apply_move

RULES = (("IAKI6H+klFJKKQ", (1, 1)), ("QgQR4H+UUkpKJQ", (1, 1)), ("AASB6n9QpYpKKQ", (2, 2)),
         ("/v8AAACISqWqJA", (3, 3)), ("AACA/z+klFKqJA", (1, 1)), ("27YBGICRHQ4HIA", (6, 3)))
CAUCASIAN = (("GOAfBImULDEWCg", (1, 1), True, "board", False), ("AAAEtEmTAAAAAA", (1, 1), True, "board", False),
             ("AgEAYkttVQAAAA", (2, 2), True, "home", True), ("BTEAQFJvGwEAAA", (3, 3), True, "board", True))
NARDY = ("AWYA5D9EAC7gPw", "/68BAAD/PQggAA", "PyAQ3wDP4hkgAQ")


def walk(turn, apply=apply_move):
    """Ask steps/is_complete along a few legal plays (the board's questions)."""
    plays = turn.plays
    for i in range(0, len(plays), max(1, len(plays) // 4)):  # (MicroPython arrays slice only with step 1)
        code = plays[i]
        pos = turn.position.copy()
        turn.steps(pos)
        for s, t, _ in turn.moves(code):
            apply(pos, s, t)
            turn.steps(pos)
            turn.is_complete(pos)


def run_all():
    n = 0
    for pid, dice in RULES:
        walk(Turn(decode_position_id(pid), dice))
        n += 1
    for pid, dice, c, scope, jail in CAUCASIAN:
        walk(caucasian.Turn(decode_position_id(pid), dice, caucasian=c, scope=scope, jail=jail))
        n += 1
    for pid in NARDY:
        for d in range(1, 7):
            walk(nardy.Turn(decode_position_id(pid), (d, d)), nardy.apply_move)
            n += 1
    return n
