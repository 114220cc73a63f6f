"""JsonBuffer writes exactly JSON (CPython and the real MicroPython)."""

import json

from pipcore.jsonbuf import JsonBuffer


def _snapshot_like():
    return {
        "v": 2, "variant": "backgammon", "setup": False, "forced": None, "tournament": True,
        "options": {"matchLength": 7, "jacoby": False, "cubeCap": 0},
        "ref": {"phase": 3, "dice": [6, 5], "log": ["white rolls 65", 'a "quoted" line\\ with\ttabs', "ü é"],
                "match": [7, 3, 2, 5, True, False], "results": [[0, 1, 2, False, False], [1, 0, 1, False, True]]},
        "mrec": "QUJD" * 700,  # a long string: written in slices
    }


def test_round_trip_of_a_snapshot():
    buf = JsonBuffer(64)  # grown as needed
    text = buf.encode(_snapshot_like())
    assert json.loads(bytes(text)) == _snapshot_like()
    assert len(buf.buf) >= len(text) > 2800


def test_the_buffer_is_reused_and_only_grows():
    buf = JsonBuffer(4096)
    big = bytes(buf.encode(_snapshot_like()))
    size = len(buf.buf)
    small = bytes(buf.encode({"a": [1, 2, None]}))
    assert json.loads(small) == {"a": [1, 2, None]}
    assert len(buf.buf) == size and json.loads(big) == _snapshot_like()


def test_scalars_and_empty_containers():
    buf = JsonBuffer(8)
    for obj in (0, -12, "", "x" * 600, [], {}, [[]], {"k": {}}, True, None):
        assert json.loads(bytes(buf.encode(obj))) == obj


class _Crowded(JsonBuffer):
    """A heap with no block for the whole text: whole-text formatting fails, pieces still fit."""

    def _put(self, piece):
        if len(piece) > 300:
            raise MemoryError("no block of %d bytes" % len(piece))
        JsonBuffer._put(self, piece)


def test_a_crowded_heap_writes_the_same_text_piece_by_piece():
    whole = bytes(JsonBuffer(64).encode(_snapshot_like()))
    crowded = _Crowded(64)
    pieces = bytes(crowded.encode(_snapshot_like()))
    assert json.loads(pieces) == _snapshot_like() == json.loads(whole)
    for obj in (0, "", "x" * 600, [], {"k": {}}, None):
        assert json.loads(bytes(crowded.encode(obj))) == obj
