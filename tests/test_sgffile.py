"""SGF export: gnubg's ``load match`` reads our SGF to the same games as our record."""

import os

import pytest
from gnubg_replay import commands_for, expected_from_record, gnubg_available, gnubg_read, gnubg_view
from pipboard import cli
from pipboard.sgffile import SgfExportError, export_record_sgf, export_sgf
from pipcore.record import read_record
from random_match import random_match


def test_sgf_layout():
    data, ref = random_match(3)
    text = export_record_sgf(data)
    trees = text.count("(;FF[4]GM[6]")
    assert trees == ref.game_number
    assert "MI[length:%d][game:0][ws:0][bs:0]" % ref.match.length in text
    assert ";W[" in text and ";B[" in text
    with pytest.raises(SgfExportError):
        export_record_sgf(b"junk")


@pytest.mark.skipif(not gnubg_available(), reason="GNU Backgammon (Debian gnubg) is not installed")
def test_gnubg_loads_our_sgf(tmp_path):
    jobs = []
    cases = []
    for seed in range(100, 110):
        data, ref = random_match(seed)
        record = read_record(data)
        path = os.path.join(str(tmp_path), "m%d.sgf" % seed)
        with open(path, "w") as f:
            f.write(export_sgf(record))
        jobs.append({"path": path, "commands": commands_for(record.options), "load": "load match"})
        cases.append((seed, record, ref))
    for (seed, record, ref), dump in zip(cases, gnubg_read(jobs)):
        assert "error" not in dump, dump
        assert gnubg_view(dump) == expected_from_record(record), seed
        assert dump["matchid"] == ref.match_id() and dump["positionid"] == ref.position_id(), seed


def test_cli_export_sgf_by_extension(tmp_path):
    data, _ = random_match(9)
    record_path = tmp_path / "game.pbr"
    record_path.write_bytes(data)
    out = tmp_path / "game.sgf"
    assert cli.main(["export", str(record_path), "-o", str(out)]) == 0
    assert out.read_text() == export_record_sgf(data)
