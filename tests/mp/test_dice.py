"""Dice driver: determinism, fairness check, manual entry (CPython and MicroPython)."""

from pipdrivers.dice import (
    ENTRY_BACK,
    ENTRY_DOWN,
    ENTRY_OK,
    ENTRY_UP,
    Dice,
    DiceError,
    FairnessError,
    ManualEntry,
    verify,
)

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


def test_manual_entry():
    entry = ManualEntry()
    assert not entry.press(ENTRY_UP)  # 2
    entry.press(ENTRY_UP)  # 3
    entry.press(ENTRY_OK)
    entry.press(ENTRY_DOWN)  # 1 -> 6
    entry.press(ENTRY_BACK)
    assert entry.index == 0
    entry.press(ENTRY_OK)
    assert entry.press(ENTRY_OK)
    assert entry.dice() == (3, 6)
    single = ManualEntry(1)
    single.press(ENTRY_DOWN)
    single.press(ENTRY_OK)
    assert single.dice() == (6,)
