"""``pipboard verify RECORD``: a provably fair match played on the simulated board, checked roll by roll.

The match is played by virtual players with power cuts (the dice used so far
must survive them), exported as the board's record file and as ``.mat``;
both verify. A record with one die changed, a ``.mat`` with a seed that is
not the committed one, a match with ordinary dice and a match still being
played are refused with the reason.
"""

import random

import pytest

from gnubg_replay import commands_for, expected_from_record, gnubg_available, gnubg_read, gnubg_view
from pipboard.cli import main
from pipboard.matfile import export_mat, import_mat
from pipboard.simboard import SimBoard, VirtualPlayer
from pipboard.verify import VerifyError, rolled_dice, verify_record
from pipcore.record import frame, read_record


def play_fair_match(seed, length=3, cut_rate=0.01):
    """A whole fair match on the simulated board; returns (the closed match's record bytes, the board)."""
    board = SimBoard(seed=seed, options={"matchLength": length, "dice": "fair"})
    player = VirtualPlayer(board, random.Random(seed), cut_rate=cut_rate)
    commitment = board.ctl.fair.commitment
    shown = board.ctl.fair.public()
    assert shown["seed"] is None and shown["commitment"] == commitment  # secret while the match is played
    while not player.match_over:
        player.play_game()  # (the last DONE starts the next match)
    store = board.app.store
    mid = store.ids()[-2]
    data = store.read(mid, 0, store.info(mid)["bytes"])
    assert read_record(data).fair["commitment"] == commitment
    return data, board


@pytest.fixture(scope="module")
def fair_match():
    return play_fair_match(21)


def test_a_fair_match_verifies_from_its_record_and_from_its_export(fair_match, tmp_path, capsys):
    data, board = fair_match
    record = read_record(data)
    assert record.version == 3 and record.options["dice"] == "fair" and record.fair["seed"]
    dice, rolls, games = verify_record(record)
    assert dice == len(rolled_dice(record)) == 2 * rolls and games >= 2
    assert board.power_cuts > 0  # the dice used so far came back after every cut
    path = tmp_path / "match.pbr"
    path.write_bytes(data)
    mat = tmp_path / "match.mat"
    mat.write_text(export_mat(record))
    assert '; [Pipboard dice "commitment=%s seed=%s"]' % (record.fair["commitment"], record.fair["seed"]) in \
        mat.read_text()
    assert import_mat(mat.read_text())[0] == bytes(data)  # the export keeps everything verify needs
    for target in (path, mat):
        assert main(["verify", str(target)]) == 0
        out = capsys.readouterr().out
        assert "every roll is the committed seed's: %d dice in %d rolls over %d games" % (dice, rolls, games) in out


def _tampered(data, index, value):
    """``data`` with die ``index`` of the roll entries changed to ``value`` (frames and CRCs rewritten)."""
    out = bytearray()
    pos = 0
    seen = 0
    while pos < len(data) and data[pos]:
        size = data[pos]
        body = bytearray(data[pos + 1:pos + 1 + size])
        if body[0] == ord("R"):
            for k in (2, 3):
                if seen == index:
                    body[k] = value
                seen += 1
        elif body[0] == ord("I"):
            seen += 2
        out += frame(bytes(body))
        pos += size + 3
    return bytes(out)


def test_one_die_changed_is_named(fair_match, tmp_path, capsys):
    data, _ = fair_match
    record = read_record(data)
    dice = rolled_dice(record)
    # the fifth die of the turn rolls (after the opening roll's two): change it
    k = next(i for i in range(len(dice)) if "roll" in dice[i][1] and "opening" not in dice[i][1]) + 4
    value, where = dice[k]
    changed = value % 6 + 1
    bad = _tampered(data, k, changed)
    assert rolled_dice(read_record(bad))[k][0] == changed
    with pytest.raises(VerifyError) as exc:
        verify_record(read_record(bad))
    assert "die %d was %d but the seed gives %d" % (k + 1, changed, value) in str(exc.value)
    path = tmp_path / "bad.pbr"
    path.write_bytes(bad)
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert "die %d was %d" % (k + 1, changed) in err and "game " in err and "roll" in err


