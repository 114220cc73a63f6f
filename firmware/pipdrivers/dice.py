"""Electronic dice: the seeded generator of ``pipcore.fairdice``, seeded from hardware entropy.

The board's dice always come from a secret seed taken from hardware entropy
(``entropy(n)`` is injected: on the Pico the ring-oscillator random bit and
ADC noise, see ``board_pins.entropy``); ``Board.new_dice()`` draws a new one.
The generator, the commitment and ``verify`` live in ``pipcore.fairdice``
(pure: the host checks a fair match with the same code); a match with the
``dice`` option ``fair`` keeps its own seed there (``FairMatch``), and
physical dice keyed in with the buttons are ``pipcore.keyed``'s.
"""

from pipcore.fairdice import SEED_BYTES, Dice, DiceError, FairnessError, commitment_of, verify  # noqa: F401
