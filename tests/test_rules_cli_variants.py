"""``pipboard rules`` with the variant, first_turn and options keys."""

import json
import subprocess
import sys

from pipboard.rules_cli import handle_line
from pipcore import nardy
from pipcore.position import Position

NARDY_START = nardy.start_position().position_id()


def ask(**request):
    return handle_line(json.dumps(request))


def test_nardy_first_turn_3_3():
    out = ask(position_id=NARDY_START, dice=[3, 3], variant="nardy", first_turn=True)
    assert len(out["plays"]) == 2, out
    # not a first turn: one checker off the head, 24/12 is blocked at 12
    out = ask(position_id=NARDY_START, dice=[3, 3], variant="nardy")
    assert len(out["plays"]) == 1, out


def test_nardy_results_keep_the_orientation():
    out = ask(position_id=NARDY_START, dice=[5, 5], variant="nardy", first_turn=True)
    (only,) = out["plays"]
    pos = Position.from_dicts({4: 1, 24: 14}, {12: 15}, opp_numbering="nardy")
    assert only == pos.position_id()


def test_nardy_geometry_is_validated():
    # mover on 5, opponent on its own 17 (= mover's 5): fine in backgammon, not in nardy
    bad = Position()
    bad.me[5] = 15
    bad.opp[17] = 15
    out = ask(position_id=bad.position_id(), dice=[3, 1], variant="nardy")
    assert "error" in out and "both players" in out["error"]
    assert "plays" in ask(position_id=bad.position_id(), dice=[3, 1])


def test_caucasian_option():
    pos = Position.from_dicts({13: 12, 8: 1, 3: 2}, {5: 1})
    plain = ask(position_id=pos.position_id(), dice=[3, 2])
    rule = ask(position_id=pos.position_id(), dice=[3, 2], options={"caucasian": True})
    assert len(plain["plays"]) == 8 and len(rule["plays"]) == 7


def test_bad_keys_get_errors():
    for req in (
        dict(position_id=NARDY_START, dice=[3, 1], variant="chess"),
        dict(position_id=NARDY_START, dice=[3, 1], variant="nardy", first_turn="yes"),
        dict(position_id=NARDY_START, dice=[3, 1], variant="nardy", options={"caucasian": True}),
        dict(position_id=NARDY_START, dice=[3, 1], options=[1]),
        dict(position_id=NARDY_START, dice=[3, 1], options={"lnBlockCheck": "sometimes"}),
    ):
        out = ask(**req)
        assert list(out) == ["error"], (req, out)


def test_command_line_round_trip():
    line = json.dumps({"position_id": NARDY_START, "dice": [6, 6], "variant": "nardy", "first_turn": True})
    proc = subprocess.run([sys.executable, "-m", "pipboard.cli", "rules"], input=line + "\n",
                          capture_output=True, text=True, timeout=60)
    out = json.loads(proc.stdout)
    assert out["plays"] == [Position.from_dicts({18: 2, 24: 13}, {12: 15}, opp_numbering="nardy").position_id()]
