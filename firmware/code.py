"""Pipboard firmware entry on CircuitPython 9/10: the composition root, run by CircuitPython after boot.py.

The CircuitPython twin of ``main.py`` (which MicroPython runs): it builds
every driver from the Pico's pins (``pipdrivers.cp_board_pins.build``:
``keypad`` scans the switches and buttons, Adafruit's ``neopixel`` drives
the LEDs), hands them to the same app (``pipcore.app.App``), serves the
same host protocol, and polls forever with ``supervisor.ticks_ms``:

=========  ===========================  ==========================================
GPIO       signal                       to
=========  ===========================  ==========================================
GP16       data (Q7 of 74HC165 #0)      Q7 of 74HC165 #0 (10 k pull-down)
GP17       latch (SH/LD)                SH/LD of all 21 74HC165 (low = load)
GP18       clock                        CLK of all 21 74HC165
GP22       LED data                     74AHCT125 -> 330 R -> DIN of pixel 0
GP2..GP11  buttons 0..9 (pull-up)       push buttons to GND (geometry.BUTTON_NAMES)
=========  ===========================  ==========================================

What differs from MicroPython (README "CircuitPython", docs/circuitpython.md):

* the protocol runs on ``usb_cdc.data``, a second USB serial port that
  boot.py enables; the console keeps the REPL, so nothing has to be handed
  over: Ctrl-C on the console stops the game (the LEDs go off and the
  watchdog is switched off), Ctrl-D starts it again;
* the saves live on the CIRCUITPY drive, which boot.py gives to the board;
  while the computer owns it (``menu`` held at power-up, or boot.py not run
  yet after the first copy) the board cannot save, so the game does not start and a
  line on the console says what to do;
* a ``microcontroller.watchdog`` (8 s, reset mode) restarts a board that
  hangs; it resumes from its last save.
"""

import gc
import sys

from pipcore import geometry, guard

FIRMWARE_VERSION = "0.1.0"
WDT_TIMEOUT_S = 8.0  # as main.py: the longest pass is well under a second
LOW_MEMORY = 20000  # bytes free below which the loop collects
_TICKS_MASK = 0x1FFFFFFF  # supervisor.ticks_ms wraps at 2**29


def say(text):
    """One line on the console (the data channel carries only protocol frames)."""
    print("pipboard: " + text)


def geometry_summary():
    g = geometry
    return {"points": g.POINTS, "locations": g.LOCATIONS, "slots": g.SLOTS, "sensors": g.SENSORS, "leds": g.LEDS,
            "buttons": g.BUTTONS}


def use_hashlib():
    """CircuitPython builds without ``hashlib`` get the Adafruit library's SHA-256 (circup installs it)."""
    try:
        import hashlib  # noqa: F401
    except ImportError:
        import adafruit_hashlib  # pyright: ignore[reportMissingImports]  (a library on the board's lib/)

        sys.modules["hashlib"] = adafruit_hashlib


def _nothing():
    pass


def serve(host, app, feed, ticks_ms, sleep, mem_free):
    """The game loop; ends only by an exception that is not an ``Exception`` (Ctrl-C on the console)."""
    poll = host.poll
    last = ticks_ms()
    now = 0  # ms since the start, never wrapping
    while True:
        feed()
        t = ticks_ms()
        now += (t - last) & _TICKS_MASK
        last = t
        failed = False
        try:  # (guard.call's first try made here: a frame less on the Pico's 8 KB C stack, tests/pico/depth.py)
            poll(now)  # host bytes answered, the app polled, events sent
        except Exception:
            failed = True
        if failed:  # (out of the except: its traceback goes before the heap is relieved)
            guard.retry(poll, now, app)  # relieved and retried; a second fault is shown, the loop goes on
        if mem_free() < LOW_MEMORY:
            gc.collect()
        sleep(0.001)


def run(board_pins=None, supervisor=None, microcontroller=None, usb_cdc=None, storage=None, clock=None,
        mem_free=None):
    """Start the board (the pieces are injectable for tests; on the Pico they are the real modules)."""
    if supervisor is None:
        import supervisor
    if microcontroller is None:
        import microcontroller
    if usb_cdc is None:
        import usb_cdc
    if storage is None:
        import storage
    if clock is None:
        import time as clock
    if storage.getmount("/").readonly:
        say("the CIRCUITPY drive belongs to the computer (menu held at power-up, or boot.py not run yet), "
            "so the board cannot save: the game is not running. Eject the drive, unplug the board and plug it "
            "in again to play.")
        return "drive"
    if usb_cdc.data is None:
        say("the data channel is off (boot.py enables it at power-up): unplug the board and plug it in again.")
        return "no data channel"
    use_hashlib()
    if board_pins is None:
        from pipdrivers import cp_board_pins as board_pins
    from watchdog import WatchDogMode

    wdt = microcontroller.watchdog  # None on a port without one: the game then runs unguarded
    if wdt is not None:
        wdt.timeout = WDT_TIMEOUT_S
        wdt.mode = WatchDogMode.RESET
    feed = wdt.feed if wdt is not None else _nothing
    from pipcore.app import App
    from pipdrivers.cp_serial import CdcSerial
    from pipdrivers.usb_serial import HostLink

    hw = board_pins.build()
    feed()
    app = App(hw)
    host = HostLink(app, FIRMWARE_VERSION, serial=CdcSerial(usb_cdc.data))
    host.handler.can_repl = False  # the REPL has its own port: nothing to hand over
    host.handler.geometry = geometry_summary()
    host.handler.announce()
    say("game running; protocol on the data channel, REPL on the console (Ctrl-C stops the game)")
    try:
        serve(host, app, feed, supervisor.ticks_ms, clock.sleep, mem_free or gc.mem_free)
    finally:
        try:
            if wdt is not None:
                wdt.mode = None  # the REPL must not be reset under the maker's hands
        except Exception:
            pass
        hw.pixels.deinit()  # LEDs off


if __name__ == "__main__":
    try:
        run()
    except KeyboardInterrupt:
        say("game stopped (Ctrl-C); Ctrl-D starts it again")
    except Exception as exc:  # start-up failed (e.g. MemoryError): say so; a reset tries again
        try:
            say("the game could not start (%s: %s); Ctrl-D tries again" % (type(exc).__name__, exc))
        except Exception:
            pass
