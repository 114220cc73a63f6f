"""Under the unix MicroPython (tests/test_circuitpython.py runs it): the CircuitPython adapters allocate nothing.

The keypad's queue and the NeoPixel are stand-ins with preallocated state
(the real ones are C on the board); what is proved is that the firmware's
side (pipdrivers.cp_keys, pipdrivers.cp_pixels) allocates nothing per scan,
per button read and per frame, with ``micropython.heap_lock()``.
"""

import micropython
from pipdrivers.cp_keys import KeypadButtons, KeypadChain
from pipdrivers.cp_pixels import StripWriter


class Event:
    def __init__(self):
        self.key_number = 0
        self.pressed = False
        self.timestamp = 0


class Queue:
    def __init__(self, n):
        self.keys = bytearray(n)
        self.down = bytearray(n)
        self.head = 0
        self.tail = 0
        self.overflowed = False

    def put(self, key, pressed):
        self.keys[self.head] = key
        self.down[self.head] = 1 if pressed else 0
        self.head += 1

    def get_into(self, ev):
        if self.tail == self.head:
            return False
        ev.key_number = self.keys[self.tail]
        ev.pressed = self.down[self.tail] == 1
        self.tail += 1
        return True

    def clear(self):
        self.tail = self.head
        self.overflowed = False


class Keys:
    def __init__(self, n):
        self.events = Queue(n)

    def reset(self):
        pass


class Strip:
    def __init__(self, n):
        self.buf = bytearray(3 * n)
        self.n = n
        self.shows = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, colour):
        o = 3 * i
        self.buf[o] = (colour >> 8) & 0xFF
        self.buf[o + 1] = colour >> 16
        self.buf[o + 2] = colour & 0xFF

    def show(self):
        self.shows += 1


def main():
    keys = Keys(64)
    for k in (0, 7, 100, 170, 175):
        keys.events.put(k, True)
    keys.events.put(7, False)
    chain = KeypadChain(keys, Event())
    buf = bytearray(22)
    pad = Keys(16)
    pad.events.put(9, True)
    pad.events.put(0, True)
    pad.events.put(0, False)
    buttons = KeypadButtons(pad, Event())
    strip = Strip(197)
    writer = StripWriter(strip)
    frame = bytearray(3 * 197)
    frame[0] = 0x11
    frame[1] = 0x22
    frame[2] = 0x33
    frame[3 * 150] = 0xFF
    writer.write(frame)  # the first frame makes the views of this buffer
    micropython.heap_lock()
    try:
        chain.readinto(buf)
        chain.readinto(buf)
        state = buttons.read()
        frame[3 * 100 + 1] = 0x40
        writer.write(frame)
        writer.write(frame)
    finally:
        micropython.heap_unlock()
    assert buf[0] == 0x80 and buf[12] == 0x08 and buf[21] == 0x21, bytes(buf)
    assert state == 1 << 9, state
    assert strip.shows == 3 and strip.buf[0:3] == b"\x22\x11\x33" and strip.buf[300] == 0x40  # GRB: green first
    print("PASS cp adapters allocate nothing")


main()
