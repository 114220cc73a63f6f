"""Dice from a secret seed: the generator and its commitment.

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
* every die of the match is the next one of that seed (``pipcore.fairmatch``:
  the dice used so far survive a power cut with the state save);
* after the match the board reveals the seed (the snapshot, the record), and
  ``pipcore.fairmatch.verify`` (``pipboard verify RECORD`` on the host, the
  same code) recomputes every die and names the first one that differs.

Only the generator is resident on the board: ``pipcore.fairmatch`` is loaded
by a match that wants provable dice.

Pure: no I/O, no clock; the entropy source is passed in.
"""

import hashlib

try:
    from binascii import hexlify
except ImportError:  # pragma: no cover - every MicroPython port has binascii
    from ubinascii import hexlify

from pipcore.compat import const

SEED_BYTES = const(32)
_ACCEPT = const(252)


class DiceError(ValueError):
    """A bad seed or commitment."""


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
