# Freeze the Pipboard firmware into a custom MicroPython image, so its
# bytecode runs from flash and the Pico's RAM is left to the game.
# (Loaded as .mpy files, as `pipboard deploy` installs them, the modules the
# app imports take roughly 100 KB of the Pico's ~190 KB heap.)
#
#   cd micropython/ports/rp2
#   make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/pipboard/firmware/manifest.py
#
# main.py stays on the filesystem (MicroPython runs it at boot), and
# `pipboard deploy` never copies this file.
include("$(PORT_DIR)/boards/manifest.py")
package("pipcore")
package("pipdrivers")
module("pipbench.py")  # helpers of the tests/pico scripts (mpremote run)
