"""pipboard deploy --circuitpython without a board: the CIRCUITPY drive is a folder, circup a stand-in runner."""

import json
import os
import stat
import types

import pytest
from pipboard import cpdeploy, hostcli, link
from pipboard.deploy import DeployError

BOOT_OUT = ("Adafruit CircuitPython %s on 2024-11-20; Raspberry Pi Pico with rp2040\n"
            "Board ID:raspberry_pi_pico\nUID:E6614C775B\n")


def _drive(tmp_path, version="9.2.1"):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text(BOOT_OUT % version)
    return str(drive)


def _quiet():
    return types.SimpleNamespace(write=lambda s: None, flush=lambda: None)


def test_boot_out_names_the_version_and_the_board():
    info = cpdeploy.parse_boot_out(BOOT_OUT % "10.0.0-beta.2")
    assert info["version"][:3] == (10, 0, 0) and info["board_id"] == "raspberry_pi_pico"
    assert cpdeploy.parse_boot_out(BOOT_OUT % "9.2.1")["version"] == (9, 2, 1)
    with pytest.raises(DeployError, match="CircuitPython"):
        cpdeploy.parse_boot_out("MicroPython v1.22 on 2024-01-01\n")


def test_old_circuitpython_is_refused(tmp_path):
    drive = _drive(tmp_path, "8.2.10")
    with pytest.raises(DeployError, match="needs CircuitPython 9 or 10"):
        cpdeploy.deploy(drive, libraries=False, out=_quiet())


def test_deploy_copies_the_circuitpython_build_and_then_only_changes(tmp_path):
    drive = _drive(tmp_path)
    (tmp_path / "CIRCUITPY" / "lib").mkdir()
    (tmp_path / "CIRCUITPY" / "lib" / "mine.py").write_text("x = 1\n")  # the maker's own file
    copied, deleted = cpdeploy.deploy(drive, libraries=False, out=_quiet())
    assert copied[-1] == "/code.py"  # last: CircuitPython reloads when it changes
    assert "/boot.py" in copied and "/pipdrivers/cp_board_pins.py" in copied and "/pipcore/app.py" in copied
    assert not [p for p in copied if p in ("/main.py", "/pipbench.py", "/pipdrivers/board_pins.py")]
    with open(os.path.join(drive, "pipcore", "app.py"), "rb") as f, \
            open(os.path.join(cpdeploy.mp_deploy.FIRMWARE_DIR, "pipcore", "app.py"), "rb") as g:
        assert f.read() == g.read()
    assert cpdeploy.deploy(drive, libraries=False, out=_quiet()) == ([], [])
    with open(os.path.join(drive, "pipcore", "rules.py"), "a") as f:
        f.write("# changed on the drive\n")
    stale = os.path.join(drive, "pipcore", "gone.py")
    with open(stale, "w") as f:
        f.write("")
    manifest = os.path.join(drive, ".pipboard_manifest.json")
    with open(manifest) as f:
        listed = json.load(f)
    with open(manifest, "w") as f:
        json.dump(listed + ["/pipcore/gone.py"], f)  # left by an earlier deploy
    with open(os.path.join(drive, "pipcore", "app.mpy"), "wb") as f:
        f.write(b"C\x06")  # a compiled twin from an earlier --mpy-cross deploy: it would shadow app.py
    copied, deleted = cpdeploy.deploy(drive, libraries=False, test_mode=True, out=_quiet())
    assert copied == ["/pipcore/rules.py"]
    assert deleted == ["/pipcore/app.mpy", "/pipcore/gone.py"]
    assert not os.path.exists(stale) and os.path.exists(os.path.join(drive, "lib", "mine.py"))
    assert os.path.exists(os.path.join(drive, "pipboard_test_mode"))
    cpdeploy.deploy(drive, libraries=False, out=_quiet())
    assert not os.path.exists(os.path.join(drive, "pipboard_test_mode"))


def test_a_drive_the_board_owns_is_explained(tmp_path, monkeypatch):
    drive = _drive(tmp_path)
    real_open = open

    def read_only(path, mode="r", *a, **k):
        if "w" in mode and str(path).startswith(drive):
            raise OSError(30, "Read-only file system")
        return real_open(path, mode, *a, **k)

    monkeypatch.setattr("builtins.open", read_only)
    with pytest.raises(DeployError, match="hold the menu button"):
        cpdeploy.deploy(drive, libraries=False, out=_quiet())


def test_no_drive_found_explains_what_to_do(tmp_path):
    with pytest.raises(DeployError, match="no drive named CIRCUITPY"):
        cpdeploy.deploy(None, finder=lambda: None, out=_quiet())
    with pytest.raises(DeployError, match="not a CircuitPython drive"):
        cpdeploy.deploy(str(tmp_path), out=_quiet())


