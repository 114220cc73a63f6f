"""Pipboard firmware entry: the composition root, run by MicroPython at boot.

The only module of the game that knows real time. It builds every driver from
the Pico's pins (``pipdrivers.board_pins.build``, wiring as in
hardware/wiring.md), hands them to the app (``pipcore.app.App``: the same app
the simulated board runs on the driver twins), serves the host protocol over
USB serial beside the REPL, and polls forever with ``time.ticks_ms``:

=========  ===========================  ==========================================
GPIO       signal                       to
=========  ===========================  ==========================================
GP16       SPI0 RX (MISO)               Q7 of 74HC165 #0 (10 k pull-down)
GP17       SH/LD (output)               SH/LD of all 21 74HC165 (low = load)
GP18       SPI0 SCK                     CLK of all 21 74HC165
GP22       LED data                     74AHCT125 -> 330 R -> DIN of pixel 0
GP2..GP11  buttons 0..9 (pull-up)       push buttons to GND (geometry.BUTTON_NAMES)
GP26       ADC0, unconnected            noise for the dice seed
=========  ===========================  ==========================================

Ctrl-C (``mpremote``) interrupts the loop; the LEDs are switched off and the
REPL takes over, so new firmware can be deployed.
"""

import gc
import time

from pipcore import geometry
from pipcore.app import App
from pipdrivers import board_pins
from pipdrivers.usb_serial import HostLink

FIRMWARE_VERSION = "0.1.0"


def geometry_summary():
    g = geometry
    return {"points": g.POINTS, "locations": g.LOCATIONS, "slots": g.SLOTS, "sensors": g.SENSORS, "leds": g.LEDS,
            "buttons": g.BUTTONS}


def run():
    hw = board_pins.build()
    app = App(hw)
    host = HostLink(app, FIRMWARE_VERSION)  # protocol over USB serial beside the REPL
    host.handler.geometry = geometry_summary()
    host.handler.announce()
    ticks_ms = time.ticks_ms
    ticks_diff = time.ticks_diff
    last = ticks_ms()
    now = 0  # ms since boot, never wrapping (the drivers keep their own copies modulo 2**30)
    try:
        while True:
            t = ticks_ms()
            now += ticks_diff(t, last)
            last = t
            host.poll(now)  # host bytes answered, the app polled, events sent
            if gc.mem_free() < 20000:
                gc.collect()
            time.sleep_ms(1)
    finally:
        hw.pixels.deinit()


run()
