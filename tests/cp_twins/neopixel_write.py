"""Twin of CircuitPython's ``neopixel_write``: the bytes go to the virtual LED wire."""

from cpsim import WIRING


def neopixel_write(digitalinout, buf):
    if digitalinout.deinited:
        raise ValueError("Object has been deinitialized and can no longer be used. Create a new object.")
    if digitalinout.direction != "OUTPUT":
        raise ValueError("neopixel_write needs an output pin")
    WIRING.wire_frame(digitalinout.pin.gpio, bytes(buf))
