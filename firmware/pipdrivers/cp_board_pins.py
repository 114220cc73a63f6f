"""The Pico's side of the drivers on CircuitPython: the only pipdrivers module that imports ``board``.

``build()`` returns the same ``pipdrivers.board.Board`` as
``pipdrivers.board_pins.build()`` does on MicroPython, wired as in
hardware/README.md (same pins, from ``pipcore.pinmap``), with the libraries
a CircuitPython maker already has:

=========  ===========================  ================================================
GPIO       signal                       CircuitPython
=========  ===========================  ================================================
GP16       Q7 of 74HC165 #0 (data)      ``keypad.ShiftRegisterKeys`` (176 keys: 168
GP17       SH/LD of all 21 74HC165      switches + the sentinel byte), scanned in C in
GP18       CLK of all 21 74HC165        the background every 5 ms, 4 scans to settle
GP22       LED data (74AHCT125)         ``neopixel.NeoPixel`` (adafruit-circuitpython-
                                        neopixel over ``adafruit_pixelbuf``)
GP2..GP11  buttons 0..9 (pull-up)       ``keypad.Keys``, every 10 ms, 3 scans to settle
flash      saves                        the CIRCUITPY drive (FAT), writable by the board
                                        when boot.py remounted it
entropy    dice seed                    ``os.urandom`` (the RP2040's ring oscillator)
=========  ===========================  ================================================

The keypad scanners debounce exactly as ``Scanner`` and ``Buttons`` do on
MicroPython (an integrator, ``samples`` scans at the same periods), so the
drivers get ``samples=1`` (docs/circuitpython.md compares the two).

The LED frame is composed by ``pipdrivers.leds.Pixels`` as on MicroPython
(effects, brightness, the power limiter) in RGB order; the NeoPixel keeps
``brightness=1.0`` (the frame is scaled already; its own scaling would
apply twice) and ``auto_write=False``, and its ``pixel_order`` puts the
bytes in the wire's GRB order, so the bytes on GP22 are the MicroPython
build's (tests/test_circuitpython.py compares them).
"""

import os
import time

import board
import keypad
import neopixel
from pipcore import geometry as g
from pipcore import pinmap
from pipcore.compat import const

from pipdrivers.board import Board
from pipdrivers.flashfs import FlashFS
from pipdrivers.cp_keys import KeypadButtons, KeypadChain
from pipdrivers.cp_pixels import StripWriter

KEY_COUNT = const(176)  # (geometry.SCAN_BYTES + 1 sentinel byte) * 8
SCAN_INTERVAL_S = 0.005  # pipcore.app.SCAN_PERIOD_MS
SCAN_DEBOUNCE = const(4)  # pipdrivers.board: Scanner samples on MicroPython
BUTTON_INTERVAL_S = 0.010  # pipcore.app.BUTTON_PERIOD_MS
BUTTON_DEBOUNCE = const(3)  # pipdrivers.buttons: Buttons samples on MicroPython
CHAIN_EVENTS = const(192)  # >= KEY_COUNT: after an overflow, the resync's events (one per key held) all fit
BUTTON_EVENTS = const(32)  # as the Buttons' ring


def pin(gpio):
    """The ``board`` pin of a GPIO number of pipcore.geometry (``board.GP16`` for 16)."""
    return getattr(board, "GP%d" % gpio)


def _waiter(seconds):
    def wait():
        time.sleep(seconds)

    return wait


def chain_reader():
    """``readinto(buf)`` for the scanner, from a ``keypad.ShiftRegisterKeys`` on the chain."""
    keys = keypad.ShiftRegisterKeys(
        clock=pin(pinmap.PIN_SCAN_SCK),
        data=pin(pinmap.PIN_SCAN_MISO),
        latch=pin(pinmap.PIN_SCAN_LOAD),
        value_to_latch=True,  # the 74HC165 loads while SH/LD is low and holds when it goes high
        key_count=KEY_COUNT,
        value_when_pressed=True,  # a closed reed switch pulls its input to 3.3 V
        interval=SCAN_INTERVAL_S,
        max_events=CHAIN_EVENTS,
        debounce_threshold=SCAN_DEBOUNCE,
    )
    # after an overflow: every key rescanned and settled again
    return KeypadChain(keys, keypad.Event(), _waiter(SCAN_INTERVAL_S * (SCAN_DEBOUNCE + 2)))


def button_reader():
    """``read()`` for the buttons, from a ``keypad.Keys`` on GP2..GP11."""
    keys = keypad.Keys(
        tuple(pin(n) for n in pinmap.BUTTON_PINS),
        value_when_pressed=False,  # buttons to GND, internal pull-ups
        pull=True,
        interval=BUTTON_INTERVAL_S,
        max_events=BUTTON_EVENTS,
        debounce_threshold=BUTTON_DEBOUNCE,
    )
    return KeypadButtons(keys, keypad.Event(), _waiter(BUTTON_INTERVAL_S * (BUTTON_DEBOUNCE + 2)))


def strip_writer(strip):
    """``write(buf)`` for the pixels: the finished frame in RGB order through ``strip`` (``cp_pixels``)."""
    return StripWriter(strip).write


def led_strip():
    """The NeoPixel chain on GP22 (brightness and auto_write: see the module docstring)."""
    return neopixel.NeoPixel(pin(pinmap.PIN_LED_DATA), g.LEDS, brightness=1.0, auto_write=False,
                             pixel_order=neopixel.GRB)


def build(fs=None, entropy=None, **config):
    """Every driver of the board, wired to this Pico (``config``: see ``Board``).

    ``fs`` and ``entropy`` default to the board's own (the CIRCUITPY drive,
    ``os.urandom``); the host's tests pass their twins.
    """
    chain = chain_reader()
    buttons = button_reader()
    hw = Board(chain.readinto, strip_writer(led_strip()), buttons.read, fs or FlashFS(), entropy or os.urandom,
               samples=1, button_samples=1, byteorder="RGB", **config)
    # the keypad adapters (their resync counts); Board declares an empty tuple there
    hw.inputs = (chain, buttons)  # pyright: ignore[reportAttributeAccessIssue]
    return hw
