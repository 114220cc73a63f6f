"""The protocol player (``pipboard.tableplayer``) against the simulator: whole games by hand, checked.

The same player runs on a Pico (``python -m pipboard.tableplayer --port PORT``, tests/README.md).
"""

import pytest

from pipboard import tableplayer
from pipboard.link import CommandError, Link

pytest.importorskip("pipboard.simboard")


@pytest.fixture
def sim_link():
    from pipboard.websim import server

    sim = server.start(seed=3, test_mode=True, http_port=0, protocol_port=0)
    try:
        with Link.open("sim:" + sim.protocol_address) as link:
            yield link
    finally:
        sim.close()


def _clean(figures):
    return {k: figures[k] for k in ("faults", "internal", "desyncs", "wrong_accepts", "wrong_refusals")}


def test_games_of_every_option_set_with_power_cuts(sim_link):
    lines = []
    figures = tableplayer.play_games(sim_link, 6, seed=5, log=lines.append, resets=4, illegal_rate=0.3)
    assert _clean(figures) == dict.fromkeys(("faults", "internal", "desyncs", "wrong_accepts", "wrong_refusals"), 0), \
        figures["problems"]
    assert figures["games"] == 6 and figures["plays"] > 100
    assert figures["resets"] >= 1 and figures["illegal_tried"] >= 10
    assert figures["doubles"] >= 1
    assert sum(1 for line in lines if " heap " in line) == figures["plays"]  # a heap line after every turn


def test_a_board_that_accepts_an_illegal_play_is_caught(sim_link, monkeypatch):
    """A controller that commits some legal play whenever DONE finds none: the player counts wrong accepts."""
    from pipcore import controller
    from pipcore.names import MOVING

    original = controller.Controller._done

    def lax(self):
        before = self.accepted
        original(self)
        if self.phase == MOVING and self.accepted == before and self.tracker is not None:
            turn = self.tracker.turn
            self.tracker = None
            self.ref.play_code(turn, turn.plays[0])
            self._enter()

    monkeypatch.setattr(controller.Controller, "_done", lax)
    figures = tableplayer.play_games(sim_link, 2, seed=2, log=lambda text: None, illegal_rate=1.0,
                                     options={}, variant="backgammon")
    assert figures["wrong_accepts"] >= 1, figures


def test_a_board_that_loses_a_play_at_a_power_cut_is_caught(sim_link, monkeypatch):
    """Saves that stop after the opening: a power cut brings back an older game, and the player sees it."""
    from pipcore import app

    saves = []
    original = app.App._save

    def forgetful(self):
        saves.append(1)
        if len(saves) < 4:
            original(self)
        else:
            self.ctl.save_due = False

    monkeypatch.setattr(app.App, "_save", forgetful)
    figures = tableplayer.play_games(sim_link, 1, seed=4, log=lambda text: None, resets=25, options={})
    assert figures["desyncs"] >= 1, figures


def test_reset_is_test_mode_only_and_checked():
    from pipcore.protocol import ProtocolHandler

    out = []
    handler = ProtocolHandler(object(), out.append, test_mode=False)
    handler.handle_line(b'{"id": 1, "cmd": "reset"}')
    assert b'"test_mode_only"' in out[-1]
    handler = ProtocolHandler(object(), out.append, test_mode=True)
    handler.handle_line(b'{"id": 2, "cmd": "reset", "how": "kick"}')
    assert b'"bad_args"' in out[-1] and handler.reset_requested is None
    handler.handle_line(b'{"id": 3, "cmd": "reset"}')  # no loop owner acts on it: refused
    assert b'"rejected"' in out[-1] and handler.reset_requested is None
    handler.can_reset = True
    handler.handle_line(b'{"id": 4, "cmd": "reset", "how": "watchdog"}')
    assert b'"ok": true' in out[-1] and handler.reset_requested == "watchdog"


def test_the_simulator_comes_back_from_a_reset_with_its_save(sim_link):
    sim_link.new_game("backgammon", {"matchLength": 3})
    before = sim_link.snapshot()
    assert sim_link.request("reset", how="power")["reset"] == "power"
    after = sim_link.snapshot()
    assert after["options"]["matchLength"] == 3 and after["position_id"] == before["position_id"]
    with pytest.raises(CommandError):
        sim_link.request("reset", how="later")


def test_a_port_with_no_board_is_said_in_a_line_not_a_traceback(tmp_path, capsys):
    missing = str(tmp_path / "ttyNothing")
    assert tableplayer.main(["--port", missing, "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tableplayer: ") and "ttyNothing" in err and "Traceback" not in err
