"""Where the board keeps its match record: in RAM, saved with the game state.

``RecordKeeper`` owns the bytes of the ``pipcore.record`` record that the
referee writes (``writer()``), knows whether anything worth exporting is in
it, and turns it to and from the text of a save. Long nardy keeps no binary
record (the record replays standard backgammon only); a position set up by
the host stops the record (it cannot say how the match got there).

Money play has no end: a game past ``REC_MONEY_MAX`` record bytes starts a
fresh record. The record travels inside the state save (base64 in JSON),
whose payload the storage driver caps at 256 KB: a money session left to
grow reached that after about 190 KB of record, every later save failed,
and the next power cut lost the game (seen in the e2e run with the cap
lifted).
"""

REC_MONEY_MAX = 4096


class _Sink:
    """The record's bytes: the ``RecordWriter`` stream, appended to in place (never copied)."""

    def __init__(self, data=None):
        self.data = data if data is not None else bytearray()

    def write(self, b):
        self.data.extend(b)


def _b64(data):
    try:
        from binascii import b2a_base64
    except ImportError:
        from ubinascii import b2a_base64
    return b2a_base64(data, newline=False).decode()


def _unb64(text):
    try:
        from binascii import a2b_base64
    except ImportError:
        from ubinascii import a2b_base64
    return bytearray(a2b_base64(text.encode()))  # MicroPython takes bytes only


class RecordKeeper:
    """The match record of one board (see the module docstring)."""

    def __init__(self, variant):
        self.variant = variant
        self.sink = None
        self.base = 0  # bytes of header and first game mark: nothing to export below this

    def writer(self, data=None):
        """A record writer on a fresh sink or on saved ``data``; None where no record is kept."""
        self.sink = None
        self.base = 0
        if self.variant == "nardy":
            return None
        from pipcore.recwriter import RecordWriter
        self.sink = _Sink(data)
        return RecordWriter(self.sink, self.variant)

    def started(self):
        """The header and first game are written: what follows is worth exporting."""
        if self.sink is not None:
            self.base = len(self.sink.data)

    def stop(self):
        self.sink = None

    def full(self, options):
        """True when a money session's record should start afresh before the next game."""
        return self.sink is not None and not options["matchLength"] and len(self.sink.data) > REC_MONEY_MAX

    def data(self, log):
        """The record's bytes (the live buffer), or ``log`` as UTF-8 lines where none is kept; empty before
        anything was played."""
        if self.sink is not None:
            data = self.sink.data
            return data if len(data) > self.base else b""
        return ("\n".join(log) + "\n").encode() if log else b""

    def save(self, snap):
        snap["mrec"] = _b64(self.sink.data) if self.sink is not None else None
        snap["rec_base"] = self.base

    def restore(self, snap):
        """The writer continuing the saved record (None where none was kept)."""
        mrec = snap["mrec"]
        writer = self.writer(_unb64(mrec)) if mrec else None
        if not mrec:
            self.sink = None
        self.base = snap["rec_base"]
        return writer
