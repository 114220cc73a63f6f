"""Code a match needs only at its start leaves the heap (CPython and MicroPython).

``compat.unload`` acts only where the heap is the board's RAM (MicroPython): there a
made match no longer holds ``pipcore.options`` (~4 KB on the Pico), a host's position
leaves its loader out too, and a Caucasian turn plays on the referee's made options
without loading the table again.
"""

import json
import sys

from pipcore import compat
from pipcore.board import NLOC, fill_counts
from pipcore.variants import decode_position
from resilience import Bench


def _ask(bench, cmd, **args):
    args["cmd"] = cmd
    args["id"] = 1
    before = len(bench.out)
    bench.handler.feed((json.dumps(args) + "\n").encode())
    reply = json.loads(bench.out[before])
    assert reply["ok"], reply
    return reply


def _options_loaded():
    return "pipcore.options" in sys.modules


def test_a_match_made_leaves_the_options_table_out_of_the_heap_and_a_caucasian_turn_plays_without_it():
    bench = Bench()
    if compat._HEAP_IS_RAM:
        assert not _options_loaded()  # the power-up made its match and let the table go
    _ask(bench, "new_game", variant="backgammon", options={"caucasian": True, "caucasianScope": "board"})
    if compat._HEAP_IS_RAM:
        assert not _options_loaded()
    _ask(bench, "set_position", position_id="AAAEtEmTAAAAAA")
    if compat._HEAP_IS_RAM:
        assert not _options_loaded() and "pipcore.matchload" not in sys.modules
    counts = bytearray(NLOC)
    fill_counts(decode_position("AAAEtEmTAAAAAA", "backgammon"), bench.app.ctl.mover, counts, None, False)
    bench.show(counts)  # the checkers laid out as the LEDs ask
    _ask(bench, "roll")
    snap = _ask(bench, "snapshot")["snapshot"]
    assert snap["phase"] == "moving", snap["phase"]
    assert bench.app.ctl.turn.plays, "no legal play"
    assert "pipcore.caucasian" in sys.modules or not compat._HEAP_IS_RAM  # the variant's generator ran
    if compat._HEAP_IS_RAM:
        assert not _options_loaded()
