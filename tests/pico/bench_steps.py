"""``Turn.steps`` + ``Turn.is_complete``: the board's question "which single moves
are still legal now?", asked each time a checker is lifted. PASS/FAIL per budget.

    mpremote run tests/pico/bench_steps.py

For each case (Position ID and dice; the first 13 are the slowest of a search
over 17,000 rolls, the rest from seeded random games): the first call of the
turn (per-turn set-up, made while the dice roll) and every position part-way
through a spread of legal plays, both orders. Budgets on the Pico: 20 ms per
call part-way, 150 ms for the first call.

About 11 minutes on the emulated Pico (4-5 on a Pico). ``pipboard check --quick`` defines
``PIPBOARD_QUICK``: then only the quick cases run (two 1-1 cases of the slowest and two of
random games, about 30 s on the emulated Pico).
"""

from pipbench import best_us, check_bytes, check_ms, finish, heap_of
from pipcore.position import Position
from pipcore.rules import Turn, apply_move

CASES = [
    ('gAcPwDtQlaioKg', 1, 1),
    ('9wAeADxKpRKVCg', 1, 1),
    ('HgAA5z0kqipKJQ', 2, 2),
    ('Pz8EAESX1RgQEQ', 6, 5),
    ('dToPoABndXARAA', 6, 5),
    ('vxsAAMDqkzIQAA', 2, 1),
    ('4nkhECM8DkSYJg', 2, 2),
    ('BwAAcD8HAAAAAA', 1, 1),
    ('69kJCgCfhYQQQw', 4, 4),
    ('DwAAYE+oBLEAAA', 4, 4),
    ('+wAAAP86IwAAAA', 3, 3),
    ('DwAA4F04KJAAAA', 4, 4),
    ('1xchCQT9dwIAAA', 1, 1),
    ('9WEfAARdmAB4Bw', 6, 3),
    ('PwAAgHcgGuQAAA', 2, 1),
    ('jHdCiBIZLzBgEw', 4, 5),
    ('/zwYCAB9AAT1Eg', 5, 4),
    ('/0UABByjTuIQBg', 1, 5),
    ('pe2QBgH9BAHARw', 6, 6),
    ('D/cAFSD6PkAgEg', 1, 1),
    ('++EAEQp/DxABYA', 2, 4),
    ('/QAACvz3QAAIAA', 6, 2),
    ('Tm7gwQCKz+ABMA', 6, 3),
    ('voAoVEO3wUCSBQ', 5, 3),
    ('/84AICDYAwCbRw', 1, 1),
    ('9xNQEEQOXxCOAQ', 6, 1),
    ('Gi/wATBkH/ABQQ', 5, 1),
    ('/gAQehgPuEPYAA', 4, 3),
    ('f2kSQQD+BYIlCA', 6, 1),
    ('fwBLogIPAAAAAA', 2, 5),
    ('/wYAAHhDsEEOAA', 4, 3),
    ('7xuAkAK3LyABQg', 6, 2),
    ('7+UGCAAfAAAAAA', 3, 5),
    ('DwAAoHUmxIABAA', 6, 2),
    ('fwAIog/7EQgKQw', 4, 3),
    ('bgrxBAN1nIMRIA', 4, 4),
    ('dwAAgAAAAAAAAA', 3, 3),
    ('vPoMACQmEwmCXQ', 4, 1),
    ('Y/sCAUFXLMoAFg', 1, 6),
    ('czwBYAu/w4MAEA', 5, 3),
    ('tAcA4njfaQYAKA', 2, 4),
    ('v2UBAOD92AEAAA', 3, 6),
    ('X1AS0Az7PwEAAA', 6, 2),
    ('fgIQrBkP2GHoAA', 5, 1),
    ('yNfgASHEZ+QDIA', 5, 1),
    ('WM/gARjHMPgEKA', 2, 2),
    ('gzMpEikMIk6yRg', 1, 1),
    ('3w8AAHBWGBw0AA', 4, 1),
    ('Da8jADKGn9AjAA', 6, 5),
    ('v7sBAAibXhEBAw', 3, 1),
    ('/z0AIECbT0NQAA', 6, 1),
    ('bwuAZQJfAAAAAA', 2, 5),
    ('7/gRAAG/AAAAAA', 1, 4),
    ('viB4gEkzzWBhAQ', 6, 6),
    ('/QFJ4AgfAeE0Aw', 2, 1),
    ('fyMIISh4HoaAQw', 3, 1),
    ('nauBGQCGn+ACRA', 5, 4),
    ('Z0E4CFzCs0PiAA', 6, 6),
    ('6F4DgQoNB3YENA', 5, 1),
    ('noEOhSLeAYKtQA', 6, 1),
    ('35MIAgb3fjAAAA', 4, 5),
    ('fwAAAG+/AAoAAA', 5, 6),
    ('/oAA4RP/MMGAQA', 1, 4),
    ('UmvDASJkb+ABRA', 6, 4),
    ('f38IAADVOQDkCg', 1, 2),
    ('ZN8DCCGGNRjgIw', 6, 5),
    ('MABPvgr/LwAhAA', 5, 5),
    ('yM/gAxCwz8EBCQ', 6, 3),
    ('/ztBAAB7HGAhYA', 5, 2),
    ('pe1AhQL9BAHAYw', 5, 3),
    ('uyGMWAgfAAAAAA', 2, 6),
    ('27HAAAf/PQAEQA', 2, 2),
    ('jpboACXiPgCgRw', 6, 5),
    ('DBBn4g2DgZ2JIg', 1, 3),
    ('XzEBkjDe+wkAAA', 5, 6),
    ('nmWEQiJeAI3AWQ', 2, 5),
    ('0NsFEDi+McIAUQ', 2, 5),
    ('n0hgyDD++0AAAA', 2, 2),
    ('jN8kAFi28wIhIA', 5, 6),
    ('89sBCgBTAM8CTg', 6, 4),
    ('/z0ABEDbscAABw', 1, 5),
    ('z4kgUDj270EAAA', 5, 3),
    ('/h8GAQAVHELDJg', 5, 4),
    ('AQAA3EChiTgAAA', 5, 6),
    ('/gKNgQK9BaTRAA', 3, 5),
    ('JTwYwRnzcRJBQA', 4, 1),
    ('BwAA8F5ugAAAAA', 4, 4),
    ('/zsAQATbcSQhBA', 4, 2),
    ('30UEgTDeCwAAAA', 4, 6),
    ('xNtQAkZ7ahkYAA', 6, 5),
    ('vwcAokLfBxBMBA', 5, 3),
    ('wmeWASKKt8IDIA', 3, 5),
    ('/QDEg0T/OyAgAA', 5, 3),
    ('Z8TBQQP7bwAAAA', 3, 2),
    ('GgDB/Qn/CxIAUA', 4, 4),
    ('iyIB0hv/w0AgCA', 3, 1),
    ('6wvIIAymHmQ4Ag', 5, 3),
    ('ag8FqAzfCUhIMA', 4, 6),
    ('Thg4rgh+QCkhJg', 3, 6),
    ('lTQEtQN/LkgwAA', 4, 1),
]

