"""``pipboard coach`` against gnubg on the simulated board: a scripted game with a known blunder.

The opening 65 played 8/2 8/3 is a blunder by any measure (gnubg: about half a
point worse than running 24/13); the simulated hands commit it, and the coach
(the real ``Coach.run`` loop over the protocol, gnubg 0-ply) must call it
very bad, give 24/13 as the better play, light 24 and 13 in the coach's
violet, put the size of the error on the panel and send the line to every
host (``pipboard monitor``). Then the cube: an early double rated as an
error, the take as right. The match summary is gnubg's own statistics.
"""

import io
import os
import threading
import time

import pytest

if not os.path.exists("/usr/games/gnubg"):
    pytest.skip("GNU Backgammon (Debian gnubg) is not installed", allow_module_level=True)

from pipboard.coach import Coach, GnubgAnalyst, cube_errors, skill, summary_lines
from pipboard.link import CommandError, Link
from pipboard.monitor import describe_event
from pipboard.websim import server
from pipcore import geometry as g
from pipcore.board import slot_loc
from pipcore.names import M_COACH_FROM, M_COACH_TO
from pipcore.position import Position
from pipcore.render import role_colour
from pipcore.rules import Turn
from pipcore.outside import play_result

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "gnubg")
THRESHOLDS = {"doubtful": 0.03, "bad": 0.06, "very bad": 0.12}


def wait_for(check, what, timeout=40.0):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "timed out waiting for " + what
        time.sleep(0.02)


@pytest.fixture
def table():
    """The simulated board (test mode) set up and ready for the opening roll, a link, gnubg at 0-ply."""
    sim = server.start(seed=3, test_mode=True, http_port=0, protocol_port=0)
    analyst = GnubgAnalyst(0)
    link = Link.open("sim:" + sim.protocol_address)
    try:
        with sim.sim.lock:
            sim.sim.board.follow_guidance()
        assert sim.sim.board.app.ctl.phase_name() == "opening"
        yield sim, link, analyst
    finally:
        link.close()
        sim.close()
        analyst.close()


def start_coach(link, analyst, errors_only):
    out = io.StringIO()
    coach = Coach(link, analyst, errors_only=errors_only, out=out)
    done = threading.Event()
    thread = threading.Thread(target=coach.run, kwargs={"stop": done.is_set, "poll_s": 0.05}, daemon=True)
    thread.start()
    wait_for(lambda: coach.attached, "the coach to attach")
    return coach, out, done, thread


def press(sim, name):
    with sim.sim.lock:
        sim.sim.board.press(name)


def play(sim, player, moves):
    with sim.sim.lock:
        board = sim.sim.board
        for s, t in moves:
            board.move(slot_loc(player, s), slot_loc(player, t), player)
        board.press("DONE")


def coach_pixels(board, loc):
    """The colours lit at location ``loc`` (any of its six slots)."""
    return [board.pixels[g.led_index(loc, s)] for s in range(g.SLOTS) if board.pixels[g.led_index(loc, s)] != (0, 0, 0)]


