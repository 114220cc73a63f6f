"""A new match lets the other variants' generators leave the heap (pipcore.app.App.new_game).

On the Pico a Caucasian match followed by long nardy held both generators' code (21 KB,
tests/pico/heap.py). ``compat.unload`` does nothing on CPython (tests hold the classes), so the
calls are recorded instead.
"""

import pytest


@pytest.mark.parametrize(
    "variant, options, kept, gone",
    [
        ("backgammon", {}, (), ("nardy", "nardysteps", "caucasian", "causteps", "caunative")),
        ("backgammon", {"caucasian": True}, ("caucasian", "causteps", "caunative"), ("nardy", "nardysteps")),
        ("backgammon", {"jailBearOff": True}, ("caucasian",), ("nardy",)),
        ("nardy", {}, ("nardy", "nardysteps"), ("caucasian", "causteps", "caunative")),
    ],
)
def test_a_new_match_unloads_the_generators_of_the_other_variants(monkeypatch, variant, options, kept, gone):
    from pipboard.twins import VirtualBoard
    from pipcore import app as appmod

    unloaded = []
    monkeypatch.setattr(appmod, "unload", lambda package, names: unloaded.extend(package + "." + n for n in names))
    app = appmod.App(VirtualBoard(seed=1).board)
    unloaded.clear()
    app.new_game(variant, options)
    for name in gone:
        assert "pipcore." + name in unloaded, unloaded
    for name in kept:
        assert "pipcore." + name not in unloaded, unloaded
