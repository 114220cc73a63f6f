"""JSON text written piece by piece into one buffer kept for the purpose.

The state save is a few KB of JSON that grows with the match. ``json.dumps``
builds it as one string (and ``encode`` copies it once more): on a board
whose heap is fragmented by a game, that contiguous block is what fails
first (tests/mp/whole_games.py met it at every size of heap). ``JsonBuffer``
writes the same text into a bytearray allocated when the heap is fresh and
grown by half only when a save outgrows it; ``json`` still formats every
scalar, so the text is exactly JSON. Long strings (the base64 match record)
are written in slices, never copied whole. While the heap has room, the
whole text is formatted in one call first (a save is about 1 KB since the
match record moved to its own file) and only copied in.

Containers nest as deep as the data (a snapshot: four levels); nothing here
recurses on anything else.
"""

import json

_SLICE = 256  # characters of a long string formatted at a time
_FLAT_ITEMS = 64  # a flat list of more items is written item by item


class JsonBuffer:
    """``encode(obj)`` -> a memoryview of ``obj``'s JSON text (valid until the next call)."""

    def __init__(self, size=4096):
        try:
            self.buf = bytearray(size)
        except MemoryError:  # a crowded heap already: start small, grow when a save needs it
            self.buf = bytearray(256)
        self.n = 0

    def encode(self, obj):
        self.n = 0
        try:  # one formatting call and one copy: ten times faster, while the heap has the block
            self._put(json.dumps(obj))
        except MemoryError:  # a crowded heap: piece by piece, no block larger than a piece
            self.n = 0
            self._value(obj)
        return memoryview(self.buf)[:self.n]

    def _put(self, piece):
        if isinstance(piece, str):
            piece = piece.encode()
        n = self.n
        end = n + len(piece)
        if end > len(self.buf):
            self._grow(end)
        self.buf[n:end] = piece
        self.n = end

    def _grow(self, need):
        size = len(self.buf) * 3 // 2
        while size < need:
            size = size * 3 // 2
        new = bytearray(size)
        new[:self.n] = memoryview(self.buf)[:self.n]
        self.buf = new

    def _value(self, v):
        if _flat(v):  # scalars, short strings, and containers of them: one formatting call, a small block
            self._put(json.dumps(v))
        elif isinstance(v, dict):
            self._put(b"{")
            first = True
            for k in v:
                if not first:
                    self._put(b", ")
                first = False
                self._put(json.dumps(k))
                self._put(b": ")
                self._value(v[k])
            self._put(b"}")
        elif isinstance(v, (list, tuple)):
            self._put(b"[")
            for i in range(len(v)):
                if i:
                    self._put(b", ")
                self._value(v[i])
            self._put(b"]")
        elif isinstance(v, str) and len(v) > _SLICE:
            self._put(b'"')
            for i in range(0, len(v), _SLICE):
                text = json.dumps(v[i:i + _SLICE])  # escapes never span two characters
                self._put(text[1:-1])
            self._put(b'"')
        else:
            self._put(json.dumps(v))


def _flat(v):
    """True for a value ``json.dumps`` can format in one small piece: nothing nested, no long string."""
    if isinstance(v, str):
        return len(v) <= _SLICE
    if isinstance(v, dict):
        items = v.values()
    elif isinstance(v, (list, tuple)):
        if len(v) > _FLAT_ITEMS:
            return False
        items = v
    else:
        return True
    for x in items:
        if isinstance(x, (dict, list, tuple)) or isinstance(x, str) and len(x) > _SLICE:
            return False
    return True
