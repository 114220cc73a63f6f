"""A provably fair match's dice: the commitment, the seed kept and revealed, and ``verify``.

Loaded only for a match whose ``dice`` option is ``fair`` (and by the host's
``pipboard verify``); the generator itself is ``pipcore.fairdice``, resident
since it rolls every electronic die. See that module for the scheme.
"""

try:
    from binascii import hexlify, unhexlify
except ImportError:  # pragma: no cover - every MicroPython port has binascii
    from ubinascii import hexlify, unhexlify

from pipcore.compat import const
from pipcore.fairdice import SEED_BYTES, Dice, DiceError, commitment_of

PATTERN_PIPS = const(14)  # the panel shows the commitment's first 28 bits: 2 per pip of both dice


class FairnessError(ValueError):
    """A recorded die that the revealed seed does not produce (``index``: the die, from 0; -1: the seed)."""

    def __init__(self, message, index=-1):
        super().__init__(message)
        self.index = index


def verify(seed_hex, commitment, dice, salt=b""):
    """Check a match: the seed matches the commitment and produces ``dice``.

    ``dice`` is the flat sequence of every die drawn in the match, in order.
    Returns the number checked; raises FairnessError naming the first
    difference.
    """
    try:
        seed = unhexlify(seed_hex)
    except ValueError:
        raise FairnessError("the revealed seed is not hex: %r" % (seed_hex,)) from None
    if commitment_of(seed) != commitment:
        raise FairnessError("the revealed seed does not match the commitment %s" % commitment)
    replay = Dice(seed, salt)
    n = 0
    for i, value in enumerate(dice):
        expected = replay.die()
        if value != expected:
            raise FairnessError("die %d was %r but the seed gives %d" % (i + 1, value, expected), i)
        n += 1
    return n


def pattern(commitment):
    """The panel's picture of a commitment: 14 colour indices 0..3 (die A's pips 0..6, then die B's),
    two bits each from the commitment's first 7 hex digits, most significant first."""
    bits = int(commitment[:7], 16)
    return [(bits >> (26 - 2 * k)) & 3 for k in range(PATTERN_PIPS)]


class FairMatch:
    """A provably fair match's dice: the secret seed (hex), the dice used, whether it was revealed.

    Only the state save keeps the seed; the host sees ``public()``, which
    holds the seed only once ``revealed``. ``pair()`` is the next roll (the
    same until ``used_pair()`` says it was taken: a fault that replays an
    event never draws twice).
    """

    def __init__(self, seed_hex, used=0, revealed=False):
        self.seed = seed_hex
        self.used = used
        self.revealed = revealed
        self.commitment = commitment_of(unhexlify(seed_hex))
        self._dice = None
        self._pair = None

    @classmethod
    def new(cls, entropy, writer=None):
        """A fresh secret seed from ``entropy(n) -> bytes`` (the board's hardware noise); its commitment
        goes into the match record (``writer``: ``pipcore.recwriter.RecordWriter``) before the first roll."""
        if entropy is None:
            raise DiceError("fair dice need the board's entropy source")
        fair = cls(hexlify(bytes(entropy(SEED_BYTES))).decode())
        if writer is not None:
            writer.fair(0, fair.commitment)
        return fair

    def reveal(self, writer=None):
        """The match is over: the seed is public now, and written into the record. True the first time."""
        if self.revealed:
            return False
        self.revealed = True
        if writer is not None:
            writer.fair(1, self.seed)
        return True

    def pair(self):
        """The next two dice of the seed (die A, die B: at the opening, white's die then black's)."""
        if self._pair is None:
            d = self._dice
            if d is None or d.drawn != self.used:
                d = self._dice = Dice(unhexlify(self.seed))
                for _ in range(self.used):
                    d.die()
            self._pair = d.roll()
        return self._pair

    def used_pair(self):
        """The roll ``pair()`` gave was taken into the game."""
        self.pair()
        self.used += 2
        self._pair = None

    def snapshot(self):
        return [self.seed, self.used, 1 if self.revealed else 0]

    @classmethod
    def restore(cls, data):
        seed, used, revealed = data
        return cls(seed, used, bool(revealed))

    def public(self):
        """What the host may see: the commitment, the rolls drawn, and the seed once revealed."""
        return {"commitment": self.commitment, "rolls": self.used // 2, "seed": self.seed if self.revealed else None}
