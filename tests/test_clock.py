"""The tournament clock on the simulated board and in the host tools (CPython).

* the board's own loop: the app steps a running clock by itself (a flag falls
  with no press at all), a real power cut does not charge the time the board
  was off, the panel's reading;
* records with losses on time exported as ``.mat``: GNU Backgammon imports
  them with our games and our score (a loss on time reads as a resignation
  there), our import gives the same record back, ``.sgf`` too; the export
  warns where gnubg cannot score one;
* ``pipboard monitor``'s clock line, the text simulator's clock, ``pipboard sim``'s options.

The clock itself, the referee and the controller are tested in
tests/mp/test_gameclock.py (also under MicroPython); the browser in
tests/test_websim_clock_browser.py.
"""

import io
import json
import os
import random
import re

import pytest
from gnubg_replay import commands_for, expected_from_record, gnubg_available, gnubg_read, gnubg_view
from pipboard.matfile import MatImportError, _cube_warnings, export_mat, import_mat
from pipboard.simboard import SimBoard
from pipcore.cube import BEAVER, DROP, RACCOON, TAKE
from pipcore.match import ANSWER, CUBE_OR_ROLL, MATCH_ENDED, OPENING, PLAY, TIME, Referee
from pipcore.options import make_options
from pipcore.record import RecordWriter, read_record

MIN = 60000
CLOCKED = {"matchLength": 3, "clock": "simple", "clockMinutes": 1, "clockDelay": 12}


def rolled_board(options, seed=3):
    """A simulated board set up, the opening rolled (the first mover's clock runs)."""
    board = SimBoard(seed=seed, options=options)
    board.follow_guidance()
    while board.ctl.phase_name() == "opening":
        board.press("ROLL")
    assert board.ctl.phase_name() == "moving"
    return board


# -- the board's own loop -------------------------------------------------------------
def test_the_app_steps_a_running_clock_until_its_flag_falls():
    board = rolled_board(CLOCKED)
    mover = board.ctl.mover
    reserve = 3 * MIN
    board.advance(12000 + reserve - 2000)  # nobody touches anything
    ctl = board.ctl
    assert ctl.phase_name() == "moving" and 1500 <= ctl.clock.left[mover] <= 2100
    board.advance(2100)  # the app's ticks alone find the flag
    ctl = board.ctl
    assert ctl.phase_name() == "match-over" and ctl.result == (1 - mover, 3, "time")
    assert ctl.clock.left[mover] == 0 and ctl.clock.wake == -1
    saved = json.loads(board.storage_text)
    assert saved["ref"]["phase"] == MATCH_ENDED and saved["clock"][9] == mover  # the save has the flag


def test_a_power_cut_does_not_charge_the_time_the_board_was_off():
    board = rolled_board(CLOCKED)
    mover = board.ctl.mover
    board.advance(30000)  # 18 s past the delay; the last state save is the roll's
    assert board.ctl.clock.left[mover] == 3 * MIN - 18000
    board.power_cut()
    board.now += 3 * 3600 * 1000  # three hours without power
    board.power_on()
    ctl = board.ctl
    assert board.app.resumed and ctl.phase_name() == "moving" and ctl.clock.running == mover
    # resumed from the clock's last reading (written every 5 s while it runs), never from the wall time:
    # the hours off are not charged, and at most 5 s of the turn come back (the turn of the clock goes on)
    left = ctl.clock.left[mover]
    assert 3 * MIN - 18100 <= left <= 3 * MIN - 13000, left  # (the cut itself takes a few ms)
    assert ctl.clock.left[1 - mover] == 3 * MIN
    before = left
    board.advance(20000)
    assert board.ctl.clock.left[mover] == before - 20000  # the delay was used up before the cut


def test_a_power_cut_refunds_at_most_a_few_seconds_of_a_long_turn():
    """A player in time trouble gains nothing by pulling the plug: over a long turn and many cuts the
    reserve comes back by at most READING_MS a cut."""
    from pipcore.gameclock import READING_MS

    board = rolled_board(CLOCKED)
    mover = board.ctl.mover
    board.advance(12000)  # the delay
    refunds = []
    for step in (7300, 900, 11100, 4999, 5001, 26000):
        board.advance(step)
        before = board.ctl.clock.left[mover]
        board.power_cut()
        board.now += 600000
        board.power_on()
        after = board.ctl.clock.left[mover]
        assert before - 200 <= after <= before + READING_MS, (step, before, after)  # (power-up takes a few ms)
        refunds.append(after - before)
    assert max(refunds) > 0  # some cuts did fall between readings


