"""Whole games through the protocol on the firmware's App (CPython): no fault, no internal error.

The same player runs under the unix MicroPython in a fixed heap in
tests/test_unix_micropython.py.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "mp"))

import whole_games  # noqa: E402


def test_twenty_money_games_meet_no_fault(tmp_path):
    finished, plays, faults, internal = whole_games.play(20, 11, folder=str(tmp_path))
    assert finished == 20 and plays > 500
    assert faults == 0 and internal == 0


def test_the_player_sees_a_fault(tmp_path, monkeypatch):
    """The count can fail: a controller that raises on every DONE is counted as faults."""
    from pipcore import controller

    def broken(self):
        raise RuntimeError("injected")

    monkeypatch.setattr(controller.Controller, "_done", broken)
    finished, plays, faults, internal = whole_games.play(1, 3, budget=200, folder=str(tmp_path))
    assert faults > 0 and finished == 0
