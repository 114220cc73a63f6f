"""Issue 16 through the protocol: each side's own buttons, gnubg's notation and Position IDs as host
plays, a finished game refused, the candidate's play during a pick, injected counts after new_game."""

import pytest

pytest.importorskip("pipboard.simboard")

from pipboard.link import CommandError  # noqa: E402
from pipcore.board import NLOC, fill_counts  # noqa: E402
from pipcore.position import Position  # noqa: E402

BUTTONS = ("ROLL", "DONE", "DOUBLE", "TAKE", "DROP", "BEAVER", "RACCOON", "NEXT", "NEW")


def press(link, name, player=None):
    link.inject("button", BUTTONS.index(name), 1, player)


def lay_out(link, pid, mover):
    counts = bytearray(NLOC)
    fill_counts(Position.from_id(pid), mover, counts, bytes([6] * NLOC))
    for loc in range(NLOC):
        link.inject("sensor", loc, counts[loc])
    return counts


def turn_start(link):
    """White on roll before the roll, cube centred, the board set up."""
    from pipcore.matchid import MatchState
    link.set_position("4HPwATDgc/ABMA", MatchState(on_roll=0, turn=0).encode())
    lay_out(link, "4HPwATDgc/ABMA", 0)
    snap = link.snapshot()
    assert snap["phase"] == "turn-start" and snap["mover"] == 0, snap["message"]
    return snap


def test_the_other_sides_double_take_and_drop_are_refused(board_link):
    turn_start(board_link)
    press(board_link, "DOUBLE", 1)  # black's DOUBLE while white is on roll
    snap = board_link.snapshot()
    assert snap["phase"] == "turn-start" and snap["cube"]["value"] == 1 and snap["cube"]["offered_by"] == -1
    assert "black's DOUBLE refused" in snap["message"] and "white" in snap["message"]
    press(board_link, "DOUBLE", 0)
    snap = board_link.snapshot()
    assert snap["phase"] == "cube-offered" and snap["cube"]["offered_by"] == 0
    press(board_link, "TAKE", 0)  # the doubler's own TAKE
    snap = board_link.snapshot()
    assert snap["phase"] == "cube-offered" and "white's TAKE refused" in snap["message"], snap["message"]
    press(board_link, "DROP", 0)
    assert board_link.snapshot()["phase"] == "cube-offered"
    press(board_link, "TAKE", 1)
    snap = board_link.snapshot()
    assert snap["phase"] == "turn-start" and snap["cube"] == {"value": 2, "owner": 1, "offered_by": -1, "stage": 0}
    press(board_link, "ROLL", 1)  # black's ROLL on white's turn
    snap = board_link.snapshot()
    assert snap["phase"] == "turn-start" and "refused" in snap["message"]


def test_a_press_without_a_player_acts_for_the_side_on_turn(board_link):
    turn_start(board_link)
    press(board_link, "DOUBLE")
    press(board_link, "TAKE")
    snap = board_link.snapshot()
    assert snap["cube"]["value"] == 2 and snap["cube"]["owner"] == 1


def test_inject_player_is_checked(board_link):
    with pytest.raises(CommandError):
        board_link.request("inject", kind="button", index=0, value=1, player=2)
    with pytest.raises(CommandError):
        board_link.request("inject", kind="sensor", index=0, value=1, player=0)


def test_show_play_takes_gnubg_hits_per_landing_and_a_position_id(board_link):
    from pipcore.matchid import MatchState
    board_link.set_position("ywC+EAc1DeMoAg", MatchState(on_roll=1, dice=(6, 4)).encode())
    snap = board_link.snapshot()
    pid, mover = snap["position_id"], snap["mover"]
    assert mover == 1 and snap["dice"] == [6, 4]
    lay_out(board_link, pid, mover)
    assert board_link.snapshot()["phase"] == "moving", board_link.snapshot()["message"]
    board_link.show_play("17/7*")
    one = board_link.snapshot()["message"]
    board_link.show_play("17/11*/7*")
    assert board_link.snapshot()["message"] == one  # both accepted: two distinct plays
    with pytest.raises(CommandError):
        board_link.show_play("17/7")  # really ambiguous: refused
    pos = Position.from_id(pid)
    from pipcore.notation import parse_play
    from pipcore.rules import Turn, check_play
    result = check_play(pos, (6, 4), parse_play("17/11*/7*"))[1]
    board_link.show_play(result.position_id())  # the Position ID of the result, as the docs say
    assert board_link.snapshot()["phase"] == "moving"
    assert Turn(pos, (6, 4)).result_for(result) is not None


def test_a_finished_game_is_refused(board_link):
    with pytest.raises(CommandError) as err:
        board_link.set_position("K0C6owIAAAAAAA")
    assert "over" in str(err.value)


def test_injected_counts_are_judged_after_new_game(board_link):
    counts = lay_out(board_link, "4HPwATDgc/ABMA", 0)  # the start position, injected
    snap = board_link.new_game("backgammon", {})
    snap = board_link.snapshot()
    assert snap["phase"] == "opening", snap["message"]  # judged from the injected counts, not empty switches
    assert sum(counts) == 30
