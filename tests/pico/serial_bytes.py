"""Every byte value 0..255 through the board's protocol handler, on your Pico.

Run with the firmware deployed and the game stopped (``pipboard repl``, or
hold ``menu`` while plugging the board in), then::

    mpremote run tests/pico/serial_bytes.py

Feeds each byte value (0x01-0x05 included) alone, repeated and inside
frames, with Ctrl-C off as in the game loop, and checks that every line gets
its one reply and a ping after it is answered. Prints a line per 64 byte values as it goes,
then the verdict (``... PASS``/``FAIL``) and ``RESULT: PASS`` or ``RESULT: FAIL (...)``. The same
check runs on the PC (tests/mp/protocol_fuzz.py ``every_byte``); the bytes
on the real USB line are checked by ``pytest --board PORT
tests/test_serial_bytes.py``.
"""

import gc
import json

import micropython
from pipbench import finish, verdict
from pipcore import protocol


class App:
    def snapshot(self):
        return {"phase": "setup"}

    def pop_event(self):
        return None


def main():
    out = []
    handler = protocol.ProtocolHandler(App(), out.append, "pico", {})
    bad = 0
    lines = 0
    micropython.kbd_intr(-1)  # as the game loop does
    try:
        for b in range(256):
            one = bytes((b,))
            for line in (one, one * 3, b'{"cmd": "ping", "data": "' + one + b'"}', one + b'{"cmd": "ping"}'):
                frames = 0
                for part in (line + b"\n").split(b"\n")[:-1]:
                    if part.endswith(b"\r"):
                        part = part[:-1]
                    if part:
                        frames += 1
                handler.feed(line + b"\n")
                replies = len(out)
                internal = [r for r in out if b'"internal"' in r]
                del out[:]
                handler.feed(b'{"id": 1, "cmd": "ping"}\n')
                pong = len(out) == 1 and json.loads(out[0]).get("pong") is True
                del out[:]
                lines += 1
                if replies != frames or internal or not pong:
                    bad += 1
                    if bad <= 5:
                        print("byte 0x%02x line %r: %d replies for %d frames, pong %s"
                              % (b, line[:30], replies, frames, pong))
            if b % 64 == 63:
                gc.collect()
                print("bytes 0x%02x-0x%02x: %d lines so far, %d failed" % (b - 63, b, lines, bad))
    finally:
        micropython.kbd_intr(3)
    verdict(not bad, "every byte value through the protocol handler: %d lines, %d failed, %d bytes free"
            % (lines, bad, gc.mem_free()))
    finish()


main()
