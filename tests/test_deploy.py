"""pipboard deploy without hardware: build, incremental compile, plan, and the no-board message."""

import os
import subprocess
import sys

from pipboard import deploy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _tree(tmp_path, files):
    fw = tmp_path / "fw"
    for rel, text in files.items():
        p = fw / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return str(fw), str(tmp_path / "build")


def test_build_compiles_modules_keeps_main_and_is_incremental(tmp_path):
    fw, out = _tree(tmp_path, {"main.py": "import pipcore.a\n", "pipcore/__init__.py": "", "pipcore/a.py": "X = 1\n"})
    compiled = []

    def counting(src, dst, rel):
        compiled.append(rel)
        deploy.compile_module(src, dst, rel)

    files = deploy.build(fw, out, counting)
    assert sorted(files) == ["/main.py", "/pipcore/__init__.mpy", "/pipcore/a.mpy"]
    assert files["/main.py"][0].endswith("main.py")
    with open(files["/pipcore/a.mpy"][0], "rb") as f:
        head = f.read(4)
    assert head[:2] == b"M\x06" and head[2] == 0, head  # bytecode only: loads on MicroPython 1.22+
    assert sorted(compiled) == ["pipcore/__init__.py", "pipcore/a.py"]
    compiled.clear()
    again = deploy.build(fw, out, counting)
    assert compiled == [] and again == files
    (tmp_path / "fw" / "pipcore" / "a.py").write_text("X = 2\n")
    third = deploy.build(fw, out, counting)
    assert compiled == ["pipcore/a.py"]
    assert third["/pipcore/a.mpy"][1] != files["/pipcore/a.mpy"][1]


def test_compile_error_is_reported_with_the_file(tmp_path):
    fw, out = _tree(tmp_path, {"pipcore/bad.py": "def broken(:\n"})
    try:
        deploy.build(fw, out)
    except deploy.DeployError as exc:
        assert "pipcore/bad.py" in str(exc)
    else:
        raise AssertionError("a syntax error compiled")


def test_plan_copies_changed_and_deletes_stale():
    local = {"/main.py": "h1", "/pipcore/a.mpy": "h2", "/pipcore/b.mpy": "h3"}
    remote = {"/main.py": "h1", "/pipcore/a.mpy": "old", "/pipcore/gone.mpy": "h9", "/pipcore/b.py": "h7"}
    copy, delete = deploy.plan(local, remote)
    assert copy == ["/pipcore/a.mpy", "/pipcore/b.mpy"]
    assert delete == ["/pipcore/b.py", "/pipcore/gone.mpy"]
    assert deploy.plan(local, dict(local)) == ([], [])
    assert deploy.plan(local, {})[0] == sorted(local)


def test_directories_shallow_first():
    assert deploy.directories(["/main.py", "/pipcore/a.mpy", "/x/y/z.mpy"]) == ["/pipcore", "/x", "/x/y"]


def test_real_firmware_builds():
    files = deploy.build()
    assert "/main.py" in files or not os.path.exists(os.path.join(ROOT, "firmware", "main.py"))
    assert "/pipcore/protocol.mpy" in files and "/pipdrivers/usb_serial.mpy" in files


def test_freeze_manifest_stays_on_the_host():
    files = deploy.source_files()
    assert "manifest.py" not in files
    assert "main.py" in files and "pipcore/rules.py" in files


def test_no_board_is_a_clear_message_not_a_traceback():
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-m", "pipboard.cli", "deploy", "--port", "/dev/pipboard-no-such-port"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "/dev/pipboard-no-such-port" in proc.stderr


def test_no_pico_found_explains_what_to_do(monkeypatch):
    monkeypatch.setattr(deploy, "find_pico_ports", lambda: [])
    try:
        deploy.find_port(None)
    except deploy.DeployError as exc:
        assert "2E8A:0005" in str(exc) and "--port" in str(exc) and "RPI-RP2" in str(exc)
    else:
        raise AssertionError("no error without a board")


