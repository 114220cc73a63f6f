"""Random complete matches and money sessions, played by the referee and recorded.

Random legal plays, random cube actions (offers, takes, drops, beavers,
raccoons), random options and match lengths: the material of the gnubg
round-trip tests (``tests/test_matfile.py``).
"""

import io
import random

from pipcore.cube import BEAVER, DROP, RACCOON, TAKE
from pipcore.match import ANSWER, CUBE_OR_ROLL, MATCH_ENDED, OPENING, PLAY, Referee
from pipcore.options import make_options
from pipcore.record import RecordWriter

NAMES = ("Ann", "Bob", "Carla Ruiz", "Dmitri", "Eve:2", "Fatima")


def random_options(rng, gnubg_compatible=True):
    """Options for one random match; ``gnubg_compatible`` keeps to what .mat can say."""
    # gnubg 1.07 crashes (segfault) reading a .mat whose cube goes past 64
    cap = 64 if gnubg_compatible else 0
    if rng.random() < 0.55:
        opts = {"matchLength": rng.choice((1, 2, 3, 5, 7)), "cubeCap": cap}
        if rng.random() < 0.2:
            opts["cubeCap"] = rng.choice((4, 8))
        if not gnubg_compatible and rng.random() < 0.3:
            opts["crawford"] = False
        return make_options(opts)
    opts = {"matchLength": 0, "cubeCap": cap}
    if rng.random() < 0.5:
        opts["jacoby"] = True
    if rng.random() < 0.5:
        opts["beavers"] = True
        if rng.random() < 0.5:
            opts["raccoons"] = True
    if rng.random() < 0.3:
        opts["cubeCap"] = rng.choice((8, 16))
    if not gnubg_compatible:
        r = rng.random()
        if r < 0.25:
            opts["autoDoubles"] = rng.choice((1, 2, -1))
        elif r < 0.4 and not opts.get("beavers"):
            opts["cubeProgression"] = "arithmetic"
            opts["cubeCap"] = 0
        if rng.random() < 0.2:
            opts["noGammonsWithCube"] = True
        if rng.random() < 0.3:
            opts["openingReroll"] = True
    return make_options(opts)


def play_random(ref, rng, games=None, offer_rate=0.06):
    """Play ``ref`` to the end of the match (or ``games`` games in money play)."""
    played = 0
    while ref.phase != MATCH_ENDED and (games is None or played < games):
        ref.new_game()
        while not ref.game_over():
            phase = ref.phase
            if phase == OPENING:
                ref.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
            elif phase == CUBE_OR_ROLL:
                if ref.cube.may_offer(ref.turn) and rng.random() < offer_rate:
                    ref.double()
                else:
                    ref.roll((rng.randint(1, 6), rng.randint(1, 6)))
            elif phase == ANSWER:
                answers = ref.cube.answers()
                r = rng.random()
                if BEAVER in answers and r < 0.2:
                    ref.cube_action(BEAVER)
                elif RACCOON in answers and r < 0.3:
                    ref.cube_action(RACCOON)
                elif r < 0.7:
                    ref.cube_action(TAKE)
                else:
                    ref.cube_action(DROP)
            elif phase == PLAY:
                turn = ref.legal_turn()
                ref.play_code(turn, rng.choice(turn.plays))
        played += 1
    return ref


def random_match(seed, gnubg_compatible=True):
    """``(record_bytes, referee)`` of one random match or money session."""
    rng = random.Random(seed)
    opts = random_options(rng, gnubg_compatible)
    names = tuple(rng.sample(NAMES, 2))
    out = io.BytesIO()
    ref = Referee(opts, names, RecordWriter(out))
    games = None if opts["matchLength"] else rng.randint(1, 3)
    # long matches with a lazy cube take many games: offer more often in them
    play_random(ref, rng, games, offer_rate=0.06 if opts["matchLength"] <= 3 else 0.12)
    return out.getvalue(), ref