def test_a_damaged_or_stale_clock_reading_is_ignored():
    from pipcore.gameclock import GameClock

    clock = GameClock(1, 12000, 3 * MIN)
    clock.game = 2
    clock.left = [100000, 90000]
    clock.used = 4000
    good = clock.reading(7)
    for bad in (b"", b"junk", b"7 2 100000", b"6 2 99000 90000 5000", b"7 3 99000 90000 5000",
                b"7 2 120000 90000 5000", b"7 2 99000 90000 3000", b"7 2 -1 90000 5000", b"\xff\xfe"):
        assert not clock.take_reading(bad, 7), bad  # another save, another game, time given back, junk
        assert clock.left == [100000, 90000] and clock.used == 4000
    assert clock.take_reading(good, 7) and clock.left == [100000, 90000]
    assert clock.take_reading(b"7 2 95000 90000 9000", 7) and clock.left == [95000, 90000] and clock.used == 9000


@pytest.mark.parametrize("leave", ["double", "roll", "menu held"])
def test_the_menu_charges_its_time_to_the_running_clock_on_every_exit(leave):
    """Opening the menu does not stop the mover's clock; on leaving it runs on at once (before any other
    press or checker move), and the time the menu was open was the mover's."""
    from pipcore import geometry as g

    board = rolled_board(CLOCKED)
    mover = board.ctl.mover
    board.advance(12000)  # the delay is used up
    left = board.ctl.clock.left[mover]
    t0 = board.now
    board.key(g.BTN_MENU, long=True)
    assert board.app.overlay is not None
    board.advance(20000)  # 20 s in the menu
    exits = {"double": (g.BTN_WHITE_DOUBLE, False), "roll": (g.BTN_WHITE_ROLL, False),
             "menu held": (g.BTN_MENU, True)}
    button, long = exits[leave]
    board.key(button, long=long)
    assert board.app.overlay is None
    assert board.ctl.clock.running == mover
    board.advance(5000)  # nothing pressed or moved: the clock keeps running
    clock = board.ctl.clock
    assert clock.running == mover and clock.left[1 - mover] == 3 * MIN
    # every ms since was the mover's, as of the clock's last tick (at most a second ago)
    assert 0 <= clock.left[mover] - (left - (board.now - t0)) <= 1000


def test_a_flag_that_falls_in_the_menu_is_applied_when_the_menu_closes():
    from pipcore import geometry as g

    board = rolled_board(CLOCKED)
    mover = board.ctl.mover
    board.key(g.BTN_MENU, long=True)
    board.advance(12000 + 3 * MIN + 1000)  # the reserve runs out behind the menu
    assert board.app.overlay is not None and board.ctl.phase_name() == "moving"  # not behind its back
    board.key(g.BTN_WHITE_DOUBLE)  # leave
    ctl = board.ctl
    assert ctl.phase_name() == "match-over" and ctl.result == (1 - mover, 3, "time")


def test_the_panel_shows_the_running_clock_in_teal():
    from pipcore import geometry as g
    from pipcore.gameclock import CLOCK_COLOUR

    teal = ((CLOCK_COLOUR >> 16) & 255, (CLOCK_COLOUR >> 8) & 255, CLOCK_COLOUR & 255)
    board = SimBoard(seed=5, options={"matchLength": 5, "clock": "bronstein", "clockMinutes": 2,
                                      "clockDelay": 0})
    board.follow_guidance()
    assert [board.pixels[g.LED_MOVES + k] for k in range(4)] == [(0, 0, 0)] * 4  # nothing runs yet
    while board.ctl.phase_name() == "opening":
        board.press("ROLL")
    ctl = board.ctl
    if ctl.dice[0] != ctl.dice[1]:
        assert [board.pixels[g.LED_MOVES + k] for k in range(4)] == [teal] * 4
    board.advance(7 * MIN + 30000)  # 2:30 of 10:00 left: 3 minutes rounded up, a bar of 1 quarter
    ctl = board.ctl
    assert (ctl.clock.face_a, ctl.clock.face_b, ctl.clock.bar) == (3, 0, 1)
    assert [board.pixels[g.LED_MOVES + k] for k in range(4)] == [teal, (0, 0, 0), (0, 0, 0), (0, 0, 0)]


# -- records with losses on time, and gnubg -------------------------------------------------
def end_state(match_id):
    """What a final Match ID says of the match: score, length, how the game ended, the cube. (gnubg also
    keeps the dice of a roll made before the flag fell, and a double left unanswered.)"""
    from pipcore.matchid import MatchState

    s = MatchState.decode(match_id, validate=False)
    return (s.score, s.length, s.game_state, s.resigned, s.cube_value, s.cube_owner, s.crawford)


