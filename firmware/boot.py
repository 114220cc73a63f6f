"""Pipboard on CircuitPython: boot.py runs once at power-up or RESET, before USB starts.

* ``usb_cdc.enable(console=True, data=True)``: a second USB serial port, the
  data channel, carries the protocol; the console keeps the REPL.
* The CIRCUITPY drive is remounted writable **for the board** so that it can
  save the game (``storage.remount("/", readonly=False)``); the computer then
  sees the drive read-only.
* **The escape:** hold ``menu`` (GP11) while plugging the board in and the
  drive stays the computer's: ``pipboard deploy --circuitpython`` or a file
  manager can write it, and the game does not start (it could not save).
  Unplug and plug in again (without ``menu``) to play.

boot.py runs only at power-up (not after CircuitPython's auto-reload), so
after the first copy the board needs one power cycle. Should boot.py ever
be broken, CircuitPython's safe mode skips it and code.py.
"""

from pipcore import geometry as g
from pipcore import pinmap

HOLD_BUTTON = g.BTN_MENU
HOLD_READS = 3  # pressed this many times, 10 ms apart: one bounce is not a hold


def menu_held(board, digitalio, sleep, reads=HOLD_READS):
    """True when the ``menu`` button reads pressed ``reads`` times running."""
    button = digitalio.DigitalInOut(getattr(board, "GP%d" % pinmap.BUTTON_PINS[HOLD_BUTTON]))
    try:
        button.switch_to_input(pull=digitalio.Pull.UP)
        for i in range(reads):
            if button.value:  # pull-up: pressed reads False
                return False
            if i + 1 < reads:
                sleep(0.01)
        return True
    finally:
        button.deinit()  # keypad.Keys takes the pin in code.py


def configure(board, digitalio, storage, usb_cdc, sleep):
    """Enable the data channel and give the drive to the board unless ``menu`` is held; returns its owner."""
    usb_cdc.enable(console=True, data=True)
    if menu_held(board, digitalio, sleep):
        return "computer"
    storage.remount("/", readonly=False)
    return "board"


if __name__ == "__main__":
    import time

    import board
    import digitalio
    import storage
    import usb_cdc

    print("pipboard boot: CIRCUITPY belongs to the %s" % configure(board, digitalio, storage, usb_cdc, time.sleep))
