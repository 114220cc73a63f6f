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
GP21       LED return (input)           DOUT of the last pixel via 10 k / 20 k (chain check)
GP2..GP11  buttons 0..9 (pull-up)       push buttons to GND (geometry.BUTTON_NAMES)
GP26       ADC0, unconnected            noise for the dice seed
=========  ===========================  ==========================================

The game never stops by itself (pipcore.guard): every pass of the loop is
guarded (a fault is collected, relieved and retried, then shown on the
panel), a ``machine.WDT`` restarts a board that hangs (it resumes from its
last save), and Ctrl-C is off while the game runs (``micropython.kbd_intr(-1)``),
so no byte on the USB line can stop it. The REPL gets the port back only
deliberately:

* the host sends the protocol command ``repl`` (``pipboard deploy`` and
  ``pipboard repl`` do): the loop ends, Ctrl-C is restored, the LEDs go off,
  a line says so, and the board restarts without the game (the watchdog
  cannot be stopped once running, so a restart is the only clean hand-over);
* a maker holds the ``menu`` button while powering the board up: the game
  does not start and the REPL is free for plain ``mpremote``.

Ctrl-D at the REPL (a soft reset) or a power cycle starts the game again.
"""

import gc
import os
import time

from pipcore import geometry, guard

FIRMWARE_VERSION = "0.1.0"
# Longest pass measured: a turn's tables 100-160 ms on the Pico, a save some tens of ms; a rebuild
# after a fault costs about two turns and a guarded pass may run twice. 8 s (the RP2040 allows 8388)
# leaves a wide margin and still restarts a hung board within seconds.
WDT_TIMEOUT_MS = 8000
REPL_FLAG = "/pipboard_repl"  # written before the hand-over restart: that start leaves the REPL alone
HOLD_BUTTON = geometry.BTN_MENU  # held at power-up: the game does not start
LOW_MEMORY = 20000  # bytes free below which the loop collects
# ``gc.mem_free`` walks the whole heap (9 ms on the emulated Pico, more than a pass that scans and draws): the
# loop measures it after a change at most this often, and this often when nothing happens
MEMORY_CHECK_MS = 200
MEMORY_IDLE_CHECK_MS = 2000
MAX_SLEEP_MS = 20  # the longest wait between passes (the app asks for its next scan sooner: 5 ms)


def geometry_summary():
    g = geometry
    return {"points": g.POINTS, "locations": g.LOCATIONS, "slots": g.SLOTS, "sensors": g.SENSORS, "leds": g.LEDS,
            "buttons": g.BUTTONS}


def say(text):
    """One plain line on the USB serial port (hosts ignore lines that are not JSON)."""
    print("pipboard: " + text)


def held_at_power_up(read_buttons, sleep_ms, button=HOLD_BUTTON, reads=3):
    """True when ``button`` reads pressed ``reads`` times, 10 ms apart (one bounce is not a hold)."""
    for i in range(reads):
        if not read_buttons() >> button & 1:
            return False
        if i + 1 < reads:
            sleep_ms(10)
    return True


def repl_flag_set(path=REPL_FLAG):
    """True (once) when the last run handed the port to the REPL; the flag is removed."""
    try:
        os.remove(path)
    except OSError:
        return False
    return True


def serve(host, app, feed, ticks_ms, ticks_diff, sleep_ms, mem_free):
    """The game loop: returns only when a host asked for the REPL.

    Between passes it sleeps until the app's next need (``App.due``: the
    next scan, button poll, animation frame, clock deadline; at once while
    work waits), 1 ms at least. ``time.sleep_ms`` waits in WFE on the rp2
    port: the CPU idles, USB goes on, and host bytes wait a scan period at
    most. Measured on the emulated Pico (``PICO_STATS``): waiting for the
    opening roll and during a turn with no hand moving, the CPU is busy 12 %
    of the time at the table, 16-17 % with a host connected (95 % when every
    pass slept 1 ms and measured the heap: tests/bench/README.md).
    """
    poll = host.poll
    last = ticks_ms()
    said = []
    now = 0  # ms since boot, never wrapping (the drivers keep their own copies modulo 2**30)
    checked = 0  # when the free heap was last measured
    seen = -1  # the app's ``changes`` then
    while True:
        feed()  # the watchdog: a pass that hangs restarts the board
        t = ticks_ms()
        now += ticks_diff(t, last)
        last = t
        failed = False
        try:  # (guard.call's first try made here: a frame less on the Pico's 8 KB C stack, tests/pico/depth.py)
            poll(now)  # host bytes answered, the app polled, events sent
        except Exception:
            failed = True
        if failed:  # (out of the except: its traceback goes before the heap is relieved)
            guard.retry(poll, now, app)  # relieved and retried; a second fault is shown, the loop goes on
        if app.hardware is not said:  # a chain found broken (power-up checks, the watch): said on the line
            said = app.hardware
            for problem in said:
                say("hardware fault: " + problem)
        if host.handler is not None:  # (a host has spoken: it may have asked for the REPL or a reset)
            if host.repl_requested:
                return now
            how = host.reset_requested
            if how:  # test mode's "reset" command: a power cut (``run`` resets the chip) or a hung loop
                sleep_ms(100)  # (its reply leaves the USB buffer first)
                while how == "watchdog":
                    sleep_ms(100)  # the loop hangs, the watchdog is not fed: it restarts the board
                return now
        since = now - checked
        if since >= MEMORY_IDLE_CHECK_MS or since >= MEMORY_CHECK_MS and app.changes != seen:
            checked = now
            seen = app.changes
            if mem_free() < LOW_MEMORY:
                gc.collect()
        wait = app.due - now - ticks_diff(ticks_ms(), last)  # (the pass itself took some of it)
        sleep_ms(1 if wait < 1 else MAX_SLEEP_MS if wait > MAX_SLEEP_MS else wait)


def run(machine=None, micropython=None, board_pins=None, clock=None, mem_free=None):
    """Start the board (the pieces are injectable for tests; on the Pico they are the real modules)."""
    clock = clock or time
    if machine is None:
        import machine
    if micropython is None:
        import micropython
    if board_pins is None:
        from pipdrivers import board_pins
    if repl_flag_set(REPL_FLAG):
        say("the game is not running: a host asked for the REPL. Ctrl-D or a power cycle starts it.")
        return "repl"
    if held_at_power_up(board_pins.button_reader(), clock.sleep_ms):
        say("menu held at power-up: the game is not running, the REPL is free. Ctrl-D starts it.")
        return "held"
    wdt = machine.WDT(timeout=WDT_TIMEOUT_MS)
    from pipcore.app import App
    from pipdrivers.usb_serial import HostLink

    hw = board_pins.build()
    wdt.feed()
    app = App(hw)
    # protocol over USB serial beside the REPL, loaded at the host's first byte (a board at the table has no
    # host: ~19 KB of heap); test mode's "reset" is a power cut or a hung loop, on the host's request
    host = HostLink(app, FIRMWARE_VERSION, lazy=True, geometry=geometry_summary(), can_reset=True)
    micropython.kbd_intr(-1)  # no byte on the line (0x03 included) interrupts the game
    try:
        serve(host, app, wdt.feed, clock.ticks_ms, clock.ticks_diff, clock.sleep_ms, mem_free or gc.mem_free)
    finally:
        micropython.kbd_intr(3)
        hw.pixels.deinit()  # LEDs off
    if host.reset_requested:
        machine.reset()  # test mode: as a power cut, the board starts again from its save
        return "reset"
    # the deliberate hand-over: the watchdog cannot be stopped, so restart without the game
    say("game stopped: a host asked for the REPL. Restarting without the game.")
    with open(REPL_FLAG, "w") as f:
        f.write("1")
    clock.sleep_ms(200)  # let the reply and the line above leave the USB buffer
    machine.reset()
    return "reset"


if __name__ == "__main__":
    try:
        run()
    except Exception as exc:  # start-up failed (e.g. MemoryError): say so; the watchdog restarts the board
        try:
            say("the game could not start (%s: %s); restarting" % (type(exc).__name__, exc))
        except Exception:
            pass