def final_score(dump):
    """gnubg's score after the last game it read: that game's start score and its result."""
    info = dump["match"]["games"][-1]["info"]
    score = [info["score-X"], info["score-O"]]
    score["XO".index(info["winner"])] += info["points-won"]
    return score


def running_side(ref):
    if ref.phase == ANSWER:
        return ref.cube.responder()
    return ref.turn


def timed_match(seed):
    """``(record_bytes, referee)``: a random match (or money session) in which clocks run out.

    Clocks run out at random moments (before a roll, after it, while a double, beaver or raccoon waits),
    where gnubg can score the loss (as a resignation: 1..3 times the cube) and not right after a roll whose
    play was forced (gnubg would play it before the resignation).
    """
    rng = random.Random(seed)
    length = rng.choice((0, 1, 3, 5, 7))
    opts = {"matchLength": length, "clock": rng.choice(("simple", "bronstein"))}
    if not length:
        opts["jacoby"] = rng.random() < 0.5
    opts = make_options(opts)
    out = io.BytesIO()
    ref = Referee(opts, ("Ann", "Bob"), RecordWriter(out))
    games = 0
    timeouts = 0
    while ref.phase != MATCH_ENDED and games < (6 if length else 4):
        ref.new_game()
        games += 1
        while not ref.game_over():
            phase = ref.phase
            if phase == PLAY:
                turn = ref.legal_turn()
                forced = len(turn.plays) == 1  # gnubg would play a forced play (or none) before the "Wins"
            if phase in (CUBE_OR_ROLL, PLAY, ANSWER) and not (phase == PLAY and forced) and rng.random() < 0.03:
                side = running_side(ref)
                need = ref.match.away(1 - side)
                value = ref.cube.value
                if not need or need <= 3 * value:
                    ref.lose_on_time(side)
                    timeouts += 1
                    continue
            if phase == OPENING:
                ref.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
            elif phase == CUBE_OR_ROLL:
                if ref.cube.may_offer(ref.turn) and rng.random() < 0.1:
                    ref.double()
                else:
                    ref.roll((rng.randint(1, 6), rng.randint(1, 6)))
            elif phase == ANSWER:
                answers = ref.cube.answers()
                r = rng.random()
                if BEAVER in answers and r < 0.2:
                    ref.cube_action(BEAVER)
                elif RACCOON in answers and r < 0.3:
                    ref.cube_action(RACCOON)
                else:
                    ref.cube_action(TAKE if r < 0.8 else DROP)
            else:
                ref.play_code(turn, rng.choice(turn.plays))
    return out.getvalue(), ref, timeouts


def beavered_timeout():
    """A money game where the doubler's clock runs out while he answers a beaver: the beaverer wins 6."""
    out = io.BytesIO()
    ref = Referee(make_options({"beavers": True, "clock": "simple"}), ("Ann", "Bob"), RecordWriter(out))
    ref.new_game()
    ref.opening_roll(3, 1)
    ref.play([(8, 5), (6, 5)])
    ref.double()
    ref.cube_action(BEAVER)
    assert ref.lose_on_time(ref.cube.responder()).points == 6 and ref.match.score == [6, 0]
    return out.getvalue(), ref, 1


def test_our_import_reads_our_export_of_losses_on_time_back_to_the_same_record():
    seen = 0
    for seed in range(40):
        data, ref, timeouts = timed_match(seed)
        seen += timeouts
        text = export_mat(read_record(data))
        assert len(re.findall(r'; \[Pipboard timeout \d+ "player ', text)) == timeouts
        again, back = import_mat(text, {"jacoby": ref.options["jacoby"]})
        assert again == data, seed
        assert back.match.score == ref.match.score
    assert seen >= 20


def test_a_tampered_timeout_tag_is_refused_with_its_line():
    data, ref, timeouts = next((d, r, t) for d, r, t in (timed_match(s) for s in range(40)) if t)
    text = export_mat(read_record(data)).replace("lost on time\"]", "ran late\"]", 1)
    with pytest.raises(MatImportError) as info:
        import_mat(text, {"jacoby": ref.options["jacoby"]})
    assert "line" in str(info.value) and "lost on time" in str(info.value)


@pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon (Debian gnubg) is not installed")
def test_gnubg_imports_losses_on_time_with_our_games_and_score(tmp_path):
    jobs = []
    cases = []
    for seed in range(-1, 40):
        data, ref, timeouts = timed_match(seed) if seed >= 0 else beavered_timeout()
        if not timeouts:
            continue
        record = read_record(data)
        for load, text in (("import mat", export_mat(record)), ("load match", None)):
            if text is None:
                from pipboard.sgffile import export_sgf
                text = export_sgf(record)
            path = os.path.join(str(tmp_path), "m%d.%s" % (seed, "mat" if load == "import mat" else "sgf"))
            with open(path, "w") as f:
                f.write(text)
            jobs.append({"path": path, "commands": commands_for(record.options), "load": load})
            cases.append((seed, load, record, ref))
    assert len(cases) >= 20
    matches = 0
    for (seed, load, record, ref), dump in zip(cases, gnubg_read(jobs)):
        assert "error" not in dump, (seed, load, dump)
        expected = expected_from_record(record)
        for game in expected:
            if load == "load match":  # gnubg's SGF has no place for a roll made before the flag fell
                game["actions"] = [a for a in game["actions"] if a["action"] != "set"]
            if not any(a["action"] == "move" for a in game["actions"]):
                game.pop("final")  # the flag fell before the first play: gnubg's dump has no board
        assert gnubg_view(dump) == expected, (seed, load)
        assert final_score(dump) == ref.match.score, (seed, load)  # gnubg's final score is ours
        if load == "import mat":
            assert end_state(dump["matchid"]) == end_state(ref.match_id()), seed
            assert dump["positionid"] == ref.position_id(), seed
            matches += bool(ref.match.length)
    assert matches >= 6


@pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon (Debian gnubg) is not installed")
def test_a_match_lost_on_time_on_the_simulated_board_exports_with_the_right_score(tmp_path):
    """The board's own record (a match to 3 lost on time at 0-0, the cube at 1: black is given 3) through
    ``pipboard export`` to gnubg."""
    from pipboard import cli
    from pipcore.matchdecode import decode_match_id

    board = rolled_board(CLOCKED, seed=11)
    loser = board.ctl.mover
    board.advance(12000 + 3 * MIN + 100)
    ctl = board.ctl
    assert ctl.phase_name() == "match-over" and ctl.scores[1 - loser] == 3
    record_path = tmp_path / "clock.pbr"
    record_path.write_bytes(ctl.record_bytes())
    out = tmp_path / "clock.mat"
    assert cli.main(["export", str(record_path), "-o", str(out)]) == 0
    text = out.read_text()
    assert "; [Pipboard timeout 1 \"player %d lost on time\"]" % (loser + 1) in text and "Wins 3 points" in text
    assert "clock=simple" in text  # the options line says which clock was used
    dump = gnubg_read([{"path": str(out)}])[0]
    assert "error" not in dump, dump
    state = decode_match_id(dump["matchid"])
    assert list(state.score) == list(ctl.scores) and state.length == 3
    info = dump["match"]["games"][-1]["info"]
    assert info["winner"] == "XO"[1 - loser] and info["points-won"] == 3 and info["resigned"]
    assert end_state(dump["matchid"]) == end_state(ctl.match_id())


def test_the_export_warns_where_gnubg_cannot_score_a_loss_on_time(capsys, tmp_path):
    from pipboard import cli

    out = io.BytesIO()
    ref = Referee(make_options({"matchLength": 11, "clock": "simple"}), ("Ann", "Bob"), RecordWriter(out))
    ref.new_game()
    ref.opening_roll(3, 1)
    assert ref.lose_on_time(0).points == 11  # more than a backgammon at cube 1: gnubg gives 3
    record = read_record(out.getvalue())
    assert any("lost on time for 11 points" in w for w in _cube_warnings(record))
    path = tmp_path / "short.pbr"
    path.write_bytes(out.getvalue())
    assert cli.main(["export", str(path), "-o", str(tmp_path / "short.mat")]) == 0
    assert "gnubg reads it as a resignation" in capsys.readouterr().err
    data, _, _ = timed_match(0)  # losses on time gnubg can score: no warning
    assert not [w for w in _cube_warnings(read_record(data)) if "on time" in w]


# -- the host tools ---------------------------------------------------------------------------
def test_the_monitor_shows_the_clock():
    from pipboard.monitor import clock_text, describe

    board = rolled_board(CLOCKED)
    from pipcore.bridge import AppBridge

    snap = AppBridge(board.app).snapshot()
    assert snap["clock"]["mode"] == "simple" and snap["clock"]["remaining"] == [3 * MIN, 3 * MIN]
    text = describe(snap)
    side = "white" if board.ctl.mover == 0 else "black"
    assert " clock: " in text and "%s 3:00*" % side in text and "simple delay 12 s" in text
    assert clock_text({"bad": 1}).startswith("unreadable")
    snap["clock"] = None
    assert "clock:" not in describe(snap)


