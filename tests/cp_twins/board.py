"""Twin of CircuitPython's ``board`` for the Raspberry Pi Pico: GP0..GP28 (and LED = GP25)."""

from microcontroller import Pin

for _n in range(29):
    globals()["GP%d" % _n] = Pin("GP%d" % _n, _n)
LED = globals()["GP25"]
board_id = "raspberry_pi_pico"