QUICK_CASES = (0, 1, 13, 14)  # two 1-1 cases of the slowest thirteen, two of the random games


def quick_wanted():
    try:  # (a name set on builtins is found by name on MicroPython, not as an attribute of the module)
        return bool(eval("PIPBOARD_QUICK"))
    except NameError:
        return False


def path_positions(turn):
    """Positions part-way through (and at the end of) a spread of legal plays."""
    out = []
    plays = turn.plays
    for i in range(0, len(plays), max(1, len(plays) // 6)):  # (arrays slice only with step 1)
        code = plays[i]
        moves = turn.moves(code)
        for order in (moves, moves[::-1]):
            pos = turn.position.copy()
            for s, t, _ in order:
                if not pos.me[s]:
                    break
                apply_move(pos, s, t)
                out.append(pos.copy())
    return out


def ask(args):
    turn, pos = args
    turn.steps(pos)
    turn.is_complete(pos)


def first(turn):
    turn._steps_index = None  # drop the per-turn data: time the set-up too
    ask((turn, turn.position))


def main():
    worst_first = worst_step = heap = 0
    times = []
    cases = QUICK_CASES if quick_wanted() else range(len(CASES))
    if quick_wanted():
        print("quick: %d of the %d cases" % (len(cases), len(CASES)))
    for n in cases:
        pid, a, b = CASES[n]
        turn = Turn(Position.from_id(pid), (a, b))
        f = best_us(first, turn, 500)
        worst = 0
        for pos in path_positions(turn):
            us = best_us(ask, (turn, pos), 500)
            times.append(us)
            worst = max(worst, us)
            heap = max(heap, heap_of(ask, (turn, pos)))
        worst_first = max(worst_first, f)
        worst_step = max(worst_step, worst)
        print("case %d %s %d-%d plays=%d first_us=%d worst_step_us=%d" % (n, pid, a, b, len(turn.plays), f, worst))
    times.sort()
    print("worst_first_us=%d worst_step_us=%d median_step_us=%d max_heap_bytes=%d"
          % (worst_first, worst_step, times[len(times) // 2], heap))
    check_ms("steps, a call part-way", worst_step, "search", 20)
    check_ms("steps, first call of a turn", worst_first, "search", 150)
    check_bytes("steps heap per call", heap, 4096)
    finish()


main()
