"""Smaller points of our .mat files: comments gnubg truly skips, and a file cut at a line boundary.

* Our per-game comments (``; [Pipboard opening N ...]``, ``; [Pipboard timeout N ...]``) stand in the block
  after the match line, where gnubg's importer reads nothing: importing our export, gnubg prints no
  ``Unrecognised move``. (The same comment between two games reaches gnubg's move parser, and it says so:
  the check below sees that too, so it can fail.)
* A ``.mat`` cut exactly at a line boundary imports (exit 0) and says that its last game has no result.
"""

import os
import subprocess

import pytest
from gnubg_replay import GNUBG, gnubg_available
from pipboard import cli
from pipboard.matfile import export_mat, import_mat
from pipcore.record import read_record
from random_match import random_match


def fair_match():
    """A money session of several games exported as a provably fair match: every game has an opening comment."""
    for seed in range(200):
        data, ref = random_match(seed)
        if ref.game_number >= 3:
            record = read_record(data)
            record.fair = {"commitment": "ab" * 16, "seed": None}
            return record, ref
    raise AssertionError("no random match of three games")


def gnubg_says(path):
    script = path + ".py"
    with open(script, "w") as f:
        f.write("import gnubg\ngnubg.command('set confirm new off')\ngnubg.command('import mat \"%s\"')\n" % path)
    done = subprocess.run([GNUBG, "-t", "-q", "-p", script], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    return done.stdout + done.stderr


@pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon (Debian gnubg) is not installed")
def test_gnubg_skips_our_per_game_comments(tmp_path):
    record, ref = fair_match()
    text = export_mat(record)
    tags = [x for x in text.splitlines() if x.startswith("; [Pipboard opening ")]
    assert len(tags) == ref.game_number and tags[-1].startswith("; [Pipboard opening %d " % ref.game_number)
    assert text.index(tags[-1]) < text.index(" Game 1\n")  # all of them before the first game
    ours = str(tmp_path / "ours.mat")
    with open(ours, "w") as f:
        f.write(text)
    # the old place of the comment: just before its game
    moved = text.replace(tags[1] + "\n", "").replace(" Game 2\n", tags[1].replace(" 2 \"", " \"") + "\n Game 2\n")
    old = str(tmp_path / "old.mat")
    with open(old, "w") as f:
        f.write(moved)
    assert "Unrecognised move" in gnubg_says(old)  # the check sees gnubg's complaint when there is one
    said = gnubg_says(ours)
    assert "Unrecognised" not in said and "WARNING" not in said, said[-500:]
    # our import reads both places to the same record
    assert import_mat(text)[0] == import_mat(moved)[0]


def test_a_mat_cut_at_a_line_boundary_says_its_last_game_has_no_result(tmp_path, capsys):
    data, ref = random_match(3)
    text = export_mat(read_record(data))
    lines = text.splitlines(True)
    last = max(i for i, x in enumerate(lines) if x.startswith(" Game "))
    cut = "".join(lines[:last + 5])  # the header and three move lines of the last game
    path = tmp_path / "cut.mat"
    path.write_text(cut)
    assert cli.main(["import", str(path), "-o", str(tmp_path / "cut.pbr")]) == 0
    err = capsys.readouterr().err
    assert "game %d has no result: the file ends in the middle of it" % ref.game_number in err
    path.write_text(text)
    assert cli.main(["import", str(path), "-o", str(tmp_path / "whole.pbr")]) == 0
    assert "no result" not in capsys.readouterr().err
    assert os.path.exists(tmp_path / "whole.pbr")
