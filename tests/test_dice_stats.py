"""Dice: 1,000,000 rolls pass chi-square per face and per ordered pair; fairness check."""

import math
import random

import pytest
from pipdrivers.dice import Dice, FairnessError, commitment_of, verify

ROLLS = 1_000_000
P_MIN = 0.001


def chi2_sf(x, df):
    """Survival function of the chi-square distribution (integer ``df``), exact closed forms."""
    if x <= 0:
        return 1.0
    half = x / 2.0
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return math.exp(-half) * total
    root = math.sqrt(x)
    total = math.erfc(root / math.sqrt(2.0))
    term = math.sqrt(2.0 / math.pi) * math.exp(-half) * root  # i = 1
    for i in range(1, (df - 1) // 2 + 1):
        if i > 1:
            term *= x / (2 * i - 1)
        total += term
    return total


def test_chi2_sf_matches_known_critical_values():
    # Textbook 0.1% critical values.
    for df, crit in ((1, 10.828), (2, 13.816), (5, 20.515), (10, 29.588), (35, 66.619)):
        assert abs(chi2_sf(crit, df) - 0.001) < 2e-5, (df, chi2_sf(crit, df))
    assert abs(chi2_sf(35.0, 35) - 0.4679) < 1e-3


def chi2(counts, expected):
    return sum((c - expected) ** 2 / expected for c in counts)


@pytest.fixture(scope="module")
def rolls():
    dice = Dice(bytes(range(32)))
    return [dice.roll() for _ in range(ROLLS)]


def test_faces_are_uniform(rolls):
    for position in (0, 1):
        counts = [0] * 6
        for r in rolls:
            counts[r[position] - 1] += 1
        p = chi2_sf(chi2(counts, ROLLS / 6), 5)
        assert p > P_MIN, (position, counts, p)


def test_ordered_pairs_are_uniform(rolls):
    counts = [0] * 36
    for a, b in rolls:
        counts[(a - 1) * 6 + b - 1] += 1
    p = chi2_sf(chi2(counts, ROLLS / 36), 35)
    assert p > P_MIN, (counts, p)


def test_a_biased_die_fails_the_same_test():
    # The test can fail: a die with one face 3% more likely is caught.
    rng = random.Random(3)
    weights = [1.03, 1, 1, 1, 1, 1]
    counts = [0] * 6
    for face in rng.choices(range(6), weights, k=ROLLS):
        counts[face] += 1
    assert chi2_sf(chi2(counts, ROLLS / 6), 5) < P_MIN


def test_fair_mode_round_trip_and_single_altered_roll():
    seed = bytes(random.Random(5).getrandbits(8) for _ in range(32))
    board = Dice(seed)
    commitment = board.commitment
    board.add_salt(b"players: 31415")
    record = [board.die() for _ in range(500)]
    revealed = board.reveal()
    assert verify(revealed, commitment, record, b"players: 31415") == 500
    for i in (0, 17, 499):
        altered = list(record)
        altered[i] = altered[i] % 6 + 1
        with pytest.raises(FairnessError, match="die %d was" % (i + 1)) as info:
            verify(revealed, commitment, altered, b"players: 31415")
        assert info.value.index == i
    with pytest.raises(FairnessError, match="does not match the commitment"):
        verify(revealed, commitment_of(b"another seed of sixteen+"), record, b"players: 31415")
    with pytest.raises(FairnessError):
        verify(revealed, commitment, record, b"another salt")