def test_the_monitor_prints_a_line_as_the_running_clock_changes():
    import threading

    from pipboard.link import Link
    from pipboard.monitor import Monitor
    from pipboard.websim import server

    sim = server.start(seed=2, test_mode=True, http_port=0, protocol_port=0)
    link = Link.open("sim:" + sim.protocol_address)
    out = io.StringIO()
    monitor = Monitor("sim:" + sim.protocol_address, out, retry_s=0.1)
    monitor.clock_every = 0.05
    stop = threading.Event()
    thread = threading.Thread(target=monitor.run, kwargs={"stop": stop.is_set}, daemon=True)
    try:
        link.new_game("backgammon", {"matchLength": 1, "clock": "bronstein", "clockMinutes": 2})
        with sim.sim.lock:
            sim.sim.board.follow_guidance()
        link.set_dice([6, 5])
        link.inject("button", 0, 1)  # ROLL: white's clock runs
        thread.start()
        import time

        deadline = time.time() + 10
        while monitor.connects < 1 and time.time() < deadline:
            time.sleep(0.05)
        link.advance(70000)  # 2:00 -> 0:50 of white's reserve
        while " clock: white 0:5" not in out.getvalue() and time.time() < deadline:
            time.sleep(0.05)
        assert " clock: white 0:5" in out.getvalue(), out.getvalue()[-2000:]
    finally:
        stop.set()
        thread.join(5)
        link.close()
        sim.close()


def test_the_text_simulator_has_the_clock():
    from pipboard.textgame import TextGame, make_clock

    now = [0]
    out = io.StringIO()
    game = TextGame(random.Random(4), out, make_clock("simple", minutes=1, delay=5), lambda: now[0])
    mover = "X" if game.x_on_roll else "O"
    assert "Clock: X 1:00" in out.getvalue()
    now[0] = 20000
    assert game.handle("clock")
    assert ("%s 0:45*" % mover) in out.getvalue()  # 20 s used, the first 5 free
    now[0] = 5000 + MIN
    assert game.handle("legal")  # the flag fell while he thought: the game is lost; money play goes on
    assert "%s loses the game on time" % mover in out.getvalue() and not game.over
    result = game.ref.results[0]
    assert result.kind == TIME and result.winner == "XO".index(mover) ^ 1 and result.points == 3
    after = out.getvalue().split("loses the game on time")[1]
    assert game.ref.game_number == 2 and "Clock: X 1:00" in after and " O 1:00" in after  # refilled for game 2
    assert "  13/" not in after  # the late command (legal) is not answered
    assert make_clock("off") is None
    with pytest.raises(ValueError):
        make_clock("simple", minutes=0)


def test_the_text_simulator_loses_a_match_on_time():
    from pipboard.textgame import TextGame, make_clock
    from pipcore.options import make_options

    now = [0]
    out = io.StringIO()
    options = make_options({"matchLength": 3, "clock": "bronstein", "clockMinutes": 1, "clockDelay": 5})
    game = TextGame(random.Random(4), out, make_clock("bronstein", 1, 5, 3), lambda: now[0], options)
    assert "Clock: X 3:00" in out.getvalue()  # a minute a point of the match
    mover = game.mover
    now[0] = 3 * MIN + 1
    game.handle("board")
    assert "%s loses the match on time" % mover in out.getvalue() and game.over
    assert not game.handle("roll")
    winner = "XO".index(mover) ^ 1
    assert game.ref.match.winner() == winner and game.ref.match.score[winner] == 3  # what the match needed


def test_pipboard_sim_options():
    from pipboard import cli

    args = cli.build_parser().parse_args(["sim", "--clock", "bronstein", "--clock-minutes", "3", "--match", "5"])
    assert cli._sim_options(args) == {"clock": "bronstein", "clockMinutes": 3, "clockDelay": 12, "matchLength": 5}
    assert cli._sim_options(cli.build_parser().parse_args(["sim"])) is None
    with pytest.raises(SystemExit) as info:
        cli._sim_options(cli.build_parser().parse_args(["sim", "--clock", "simple", "--clock-delay", "99"]))
    assert "clockDelay" in str(info.value)
    with pytest.raises(SystemExit) as info:
        cli.main(["sim", "--text", "--match", "3", "--clock", "simple", "--clock-minutes", "0"])
    assert "clockMinutes must be 1..60" in str(info.value)