def test_a_seed_that_is_not_the_committed_one_is_refused(fair_match, tmp_path, capsys):
    data, _ = fair_match
    record = read_record(data)
    seed = record.fair["seed"]
    text = export_mat(record).replace("seed=" + seed, "seed=" + ("0" if seed[0] != "0" else "1") + seed[1:])
    path = tmp_path / "forged.mat"
    path.write_text(text)
    assert main(["verify", str(path)]) == 1
    assert "does not match the commitment" in capsys.readouterr().err


def test_ordinary_dice_and_a_match_in_play_cannot_be_verified(tmp_path, capsys):
    board = SimBoard(seed=4)  # a money session: still going after a game
    VirtualPlayer(board, random.Random(4), cut_rate=0).play_game()
    path = tmp_path / "electronic.pbr"
    path.write_bytes(board.ctl.record_bytes())
    assert main(["verify", str(path)]) == 1
    assert "not played with provably fair dice" in capsys.readouterr().err
    board = SimBoard(seed=4, options={"matchLength": 5, "dice": "fair"})
    player = VirtualPlayer(board, random.Random(4), cut_rate=0)
    player.play_game()
    assert not player.match_over
    path.write_bytes(board.ctl.record_bytes())
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert "not revealed yet" in err and board.ctl.fair.commitment in err
    path.write_bytes(b"garbage")
    assert main(["verify", str(path)]) == 1
    assert "neither a Pipboard match record nor" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.mat")]) == 1
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon is not installed (make setup installs it)")
def test_gnubg_reads_the_fair_match_export(fair_match, tmp_path):
    data, _ = fair_match
    record = read_record(data)
    path = str(tmp_path / "fair.mat")
    with open(path, "w") as f:
        f.write(export_mat(record))
    dump = gnubg_read([{"path": path, "commands": commands_for(record.options)}], timeout=300)[0]
    assert "error" not in dump, dump
    got, want = gnubg_view(dump), expected_from_record(record)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g["score"] == w["score"] and g["actions"] == w["actions"]
        assert g["winner"] == w["winner"] and g["points"] == w["points"]


def test_the_panel_and_pipboard_monitor_show_the_same_commitment_before_the_first_roll():
    from pipboard.monitor import commitment_pattern, describe
    from pipcore import geometry as g
    from pipcore.bridge import AppBridge
    from pipdrivers.dice_display import PATTERN_COLOURS

    board = SimBoard(seed=6, options={"matchLength": 1, "dice": "fair"})
    board.follow_guidance()
    bridge = AppBridge(board.app)
    snap = bridge.snapshot()
    commitment = snap["fair"]["commitment"]
    assert snap["phase"] == "opening" and snap["fair"] == {"commitment": commitment, "rolls": 0, "seed": None}
    board.advance(50)

    def rgb(c):
        return ((c >> 16) & 255, (c >> 8) & 255, c & 255)

    letters = ""
    for k in range(14):
        pixel = board.pixels[(g.LED_DIE_A if k < 7 else g.LED_DIE_B - 7) + k]
        letters += "WBGA"[[rgb(c) for c in PATTERN_COLOURS].index(pixel)]  # the board's own panel
    text = describe(snap)
    assert commitment_pattern(commitment) == "die A %s  die B %s" % (letters[:7], letters[7:])
    assert commitment in text and commitment_pattern(commitment) in text
    board.press("ROLL")  # the first roll: the panel shows the dice now, the seed stays secret
    dark = [k for k in range(g.LED_DIE_A, g.LED_DIE_B + 7) if board.pixels[k] == (0, 0, 0)]
    assert dark  # a die face leaves pips dark: the pattern (every pip lit) is gone
    assert bridge.snapshot()["fair"]["seed"] is None and bridge.snapshot()["fair"]["rolls"] == 1
