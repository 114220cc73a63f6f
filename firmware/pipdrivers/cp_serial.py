"""The protocol's channel on CircuitPython: ``usb_cdc.data``, the second USB serial port.

``boot.py`` enables it (``usb_cdc.enable(console=True, data=True)``), so the
board shows two serial ports: the console (REPL, ``print``) and this data
channel, which carries nothing but the protocol's frames. No byte on it can
interrupt the game (Ctrl-C works on the console only), and the REPL stays
free while the game runs: ``pipboard`` finds the data channel by its USB
interface (host_tools/pipboard/link.py).

Same interface as ``pipdrivers.usb_serial.UsbSerial`` (``pump``, ``write``),
so ``HostLink`` takes it as its ``serial``. Reading never blocks and never
allocates (one preallocated byte); a frame written while no host has the
port open (DTR low) is dropped and counted instead of filling the USB
buffer and stalling the loop.
"""

from pipcore.compat import const

_MAX_BYTES_PER_PUMP = const(256)  # bounds the time one pump may take
WRITE_TIMEOUT_S = 0.5  # a host that opened the port but stopped reading cannot hold the loop longer


class CdcSerial:
    """Read waiting bytes without blocking; write whole frames to a connected host."""

    def __init__(self, port, write_timeout=WRITE_TIMEOUT_S):
        port.timeout = 0  # reads return what is there
        port.write_timeout = write_timeout
        self.port = port
        self.one = bytearray(1)
        self.bytes_in = 0
        self.bytes_out = 0
        self.dropped = 0  # bytes of frames written while no host listened

    def pump(self, on_bytes, limit=_MAX_BYTES_PER_PUMP):
        """Pass every waiting byte (up to ``limit``) to ``on_bytes``; returns the count."""
        port = self.port
        one = self.one
        n = 0
        while n < limit and port.in_waiting:
            if not port.readinto(one):
                break
            n += 1
            if on_bytes(one):
                break
        self.bytes_in += n
        return n

    def write(self, data):
        """Send one frame (bytes, already newline-terminated)."""
        if not self.port.connected:
            self.dropped += len(data)
            return
        written = self.port.write(data)
        n = len(data) if written is None else written
        self.bytes_out += n
        self.dropped += len(data) - n