def test_circup_installs_the_missing_libraries(tmp_path):
    drive = _drive(tmp_path)
    calls = []

    def circup(cmd, **kw):
        calls.append(cmd)
        names = cmd[cmd.index("install") + 1:]
        os.makedirs(os.path.join(drive, "lib"), exist_ok=True)
        for name in names:
            open(os.path.join(drive, "lib", name + ".mpy"), "wb").close()
        return types.SimpleNamespace(returncode=0, stdout="", stderr="")

    cpdeploy.deploy(drive, runner=circup, out=_quiet())
    assert len(calls) == 1
    cmd = calls[0]
    assert cmd[cmd.index("--path") + 1] == drive and cmd[-3:] == ["install", "neopixel", "adafruit_hashlib"]
    cpdeploy.deploy(drive, runner=circup, out=_quiet())
    assert len(calls) == 1  # present: circup is not run again

    def offline(cmd, **kw):
        return types.SimpleNamespace(returncode=1, stdout="", stderr="ConnectionError: github.com")

    os.remove(os.path.join(drive, "lib", "neopixel.mpy"))
    with pytest.raises(DeployError, match="circup --path .* install neopixel"):
        cpdeploy.deploy(drive, runner=offline, out=_quiet())


def _fake_mpy_cross(tmp_path, says, header=b"C"):
    script = tmp_path / "mpy-cross"
    script.write_text("#!/bin/sh\nif [ \"$1\" = --version ]; then echo '%s'; exit 0; fi\n"
                      "while [ $# -gt 1 ]; do if [ \"$1\" = -o ]; then out=$2; fi; shift; done\n"
                      "printf '%s\\006' > \"$out\"\n" % (says, header.decode()))
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script)


def test_mpy_cross_for_the_boards_version_compiles_the_modules(tmp_path):
    drive = _drive(tmp_path)
    cpdeploy.deploy(drive, libraries=False, out=_quiet())
    good = _fake_mpy_cross(tmp_path, "CircuitPython 9.2.1 on 2024-11-20; mpy-cross emitting mpy v6.3")
    copied, deleted = cpdeploy.deploy(drive, libraries=False, mpy_cross=good, out=_quiet())
    assert "/pipcore/app.mpy" in copied and "/pipcore/app.py" in deleted
    assert "/code.py" not in copied and os.path.exists(os.path.join(drive, "code.py"))  # entries stay source
    other = tmp_path / "other"
    other.mkdir()
    wrong = _fake_mpy_cross(other, "CircuitPython 10.0.0 on 2025-08-01; mpy-cross emitting mpy v6.3")
    with pytest.raises(DeployError, match="compiles for CircuitPython 10 but the board runs 9"):
        cpdeploy.deploy(drive, libraries=False, mpy_cross=wrong, out=_quiet())
    mp = tmp_path / "mp"
    mp.mkdir()
    micropython = _fake_mpy_cross(mp, "MicroPython v1.29.0 on 2026-01-01; mpy-cross emitting mpy v6.3")
    with pytest.raises(DeployError, match="not CircuitPython's mpy-cross"):
        cpdeploy.deploy(drive, libraries=False, mpy_cross=micropython, out=_quiet())


def test_deploy_options_go_with_their_firmware(capsys):
    args = types.SimpleNamespace(circuitpython=False, drive="/x", mpy_cross=None, no_libs=False, port=None)
    assert hostcli._cmd_deploy(args) == 2
    args = types.SimpleNamespace(circuitpython=True, drive=None, mpy_cross=None, no_libs=False, port="/dev/ttyACM0")
    assert hostcli._cmd_deploy(args) == 2
    assert "--drive" in capsys.readouterr().err


# -- finding the data channel ---------------------------------------------------------------------
def _port(device, vid, location, interface=None, serial="E661"):
    return types.SimpleNamespace(device=device, vid=vid, pid=0x80F4, location=location, interface=interface,
                                 serial_number=serial)


def test_the_data_channel_is_the_second_port_of_a_circuitpython_board():
    ports = [
        _port("/dev/ttyACM3", 0x239A, "1-1.2:1.2", "CircuitPython CDC2 control"),
        _port("/dev/ttyACM2", 0x239A, "1-1.2:1.0", "CircuitPython CDC control"),
        _port("/dev/ttyACM0", 0x2E8A, "1-1.1:1.0"),  # a MicroPython Pico
    ]
    assert link.circuitpython_ports(ports) == [("/dev/ttyACM3", "/dev/ttyACM2")]
    unnamed = [_port("COM7", 0x239A, "1-1.2:1.2"), _port("COM6", 0x239A, "1-1.2:1.0")]
    assert link.circuitpython_ports(unnamed) == [("COM7", "COM6")]
    assert link.circuitpython_ports([_port("/dev/ttyACM2", 0x239A, "1-1.2:1.0")]) == [(None, "/dev/ttyACM2")]


def test_auto_finds_a_circuitpython_board_and_explains_a_missing_data_channel(monkeypatch):
    monkeypatch.setattr(link, "find_pico_ports", list)
    monkeypatch.setattr(link, "circuitpython_ports", lambda ports=None: [("/dev/ttyACM3", "/dev/ttyACM2")])
    assert link.parse_target("auto") == ("serial", "/dev/ttyACM3")
    monkeypatch.setattr(link, "circuitpython_ports", lambda ports=None: [(None, "/dev/ttyACM2")])
    with pytest.raises(link.LinkError, match="no data channel"):
        link.parse_target(None)
    monkeypatch.setattr(link, "circuitpython_ports", lambda ports=None: [])
    with pytest.raises(link.LinkError, match="239A"):
        link.parse_target(None)
