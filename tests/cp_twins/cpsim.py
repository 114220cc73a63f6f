"""The virtual hardware behind the CircuitPython twins: pins, the switch chain, the buttons, USB, the clock.

``power_on(...)`` starts a fresh "VM run" (every pin free again, as after a
reset) wired to the simulator's twins (``pipboard.twins.VirtualSwitches`` as
the 74HC165 chain, ``VirtualButtons`` as the ten buttons) and to a clock in
ms. The twin modules read and record through ``WIRING``.
"""

import hashlib

from pipcore import pinmap


class Wiring:
    def __init__(self):
        self.power_on()

    def power_on(self, chain=None, pad=None, clock=None, drive_readonly=True, data_enabled=True):
        self.chain = chain  # readinto(buf) of SCAN_BYTES + 1 bytes, as VirtualSwitches
        self.pad = pad  # read() -> pressed buttons, bit n = button n
        self.clock = clock or (lambda: 0)
        self.claimed = {}  # gpio -> owner description
        self.drive_readonly = drive_readonly  # True at power-up: the computer owns the drive until a remount
        self.data_enabled = data_enabled
        self.remounts = []
        self.frames = 0
        self.frame_hash = hashlib.sha256()
        self.last_frame = b""
        self.on_frame = None
        self.chain_pins = (pinmap.PIN_SCAN_SCK, pinmap.PIN_SCAN_MISO, pinmap.PIN_SCAN_LOAD)  # clock, data, latch
        self.led_pin = pinmap.PIN_LED_DATA
        self.button_pins = tuple(pinmap.BUTTON_PINS)
        self.held = set()  # gpio numbers held low by hand, apart from the pad (boot.py's reads)

    # -- pins ---------------------------------------------------------------
    def claim(self, pin, owner):
        if pin.gpio in self.claimed:
            raise ValueError("%s in use" % pin.name)
        self.claimed[pin.gpio] = owner

    def release(self, pin):
        self.claimed.pop(pin.gpio, None)

    def level(self, gpio, pull_up, pad_state=None):
        """The level an input reads: a pressed button pulls its GPIO to GND."""
        if gpio in self.button_pins:
            if pad_state is None:
                pad_state = self.pad.read() if self.pad is not None else 0
            pressed = gpio in self.held or pad_state >> self.button_pins.index(gpio) & 1
            return False if pressed else bool(pull_up)
        return bool(pull_up)

    def levels(self, gpios, pull_up):
        """The levels of several inputs read at one instant (the pad is read once, as one scan does)."""
        pad_state = self.pad.read() if self.pad is not None else 0
        return tuple(self.level(gpio, pull_up, pad_state) for gpio in gpios)

    # -- the LED wire ---------------------------------------------------------
    def wire_frame(self, gpio, data):
        if gpio != self.led_pin:
            return  # no pixel listens on that pin
        data = bytes(data)
        self.frames += 1
        self.frame_hash.update(data)
        self.last_frame = data
        if self.on_frame is not None:
            self.on_frame(data)

    def now(self):
        return int(self.clock())


WIRING = Wiring()


def power_on(**kw):
    WIRING.power_on(**kw)
    import usb_cdc

    usb_cdc._power_on(WIRING.data_enabled)
    import microcontroller

    microcontroller.watchdog = microcontroller.WatchDogTimer()
    return WIRING
