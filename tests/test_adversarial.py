"""Adversarial players: every way RULES.md forbids a play is tried on the board, and refused with guidance.

Two layers:

* named scenarios, one per rule (closed point, wrong number, split die, bar
  first, fewer dice than possible, the higher die, bear-off eligibility and
  the highest checker, moving backwards, moving the opponent, an extra or a
  missing checker, the cube out of turn, a play other than the host's): the
  board flashes the wrong point and points at the fix, or shows what is
  still required, and never commits;
* a randomized adversary on the simulated board that, before every legal
  turn, executes random illegal plays (several checkers, any distances, any
  points, the opponent's checkers too), presses DONE and checks that nothing
  is committed and that the LEDs guide, then follows the guidance back.
"""

import random

from pipboard.simboard import BoardError, SimBoard, VirtualPlayer
from pipcore.board import NLOC, TRAY0, fill_counts, slot_loc
from pipcore.controller import (
    M_ERROR, M_FIX_FROM, M_FIX_TO, M_MISSING, M_PLAY_FROM, M_REQUIRED, MOVING, PICK, TURN_START)

from test_controller import loaded, started

GUIDES = (M_ERROR, M_FIX_FROM, M_FIX_TO, M_MISSING, M_REQUIRED)


def refused(t, accepted=None):
    """DONE is pressed: nothing is committed and the LEDs guide."""
    before = t.ctl.accepted if accepted is None else accepted
    t.press("DONE")
    assert t.ctl.phase == MOVING, t.ctl.message
    assert t.ctl.accepted == before
    assert any(t.marked(r) for r in GUIDES), "no guidance shown"


def test_closed_point():
    t = loaded({13: 5, 8: 3, 6: 5, 24: 2}, {4: 2, 19: 13}, (3, 1))  # 4 is closed
    t.move(8, 4)
    assert t.points(M_ERROR) == [4] and t.points(M_FIX_TO) == [8]
    refused(t)


def test_number_not_rolled():
    t = started((3, 1))
    t.move(13, 11)  # a 2
    assert t.points(M_ERROR) == [11] and t.points(M_FIX_TO) == [13]
    refused(t)


def test_die_split_between_checkers():
    t = started((5, 2))
    t.move(13, 10)  # 3 of the 5 ...
    t.move(8, 6)  # ... and 2 with another checker: not a 5 and a 2
    refused(t)


def test_bar_checker_must_enter():
    t = loaded({"bar": 1, 13: 5, 8: 3, 6: 5, 24: 1}, {19: 15}, (6, 5))  # 6 and 5: 19 and 20 are both open?
    t.move(13, 2)  # 6 and 5 with another checker while one is on the bar
    assert t.points(M_ERROR) == [2]
    refused(t)


def test_bar_entry_blocked_turn_is_forfeit():
    t = loaded({"bar": 1, 13: 5, 8: 3, 6: 5, 12: 1}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 1: 3}, (6, 5))
    t.move(13, 7)
    assert t.points(M_ERROR) == [7]
    t.move(7, 13)
    t.press("DONE")
    assert t.ctl.record[-1] == "white 65: -"


def test_fewer_dice_than_possible():
    t = started((6, 4))
    t.move(24, 18)
    t.press("DONE")
    assert t.ctl.phase == MOVING and t.points(M_REQUIRED)


def test_doubles_must_use_all_four():
    t = loaded({24: 2, 13: 5, 8: 3, 6: 5}, {19: 5, 17: 3, 12: 5, 1: 2}, (2, 2))
    t.move(13, 11)
    t.move(13, 11)
    t.move(6, 4)
    t.press("DONE")
    assert t.ctl.phase == MOVING and t.points(M_REQUIRED)


def test_higher_die_when_only_one_can_be_played():
    # 6-1: after 24/18 no 1 can be played (17 closed, no bear-off), after 24/23 no 6 (17 closed):
    # one die only, and the 6 is playable, so the 1 alone is illegal (O2)
    t = loaded({24: 1, 1: 14}, {17: 2, 12: 13}, (6, 1))
    assert t.ctl.turn.dice_used == 1
    t.move(24, 23)
    assert t.points(M_ERROR) == [23] and t.points(M_FIX_TO) == [24]
    refused(t)
    t.move(23, 18)
    t.press("DONE")
    assert t.ctl.record[-1] == "white 61: 24/18"


def test_bear_off_with_a_checker_outside():
    # 6-3 with a checker on 10: the 6 may bring it home (10/4), after which only the 3 bears off;
    # a 6 from the 6-point never goes off in any legal play
    # (no stack taller than the switches: a checker taken unseen from one could be the one in the tray)
    t = loaded({10: 1, 6: 4, 3: 5, 2: 5}, {19: 15}, (6, 3))
    t.move(6, 0)
    assert t.marked(M_ERROR) == [TRAY0]
    refused(t)


def test_bear_off_higher_die_with_a_higher_checker():
    t = loaded({5: 2, 3: 4, 2: 9}, {19: 15}, (6, 4))
    t.move(3, 0)  # neither die may bear off from 3 while two checkers stand on 5
    assert t.marked(M_ERROR) == [TRAY0]
    refused(t)


def test_moving_backwards():
    t = started((3, 1))
    t.move(6, 9)
    assert t.points(M_ERROR) == [9] and t.points(M_FIX_TO) == [6]
    refused(t)


def test_moving_the_opponent():
    t = started((3, 1))
    other = 1 - t.ctl.mover
    t.move(6, 5, other)  # the opponent's 6-point
    assert t.marked(M_ERROR)
    refused(t)


