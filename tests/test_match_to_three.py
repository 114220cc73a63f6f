"""Issue 11's acceptance: a match to 3 on the simulated board, exported, read by gnubg with the right scores.

The match is played by simulated people on the simulated board (``pipboard
sim``'s board, reached over the protocol as ``pipboard export`` reaches it),
with the board's tournament clock when this firmware has one; the first game
with physical dice keyed in with the buttons (one roll keyed wrong and
corrected with UNDO before a checker moved), ended by a resignation made
and accepted with the buttons; the next games with the board's own dice
until one ends with a gammon played out, and on to the end of the match.
``pipboard export`` writes the match as ``.mat``; the real GNU Backgammon
imports it and must find the same games, winners, points and scores.
"""

import os
import random

import pytest

from gnubg_replay import commands_for, expected_from_record, gnubg_available, gnubg_read, gnubg_view
from pipboard import export
from pipboard.link import Link
from pipboard.simboard import VirtualPlayer
from pipboard.websim import server
from pipcore.controller import GAME_OVER, MATCH_OVER, MOVING, OPENING, PICK, SETUP, TURN_START
from pipcore.record import read_record, replay


def clock_options():
    """The clock's match options where this firmware has the tournament clock (issue 11 item 3)."""
    try:
        __import__("pipcore.gameclock")
    except ImportError:
        return {}
    return {"clock": "simple", "clockDelay": 12, "clockMinutes": 2}


class Table:
    """Two simulated people at the simulated board (its lock held for every action)."""

    THINK_EVERY = 6  # turns: now and then a player thinks longer than the clock's delay (the reserve runs)
    THINK_MS = 20000

    def __init__(self, sim, seed):
        self.sim = sim
        self.board = sim.sim.board
        self.rng = random.Random(seed)
        self.hands = VirtualPlayer(self.board, self.rng, wrong_rate=0.02, chatter_rate=0.02, knock_rate=0.0,
                                   cut_rate=0.0)
        self.keyed = []  # (dice keyed, dice thrown) of the physical rolls
        self.corrected = 0

    def key_in(self, dice):
        """Roll real dice and key them in with the mover's buttons (the board shows them back)."""
        board = self.board
        board.press("ROLL")
        for _ in range(dice[0]):
            board.press("DOUBLE")
        for _ in range(dice[1]):
            board.press("TAKE")
        assert board.ctl.display[:3] == ("keyed", dice[0], dice[1]), board.ctl.display
        board.press("ROLL")

    def physical_roll(self):
        thrown = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        opening = self.board.ctl.phase == OPENING
        if not self.corrected and not opening:
            wrong = (thrown[0], thrown[1] % 6 + 1)  # a die keyed wrong: seen on the panel, corrected
            self.key_in(wrong)
            assert self.board.ctl.dice == wrong
            self.board.press("UNDO")
            for _ in range(5):
                self.board.press("TAKE")  # one step short of a full turn: back to the die thrown
            self.board.press("DONE")
            self.corrected += 1
        else:
            self.key_in(thrown)
        self.keyed.append(thrown)

    def game(self, resign_after=None):
        """Play one game to its end; ``resign_after``: the mover resigns a single at that turn start."""
        board = self.board
        game = board.ctl.game_no
        turns = 0
        for _ in range(3000):
            ctl = board.ctl
            ph = ctl.phase
            if ph in (GAME_OVER, MATCH_OVER) and ctl.game_no == game:
                return ctl.result
            if ph == SETUP:
                board.follow_guidance()
                board.tidy_tall_stacks()
            elif ph in (OPENING, TURN_START):
                if ph == TURN_START:
                    turns += 1
                    if turns % self.THINK_EVERY == 0:
                        board.advance(self.THINK_MS)
                    if resign_after is not None and turns >= resign_after:
                        who = ctl.mover
                        board.press("RESIGN", who)
                        assert ctl.pending is not None, ctl.message
                        board.press("TAKE", 1 - who)
                        continue
                if ctl.options["dice"] == "physical":
                    self.physical_roll()
                else:
                    board.press("ROLL")
            elif ph in (MOVING, PICK):
                self.hands.play_turn()
        raise AssertionError("the game did not end")


@pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon is not installed (make setup installs it)")
def test_a_match_to_three_with_keyed_dice_a_resignation_and_a_gammon_read_by_gnubg(tmp_path):
    from pipcore.keyed import set_source

    options = dict({"matchLength": 3, "dice": "physical"}, **clock_options())
    sim = server.start(seed=3, http_port=0, protocol_port=0)
    try:
        with Link.open("sim:" + sim.protocol_address) as link:
            snap = link.new_game(options=options)  # the host sets the match up
            assert snap["options"]["dice"] == "physical" and snap["match_length"] == 3
        table = Table(sim, 3)
        results = []
        with sim.sim.lock:
            results.append(table.game(resign_after=4))  # game 1: keyed-in dice, a resignation
            assert table.corrected == 1 and len(table.keyed) >= 4
            set_source(table.board.ctl, "electronic")  # the players let the board roll from now on
            while table.board.ctl.phase != MATCH_OVER:
                table.board.press("DONE")
                results.append(table.game())
            ctl = table.board.ctl
            games = list(ctl.games)
            scores = list(ctl.scores)
        path = str(tmp_path / "match.mat")
        assert export.run("sim:" + sim.protocol_address, path, out=open(os.devnull, "w")) == 0
        with Link.open("sim:" + sim.protocol_address) as link:
            data = link.record()
            final = link.snapshot()
    finally:
        sim.close()
    assert final["phase"] == "match-over" and final["score"] == scores and max(scores) >= 3
    if clock_options():  # the clock ran through the match: both reserves were charged, no flag fell
        clock = final["clock"]
        assert clock["mode"] == "simple" and clock["flag"] == -1, clock
        assert all(0 < left < clock["reserve"] for left in clock["remaining"]), clock
    assert results[0][2] == "single" and ctl.ref.results[0].resigned  # game 1 was resigned
    gammons = [g for g in games if g[3] == "gammon"]
    assert gammons and not any(r.resigned for r in ctl.ref.results if r.kind == 2), games  # played out
    record = read_record(data)
    assert record.options["matchLength"] == 3
    for name in clock_options():
        assert record.options[name] == options[name]
    entries = record.entries
    first_game = entries[:[i for i, e in enumerate(entries) if e[0] == "game"][1]]
    assert [e[0] for e in first_game].count("unroll") == 1  # the roll keyed wrong, taken back
    rolls = [tuple(e[2:]) for e in first_game if e[0] == "roll"]
    assert rolls[0] != rolls[1] and rolls[1:] == table.keyed[1:len(rolls)]  # then the dice thrown, as keyed
    assert ("resign", 1 - results[0][0], 1) in first_game
    ref = replay(record)
    assert list(ref.match.score) == scores and ref.match.is_over()
    with open(path) as f:
        text = f.read()
    assert " 3 point match" in text and text.count(" Game ") == len(games)
    dump = gnubg_read([{"path": path, "commands": commands_for(record.options)}], timeout=300)[0]
    assert "error" not in dump, dump
    theirs, ours = gnubg_view(dump), expected_from_record(record)
    assert len(theirs) == len(ours) == len(games)
    for t, o, (_, winner, points, _kind) in zip(theirs, ours, games):
        assert t["score"] == o["score"]  # every game's start score, as gnubg reads it
        assert t["actions"] == o["actions"]
        assert t["winner"] == o["winner"] == "XO"[winner] and t["points"] == o["points"] == points
    assert theirs[0]["resigned"]
    final_score = [theirs[-1]["score"][0], theirs[-1]["score"][1]]
    final_score["XO".index(theirs[-1]["winner"])] += theirs[-1]["points"]
    assert final_score == scores  # gnubg's final score is the board's
    assert dump["matchid"] == ref.match_id()
