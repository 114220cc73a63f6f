"""Back Alley for people: ``pipboard backalley`` in the terminal, score sheets, ``pipboard export``, the page's table.

The person's answers are typed lines (``TextTable.handle``, or stdin through
``pipboard.cli.main``); bad ones must be refused with a reason and change
nothing; the score sheets must agree with the engine's game.
"""

import io
import json
import random

import pytest

from pipboard import cli
from pipboard.basheet import SheetError, keeper_from_game, load, sheet_json, sheet_text
from pipboard.batable import Table
from pipboard.batext import TextTable
from pipboard.websim.backalley import BackAlleyActionError, BackAlleyRoom
from pipcore.backalley import BIDDING, DEALS, Game, call_text, card_text
from pipcore.bascore import ScoreKeeper


def text_table(seed, seat=2):
    out = io.StringIO()
    table = Table(people=[seat], seed=seed)
    return TextTable(table, out), table, out


def state(table):
    game = table.game
    deal = game.current
    return (game.record(), None if deal is None else [list(h) for h in deal.hands], game.scores[:])


def test_a_person_plays_a_whole_game_by_typing_and_bad_lines_are_refused():
    tt, table, out = text_table(5)
    rng = random.Random(5)
    refused = 0
    while True:
        table.run_bots()
        tt.show_news()
        if table.over():
            break
        deal = table.game.current
        situation = tt.situation()
        before = state(table)
        if table.game.phase == BIDDING:
            assert "Your call (" in situation
            if rng.random() < 0.3:  # a number too big, and garbage: refused, nothing changes
                for bad in (str(deal.hand_size), "twelve", ""):
                    tt.handle(bad)
                refused += 1
                assert state(table) == before
            call = rng.choice(deal.legal_calls())
            assert tt.handle(call_text(call))
        else:
            assert "You may play: 1:" in situation
            legal = tt.legal()
            illegal = [c for c in table.hand(table.to_act) if c not in legal]
            if illegal and rng.random() < 0.5:
                tt.handle(card_text(illegal[0]))
                tt.handle("99")
                tt.handle("ZZ")
                refused += 1
                assert state(table) == before
            if rng.random() < 0.5:
                assert tt.handle(str(rng.randrange(len(legal)) + 1))  # by its number in the list
            else:
                assert tt.handle(card_text(rng.choice(legal)).lower())
            assert state(table) != before
    text = out.getvalue()
    assert refused > 10 and text.count("Not accepted:") >= 2 * refused
    assert "Traceback" not in text
    assert "Game over after 25 deals" in text and len(table.game.results) == DEALS


def test_commands_and_the_end_of_input(monkeypatch, capsys, tmp_path):
    sheet = tmp_path / "sheet.json"
    lines = "help\nhand\nscore\nsheet\nlog\npass\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert cli.main(["backalley", "--seed", "3", "--seat", "north", "--sheet", str(sheet), "--ascii"]) == 0
    text = capsys.readouterr().out
    assert "you are North" in text and "While you call:" in text and "Score after 0 of 25 deals" in text
    assert "(end of input: the game stops at deal 1 of 25)" in text
    hand = [line for line in text.splitlines() if line.startswith("Your hand")]
    assert hand and not [line for line in hand if set(line) & set("♣♦♥♠")] and "Back Alley score sheet" in text
    data = json.loads(sheet.read_text())
    assert data["format"] == "pipboard backalley score sheet" and data["finished"] is False
    assert data["state"]["keys"]  # the trump and the calls so far


def test_four_bots_play_a_whole_game_and_write_the_text_sheet(monkeypatch, capsys, tmp_path):
    sheet = tmp_path / "sheet.txt"
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["backalley", "--bots", "4", "--seed", "8", "--sheet", str(sheet)]) == 0
    text = capsys.readouterr().out
    assert "Game over after 25 deals" in text and text.count("Trick 1:") >= 25
    written = sheet.read_text()
    assert "Final: NS" in written and written in text


def test_bad_arguments_are_refused_by_argparse(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["backalley", "--seat", "X"])
    assert exc.value.code == 2 and "a seat is N, E, S or W" in capsys.readouterr().err


def test_the_sheet_agrees_with_the_game_and_reads_back():
    table = Table(people=[], seed=21)
    table.run_bots()
    game = table.game
    keeper = keeper_from_game(game)
    assert keeper.scores == game.scores and keeper.redeals == game.redeals and keeper.is_over()
    counted = [r for r in keeper.rows if not r.redeal]
    assert [r.points for r in counted] == [r.scores for r in game.results]
    text = sheet_text(keeper)
    lines = text.splitlines()
    assert sum(1 for line in lines if line[:4].strip().isdigit()) == DEALS
    assert sum(1 for line in lines if "all four passed" in line) == game.redeals
    assert lines[-1].startswith("Final: NS %d, EW %d" % tuple(game.scores))
    data = sheet_json(keeper)
    assert data["totals"] == {"NS": game.scores[0], "EW": game.scores[1]} and data["finished"]
    assert sum(d["NS"]["points"] for d in data["deals"] if d["counted"]) == game.scores[0]
    assert [d["cards"] for d in data["deals"] if d["counted"]] == [r.hand_size for r in game.results]
    again = load(json.dumps(data))
    assert again.keys_text() == keeper.keys_text()
    assert load(game.record()).keys_text() == keeper.keys_text()
    assert load(json.dumps(keeper.snapshot())).scores == game.scores
    for bad, why in (("hello", "not a Back Alley game"), ("{", "not valid JSON"), ('{"a": 1}', "not a Back Alley"),
                     ("backalley 1\nfirst-dealer N\nbid N 3\n", "refused")):
        with pytest.raises(SheetError) as exc:
            load(bad)
        assert why in str(exc.value)


