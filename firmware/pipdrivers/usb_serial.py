"""Non-blocking protocol I/O over the Pico's USB serial, beside the REPL.

The Pico has one USB CDC port, shared with the MicroPython REPL. While
``main.py`` runs, the REPL is idle and ``sys.stdin`` delivers what the host
sends; we only look at it when ``select.poll`` says a byte is waiting, so the
game loop never blocks. ``main.py`` turns MicroPython's Ctrl-C off
(``micropython.kbd_intr(-1)``) while the game runs, so no byte on the line
(0x03 included) can stop the game: every byte reaches the protocol, which
answers garbage with an error. The port goes back to the REPL only on a
deliberate request: the protocol's ``repl`` command (``pipboard deploy``
sends it), after which ``pump`` stops reading and ``HostLink.repl_requested``
tells the loop to hand over.

Streams and poller are injected, so the driver also runs on a PC (tests)::

    link = UsbSerial()                         # on the Pico: sys.stdin/stdout
    handler = ProtocolHandler(app, link.write, ...)
    while True:
        link.pump(handler.feed)                # in the main loop, each pass
"""

import sys

from pipcore.compat import const

_MAX_BYTES_PER_PUMP = const(256)  # bounds the time one pump may take


class UsbSerial:
    """Read available bytes without blocking; write whole frames."""

    def __init__(self, stream_in=None, stream_out=None, poller=None):
        self.stream_in = stream_in if stream_in is not None else _binary(sys.stdin)
        self.stream_out = stream_out if stream_out is not None else _binary(sys.stdout)
        if poller is None:
            import select

            poller = select.poll()
            poller.register(sys.stdin, select.POLLIN)
        self.poller = poller
        self.one = bytearray(1)  # preallocated: reading never allocates
        self.bytes_in = 0
        self.bytes_out = 0

    def pump(self, on_bytes, limit=_MAX_BYTES_PER_PUMP):
        """Pass every waiting byte (up to ``limit``) to ``on_bytes``; returns the count.

        Stops early when ``on_bytes`` returns True (the host asked for the
        REPL: the bytes after its request are left for the REPL).
        """
        one = self.one
        n = 0
        while n < limit and self.poller.poll(0):
            if not self.stream_in.readinto(one):
                break
            n += 1
            if on_bytes(one):
                break
        self.bytes_in += n
        return n

    def write(self, data):
        """Send one frame (bytes, already newline-terminated)."""
        self.stream_out.write(data)
        self.bytes_out += len(data)


def _binary(stream):
    return getattr(stream, "buffer", stream)


TEST_MODE_FILE = "/pipboard_test_mode"  # written by ``pipboard deploy --test``


def started_in_test_mode(path=TEST_MODE_FILE):
    """True when the board was deployed in test mode (the flag file exists)."""
    import os

    try:
        os.stat(path)
    except OSError:
        return False
    return True


class HostLink:
    """The board's end of the protocol, ready for the composition root.

    ``main.py`` builds it once around the app and calls ``poll(now)`` in the
    main loop instead of ``app.poll(now)``: waiting host bytes are answered,
    the app runs, and what changed goes out as numbered events::

        host = HostLink(app, pipcore.__version__)
        while True:
            host.poll(ticks_ms())

    ``lazy=True`` (``main.py``): the protocol handler and its bridge (about
    19 KB of code on the Pico) are loaded only when the host's first byte
    arrives; a board at the table without a host never holds them
    (tests/bench/README.md, "Free heap on the Pico"). The link then
    announces itself (an unsolicited ``hello`` event) and answers that byte's
    frame as usual. ``geometry`` and ``can_reset`` are handed to the handler
    when it is built.
    """

    def __init__(self, app, firmware_version, test_mode=None, serial=None, bridge=None, lazy=False,
                 geometry=None, can_reset=False):
        self.app = app
        self.firmware_version = firmware_version
        self.serial = serial if serial is not None else UsbSerial()
        self.bridge = bridge
        self.test_mode = started_in_test_mode() if test_mode is None else test_mode
        self.geometry = geometry
        self.can_reset = can_reset
        self.handler = None
        if not lazy:
            self.connect()

    def connect(self):
        """Build the protocol handler and the bridge (at once, or at the host's first byte); returns the handler."""
        from pipcore.bridge import AppBridge
        from pipcore.protocol import ProtocolHandler

        if self.bridge is None:
            self.bridge = AppBridge(self.app)
        handler = ProtocolHandler(self.bridge, self.serial.write, self.firmware_version, test_mode=self.test_mode)
        handler.can_repl = True  # this port is the REPL's: the "repl" command hands it over
        handler.deferred = True  # whole frames wait for ``poll`` to answer them (see there)
        handler.streamed = True  # a byte stream: replies go out in small pieces (no big block in the heap)
        handler.can_reset = self.can_reset
        if self.geometry is not None:
            handler.geometry = self.geometry
        self._feed = handler.feed  # bound once: poll() runs every pass of the main loop
        self._events = getattr(self.bridge, "events", None)  # the bridge's queue (None: the handler always looks)
        self.handler = handler
        return handler

    @property
    def repl_requested(self):
        """True once a host sent the ``repl`` command (its reply is already written)."""
        return self.handler is not None and self.handler.repl_requested

    @property
    def reset_requested(self):
        """Test mode's ``reset`` command: ``"power"`` or ``"watchdog"``, else None."""
        return self.handler.reset_requested if self.handler is not None else None

    def poll(self, now):
        """One pass: the host's frames answered (up to ``_MAX_BYTES_PER_PUMP`` bytes), the app polled, its
        events sent.

        The pump stops at each whole frame and the frame is answered from
        here, so a host's command steps the app as deep on the C stack as a
        button press does (pump -> feed -> reader -> handler -> bridge -> app
        was five frames deeper, past the Pico's 8 KB: issue 23).
        """
        handler = self.handler
        if handler is None:  # lazy: no host has spoken yet
            if not self.serial.poller.poll(0):
                self.app.poll(now)
                return
            handler = self._first_byte()
        # (few locals: MicroPython puts a frame of more than 11 locals and stack slots on the heap, slow in a
        # game's heap, and this one runs every pass)
        left = _MAX_BYTES_PER_PUMP
        while left > 0:
            left -= self.serial.pump(self._feed, left)
            frame = handler.waiting
            if frame is None:
                break
            handler.waiting = None
            handler.answer(frame if frame else None)  # (from here: no helper frame between; b"": too long)
            if handler.repl_requested:
                return  # the REPL's turn: main.py stops the game (the bytes after it are the REPL's)
        self.bridge.poll(now)
        if self._events is None or self._events:  # (an idle pass sends nothing: the handler's look is skipped)
            handler.poll()

    def _first_byte(self):
        """The host's first byte: the work ahead makes room for the protocol's code (it is made again), which
        is loaded and announces the board."""
        ctl = getattr(self.app, "ctl", None)
        drop = getattr(ctl, "drop_caches", None)
        if drop is not None:
            drop()
        handler = self.connect()
        handler.announce()
        return handler


test_mode_requested = started_in_test_mode  # the name main.py first used
