"""Electronic dice: the seeded generator of ``pipcore.fairdice``, seeded from hardware entropy.

The board's dice always come from a secret seed taken from hardware entropy
(``entropy(n)`` is injected: on the Pico the ring-oscillator random bit and
ADC noise, see ``board_pins.entropy``); ``Board.new_dice()`` draws a new one.
The generator and the commitment live in ``pipcore.fairdice``; a match with
the ``dice`` option ``fair`` keeps its own seed (``pipcore.fairmatch``, with
``verify``: the host checks a fair match with the same code), and physical
dice keyed in with the buttons are ``pipcore.keyed``'s. (The board imports
the generator from ``pipcore.fairdice`` itself: this name is the host's.)
"""

from pipcore.fairdice import SEED_BYTES, Dice, DiceError, commitment_of  # noqa: F401
from pipcore.fairmatch import FairnessError, verify  # noqa: F401
