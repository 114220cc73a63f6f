"""Free heap of the idle board, as main.py leaves it: runs unchanged on a Pico (``mpremote run``).

``heap.py`` measures every stage and turn, but its own names (a few hundred,
interned when the board compiles the script) share the interned names' pools
with the game's: MicroPython grows them by doubling (20, 40, ... 640, then
1,280 entries: 7.7 KB at once), so a big script can make the game cross a
step it would not cross alone. This script is kept to a few names: it builds
the game as ``main.py`` does (its imports, ``board_pins.build()`` on the
board's own files, ``App``, ``HostLink`` waiting for a host's first byte),
runs 300 quiet passes of the loop, and prints the free heap, the interned
names (``micropython.qstr_info``) and PASS/FAIL against 90 KB, then
``RESULT: PASS`` or ``RESULT: FAIL``.
"""

import gc
import micropython

import main
from pipcore.app import App
from pipdrivers import board_pins
from pipdrivers.usb_serial import HostLink

app = App(board_pins.build())
host = HostLink(app, main.FIRMWARE_VERSION, lazy=True, geometry=main.geometry_summary(), can_reset=True)
for t in range(300):
    host.poll(t * 5)
gc.collect()
f = gc.mem_free()
print("heap idle, board alone %7d B free of %d" % (f, f + gc.mem_alloc()))
micropython.qstr_info()
print(("PASS" if f >= 92160 else "FAIL") + " idle, board alone: %d B free (at least 92160)" % f)
print("RESULT: " + ("PASS" if f >= 92160 else "FAIL"))
