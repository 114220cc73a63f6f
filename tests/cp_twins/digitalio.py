"""Twin of CircuitPython's ``digitalio`` (pins claimed and released as on the board)."""

from cpsim import WIRING


class Direction:
    INPUT = "INPUT"
    OUTPUT = "OUTPUT"


class Pull:
    UP = "UP"
    DOWN = "DOWN"


class DriveMode:
    PUSH_PULL = "PUSH_PULL"
    OPEN_DRAIN = "OPEN_DRAIN"


class DigitalInOut:
    def __init__(self, pin):
        WIRING.claim(pin, self)
        self.pin = pin
        self._direction = Direction.INPUT
        self.pull = None
        self._value = False
        self.deinited = False

    def _check(self):
        if self.deinited:
            raise ValueError("Object has been deinitialized and can no longer be used. Create a new object.")

    def deinit(self):
        if not self.deinited:
            WIRING.release(self.pin)
            self.deinited = True

    def switch_to_input(self, pull=None):
        self._check()
        self._direction = Direction.INPUT
        self.pull = pull

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self._check()
        self._direction = Direction.OUTPUT
        self._value = bool(value)

    @property
    def direction(self):
        return self._direction

    @direction.setter
    def direction(self, value):
        self._check()
        self._direction = value
        if value == Direction.OUTPUT:
            self._value = False

    @property
    def value(self):
        self._check()
        if self._direction == Direction.OUTPUT:
            return self._value
        return WIRING.level(self.pin.gpio, self.pull == Pull.UP)

    @value.setter
    def value(self, value):
        self._check()
        if self._direction != Direction.OUTPUT:
            raise AttributeError("Cannot set value when direction is input.")
        self._value = bool(value)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
