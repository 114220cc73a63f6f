"""Electronic dice: hash-based generator, provably fair matches, manual entry.

Rolls come from SHA-256 in counter mode over a secret seed taken from
hardware entropy (``entropy(n)`` is injected: on the Pico the ring-oscillator
random bit and ADC noise, see ``board_pins.entropy``)::

    block k  = sha256(seed | salt | k as 4 bytes big-endian)
    die      = byte % 6 + 1 for each byte < 252 of the blocks, in order

Bytes 252..255 are skipped so that every face has exactly 42 of the 252
accepted values.

Provably fair mode: at match start the board shows ``commitment``
(sha256 of the seed, hex); players may then add a ``salt`` (any text, so the
board cannot have chosen a seed that suits it); at match end ``reveal()``
gives the seed, and ``verify()`` (host side, same code) recomputes every die
and names the first one that differs from the record.

Manual mode: players roll real dice and enter them with the buttons
(``ManualEntry``).
"""

import hashlib

try:
    from binascii import hexlify, unhexlify
except ImportError:  # pragma: no cover - every MicroPython port has binascii
    from ubinascii import hexlify, unhexlify

from pipcore.compat import const

SEED_BYTES = const(32)
_ACCEPT = const(252)


class DiceError(ValueError):
    """A bad seed, commitment or dice entry."""


class FairnessError(ValueError):
    """A recorded die that the revealed seed does not produce."""

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


# -- manual entry ---------------------------------------------------------------
ENTRY_UP = const(0)
ENTRY_DOWN = const(1)
ENTRY_OK = const(2)
ENTRY_BACK = const(3)


class ManualEntry:
    """Players enter the dice they rolled by hand.

    Suggested buttons: TAKE = up, DROP = down, ROLL/DONE = ok, UNDO = back.
    The die being edited is ``index``; ``values`` holds both (shown by the
    dice display, the edited one blinking).  ``press`` returns True once all
    ``count`` dice are confirmed.
    """

    def __init__(self, count=2):
        if count not in (1, 2):
            raise DiceError("enter one or two dice, not %r" % (count,))
        self.count = count
        self.values = bytearray((1, 1))
        self.index = 0
        self.done = False

    def press(self, action):
        if self.done:
            return True
        i = self.index
        if action == ENTRY_UP:
            self.values[i] = self.values[i] % 6 + 1
        elif action == ENTRY_DOWN:
            self.values[i] = (self.values[i] + 4) % 6 + 1
        elif action == ENTRY_OK:
            if i + 1 < self.count:
                self.index = i + 1
            else:
                self.done = True
        elif action == ENTRY_BACK:
            if i > 0:
                self.index = i - 1
        else:
            raise DiceError("unknown entry action %r" % (action,))
        return self.done

    def dice(self):
        if not self.done:
            raise DiceError("the dice are not entered yet")
        if self.count == 1:
            return (self.values[0],)
        return self.values[0], self.values[1]
