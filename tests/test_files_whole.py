"""Files the host writes are whole or not written (``pipboard.files.write_file``), and a failure names the file.

On a full disk (a 64 KB tmpfs when the tests run as root, else ``os.write`` failing with ENOSPC) every
writer leaves the previous file byte for byte and no temporary file behind: ``pipboard export RECORD -o``,
``import -o``, ``export --match`` (.mat and .sgf), ``export --all``, the room's recordings, the Back Alley
scorekeeper's save. An error while the record is pulled from the board names the file it was for.
"""

import contextlib
import errno
import io
import os
import random
import subprocess

import pytest

from pipboard import cli, export, files
from pipboard.files import FileWriteError, write_file
from pipboard.link import Link, LinkError
from pipboard.simboard import VirtualPlayer
from pipboard.websim import server
from random_match import random_match

OLD = "the previous good file\n" * 20


def fill(folder):
    """Fill the disk of ``folder`` to the last byte."""
    fd = os.open(os.path.join(folder, "filler"), os.O_WRONLY | os.O_CREAT)
    try:
        for size in (4096, 1):
            while True:
                try:
                    os.write(fd, b"x" * size)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC
                    break
    finally:
        os.close(fd)


@contextlib.contextmanager
def real_small_disk(tmp_path):
    """A 64 KB tmpfs (root only), or None."""
    folder = tmp_path / "small"
    folder.mkdir()
    if os.geteuid() != 0:
        yield None
        return
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True)
    if done.returncode:
        yield None
        return
    try:
        yield str(folder)
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


@pytest.fixture(params=["tmpfs", "enospc"])
def full_disk(request, tmp_path, monkeypatch):
    """A folder holding ``club.mat`` (OLD) and ``match-00001.mat`` (OLD) on a disk with no byte free."""
    if request.param == "tmpfs":
        with real_small_disk(tmp_path) as folder:
            if folder is None:
                pytest.skip("a tmpfs needs root (the ENOSPC variant runs anyway)")
            for name in ("club.mat", "match-00001.mat", "old.pbr", "keep.json"):
                with open(os.path.join(folder, name), "w") as f:
                    f.write(OLD)
            fill(folder)
            yield folder
        return
    folder = str(tmp_path / "small")
    os.makedirs(folder, exist_ok=True)
    for name in ("club.mat", "match-00001.mat", "old.pbr", "keep.json"):
        with open(os.path.join(folder, name), "w") as f:
            f.write(OLD)
    real_write = os.write

    def write(fd, data):  # the disk of ``folder`` takes 10 bytes of a file, then it is full
        if os.readlink("/proc/self/fd/%d" % fd).startswith(folder + os.sep):
            real_write(fd, bytes(data[:10]))
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(files.os, "write", write)
    yield folder


def untouched(folder):
    names = sorted(n for n in os.listdir(folder) if not n.startswith("filler"))
    assert names == ["club.mat", "keep.json", "match-00001.mat", "old.pbr"], names  # no temporary file left
    for name in names:
        with open(os.path.join(folder, name)) as f:
            assert f.read() == OLD, name


def test_write_file_replaces_the_file_whole_and_keeps_its_mode(tmp_path):
    path = tmp_path / "a.mat"
    write_file(str(path), "one\n")
    os.chmod(path, 0o640)
    write_file(str(path), b"two\n")
    assert path.read_text() == "two\n" and (os.stat(path).st_mode & 0o777) == 0o640
    assert os.listdir(tmp_path) == ["a.mat"]
    with pytest.raises(FileWriteError) as info:
        write_file(str(tmp_path / "no-such-folder" / "x.mat"), "x")
    assert str(info.value).startswith("cannot write %s: " % (tmp_path / "no-such-folder" / "x.mat"))
    with pytest.raises(FileWriteError) as info:
        write_file(str(tmp_path), "x")  # a folder
    assert str(tmp_path) in str(info.value)


