"""The Raspberry Pi Pico's pins: which GPIO drives or reads what (hardware/wiring.md is drawn from here).

One source with ``pipcore.geometry`` (which numbers the switches, LEDs and
buttons): the composition roots (``pipdrivers.board_pins``, CircuitPython's
``cp_board_pins`` and ``boot.py``) read it once at power-up; the game never
does.
"""

from pipcore.compat import const

PIN_SCAN_SCK = const(18)  # SPI0 SCK  -> all 74HC165 CLK
PIN_SCAN_MISO = const(16)  # SPI0 RX  <- Q7 of register 0
PIN_SCAN_LOAD = const(17)  # plain output -> all 74HC165 SH/LD (low = load)
SCAN_SPI_ID = const(0)
SCAN_SPI_BAUD = const(1_000_000)
PIN_LED_DATA = const(22)  # -> 74AHCT125 (3.3 V to 5 V) -> DIN of pixel 0
PIN_LED_RETURN = const(21)  # <- DOUT of the last pixel via 10 k / 20 k: the LED chain check at power-up
PIN_ENTROPY_ADC = const(26)  # ADC0, left floating: noise for the dice seed

# Buttons: to GND, internal pull-ups; pressed reads 0 (their numbering is geometry.BTN_*).
# Button n is on GPIO BUTTON_GPIO_BASE + n (GP2..GP11), so one read of the
# SIO input register gives all ten at once.
BUTTON_GPIO_BASE = const(2)
BUTTON_PINS = b"\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b"