class FakePico:
    """mpremote's transport API over an in-memory filesystem (what deploy uses of it)."""

    def __init__(self, version=(1, 24, 1)):
        self.files = {}
        self.dirs = {"/"}
        self.version = version
        self.writes = []
        self.reset = False

    def eval(self, expr):
        return self.version

    def fs_exists(self, path):
        return path in self.files or path in self.dirs

    def fs_readfile(self, path):
        return self.files[path]

    def fs_writefile(self, path, data):
        assert path.rsplit("/", 1)[0] in self.dirs or path.count("/") == 1, "no directory for " + path
        self.files[path] = bytes(data)
        self.writes.append(path)

    def fs_mkdir(self, path):
        self.dirs.add(path)

    def fs_rmfile(self, path):
        del self.files[path]

    def exit_raw_repl(self):
        pass

    @property
    def serial(self):
        pico = self

        class Port:
            def write(self, data):
                pico.reset = data == b"\x04"

        return Port()

    def close(self):
        pass


def test_deploy_copies_changes_only_and_keeps_a_manifest(monkeypatch, tmp_path):
    import io

    pico = FakePico()
    pico.files["/pipcore/stale.mpy"] = b"old"
    pico.files["/.pipboard_manifest.json"] = b'{"/pipcore/stale.mpy": "x"}'
    pico.dirs.add("/pipcore")
    monkeypatch.setattr(deploy, "_connect", lambda port: pico)
    out = io.StringIO()
    deploy.deploy("/dev/fake", test_mode=True, out=out, check_hello=False)
    built = deploy.build()
    assert all(path in pico.files for path in built)
    assert "/pipcore/stale.mpy" not in pico.files
    assert pico.files["/pipboard_test_mode"] == b"1\n" and pico.reset
    assert "%d file(s) to copy" % len(built) in out.getvalue()
    pico.writes.clear()
    deploy.deploy("/dev/fake", test_mode=False, out=io.StringIO(), check_hello=False)
    assert pico.writes == ["/.pipboard_manifest.json"]  # nothing changed: only the manifest is rewritten
    assert "/pipboard_test_mode" not in pico.files


def test_deploy_refuses_old_micropython(monkeypatch):
    import io

    monkeypatch.setattr(deploy, "_connect", lambda port: FakePico(version=(1, 19, 1)))
    try:
        deploy.deploy("/dev/fake", out=io.StringIO(), check_hello=False)
    except deploy.DeployError as exc:
        assert "1.19.1" in str(exc) and "1.22" in str(exc)
    else:
        raise AssertionError("MicroPython 1.19 accepted")


class FakeSerial:
    """A port whose board answers (or not) the repl request."""

    def __init__(self, answer):
        self.answer = answer
        self.written = b""
        self.closed = False

    def write(self, data):
        self.written += data

    def read(self, n):
        data, self.answer = self.answer, b""
        return data

    def close(self):
        self.closed = True


def test_request_repl_stops_a_running_game():
    port = FakeSerial(b'{"event": "phase", "seq": 3}\n{"ok": true, "id": "pipboard-repl", "repl": "..."}\n')
    assert deploy.request_repl("/dev/x", timeout=0.5, opener=lambda name: port) is True
    assert b'"cmd": "repl"' in port.written and port.written.startswith(b"\r\n") and port.closed


def test_request_repl_copes_with_old_firmware_and_the_repl():
    old = FakeSerial(b'{"ok": false, "id": "pipboard-repl", "error": "unknown_command"}\n')
    assert deploy.request_repl("/dev/x", timeout=0.5, opener=lambda name: old) is False
    repl = FakeSerial(b"{'id': 'pipboard-repl', 'cmd': 'repl'}\r\n>>> ")  # the REPL echoes a dict
    assert deploy.request_repl("/dev/x", timeout=0.3, opener=lambda name: repl) is False

    def no_port(name):
        raise OSError("no such port")

    assert deploy.request_repl("/dev/x", timeout=0.3, opener=no_port) is False


def test_deploy_hands_over_before_mpremote(monkeypatch):
    import io

    order = []
    monkeypatch.setattr(deploy, "request_repl", lambda port: order.append("repl") or True)
    monkeypatch.setattr(deploy, "wait_for_port", lambda port: order.append("wait") or True)
    pico = FakePico()
    monkeypatch.setattr(deploy, "_connect", lambda port: order.append("connect") or pico)
    out = io.StringIO()
    deploy.deploy("/dev/fake", out=out, check_hello=False)
    assert order == ["repl", "wait", "connect"]
    assert "hands the port to the REPL" in out.getvalue()
    monkeypatch.setattr(deploy, "wait_for_port", lambda port: False)
    try:
        deploy.deploy("/dev/fake", out=io.StringIO(), check_hello=False)
    except deploy.DeployError as exc:
        assert "did not come back" in str(exc)
    else:
        raise AssertionError("a board that never came back was not reported")