def test_cli_export_and_import_on_a_full_disk_keep_the_previous_files(full_disk, tmp_path, capsys):
    data, _ = random_match(11)
    record = tmp_path / "m.pbr"
    record.write_bytes(data)
    for out in ("club.mat", "club.sgf"):
        target = os.path.join(full_disk, out)
        assert cli.main(["export", str(record), "-o", target]) == 1
        err = capsys.readouterr().err
        assert "cannot write %s: No space left on device" % target in err and "Traceback" not in err
    mat = tmp_path / "m.mat"
    assert cli.main(["export", str(record), "-o", str(mat)]) == 0
    target = os.path.join(full_disk, "old.pbr")
    assert cli.main(["import", str(mat), "-o", target]) == 1
    assert "cannot write %s: No space left on device" % target in capsys.readouterr().err
    untouched(full_disk)


def test_export_from_the_board_on_a_full_disk_keeps_the_previous_files(full_disk, tmp_path, capsys):
    sim = server.start(seed=3, http_port=0, protocol_port=0)
    target = "sim:" + sim.protocol_address
    try:
        with sim.sim.lock:
            VirtualPlayer(sim.sim.board, random.Random(3), cut_rate=0.0, double_rate=0.0).play_game()
        for name, sgf in (("club.mat", False), ("match-00001.mat", False), ("club.sgf", True)):
            path = os.path.join(full_disk, name)
            assert export.run(target, path, out=io.StringIO(), match=1, sgf=sgf) == 1
            assert "cannot write %s: No space left on device" % path in capsys.readouterr().err
            assert export.run(target, path, out=io.StringIO()) == 1  # the match being played
            assert "cannot write %s" % path in capsys.readouterr().err
        assert export.run(target, full_disk, out=io.StringIO(), every=True) == 1
        assert "cannot write %s" % os.path.join(full_disk, "match-00001.mat") in capsys.readouterr().err
        with Link.open(target) as link:  # nothing was written: nothing is marked exported
            assert link.matches()[0][0]["exported"] == 0
    finally:
        sim.close()
    untouched(full_disk)


def test_the_room_recorder_and_a_game_save_on_a_full_disk(full_disk):
    from pipboard.bakeep import KeeperText
    from pipboard.room import Recorder
    from pipcore.bascore import ScoreKeeper

    with pytest.raises(FileWriteError) as info:
        Recorder(full_disk).write("round1", "mat text " * 100, "sgf text " * 100)
    assert str(info.value).startswith("cannot write %s: " % os.path.join(full_disk, "round1.mat"))
    out = io.StringIO()
    keeper = KeeperText(ScoreKeeper(0), out, os.path.join(full_disk, "keep.json"))
    keeper.keep()
    assert "Not saved: cannot write %s" % os.path.join(full_disk, "keep.json") in out.getvalue()


def test_an_error_while_pulling_the_record_names_the_file(tmp_path):
    class DeadLink:
        def record(self, match=None):
            raise LinkError("the board stopped answering")

        def mark_exported(self, match, length):
            raise AssertionError("nothing was written")

    path = str(tmp_path / "club.mat")
    with pytest.raises(export.ExportError) as info:
        export.export_match(DeadLink(), {"id": 4}, path, io.StringIO())
    assert "match 4's record" in str(info.value) and path in str(info.value)
    assert "the board stopped answering" in str(info.value) and not os.path.exists(path)


def test_export_all_into_an_existing_file_says_so(tmp_path, capsys):
    sim = server.start(seed=4, http_port=0, protocol_port=0)
    try:
        existing = tmp_path / "club.mat"
        existing.write_text(OLD)
        assert export.run("sim:" + sim.protocol_address, str(existing), out=io.StringIO(), every=True) == 1
        err = capsys.readouterr().err
        assert "is a file: --all writes one file per match into a folder" in err and "Errno" not in err
        assert existing.read_text() == OLD
    finally:
        sim.close()