def test_extra_checker_and_missing_checker():
    t = started((3, 1))
    t.counts[slot_loc(0, 10)] += 1  # a 16th checker
    t.send()
    assert t.points(M_ERROR) == [10]
    refused(t)
    t.counts[slot_loc(0, 10)] -= 1
    t.send()
    t.counts[slot_loc(0, 13)] -= 1  # a checker gone from the board
    t.send()
    t.press("DONE")
    assert t.ctl.phase == MOVING
    assert t.points(M_FIX_TO) == [13] or t.points(M_MISSING) == [13]


def test_missing_checker_is_reported_after_a_while():
    t = started((3, 1))
    t.counts[slot_loc(0, 13)] -= 1
    t.send()
    t.ctl.step(("tick",), t.now + 60000)
    assert t.points(M_MISSING) == [13]
    assert "missing" in t.ctl.message


def test_cube_out_of_turn_is_refused():
    t = started((3, 1))
    t.press("DOUBLE")  # after rolling
    assert t.ctl.phase == MOVING
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    t.press("DOUBLE")
    t.press("TAKE")
    assert t.ctl.owner == 0
    t.press("ROLL")
    t.dice(2, 1)
    t.move(6, 4)
    t.move(4, 3)
    t.press("DONE")
    assert t.ctl.phase == TURN_START and t.ctl.mover == 0
    t.press("ROLL")
    t.dice(2, 1)
    t.move(13, 11)
    t.move(11, 10)
    t.press("DONE")
    assert t.ctl.mover == 1
    before = t.ctl.refused
    t.press("DOUBLE")  # black does not own the cube
    assert t.ctl.phase == TURN_START and t.ctl.refused == before + 1


def test_only_the_hosts_play_is_accepted():
    t = started((3, 1))
    t.ctl.step(("host_play", "8/5 6/5"), t.now)
    t.move(24, 21)
    t.move(21, 20)  # a legal play, but not the one given
    assert t.points(M_ERROR) == [20]
    refused(t)
    t.move(20, 24)
    assert t.points(M_PLAY_FROM) == [6, 8]


def test_pass_refused_when_a_move_exists():
    t = started((6, 5))
    refused(t)


# -- the randomized adversary ----------------------------------------------------------
def illegal_attempt(board, rng):
    """Random physical moves making a final board that no legal play makes; returns True if done."""
    ctl = board.ctl
    base = ctl.pos
    mover = ctl.mover
    turn = ctl.turn
    legal_keys = set()
    buf = bytearray(NLOC)
    for r in turn.results():
        fill_counts(r, mover, buf, board.capacity)
        legal_keys.add(bytes(buf))
    stacks = [list(s) for s in board.stacks]
    ops = []
    for _ in range(1 + rng.randrange(4)):
        sources = [loc for loc in range(NLOC) if stacks[loc]]
        src = rng.choice(sources)
        colour = mover if mover in stacks[src] and rng.random() < 0.85 else stacks[src][-1]
        dst = rng.randrange(NLOC)
        if dst == src:
            continue
        stacks[src].remove(colour)
        stacks[dst].append(colour)
        ops.append((src, dst, colour))
    if not ops:
        return False
    counts = bytes(min(len(s), board.capacity[i]) for i, s in enumerate(stacks))
    if counts in legal_keys:
        return False  # the switches could not tell it from a legal play
    accepted = ctl.accepted
    for src, dst, colour in ops:
        board.move(src, dst, colour)
    board.press("DONE")
    ctl = board.ctl
    assert ctl.phase in (MOVING, PICK) and ctl.accepted == accepted, (
        "illegal play accepted: %s dice %r ops %r" % (base.describe(), ctl.dice, ops))
    assert any(board.marked(r) for r in GUIDES), "refused without guidance: %r" % ctl.message
    # follow the LEDs back (counts only: when the adversary swapped colours the LEDs cannot know,
    # and the hands then run out of the colour asked for), then put the checkers back as they were
    try:
        board.follow_guidance()
        assert not board.marked(M_ERROR), ctl.message
    except BoardError:
        pass
    board.arrange(base, mover)
    assert board.ctl.phase == MOVING and board.ctl.cur is board.ctl.root or board.ctl.cur.pos == base
    return True


def test_random_adversary_never_gets_an_illegal_play_accepted():
    rng = random.Random(66)
    board = SimBoard(seed=66)
    player = VirtualPlayer(board, random.Random(67), cut_rate=0.0)
    attempts = 0
    original = player.play_turn

    def adversary_turn():
        nonlocal attempts
        for _ in range(2):
            if board.ctl.phase == MOVING and illegal_attempt(board, rng):
                attempts += 1
        original()

    player.play_turn = adversary_turn
    for _ in range(6):
        player.play_game()
    assert attempts > 300
    assert player.stats["refused"] == 0


def test_cube_beyond_its_cap_and_a_second_offer_are_refused():
    t = started((3, 1), {"cubeCap": 2})
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    t.press("DOUBLE")
    t.press("TAKE")  # white owns the cube at 2 = the cap
    assert t.ctl.cube == 2 and t.ctl.owner == 0
    before = t.ctl.refused
    t.press("DOUBLE")  # black, who just doubled, may not offer again this turn (not the owner)
    assert t.ctl.phase == TURN_START and t.ctl.refused == before + 1
    t.press("ROLL")
    t.dice(2, 1)
    t.move(6, 4)
    t.move(4, 3)
    t.press("DONE")
    assert t.ctl.mover == 0 and not t.ctl.can_double()  # owner, but 4 would pass the cap
    t.press("DOUBLE")
    assert t.ctl.phase == TURN_START and t.ctl.refused == before + 2
