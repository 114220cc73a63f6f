"""A save that fails is never silent; a flash that fills up warns, and its record stops cleanly.

On the simulated board (the firmware's App on the driver twins): the state save refused by the
flash shows the SAVE fault on the panel (every pip of both dice blinking red, three red move
markers) and in the snapshot's ``error``, the game goes on, the fault clears at the first save that
works again, and a power cut after that loses at most the play in hand. A nearly full flash pulses
the turn light amber and says so in the snapshot; a full one stops the match record with the fault
shown, and the game still goes on.
"""

import json
import random

from pipboard.simboard import FastFlash, SimBoard, VirtualPlayer
from pipcore import geometry as g
from pipcore.names import CUBE_OFFERED, GAME_OVER, MOVING, OPENING, SETUP, TURN_START
from pipcore.bridge import AppBridge
from pipdrivers import recstore
from pipdrivers.dice_display import FAULT_COLOUR, LOW_SPACE_COLOUR


class FailingFlash(FastFlash):
    """The flash twin whose state saves fail while ``failing`` (a worn or failing flash)."""

    def __init__(self, capacity=None):
        super().__init__(capacity=capacity)
        self.failing = False
        self.refused = 0

    def open(self, path, mode="rb"):
        if self.failing and "w" in mode and path.startswith("/pipboard_state"):
            self.refused += 1
            raise OSError(5, "flash write failed")
        return super().open(path, mode)


def rgb(colour):
    return ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255)


def play_until(board, player, done, limit=400):
    """Play as people do (no power cuts) until ``done()``."""
    for _ in range(limit):
        if done():
            return
        ctl = board.ctl
        ph = ctl.phase
        if ph == SETUP:
            board.follow_guidance()
            board.tidy_tall_stacks()
        elif ph in (OPENING, TURN_START):
            board.press("ROLL")
        elif ph == CUBE_OFFERED:
            board.press("TAKE")
        elif ph == MOVING:
            player.play_turn()
        elif ph == GAME_OVER:
            board.press("DONE")
    raise AssertionError("not reached: phase %s" % board.ctl.phase_name())


def fault_shown(board):
    px = board.pixels
    pips = [px[g.LED_DIE_A + i] for i in range(g.DIE_PIPS)] + [px[g.LED_DIE_B + i] for i in range(g.DIE_PIPS)]
    markers = [px[g.LED_MOVES + k] for k in range(4)]
    return all(p == rgb(FAULT_COLOUR) for p in pips) and markers == [rgb(FAULT_COLOUR)] * 3 + [(0, 0, 0)]


def test_a_failing_save_is_shown_the_game_goes_on_and_a_cut_after_it_heals_loses_only_the_play_in_hand():
    flash = FailingFlash()
    board = SimBoard(seed=21, flash=flash)
    player = VirtualPlayer(board, random.Random(21), cut_rate=0.0, wrong_rate=0.0, chatter_rate=0.0, knock_rate=0.0)
    bridge = AppBridge(board.app)
    play_until(board, player, lambda: board.ctl.phase == TURN_START and board.ctl.accepted >= 2)
    good = board.storage_text
    assert board.app.error is None and not fault_shown(board)

    flash.failing = True
    accepted = board.ctl.accepted
    play_until(board, player, lambda: board.ctl.accepted >= accepted + 3 and board.ctl.phase == TURN_START)
    assert flash.refused >= 3  # every commit tried again, and failed
    assert board.app.error.startswith("save:") and "flash write failed" in board.app.error
    assert bridge.snapshot()["error"] == board.app.error  # the host sees it too
    assert fault_shown(board)  # the panel's SAVE pattern
    assert board.storage_text == good  # nothing half-written: the last good save stands

    flash.failing = False
    play_until(board, player, lambda: board.ctl.accepted >= accepted + 4 and board.ctl.phase == TURN_START)
    assert board.app.error is None and bridge.snapshot()["error"] is None and not fault_shown(board)
    committed = json.loads(board.storage_text)
    assert committed == board.ctl.snapshot()  # the save caught up with the game

    board.press("ROLL")  # the next roll, and a checker lifted: the play in hand
    assert board.ctl.phase == MOVING
    after_roll = board.storage_text
    src = [loc for loc in range(24) if board.ctl.marks[loc]][0]
    board.lift(src)
    board.power_cut()
    board.place(src)  # (the hand puts it back while the power is off)
    board.power_on()
    assert board.app.resumed and json.loads(board.resumed_state) == json.loads(after_roll)
    assert board.ctl.phase == MOVING  # the same roll, the same dice: only the play in hand to make again


def test_a_nearly_full_flash_warns_and_a_full_one_stops_the_record_but_not_the_game():
    capacity = recstore.LOW_SPACE + 6000
    flash = FailingFlash(capacity=capacity)
    board = SimBoard(seed=5, flash=flash)
    player = VirtualPlayer(board, random.Random(5), cut_rate=0.0, wrong_rate=0.0, chatter_rate=0.0, knock_rate=0.0)
    bridge = AppBridge(board.app)
    play_until(board, player, lambda: board.ctl.phase == TURN_START and board.ctl.accepted >= 1)
    assert not bridge.snapshot()["storage"]["low"]
    # something else fills the flash to just above the reserve the state save keeps
    flash.files["/filler"] = bytearray(flash.free() - recstore.RESERVE - 600)
    play_until(board, player, lambda: board.ctl.records.games >= 1 and board.ctl.phase == TURN_START)
    storage = bridge.snapshot()["storage"]
    assert storage["low"] and storage["free"] < recstore.LOW_SPACE
    turn_light = [board.pixels[g.LED_TURN_WHITE], board.pixels[g.LED_TURN_BLACK]]
    assert rgb(LOW_SPACE_COLOUR) in turn_light  # the turn light pulses amber
    accepted = board.ctl.accepted
    play_until(board, player, lambda: board.ctl.records.stopped and board.ctl.accepted >= accepted + 2)
    snap = bridge.snapshot()
    assert snap["storage"]["record"].startswith("the match record stopped")
    assert snap["error"].startswith("save:")
    assert fault_shown(board)
    # the game goes on and saves still work (the reserve)
    before = board.ctl.accepted
    play_until(board, player, lambda: board.ctl.accepted >= before + 2)
    assert json.loads(board.storage_text)["ref"] == board.ctl.snapshot()["ref"]
    # what the record holds is whole: it reads and replays up to where it stopped
    from pipcore.record import read_record, replay

    record = read_record(board.app.ctl.record_bytes())
    games = record.games()
    assert not record.torn and games and games[0][-1][0] == "end"  # the first game whole, with its result
    replay(record)
