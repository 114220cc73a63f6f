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


def _forget(name):
    """``pipcore.NAME`` out of ``sys.modules`` and its package (an earlier test may have loaded it)."""
    import pipcore

    if sys.modules.pop("pipcore." + name, None) is not None and hasattr(pipcore, name):
        delattr(pipcore, name)


def test_a_host_mirroring_a_game_loads_neither_the_match_id_reader_nor_the_less_frequent_commands():
    """The board writes a Match ID in every snapshot but reads one only when a position is set: a host
    that mirrors a turn (hello, snapshots, a roll, the events) leaves ``pipcore.matchdecode`` and
    ``pipcore.protocmds`` out of the heap; a Match ID from the host loads the reader."""
    _forget("matchdecode")
    _forget("protocmds")
    bench = Bench()
    _ask(bench, "hello")
    bench.step("setup")
    bench.press(0)  # the opening roll
    bench.advance(200)
    snap = _ask(bench, "snapshot")["snapshot"]
    assert len(snap["match_id"]) == 12 and snap["phase"] == "moving", snap["phase"]
    assert "pipcore.matchdecode" not in sys.modules and "pipcore.protocmds" not in sys.modules
    _ask(bench, "set_position", position_id="4HPwATDgc/ABMA", match_id="cAkAAAAAAAAA")
    assert "pipcore.matchdecode" in sys.modules
