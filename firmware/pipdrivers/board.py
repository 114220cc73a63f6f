"""Assemble every driver of the board from injected hardware functions.

``board_pins.build()`` calls this with the Pico's pins; the simulator calls
it with the twins of ``pipboard.twins`` (``virtual_board()``).  So the real
board and the simulated one are built by the same code with the same
geometry.
"""

from pipcore import geometry as g

from pipdrivers.buttons import Buttons
from pipcore.fairdice import Dice
from pipdrivers.dice_display import DiceDisplay
from pipdrivers.leds import Pixels
from pipdrivers.scan import Scanner
from pipdrivers.recstore import MatchStore
from pipdrivers.storage import AtomicStore

STATE_PATH = "/pipboard_state.bin"
SETTINGS_PATH = "/pipboard_settings.bin"  # the board's own settings (pipcore.settings)
CLOCK_PATH = "/pipboard_clock.bin"  # the running tournament clock's reading between saves (pipcore.gameclock)
SCAN_PERIOD_MS = 5  # 200 Hz; 4 samples settle a checker in 20 ms
BUTTON_PERIOD_MS = 10
FRAME_PERIOD_MS = 20  # 50 frames/s; the wire time of 197 pixels is 5.9 ms


class Board:
    """The drivers of one board: ``scanner``, ``pixels``, ``display``,
    ``buttons``, ``state_store``, ``settings_store``, ``clock_store``, ``match_store`` (the
    match records and their directory), ``dice`` and the ``entropy`` source
    (for new matches).

    ``led_return``: where the board can see its LED chain's end (the last
    pixel's data out wired back to a GPIO, hardware/pinmap.md), a callable
    that returns how many pulses came back since it was last called (and
    forgets them); None where the board has no such line (``check_leds``
    then says None: not checked)."""

    def __init__(self, read_chain, write_leds, read_buttons, fs, entropy, brightness=0.4,
                 budget_ma=g.POWER_BUDGET_MA, samples=4, long_ms=800, button_samples=3, byteorder="GRB",
                 led_return=None):
        # samples / button_samples: scans that settle a change (1 where the chain or the buttons
        # arrive debounced already, as from CircuitPython's keypad); byteorder: of the frame handed
        # to write_leds (the wire's GRB, or RGB for a writer that reorders, as Adafruit's NeoPixel)
        self.scanner = Scanner(read_chain, samples=samples)
        self.pixels = Pixels(g.LEDS, write_leds, brightness=brightness, budget_ma=budget_ma, byteorder=byteorder)
        self.display = DiceDisplay(self.pixels)
        self.buttons = Buttons(read_buttons, samples=button_samples, long_ms=long_ms)
        self.state_store = AtomicStore(fs, STATE_PATH)
        self.settings_store = AtomicStore(fs, SETTINGS_PATH)
        self.clock_store = AtomicStore(fs, CLOCK_PATH)
        self._write_leds = write_leds
        self.led_return = led_return
        self.match_store = MatchStore(fs)
        self.entropy = entropy
        self.dice = Dice.from_entropy(entropy)
        self.inputs = ()  # adapters between the pins and the drivers, where there are any (CircuitPython's keypad)

    def check_leds(self):
        """Is the LED chain whole? A frame one pixel longer than the chain (all dark, then a white pixel)
        must come out of the last pixel's data out. True or False; None without a return line. The
        pixels are dark afterwards, until the next ``pixels.show``."""
        returned = self.led_return
        if returned is None:
            return None
        returned()  # forget what came back before
        probe = bytearray(3 * (g.LEDS + 1))
        for i in range(3 * g.LEDS, 3 * g.LEDS + 3):
            probe[i] = 0xFF
        self._write_leds(probe)
        return returned() > 0

    def new_dice(self, salt=b""):
        """Fresh dice for a new match (a new secret seed, a new commitment)."""
        self.dice = Dice.from_entropy(self.entropy, salt)
        return self.dice