def test_pipboard_export_writes_the_sheet_of_a_record_or_a_scorekeeper_save(tmp_path, capsys):
    game = Game(first_dealer=0, rng=random.Random(2))
    table = Table(people=[], game=game, seed=2)
    table.run_bots()
    record = tmp_path / "game.txt"
    record.write_text(game.record())
    assert cli.main(["export", str(record)]) == 0
    assert "Final: NS %d, EW %d" % tuple(game.scores) in capsys.readouterr().out
    out = tmp_path / "sheet.json"
    assert cli.main(["export", str(record), "-o", str(out)]) == 0
    assert json.loads(out.read_text())["totals"]["NS"] == game.scores[0]
    keeper = ScoreKeeper(1, ["Ann", "Bob", "Cy", "Di"])
    keeper.key_trump("H")
    for call in ("3", "pass", "2", "board"):
        keeper.key_call(call)
    save = tmp_path / "save.json"
    save.write_text(json.dumps(keeper.snapshot()))
    assert cli.main(["export", str(save)]) == 0
    text = capsys.readouterr().out
    assert "NS: Ann and Cy" in text and "The game goes on: deal 1" in text
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"backalley": 1, "first": "N", "keys": "3d"}))
    assert cli.main(["export", str(broken)]) == 1
    assert "damaged at key 2" in capsys.readouterr().err


def test_the_page_table_refuses_bad_actions_and_keeps_the_game_in_the_flash_folder(tmp_path):
    room = BackAlleyRoom(flash_dir=str(tmp_path), seed=4)
    assert room.state() == {"active": False, "error": None}
    with pytest.raises(BackAlleyActionError):
        room.act({"do": "call", "seat": "S", "call": "3"})  # no game yet
    for bad in ({"do": "new", "people": ["S", "N"]}, {"do": "new", "people": ["Q"]}, {"do": "new", "seed": "x"},
                {"do": "dance"}):
        with pytest.raises(BackAlleyActionError):
            room.act(bad)
    s = room.act({"do": "new", "people": ["S"]})
    assert s["active"] and s["people"] == ["S"] and list(s["hands"]) == ["S"] and len(s["hands"]["S"]) == 13
    steps = 0
    while not s["person_to_act"]:
        s = room.act({"do": "bot", "version": s["version"]})
        steps += 1
    stale = room.act({"do": "bot", "version": s["version"] - 1})  # a late timer of another page: no action
    assert stale["version"] == s["version"]
    assert s["phase"] == "bidding" and s["legal_calls"][0] == "Pass" and s["legal_calls"][-1] == "Board"
    with pytest.raises(BackAlleyActionError) as exc:
        room.act({"do": "call", "seat": "S", "call": "13"})
    assert "not a legal call with 13 cards" in str(exc.value)
    with pytest.raises(BackAlleyActionError) as exc:
        room.act({"do": "call", "seat": "W", "call": "2"})
    assert "bot" in str(exc.value) or "turn" in str(exc.value)
    s = room.act({"do": "call", "seat": "S", "call": "2"})
    assert s["seats"][2]["call"] == "2"
    # a restart of the simulator with the same folder picks the game up where it was
    again = BackAlleyRoom(flash_dir=str(tmp_path))
    t = again.state()
    assert t["hands"] == s["hands"] and t["seats"] == s["seats"] and t["people"] == ["S"]
    (tmp_path / "backalley.json").write_text("{ not json")
    broken = BackAlleyRoom(flash_dir=str(tmp_path))
    assert not broken.state()["active"] and "could not be read" in broken.state()["error"]


def test_four_people_at_one_screen_see_only_their_own_hands_on_their_turn():
    room = BackAlleyRoom(seed=9)
    s = room.act({"do": "new", "people": ["N", "E", "S", "W"]})
    assert s["person_to_act"] and sorted(s["hands"]) == ["E", "N", "S", "W"]
    while not s["over"] and s["phase"] in ("bidding", "playing") and s["number"] == 1:
        seat = s["to_act"]
        if s["phase"] == "bidding":
            assert s["legal_calls"] and not s["legal"]
            s = room.act({"do": "call", "seat": seat, "call": "pass" if seat != "N" else "1"})
        else:
            assert s["legal"] and set(s["legal"]) <= set(s["hands"][seat])
            s = room.act({"do": "play", "seat": seat, "card": s["legal"][-1]})
    assert s["number"] == 2 and len(s["results"]) == 1 and s["last_trick"]["deal"] == 1
    assert s["scores"] == room.table.game.scores
    sheet = room.sheet("text")[1].decode()
    assert "   1    13" in sheet


