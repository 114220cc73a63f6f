"""Writing the game record: the part of ``pipcore.record`` the board needs.

One framed entry per action (``RecordWriter`` is the ``writer`` of a
``pipcore.match.Referee``); the format, the entry types and the reader are
``pipcore.record``'s (host side: export, import, replay). Kept apart so the
board loads only the writer (RAM).
"""


MAGIC = b"PIPREC"
VERSION = 1  # without header lines
VERSION_HEADER_LINES = 2  # with T entries
VERSION_TABLE_DICE = 3  # a match with fair or keyed-in dice (options ``dice``): F and U entries too
_TEXT_CHUNK = 240  # bytes of text in one T entry


class RecordError(ValueError):
    """A record that is not a Pipboard record, is corrupt, or breaks the rules."""


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``data`` (bytes-like)."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def frame(body):
    """One framed entry for ``body`` (1..255 bytes)."""
    n = len(body)
    if not 1 <= n <= 255:
        raise RecordError("an entry body has 1 to 255 bytes, not %d" % n)
    head = bytes((n,)) + bytes(body)
    crc = crc16(head)
    return head + bytes((crc >> 8, crc & 0xFF))


def _option_text(name, value):
    if value is True:
        return "%s=on" % name
    if value is False:
        return "%s=off" % name
    return "%s=%s" % (name, value)


class RecordWriter:
    """Appends framed entries to ``stream`` (anything with ``write(bytes)``).

    Each entry is written whole with one ``write`` call, then ``flush`` is
    called if the stream has one, so a power cut loses at most that entry.
    """

    def __init__(self, stream, variant="backgammon", header_lines=None):
        self.stream = stream
        self.variant = variant
        self.header_lines = list(header_lines or ())

    def _put(self, body):
        self.stream.write(frame(body))
        flush = getattr(self.stream, "flush", None)
        if flush is not None:
            flush()

    def header(self, players, options):
        version = VERSION_HEADER_LINES if self.header_lines else VERSION
        if options.get("dice", "electronic") != "electronic":
            version = VERSION_TABLE_DICE
        self._put(b"H" + MAGIC + bytes((version,)) + self.variant.encode())
        for i in (0, 1):
            name = players[i].encode()[:120]
            self._put(b"N" + bytes((i,)) + name)
        # only what differs from the defaults (and the match length): compact on flash
        from pipcore.options import make_options

        defaults = make_options({"matchLength": options.get("matchLength", 0)}, self.variant)
        for name in sorted(options):
            if name == "matchLength" or options[name] != defaults.get(name):
                self._put(b"O" + _option_text(name, options[name]).encode())
        for line in self.header_lines:
            chunks = _text_chunks(line)
            for k in range(len(chunks)):
                self._put(bytes((ord("T"), 1 if k else 0)) + chunks[k])

    def new_game(self):
        self._put(b"G")

    def opening(self, die0, die1):
        self._put(bytes((ord("I"), die0, die1)))

    def roll(self, player, d1, d2):
        self._put(bytes((ord("R"), player, d1, d2)))

    def play(self, player, singles):
        body = bytearray((ord("M"), player))
        for s, t in singles:
            body.append(s)
            body.append(t)
        self._put(body)

    def cube(self, player, action):
        self._put(bytes((ord("C"), player, action)))

    def resign(self, player, kind):
        self._put(bytes((ord("S"), player, kind)))

    def timeout(self, player):
        self._put(bytes((ord("L"), player)))

    def unroll(self, player):
        """The roll being played is taken back (dice keyed in wrong): its entry stays, this one follows it."""
        self._put(bytes((ord("U"), player)))

    def fair(self, kind, text):
        """A fair match's dice: kind 0 the commitment (before the first roll), 1 the seed (after the match)."""
        self._put(bytes((ord("F"), kind)) + text.encode())

    def end(self, winner, kind, points):
        self._put(bytes((ord("E"), winner, kind, points >> 8 & 0xFF, points & 0xFF)))


def _text_chunks(text):
    """``text`` as UTF-8 pieces of at most _TEXT_CHUNK bytes, never splitting a character."""
    out = []
    piece = b""
    for ch in text:
        b = ch.encode()
        if len(piece) + len(b) > _TEXT_CHUNK:
            out.append(piece)
            piece = b""
        piece += b
    out.append(piece)
    return out
