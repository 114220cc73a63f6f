"""CircuitPython's ``keypad`` scanners as the inputs of the board's drivers.

On CircuitPython the 74HC165 chain and the buttons are scanned by the
built-in ``keypad`` module, in C and in the background: ``ShiftRegisterKeys``
clocks the 176 bits in (168 switches and the 8 sentinel bits) every
``interval`` and ``Keys`` reads the ten buttons; both debounce by integration
(``debounce_threshold`` scans, as our ``Scanner`` and ``Buttons`` do with
``samples``) and queue only the changes, with their ``supervisor.ticks_ms``.

These adapters turn the queued changes back into what the drivers read on
the Pico (``pipdrivers.scan.Scanner`` a ``readinto(buf)`` of the chain,
``pipdrivers.buttons.Buttons`` a ``read()`` bitmap), so the same drivers,
app and controller run on both firmwares; the composition root
(``pipdrivers.cp_board_pins``) gives the drivers ``samples=1``, since the
keypad has debounced already. Nothing here allocates: one ``keypad.Event``
is reused by ``get_into``.

Key numbers: key 0 is the first bit shifted in, Q7 (= D7) of register 0;
our scan bit ``n`` is ``Dn`` of register ``n >> 3`` (pipcore.geometry), so
key ``k`` is scan bit ``(k & ~7) | (7 - (k & 7))``.

A full event queue (the loop stalled longer than the queue covers) loses
changes: the keypad then forgets its state (``reset()``), ``resync`` waits
until it has scanned everything again, and the state is rebuilt from the
fresh events; ``resyncs`` counts it.
"""

from pipcore import geometry


class KeypadChain:
    """``readinto(buf)`` for ``Scanner``: the chain's debounced state kept from ``ShiftRegisterKeys`` events."""

    def __init__(self, keys, event, resync=None, nbytes=geometry.SCAN_BYTES + 1):
        self.keys = keys
        self.events = keys.events
        self._event = event  # a keypad.Event, reused by get_into
        self._resync = resync
        self.state = bytearray(nbytes)  # bit set = key pressed (switch closed, or sentinel high)
        self.resyncs = 0
        self._filled = None  # the buffer that holds ``state`` already (the Scanner hands the same one)

    def drain(self):
        """Apply every queued change to ``state``; returns how many there were."""
        events = self.events
        if events.overflowed:
            self._recover()
        ev = self._event
        state = self.state
        n = 0
        while events.get_into(ev):
            k = ev.key_number
            i = k >> 3
            if i < len(state):
                m = 0x80 >> (k & 7)
                if ev.pressed:
                    state[i] |= m
                else:
                    state[i] &= ~m & 0xFF
            n += 1
        return n

    def readinto(self, buf):
        if self.drain() == 0 and buf is self._filled:
            return  # nothing changed since this buffer was filled: the quiet poll is one empty get_into
        state = self.state
        for i in range(min(len(state), len(buf))):
            buf[i] = state[i]
        self._filled = buf

    def _recover(self):
        self.resyncs += 1
        self._filled = None
        self.keys.reset()  # every key released; the ones held report pressed again after a scan
        self.events.clear()
        state = self.state
        for i in range(len(state)):
            state[i] = 0
        if self._resync is not None:
            self._resync()


class KeypadButtons:
    """``read()`` for ``Buttons``: the pressed buttons as one small int, kept from ``keypad.Keys`` events."""

    def __init__(self, keys, event, resync=None):
        self.keys = keys
        self.events = keys.events
        self._event = event
        self._resync = resync
        self.state = 0
        self.resyncs = 0

    def read(self):
        events = self.events
        if events.overflowed:
            self.resyncs += 1
            self.keys.reset()
            events.clear()
            self.state = 0
            if self._resync is not None:
                self._resync()
        ev = self._event
        state = self.state
        while events.get_into(ev):
            if ev.pressed:
                state |= 1 << ev.key_number
            else:
                state &= ~(1 << ev.key_number)
        self.state = state
        return state