def test_the_game_record_of_the_page_and_the_terminal_is_the_engines():
    room = BackAlleyRoom(seed=1)
    room.act({"do": "new", "people": []})
    while not room.state()["over"]:
        room.act({"do": "bot"})
    record = room.sheet("record")[1].decode()
    game = Game.from_record(record)
    assert game.is_over() and game.scores == room.table.game.scores
    assert room.state()["winner"] in ("NS", "EW", "tie")


def keyed_lines(seed):
    """Lines a scorekeeper types for a whole game (with mistakes and an undo), and the expected keeper."""
    rng = random.Random(seed)
    shadow = ScoreKeeper(3, ["Ann", "Bob", "Cy", "Di"])
    lines = []
    refused = 0
    while not shadow.is_over():
        h = shadow.hand_size
        if shadow.phase == 0:  # TRUMP
            line = rng.choice(["C", "d", "hearts", "♠", "joker"])
            shadow.key_trump(line)
        elif shadow.phase == 1:  # CALLING
            if rng.random() < 0.05:
                lines.append(str(h))  # refused: a number of h or more (5.6)
                refused += 1
            line = rng.choice(["pass", "p", "board"] if h == 1 else ["pass", "1", str(max(1, h // 3)), "b"])
            shadow.key_call(line)
        else:
            left = h - sum(shadow.keyed_tricks)
            if len(shadow.keyed_tricks) == 3:
                if left and rng.random() < 0.1:
                    lines.append(str(left - 1))  # refused: the tricks do not add up
                    refused += 1
                n = left
            else:
                n = rng.randrange(left + 1)
                if rng.random() < 0.05:
                    lines.append(str(n))
                    lines.append("undo")  # typed twice by mistake, taken back
            shadow.key_tricks(n)
            line = str(n)
        lines.append(line)
    return lines, shadow, refused


def test_the_terminal_scorekeeper_keeps_a_whole_game_across_a_restart(tmp_path, monkeypatch, capsys):
    lines, shadow, refused = keyed_lines(4)
    save = str(tmp_path / "game.json")
    half = len(lines) // 2
    args = ["backalley", "--keep", "--save", save, "--names", "Ann,Bob,Cy,Di", "--dealer", "W"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines[:half]) + "\n"))
    assert cli.main(args) == 0  # the input ends: the game stays in the save
    first = capsys.readouterr().out
    assert "The game is kept in" in first
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines[half:]) + "\n"))
    assert cli.main(args + ["--sheet", str(tmp_path / "sheet.json")]) == 0
    second = capsys.readouterr().out
    assert "Resumed from" in second and "Game over" in second and "Traceback" not in first + second
    assert (first + second).count("Not accepted:") == refused > 0
    data = json.loads((tmp_path / "sheet.json").read_text())
    assert data["totals"] == {"NS": shadow.scores[0], "EW": shadow.scores[1]} and data["finished"]
    assert data["state"]["keys"] == shadow.keys_text()
    assert data["teams"] == {"NS": ["Ann", "Cy"], "EW": ["Bob", "Di"]}
    (tmp_path / "bad.json").write_text("{}")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["backalley", "--keep", "--save", str(tmp_path / "bad.json")]) == 1
    assert "cannot be read" in capsys.readouterr().err
    assert cli.main(["backalley", "--save", save]) == 2  # --save without --keep


def test_the_last_entry_of_deal_25_can_be_taken_back_before_the_keeper_stops(tmp_path, monkeypatch, capsys):
    """As on the board: the game over, the last tricks keyed wrong are taken back and keyed again."""
    lines, shadow, _ = keyed_lines(4)
    n3, n4 = int(lines[-2]), int(lines[-1])  # the last deal's last two seats' tricks
    assert n3 > 0  # (seed 4: a trick can move from one seat to the other)
    wrong = [str(n3 - 1), str(n4 + 1)]  # keyed wrong: the game ends on them
    save = str(tmp_path / "game.json")
    typed = lines[:-2] + wrong + ["sheet", "undo", "undo"] + lines[-2:] + ["quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    assert cli.main(["backalley", "--keep", "--save", save, "--names", "Ann,Bob,Cy,Di", "--dealer", "W",
                     "--sheet", str(tmp_path / "sheet.json")]) == 0
    out = capsys.readouterr().out
    assert "'undo' takes back the last entry" in out and "Taken back." in out and "Traceback" not in out
    data = json.loads((tmp_path / "sheet.json").read_text())
    assert data["finished"] and data["totals"] == {"NS": shadow.scores[0], "EW": shadow.scores[1]}
    assert data["state"]["keys"] == shadow.keys_text()