def test_the_coach_calls_a_known_blunder_very_bad_and_lights_the_better_play(table):
    sim, link, analyst = table
    board = sim.sim.board
    watcher = Link.open("sim:" + sim.protocol_address)  # another host: what pipboard monitor prints
    coach, out, done, thread = start_coach(link, analyst, errors_only=False)
    try:
        watcher.set_dice((6, 5))  # the opening roll: white 6, black 5: white plays 65
        press(sim, "ROLL")
        play(sim, 0, [(8, 2), (8, 3)])  # the blunder
        verdict = wait_for(lambda: coach.verdicts and coach.verdicts[-1], "gnubg's verdict")

        assert verdict.kind == "play" and verdict.player == 0 and verdict.dice == (6, 5)
        assert verdict.rating == "very bad", verdict
        assert verdict.loss > analyst.thresholds["very bad"], verdict
        start = Position.start()
        turn = Turn(start, (6, 5))
        best = play_result(turn, start, (6, 5), verdict.best)
        assert best == play_result(turn, start, (6, 5), "24/13"), verdict.best  # gnubg's best: run a back checker
        assert play_result(turn, start, (6, 5), verdict.played) == play_result(turn, start, (6, 5), "8/2 8/3")
        assert "very bad" in out.getvalue() and verdict.best in out.getvalue()

        # the board: 24 and 13 in the coach's violet, nothing else; the panel: rating 3, the loss in tenths
        ctl = board.app.ctl
        frm, to = slot_loc(0, 24), slot_loc(0, 13)
        wait_for(lambda: ctl.marks[frm] == M_COACH_FROM and ctl.marks[to] == M_COACH_TO, "the coach's marks")
        assert [i for i in range(len(ctl.marks)) if ctl.marks[i]] == sorted([frm, to])
        wait_for(lambda: coach_pixels(board, frm) == [role_colour(M_COACH_FROM)], "violet on the 24 point")
        assert coach_pixels(board, to) == [role_colour(M_COACH_TO)]
        violet = role_colour(M_COACH_TO)
        die_a = [board.pixels[g.LED_DIE_A + p] for p in range(g.DIE_PIPS)]
        die_b = [board.pixels[g.LED_DIE_B + p] for p in range(g.DIE_PIPS)]
        tenths = min(6, (round(verdict.loss * 1000) + 99) // 100)
        assert die_a == [violet if g.DIE_FACE_MASKS[3] >> p & 1 else (0, 0, 0) for p in range(g.DIE_PIPS)]
        assert die_b == [violet if g.DIE_FACE_MASKS[tenths] >> p & 1 else (0, 0, 0) for p in range(g.DIE_PIPS)]
        assert "very bad" in ctl.message  # the browser page shows the board's message

        # every host hears it: the monitor's line
        seen = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not seen:
            event = watcher.next_event(0.2)
            if event is not None and event.get("event") == "coach":
                seen.append(event)
        assert seen and seen[0]["rating"] == "very bad" and seen[0]["player"] == 0
        assert verdict.best in describe_event(seen[0])

        # the cube: black doubles far too early (an error by gnubg's cube analysis), white's take is right
        press(sim, "DOUBLE")
        double = wait_for(lambda: len(coach.verdicts) >= 2 and coach.verdicts[1], "the double's verdict")
        assert double.kind == "double" and double.player == 1 and double.rating != "none", double
        assert double.best.lower().startswith("no double"), double
        press(sim, "TAKE")
        take = wait_for(lambda: len(coach.verdicts) >= 3 and coach.verdicts[2], "the take's verdict")
        assert take.kind == "take" and take.player == 0 and take.rating == "none", take

        # the next roll clears the coach's marks and panel: the roll's own guidance comes first
        watcher.set_dice((3, 1))
        press(sim, "ROLL")
        wait_for(lambda: ctl.phase_name() == "moving", "black's roll")
        assert M_COACH_FROM not in ctl.marks and M_COACH_TO not in ctl.marks and ctl.coach_panel is None
        reply = watcher.request("coach", player=0, rating="bad", loss=80, play="13/11 6/5")
        assert reply["shown"] is False  # while a roll is played the board keeps its guidance
    finally:
        done.set()
        thread.join(10)
        watcher.close()


def test_errors_only_keeps_quiet_after_gnubgs_best_play(table):
    sim, link, analyst = table
    board = sim.sim.board
    coach, out, done, thread = start_coach(link, analyst, errors_only=True)
    try:
        link_dice = Link.open("sim:" + sim.protocol_address)
        link_dice.set_dice((6, 5))
        link_dice.close()
        press(sim, "ROLL")
        play(sim, 0, [(24, 18), (18, 13)])  # gnubg's own choice
        verdict = wait_for(lambda: coach.verdicts and coach.verdicts[-1], "gnubg's verdict")
        assert verdict.rating == "none" and verdict.loss < 0.001, verdict
        time.sleep(0.3)
        assert out.getvalue().count("\n") == 1, out.getvalue()  # only the header: no word after a good play
        assert board.app.ctl.coach is None and board.app.ctl.coach_panel is None
    finally:
        done.set()
        thread.join(10)


def test_the_board_refuses_a_bad_coach_command(table):
    sim, link, _analyst = table
    for args, code in (({"player": 2, "rating": "bad"}, "bad_args"),
                       ({"player": 0, "rating": "awful"}, "bad_args"),
                       ({"player": 0, "rating": "bad", "play": "13/15"}, "bad_args"),
                       ({"player": 0, "rating": "bad", "loss": -1}, "bad_args"),
                       ({"player": 0, "rating": "bad", "text": "x" * 201}, "bad_args"),
                       ({"rating": "bad"}, "bad_args")):
        with pytest.raises(CommandError) as err:
            link.request("coach", **args)
        assert err.value.code in (code, "rejected"), (args, err.value)
    assert link.request("coach", player=0, rating="none")["shown"] is True  # at the opening: shown, nothing lit
    assert M_COACH_FROM not in sim.sim.board.app.ctl.marks


def test_gnubg_thresholds_and_cube_errors():
    assert skill(-0.2, THRESHOLDS) == "very bad" and skill(-0.12, THRESHOLDS) == "bad"
    assert skill(-0.07, THRESHOLDS) == "bad" and skill(-0.031, THRESHOLDS) == "doubtful"
    assert skill(-0.03, THRESHOLDS) == "none" and skill(0.0, THRESHOLDS) == "none"
    # a double/take position: not doubling loses, doubling is right, a pass is wrong
    errors = cube_errors(0.649, 0.742, 1.0)
    assert errors["no double"] == pytest.approx(-0.093) and errors["double"] == 0.0
    assert errors["take"] == 0.0 and errors["drop"] == pytest.approx(-0.258)
    # too good to double: doubling loses the gammons, the take is a blunder
    errors = cube_errors(1.3, 1.9, 1.0)
    assert errors["double"] == pytest.approx(-0.3) and errors["take"] == pytest.approx(-0.9)


GNUBG_RATINGS = ("Awful!", "Beginner", "Casual player", "Intermediate", "Advanced", "Expert", "World class",
                 "Supernatural")
GNUBG_LUCK = ("Go to bed", "Bad dice, man!", "None", "Good dice, man!", "Go to Las Vegas")


def random_mat(tmp_path, seed, length, games=None):
    """A .mat of random legal plays (errors on both sides, different for each) between Ann and Bob."""
    import io
    import random

    from pipboard.matfile import export_mat
    from pipcore.match import Referee
    from pipcore.options import make_options
    from pipcore.record import RecordWriter, read_record
    from random_match import play_random

    out = io.BytesIO()
    ref = Referee(make_options({"matchLength": length}), ("Ann", "Bob"), RecordWriter(out))
    play_random(ref, random.Random(seed), games, offer_rate=0.0)
    path = tmp_path / ("r%d.mat" % seed)
    path.write_text(export_mat(read_record(out.getvalue())))
    return str(path)


@pytest.mark.parametrize("length", [3, 0], ids=["match play", "money play"])
def test_the_match_summary_reads_gnubgs_statistics_by_row(tmp_path, length):
    """gnubg labels the rows with their unit (``Error rate mEMG (MWC)`` in a match, ``(Points)`` in money
    play): each player's line carries his own figures from the row, whatever the label."""
    import re

    analyst = GnubgAnalyst(0)
    try:
        table = analyst.statistics(random_mat(tmp_path, 5, length, None if length else 2))
    finally:
        analyst.close()
    lines = summary_lines(table)
    assert [line.split(":")[0] for line in lines] == ["Ann", "Bob"], (lines, table)
    unit = "(MWC)" if length else "(Points)"
    section = None
    want = {}
    for line in table:  # the figures, read here from the raw rows by a plain pattern
        if line in ("Overall statistics", "Luck statistics"):
            section = line
        for label in ("Error rate mEMG " + unit, "Luck rate mEMG " + unit):
            if section and line.startswith(label):
                want[(section, label)] = re.findall(r"([+-]?\d+\.\d)\s+\(", line)
        for label in ("Overall rating", "Luck rating"):
            if section and line.startswith(label):
                want[(section, label)] = [x for x in re.split(r"\s{2,}", line)[1:] if x]
    for i, line in enumerate(lines):
        error = want[("Overall statistics", "Error rate mEMG " + unit)][i]
        rating = want[("Overall statistics", "Overall rating")][i]
        luck = want[("Luck statistics", "Luck rate mEMG " + unit)][i]
        luck_rating = want[("Luck statistics", "Luck rating")][i]
        assert line == "%s: error rate %s mEMG (%s), luck %s mEMG (%s)" % (
            ("Ann", "Bob")[i], error, rating, luck, luck_rating), (line, want)
        assert rating in GNUBG_RATINGS and luck_rating in GNUBG_LUCK, line
    assert lines[0].split(",")[0] != lines[1].split(",")[0], lines  # random play: two different error rates


def play_match(sim, rng, deadline, done_at_end=False):
    """Random legal plays by the simulated hands until the match is over (TAKE any double); with
    ``done_at_end`` DONE is pressed at once at the end (the board starts the next match)."""
    from pipboard.simboard import VirtualPlayer

    board = sim.sim.board
    person = VirtualPlayer(board, rng, wrong_rate=0.0, chatter_rate=0.0, knock_rate=0.0, cut_rate=0.0)
    while True:
        assert time.monotonic() < deadline, "the match did not end in time"
        with sim.sim.lock:
            ctl = board.ctl
            phase = ctl.phase_name()
            if phase == "match-over":
                if done_at_end:
                    board.press("DONE")
                return
            if phase == "setup":
                board.follow_guidance()
            elif phase in ("opening", "turn-start"):
                board.press("ROLL")
            elif phase in ("moving", "pick"):
                person.play_turn()
            elif phase == "cube-offered":
                board.press("TAKE")
            elif phase == "game-over":
                board.press("DONE")
        time.sleep(0.005)


def test_a_whole_match_every_choice_judged_once_and_gnubgs_summary_at_the_end():
    import random

    from pipboard.export import board_record
    from pipcore.record import read_record, replay

    sim = server.start(seed=11, http_port=0, protocol_port=0, options={"matchLength": 1})
    analyst = GnubgAnalyst(0)
    link = Link.open("sim:" + sim.protocol_address)
    coach, out, done, thread = start_coach(link, analyst, errors_only=True)
    try:
        play_match(sim, random.Random(11), time.monotonic() + 90)
        wait_for(lambda: coach.summaries == 1, "gnubg's match summary", timeout=60)
        # the plays with a choice, from the board's record replayed independently
        choices = []

        def count(ref, entry):
            if entry[0] == "play" and len(Turn(ref.position, tuple(ref.dice)).plays) > 1:
                choices.append(entry)

        with Link.open("sim:" + sim.protocol_address) as other:  # the coach's link is its own thread's
            replay(read_record(board_record(other.record())), count)
    finally:
        done.set()
        thread.join(10)
        link.close()
        sim.close()
        analyst.close()
    plays = [v for v in coach.verdicts if v.kind == "play"]
    assert len(plays) == len(choices) > 5, (len(plays), len(choices))
    for v in plays:  # gnubg's rating agrees with its thresholds applied to the equity lost
        assert v.rating == skill(-v.loss, analyst.thresholds) or abs(v.loss - 0.03) < 1e-3, v
    text = out.getvalue()
    errors = [v for v in coach.verdicts if v.error]
    assert text.count(" -- ") == len(errors), text  # errors only: one line per error, none for good plays
    summary = [line for line in text.splitlines() if line.startswith(("coach: white:", "coach: black:"))]
    assert len(summary) == 2 and all("error rate" in line and "luck" in line for line in summary), text


def test_the_summary_of_a_match_left_at_once_is_not_lost():
    """DONE pressed at once after a 1-point match: the board is in its next match before the coach looks,
    and the summary is still gnubg's statistics of the match that ended (read from the directory)."""
    import random

    sim = server.start(seed=12, http_port=0, protocol_port=0, options={"matchLength": 1})
    analyst = GnubgAnalyst(0)
    link = Link.open("sim:" + sim.protocol_address)
    coach, out, done, thread = start_coach(link, analyst, errors_only=True)
    try:
        play_match(sim, random.Random(12), time.monotonic() + 90, done_at_end=True)
        assert sim.sim.board.ctl.phase_name() != "match-over"
        wait_for(lambda: coach.summaries == 1, "gnubg's match summary", timeout=60)
        time.sleep(0.5)
        assert coach.summaries == 1  # once
    finally:
        done.set()
        thread.join(10)
        link.close()
        sim.close()
        analyst.close()
    text = out.getvalue()
    assert "coach: match summary (gnubg, 0-ply)" in text, text
    summary = [line for line in text.splitlines() if line.startswith(("coach: white:", "coach: black:"))]
    assert len(summary) == 2 and all("error rate -" in line or "error rate +" in line for line in summary), text


def test_a_blunder_in_a_loaded_position(table):
    """A position set up by Position ID and Match ID (the board keeps only its text log): black has split
    to white's 5 point and white rolls 31; splitting the back checkers (24/21 24/23) instead of pointing
    on the blot (8/5* 6/5) is a blunder."""
    from pipcore.matchid import MatchState

    sim, link, analyst = table
    board = sim.sim.board
    pos = Position.start()
    pos.opp[24], pos.opp[20] = 1, 1
    link.set_position(pos.position_id(), MatchState(on_roll=0, dice=(3, 1)).encode())
    with sim.sim.lock:
        board.follow_guidance()
    assert board.app.ctl.phase_name() == "moving" and board.app.ctl.dice == (3, 1)
    coach, out, done, thread = start_coach(link, analyst, errors_only=True)
    try:
        play(sim, 0, [(24, 21), (24, 23)])
        verdict = wait_for(lambda: coach.verdicts and coach.verdicts[-1], "gnubg's verdict")
        turn = Turn(pos, (3, 1))
        assert verdict.rating == "very bad" and verdict.loss > analyst.thresholds["very bad"], verdict
        assert play_result(turn, pos, (3, 1), verdict.best) == play_result(turn, pos, (3, 1), "8/5* 6/5"), verdict
        ctl = board.app.ctl
        lit = {slot_loc(0, 8): M_COACH_FROM, slot_loc(0, 6): M_COACH_FROM, slot_loc(0, 5): M_COACH_TO}
        wait_for(lambda: {i: m for i, m in enumerate(ctl.marks) if m} == lit, "the better play in violet")
        assert "very bad" in out.getvalue()
    finally:
        done.set()
        thread.join(10)


def test_what_was_played_while_the_link_was_down_is_judged_on_reconnect(table):
    sim, link, analyst = table
    coach, _out, done, thread = start_coach(link, analyst, errors_only=True)
    done.set()  # the link goes down (the coach's loop stops)
    thread.join(10)
    link.set_dice((6, 5))
    press(sim, "ROLL")
    play(sim, 0, [(8, 2), (8, 3)])
    assert coach.verdicts == []
    with Link.open("sim:" + sim.protocol_address) as again:
        coach.link = again
        done2 = threading.Event()
        thread = threading.Thread(target=coach.run, kwargs={"stop": done2.is_set, "poll_s": 0.05}, daemon=True)
        thread.start()
        try:
            verdict = wait_for(lambda: coach.verdicts and coach.verdicts[-1], "the verdict after the reconnect")
        finally:
            done2.set()
            thread.join(10)
    assert verdict.rating == "very bad" and len(coach.verdicts) == 1
