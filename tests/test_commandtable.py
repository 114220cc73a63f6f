"""Every protocol command in the phases where it is allowed (``pipboard.commandtable``), its effect checked in
the snapshot: on the simulator, or a board with ``pytest --board PORT`` (tests/README.md has the table)."""

import pytest

pytest.importorskip("pipboard.simboard")

from pipboard.commandtable import run_table  # noqa: E402


def test_every_command_does_what_the_protocol_says(board_link):
    rows = run_table(board_link, log=lambda line: None)
    commands = [row[0] for row in rows]
    for name in ("ping", "hello", "new_game", "set_position", "show_play", "roll", "show_cube", "resign",
                 "delete_match", "reset", "repl"):
        assert name in commands, commands
    failed = [row for row in rows if row[2] != "ok"]
    assert failed == [], failed
