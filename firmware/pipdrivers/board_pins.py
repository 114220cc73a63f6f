"""The Pico's side of the drivers: the only pipdrivers module that imports machine.

``build()`` returns a ``pipdrivers.board.Board`` wired as in hardware/wiring.md:

=========  ===========================  ==========================================
GPIO       signal                       to
=========  ===========================  ==========================================
GP16       SPI0 RX (MISO)               Q7 of 74HC165 #0 (10 k pull-down)
GP17       SH/LD (output)               SH/LD of all 21 74HC165 (low = load)
GP18       SPI0 SCK                     CLK of all 21 74HC165 (CLK INH to GND)
GP22       LED data                     74AHCT125 input; its output -> 330 R -> DIN of pixel 0
GP21       LED return (input)           DOUT of the last pixel via 10 k, 20 k to GND (chain check)
GP2..GP11  buttons 0..9 (pull-up)       push button to GND (see geometry.BUTTON_NAMES)
GP26       ADC0, unconnected            noise for the dice seed
=========  ===========================  ==========================================

74HC165 #k's Q7 feeds the serial input (DS) of #k-1; DS of #20 is tied to
3V3, so the 22nd byte of every read is 0xFF while the chain is intact.
"""

import hashlib
import sys
import time

import machine
from pipcore import pinmap
from pipcore.compat import const

from pipdrivers.board import Board
from pipdrivers.flashfs import FlashFS

# RP2040 and RP2350 datasheets: SIO GPIO_IN and the ring oscillator's RANDOMBIT register.
_SIO_GPIO_IN = const(0xD0000004)
_ROSC_RANDOMBIT = {"RP2040": 0x4006001C, "RP2350": 0x400E8020}  # RANDOMBIT moved on the RP2350
_WS2812_TIMING = (400, 850, 800, 450)  # ns: T0H, T0L, T1H, T1L at 800 kHz
_BUTTON_MASK = const(0x3FF)  # geometry.BUTTONS == 10 (tests/test_board_pins.py checks)


def chain_reader():
    """``readinto(buf)`` for the scanner: load the switches, shift them in by SPI."""
    spi = machine.SPI(
        pinmap.SCAN_SPI_ID,
        baudrate=pinmap.SCAN_SPI_BAUD,
        polarity=0,
        phase=0,
        bits=8,
        firstbit=machine.SPI.MSB,
        sck=machine.Pin(pinmap.PIN_SCAN_SCK),
        mosi=machine.Pin(19),  # unused, SPI0 needs one
        miso=machine.Pin(pinmap.PIN_SCAN_MISO),
    )
    load = machine.Pin(pinmap.PIN_SCAN_LOAD, machine.Pin.OUT, value=1)

    def readinto(buf):
        load.value(0)  # parallel load (>= 20 ns; a Python call is ~ 2 us)
        load.value(1)
        spi.readinto(buf)

    return readinto


def led_writer():
    """``write(buf)`` for the pixels: one WS2812 bit stream on GP22."""
    pin = machine.Pin(pinmap.PIN_LED_DATA, machine.Pin.OUT, value=0)
    bitstream = machine.bitstream
    timing = _WS2812_TIMING

    def write(buf):
        bitstream(pin, 0, timing, buf)

    return write


def led_return():
    """``returned()`` for ``Board.check_leds``: did data come back from the last pixel since the last call?
    (Its DOUT, divided to 3.3 V, on GP21: a rising edge there means the whole chain passed the frame on.)"""
    pin = machine.Pin(pinmap.PIN_LED_RETURN, machine.Pin.IN, machine.Pin.PULL_DOWN)
    seen = bytearray(1)

    def edge(_pin):
        seen[0] = 1

    pin.irq(handler=edge, trigger=machine.Pin.IRQ_RISING)

    def returned():
        for _ in range(50):  # a soft IRQ's handler runs between bytecodes: give it the chance
            if seen[0]:
                break
        n = seen[0]
        seen[0] = 0
        return n

    return returned


def button_reader():
    """``read()`` for the buttons: one read of the GPIO input register."""
    for n in pinmap.BUTTON_PINS:
        machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP)
    mem16 = machine.mem16  # GPIO 0..15: a small int, no allocation

    def read():
        return (~mem16[_SIO_GPIO_IN] >> pinmap.BUTTON_GPIO_BASE) & _BUTTON_MASK

    return read


def entropy(n):
    """``n`` bytes from the ring oscillator's random bit, ADC noise and timing jitter."""
    chip = "RP2350" if "RP2350" in sys.implementation._machine else "RP2040"
    rosc = _ROSC_RANDOMBIT[chip]
    adc = machine.ADC(pinmap.PIN_ENTROPY_ADC)
    pool = bytearray(256)
    for i in range(256):
        byte = 0
        for _ in range(8):
            byte = (byte << 1) | (machine.mem32[rosc] & 1)
        pool[i] = byte ^ (adc.read_u16() & 0xFF) ^ (time.ticks_us() & 0xFF)
    out = b""
    k = 0
    while len(out) < n:
        out += hashlib.sha256(pool + bytes((k,))).digest()
        k += 1
    return out[:n]


def build(**config):
    """Every driver of the board, wired to this Pico (``config``: see ``Board``)."""
    config.setdefault("led_return", led_return())
    return Board(chain_reader(), led_writer(), button_reader(), FlashFS(), entropy, **config)
