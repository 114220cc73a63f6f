"""Dice from a secret seed: the generator, its commitment, and a provably fair match's dice.

Rolls come from SHA-256 in counter mode over a secret seed (the board takes
it from hardware entropy: ``pipdrivers.board_pins.entropy``)::

    block k  = sha256(seed | salt | k as 4 bytes big-endian)
    die      = byte % 6 + 1 for each byte < 252 of the blocks, in order

Bytes 252..255 are skipped so that every face has exactly 42 of the 252
accepted values. The board's electronic dice always come from such a seed
(``pipdrivers.dice``); a match with the ``dice`` option ``fair`` makes it
provable:

* before the first roll the board shows ``commitment`` (sha256 of the seed,
  hex): as a pattern on the panel (``pattern``) and to the host
  (``pipboard monitor``), and writes it into the match record;
* every die of the match is the next one of that seed (``FairMatch``: the
  dice used so far survive a power cut with the state save);
* after the match the board reveals the seed (the snapshot, the record), and
  ``verify`` (``pipboard verify RECORD`` on the host, the same code)
  recomputes every die and names the first one that differs from the record.

Pure: no I/O, no clock; the entropy source is passed in.
"""

import hashlib

try:
    from binascii import hexlify, unhexlify
except ImportError:  # pragma: no cover - every MicroPython port has binascii
    from ubinascii import hexlify, unhexlify

from pipcore.compat import const

SEED_BYTES = const(32)
_ACCEPT = const(252)
PATTERN_PIPS = const(14)  # the panel shows the commitment's first 28 bits: 2 per pip of both dice


class DiceError(ValueError):
    """A bad seed or commitment."""


class FairnessError(ValueError):
    """A recorded die that the revealed seed does not produce (``index``: the die, from 0; -1: the seed)."""

    def __init__(self, message, index=-1):
        super().__init__(message)
        self.index = index


def commitment_of(seed):
    """Hex SHA-256 of a seed: what the board shows at match start."""
    return hexlify(hashlib.sha256(seed).digest()).decode()


class Dice:
    """Dice for one match from ``seed`` (bytes, at least 16)."""

    def __init__(self, seed, salt=b""):
        if not isinstance(seed, (bytes, bytearray)) or len(seed) < 16:
            raise DiceError("a dice seed is at least 16 bytes of entropy")
        self._seed = bytes(seed)
        self.salt = bytes(salt)
        self.commitment = commitment_of(self._seed)
        self.drawn = 0  # dice drawn so far
        self._block = 0
        self._buf = b""
        self._pos = 0

    @classmethod
    def from_entropy(cls, entropy, salt=b""):
        """Seed from the injected hardware entropy source ``entropy(n) -> bytes``."""
        return cls(entropy(SEED_BYTES), salt)

    def add_salt(self, salt):
        """Players' salt, accepted only before the first die of the match."""
        if self.drawn:
            raise DiceError("the salt must be given before the first roll")
        self.salt = bytes(salt)

    def die(self):
        """One die, 1..6."""
        while True:
            if self._pos >= len(self._buf):
                k = self._block
                counter = bytes(((k >> 24) & 255, (k >> 16) & 255, (k >> 8) & 255, k & 255))
                self._buf = hashlib.sha256(self._seed + self.salt + counter).digest()
                self._block = k + 1
                self._pos = 0
            b = self._buf[self._pos]
            self._pos += 1
            if b < _ACCEPT:
                self.drawn += 1
                return b % 6 + 1

    def roll(self):
        """Two dice ``(d1, d2)``."""
        return self.die(), self.die()

    def reveal(self):
        """The seed in hex: shown at match end so that anyone can check the rolls."""
        return hexlify(self._seed).decode()


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
    def start(cls, options, entropy, writer=None):
        """A new match's fair dice where its options want them (``dice``: ``fair``), else None."""
        return cls.new(entropy, writer) if options["dice"] == "fair" else None

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
