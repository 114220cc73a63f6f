"""Long-nardy positions in the GNU Position ID container (docs/positions.md)."""

import shutil
import subprocess

import pytest
from pipcore import nardy
from pipcore.position import Position, PositionError, decode_position_id

GNUBG = "/usr/games/gnubg"
# M{5:15}, O{8:15} in the mover's numbering: the opponent stands on its own 20
NARDY_ONLY = Position.from_dicts({5: 15}, {8: 15}, opp_numbering="nardy")


def test_start_position_id_and_round_trip():
    start = nardy.start_position()
    assert start.position_id() == "AACA/z8AAID/Pw"
    assert decode_position_id("AACA/z8AAID/Pw") == start


def test_each_side_in_its_own_numbering():
    assert NARDY_ONLY.me[5] == 15 and NARDY_ONLY.opp[20] == 15
    NARDY_ONLY.validate("nardy")
    with pytest.raises(PositionError):
        NARDY_ONLY.validate("backgammon")  # the opponent's 20 would be the mover's 5
    decoded = decode_position_id(NARDY_ONLY.position_id())
    assert decoded == NARDY_ONLY
    with pytest.raises(PositionError):
        Position.from_id(NARDY_ONLY.position_id())  # validates as backgammon


def _gnubg_says(position_id):
    proc = subprocess.run([GNUBG, "-t", "-q"], input="new game\nset board %s\n" % position_id,
                          capture_output=True, text=True, timeout=120)
    return proc.stdout + proc.stderr


def test_gnubg_refuses_a_valid_nardy_position():
    if shutil.which(GNUBG) is None:
        pytest.fail("gnubg is not installed (make setup installs it)")
    assert "Illegal position" in _gnubg_says(NARDY_ONLY.position_id())
    assert "Illegal position" not in _gnubg_says(nardy.start_position().position_id())
