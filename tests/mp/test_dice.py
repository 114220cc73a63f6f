"""Dice driver: determinism, fairness check, a fair match's dice (CPython and MicroPython).

(Physical dice keyed in with the buttons: tests/mp/test_table.py.)"""

from pipcore.fairmatch import FairMatch, pattern
from pipdrivers.dice import Dice, DiceError, FairnessError, commitment_of, verify

SEED = bytes(range(100, 132))


def test_same_seed_same_rolls_and_range():
    a, b = Dice(SEED), Dice(SEED)
    rolls = [a.roll() for _ in range(200)]
    assert rolls == [b.roll() for _ in range(200)]
    faces = set()
    for r in rolls:
        faces.update(r)
    assert faces == {1, 2, 3, 4, 5, 6}
    assert a.drawn == 400
    other = Dice(bytes(range(1, 33)))
    assert [other.die() for _ in range(20)] != [Dice(SEED).die() for _ in range(20)]


def test_salt_changes_rolls_and_is_fixed_after_first_roll():
    a, b = Dice(SEED), Dice(SEED, b"salt")
    assert [a.die() for _ in range(20)] != [b.die() for _ in range(20)]
    try:
        b.add_salt(b"late")
    except DiceError:
        pass
    else:
        assert False


def test_verify_detects_one_altered_die():
    board = Dice(SEED)
    record = [board.die() for _ in range(60)]
    assert verify(board.reveal(), board.commitment, record) == 60
    record[33] = record[33] % 6 + 1
    try:
        verify(board.reveal(), board.commitment, record)
    except FairnessError as exc:
        assert exc.index == 33
        assert "die 34" in str(exc)
    else:
        assert False


def test_entropy_source_and_short_seed():
    calls = []

    def entropy(n):
        calls.append(n)
        return bytes(n)

    assert Dice.from_entropy(entropy).roll()[0] in range(1, 7)
    assert calls == [32]
    try:
        Dice(b"short")
    except DiceError:
        pass
    else:
        assert False


class Writer:
    def __init__(self):
        self.entries = []

    def fair(self, kind, text):
        self.entries.append((kind, text))


def test_a_fair_match_draws_its_seed_in_order_and_survives_a_restore():
    writer = Writer()
    fair = FairMatch.new(lambda n: bytes(range(100, 100 + n)), writer)
    assert fair.commitment == commitment_of(SEED) and writer.entries == [(0, fair.commitment)]
    assert fair.public() == {"commitment": fair.commitment, "rolls": 0, "seed": None}  # the seed stays secret
    seen = []
    for _ in range(5):
        pair = fair.pair()
        assert fair.pair() == pair  # asked twice (a replayed event): the same dice, nothing drawn twice
        fair.used_pair()
        seen.extend(pair)
    again = FairMatch.restore(fair.snapshot())  # a power cut: the seed and the dice used come back
    pair = again.pair()
    again.used_pair()
    seen.extend(pair)
    board = Dice(SEED)
    assert seen == [board.die() for _ in range(12)]
    assert again.reveal(writer) and not again.reveal(writer)  # revealed once
    assert writer.entries[-1] == (1, again.seed) and again.public()["seed"] == again.seed
    assert verify(again.seed, again.commitment, seen) == 12


def test_fair_dice_need_entropy():
    try:
        FairMatch.new(None)
    except DiceError:
        pass
    else:
        assert False


def test_the_commitment_pattern_takes_two_bits_per_pip():
    assert pattern("0000000" + "f" * 57) == [0] * 14
    assert pattern("fffffff" + "0" * 57) == [3] * 14
    assert pattern("4000000" + "0" * 57) == [1] + [0] * 13  # the first two bits: die A's first pip
    assert pattern("0000001" + "0" * 57) == [0] * 13 + [1]