def test_each_firmware_gets_only_its_own_files():
    mp = deploy.source_files()
    cp = deploy.source_files(target="circuitpython")
    assert "main.py" in mp and "pipdrivers/board_pins.py" in mp
    assert not [f for f in mp if f in ("code.py", "boot.py") or f.startswith("pipdrivers/cp_")], mp
    assert "code.py" in cp and "boot.py" in cp and "pipdrivers/cp_board_pins.py" in cp
    assert "main.py" not in cp and "pipdrivers/board_pins.py" not in cp and "pipbench.py" not in cp
    shared = set(mp) & set(cp)
    assert "pipcore/app.py" in shared and "pipdrivers/usb_serial.py" in shared  # code.py's HostLink
    assert "/code.py" not in deploy.build() and "/boot.py" not in deploy.build()


def test_tracebacks_name_modules_and_lines_only_when_asked(tmp_path):
    """The board's build names each source by its module (no qstr of its own) and drops line numbers
    (``OPTIMISE``: RAM); ``--lines`` keeps them."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
    from unix_mp import unix_micropython

    binary = unix_micropython()
    if binary is None:
        import pytest

        pytest.skip("unix MicroPython not installed")
    source = "def inner(x):\n    y = x + 1\n    return 1 // (y - y)\n\n\ndef outer():\n    return inner(3)\n"
    fw, _ = _tree(tmp_path, {"pipcore/__init__.py": "", "pipcore/deep.py": source})
    for lines in (False, True):
        out = str(tmp_path / ("lines" if lines else "lean"))
        files = deploy.build(fw, out, lines=lines)
        assert "/pipcore/deep.mpy" in files
        proc = subprocess.run([binary, "-c", "import pipcore.deep as d; d.outer()"], capture_output=True, text=True,
                              env=dict(os.environ, MICROPYPATH=out), cwd=str(tmp_path))
        text = proc.stderr + proc.stdout
        assert 'File "pipcore.deep"' in text and "in inner" in text and "ZeroDivisionError" in text, text
        assert ('line 3, in inner' in text) == lines, text


def test_deploy_starts_the_game_even_after_an_interrupted_hand_over(monkeypatch):
    """The hand-over's flag left behind (mpremote's Ctrl-C stopped the start that removes it) would keep
    the board at the REPL after the deploy's soft reset: deploy removes it before the reset."""
    import io

    pico = FakePico()
    pico.files[deploy.REPL_FLAG] = b"1"
    monkeypatch.setattr(deploy, "_connect", lambda port: pico)
    deploy.deploy("/dev/fake", out=io.StringIO(), check_hello=False)
    assert deploy.REPL_FLAG not in pico.files and pico.reset


def test_deploy_asks_hello_again_while_the_game_starts(monkeypatch):
    from pipboard.link import LinkError

    monkeypatch.setattr(deploy.time, "sleep", lambda s: None)
    tries = []

    class Started:
        hello_reply = {"firmware": "0.1.0"}

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

    def opener():
        tries.append(1)
        if len(tries) < 3:
            raise LinkError("did not answer 'hello'")
        return Started()

    assert deploy.wait_for_hello("/dev/fake", wait=60, opener=opener) == {"firmware": "0.1.0"}
    assert len(tries) == 3
    try:
        deploy.wait_for_hello("/dev/fake", wait=0, opener=lambda: (_ for _ in ()).throw(LinkError("no")))
    except deploy.DeployError as exc:
        assert "does not answer the Pipboard hello" in str(exc)
    else:
        raise AssertionError("a board that never answered was not reported")


def test_repl_leaves_no_flag_for_ctrl_d_to_trip_on():
    pico = FakePico()
    pico.files[deploy.REPL_FLAG] = b"1"  # the start that keeps the REPL was stopped before removing it
    assert deploy.clear_repl_flag("/dev/fake", connect=lambda port: pico)
    assert deploy.REPL_FLAG not in pico.files

    def no_prompt(port):
        raise deploy.DeployError("no prompt")

    assert deploy.clear_repl_flag("/dev/fake", connect=no_prompt) is False
