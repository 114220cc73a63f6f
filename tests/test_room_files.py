"""A match the room records carries its event and round: ``; [Event]`` / ``; [Round]`` in the .mat, ``EV`` /
``RO`` in the SGF, and gnubg reads them from both.

One board of a room (a ``BoardBridge`` on a simulated table playing 1-point matches, no broker needed:
its publish goes to a list) records its finished match into a folder.
"""

import time

from gnubg_replay import gnubg_available, gnubg_read
from pipboard.matfile import import_mat
from pipboard.room import BoardBridge, Recorder
from pipboard.simtable import SimTable


def recorded(tmp_path, event, round_):
    table = SimTable(seed=21, match_length=1, pace_s=0)
    folder = tmp_path / "rec"
    bridge = BoardBridge("club", "top", table.target, lambda *a: None, {"white": "Ann Lee", "black": "Bo"},
                         event=event, round_=round_, recorder=Recorder(str(folder)), retry_s=0.2)
    try:
        bridge.start()
        table.start()
        deadline = time.monotonic() + 60
        while not bridge.matches and time.monotonic() < deadline:
            time.sleep(0.05)
        assert bridge.matches, "no match was recorded"
    finally:
        table.stop()
        bridge.stop()
    return folder


def test_recorded_room_files_carry_the_event_and_the_round(tmp_path):
    folder = recorded(tmp_path, "Club night\n; [Event \"fake\"]", 3)
    stem = "Club-night-Event-fake_r3_Ann-Lee-vs-Bo"
    mat = (folder / (stem + ".mat")).read_text()
    sgf = (folder / (stem + ".sgf")).read_text()
    head = mat[:mat.index(" 1 point match")].splitlines()
    assert head[:3] == ['; [Site "Pipboard"]', '; [Event "Club night ; [Event \'fake\']"]', '; [Round "3"]']
    assert head[3].startswith('; [EventDate "') and head[4].startswith('; [EventTime "') and head[5:] == [""]
    assert "EV[Club night ; [Event 'fake'\\]]RO[3]" in sgf and sgf.count("EV[") == 1
    _, ref = import_mat(mat)
    assert ref.players == ("Ann Lee", "Bo") and ref.match.is_over()
    if gnubg_available():
        mat_dump, sgf_dump = gnubg_read([{"path": str(folder / (stem + ".mat"))},
                                         {"path": str(folder / (stem + ".sgf")), "load": "load match"}])
        for dump in (mat_dump, sgf_dump):
            info = dump["match"]["match-info"]
            assert info.get("event") == "Club night ; [Event 'fake']" and str(info.get("round")) == "3", info


def test_a_room_without_an_event_writes_no_event_line(tmp_path):
    folder = recorded(tmp_path, None, None)
    (mat,) = [p for p in folder.iterdir() if p.suffix == ".mat"]
    text = mat.read_text()
    assert "; [Event" not in text.replace("; [EventDate", "").replace("; [EventTime", "")
    assert "; [Round" not in text and "EV[" not in mat.with_suffix(".sgf").read_text()
