"""A Pico in the host's loop: the emulated one started and stopped, scripts run on any Pico.

The pieces ``pipboard check`` (and the ``pico`` tests) are made of, each usable alone:

* ``prepare_rp2emu(folder)``: the emulated Pico (``../shared/tools/rp2emu``, README there) is shipped as a
  folder that may be read-only. It is copied to the user's cache, keyed by the folder's content, and
  its ``setup.sh`` (npm ci + a venv) runs once there; later calls find the copy ready.
* ``EmulatedPico``: start ``pico_pty.sh`` on a flash image (temporary unless one is named) with its USB
  serial port at a tty path, wait until the port answers, stop it cleanly (SIGTERM: the emulator writes
  its flash back), as a context manager.
* ``deploy_test_mode(port)``: ``pipboard deploy --port PORT --test`` (``pipboard.deploy``);
  ``hand_to_repl(port)``: ``pipboard repl``; ``start_game(port)``: Ctrl-D at the REPL, then the hello.
* ``run_script(port, path)``: one ``tests/pico/*.py`` through ``mpremote run``, line by line, with a
  timeout; ``parse_output(text)`` reads it by the scripts' convention (tests/README.md):

    each budgeted figure on a line ending with `` PASS`` or `` FAIL``; other figures as plain lines;
    the last line ``RESULT: PASS`` or ``RESULT: FAIL (why)``. No RESULT line at the end (a crash, a
    ``MemoryError``, a timeout) is a failure.
"""

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

READY_MARK = ".pipboard-ready"  # written in a cached copy once its setup.sh succeeded
SKIP_IN_KEY = ("node_modules", "venv", READY_MARK, "__pycache__")  # what setup.sh makes: not the folder's content
SETUP_TIMEOUT = 600.0  # npm ci and a venv with mpremote, on a slow network
BOOT_TIMEOUT = 60.0  # emulator start to an answering port (about 2 s; far more on a busy machine)
SCRIPT_TIMEOUT = 1800.0  # one tests/pico script, wall time: 5 minutes of a Pico is 12.5 at the emulator's 0.4x
GAME_START_TIMEOUT = 90.0  # Ctrl-D to the game's hello (about 5 s on the emulator; the flash is read first)


class PicoError(Exception):
    """The Pico (real or emulated) could not be started, reached or driven; the message says what to do."""


# -- the emulated Pico's folder ----------------------------------------------------------------------
def folder_key(folder):
    """A short digest of a folder's files (names and contents), ignoring what its setup.sh makes."""
    digest = hashlib.sha256()
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_IN_KEY)
        for name in sorted(files):
            if name in SKIP_IN_KEY:
                continue
            path = os.path.join(here, name)
            digest.update(os.path.relpath(path, folder).replace(os.sep, "/").encode() + b"\0")
            with open(path, "rb") as f:
                digest.update(hashlib.sha256(f.read()).digest())
    return digest.hexdigest()[:16]


def cache_root():
    """Where prepared copies live: $PIPBOARD_CACHE, else the user's cache dir (~/.cache/pipboard)."""
    if os.environ.get("PIPBOARD_CACHE"):
        return os.environ["PIPBOARD_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "pipboard")


def _writable_copy(src, dst):
    shutil.copytree(src, dst, symlinks=True, ignore=shutil.ignore_patterns(*SKIP_IN_KEY))
    for here, dirs, files in os.walk(dst):  # the source may be read-only; setup.sh writes into the copy
        for name in dirs + files:
            path = os.path.join(here, name)
            if not os.path.islink(path):
                os.chmod(path, os.stat(path).st_mode | 0o200)
    os.chmod(dst, os.stat(dst).st_mode | 0o200)


def prepare_rp2emu(folder, root=None, out=sys.stdout, runner=subprocess.run):
    """A ready copy of the emulator ``folder`` (copied and set up once per content); returns its path."""
    folder = os.path.abspath(os.path.expanduser(folder))
    if not os.path.isfile(os.path.join(folder, "pico_pty.sh")):
        raise PicoError("%s is not the emulated Pico's folder (no pico_pty.sh in it; see "
                        "../shared/tools/rp2emu/README.md)" % folder)
    root = root or cache_root()
    os.makedirs(root, exist_ok=True)
    copy = os.path.join(root, "rp2emu-" + folder_key(folder))
    if os.path.exists(os.path.join(copy, READY_MARK)):
        return copy
    import fcntl

    with open(os.path.join(root, ".rp2emu.lock"), "w") as lock:  # one setup at a time (pytest workers, two makes)
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(os.path.join(copy, READY_MARK)):
            return copy
        if os.path.exists(copy):
            shutil.rmtree(copy)  # a setup that did not finish
        out.write("emulated Pico: setting up a copy of %s in %s (once)\n" % (folder, copy))
        out.flush()
        _writable_copy(folder, copy)
        try:
            proc = runner(["sh", os.path.join(copy, "setup.sh")], cwd=copy, capture_output=True, text=True,
                          timeout=SETUP_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise PicoError("the emulated Pico's setup.sh did not finish in %d s (in %s)" % (SETUP_TIMEOUT, copy))
        if proc.returncode != 0:
            raise PicoError("the emulated Pico's setup.sh failed (in %s):\n%s"
                            % (copy, ((proc.stderr or "") + (proc.stdout or "")).strip()[-2000:]))
        with open(os.path.join(copy, READY_MARK), "w") as f:
            f.write(folder + "\n")
    return copy


def default_rp2emu(repo_root=None):
    """The emulated Pico named by $PIPBOARD_RP2EMU, else ``../shared/tools/rp2emu`` beside the clone, else None."""
    named = os.environ.get("PIPBOARD_RP2EMU")
    if named:
        return named
    if repo_root:
        beside = os.path.join(os.path.dirname(os.path.abspath(repo_root)), "shared", "tools", "rp2emu")
        if os.path.isfile(os.path.join(beside, "pico_pty.sh")):
            return beside
    return None


# -- talking to the port -----------------------------------------------------------------------------
def _open_serial(port, timeout=0.2):
    import serial

    return serial.Serial(port, 115200, timeout=timeout, write_timeout=2)


def probe(port, timeout=2.0, opener=None):
    """What answers on ``port``: ``"game"`` (the protocol), ``"repl"`` (MicroPython's prompt) or None.

    Sends an empty line and a protocol ping: the game answers the ping with a ``pong``; the REPL
    answers with its prompt (and evaluates the ping's frame as a harmless dict).
    """
    try:
        link = (opener or _open_serial)(port)
    except Exception:
        return None
    try:
        link.write(b'\r\n{"id": "pipboard-probe", "cmd": "ping"}\r\n')
        seen = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seen += link.read(256) or b""
            if b'"pong"' in seen:
                return "game"
            if b">>> " in seen or b"\n>" in seen:  # friendly or raw REPL
                return "repl"
        return None
    except Exception:
        return None
    finally:
        try:
            link.close()
        except Exception:
            pass


def wait_answering(port, timeout=BOOT_TIMEOUT, alive=None):
    """Wait until ``port`` exists and something answers on it; returns ``probe``'s answer."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if alive is not None and not alive():
            raise PicoError("the Pico on %s stopped before its port answered" % port)
        if os.path.exists(port) or not port.startswith("/"):
            answer = probe(port)
            if answer:
                return answer
        time.sleep(0.3)
    raise PicoError("nothing answered on %s within %d s" % (port, timeout))


class EmulatedPico:
    """The emulated Pico of a prepared rp2emu folder, running until ``stop()``.

    ``tty``: where its USB serial port appears (default: a temporary path); ``flash``: its flash image
    (default: a temporary one, erased: MicroPython formats its filesystem at first boot);
    ``realtime``: False lets idle waits jump ahead (faster, idle timings unrealistic).
    """

    def __init__(self, rp2emu, tty=None, flash=None, realtime=True, log=None):
        self.rp2emu = rp2emu
        self.tmp = tempfile.mkdtemp(prefix="pipboard-pico-")
        self.port = tty or os.path.join(self.tmp, "ttyPico")
        self.flash = flash or os.path.join(self.tmp, "flash.img")
        self.realtime = realtime
        self.log_path = log or os.path.join(self.tmp, "emulator.log")
        self.proc = None

    def start(self, timeout=BOOT_TIMEOUT):
        """Start the emulator and wait until its port answers; returns self."""
        env = dict(os.environ, PICO_FLASH_IMG=self.flash, PICO_QUIET="1", PICO_REALTIME="1" if self.realtime else "0")
        self._log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(["sh", os.path.join(self.rp2emu, "pico_pty.sh"), self.port], cwd=self.rp2emu,
                                     env=env, stdin=subprocess.DEVNULL, stdout=self._log, stderr=subprocess.STDOUT,
                                     start_new_session=True)  # its own group: stop() ends the pty bridge too
        try:
            wait_answering(self.port, timeout, alive=lambda: self.proc.poll() is None)
        except PicoError as exc:
            self.stop()
            raise PicoError("%s; the emulator's log:\n%s" % (exc, self.log_tail()))
        return self

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def log_tail(self, chars=2000):
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode("utf-8", "replace")[-chars:]
        except OSError:
            return ""

    def stop(self, timeout=15.0):
        """SIGTERM (the emulator writes its flash back and exits), SIGKILL if it lingers."""
        if self.proc is not None:
            for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 5.0)):
                if self.proc.poll() is not None:
                    break
                try:
                    os.killpg(self.proc.pid, sig)
                except (ProcessLookupError, PermissionError):
                    break
                try:
                    self.proc.wait(wait)
                except subprocess.TimeoutExpired:
                    continue
            self.proc = None
            self._log.close()

    def cleanup(self):
        """Remove the temporary folder (flash and log included) after ``stop()``."""
        self.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.cleanup()


# -- the firmware on the board ------------------------------------------------------------------------
def deploy_test_mode(port, out=sys.stdout, timeout=GAME_START_TIMEOUT):
    """``pipboard deploy --port PORT --test``, then wait for the game's hello (the emulated Pico's first
    start, which builds its saves, takes longer than deploy waits); returns the hello."""
    from pipboard.deploy import DeployError, deploy

    for attempt in (1, 2):
        try:
            deploy(port, test_mode=True, out=out, check_hello=False)
            break
        except (DeployError, OSError) as exc:  # OSError: the board restarted under mpremote (its game starting)
            if attempt == 2:
                raise PicoError("deploy failed: %s" % exc)
            out.write("deploy failed (%s); once more when the board answers\n" % exc)
            wait_answering(port, BOOT_TIMEOUT)
    hello = wait_for_game(port, timeout)
    if not hello.get("test_mode"):
        raise PicoError("the board on %s did not start in test mode after deploy --test" % port)
    out.write("board answers: firmware %s, protocol %s, TEST MODE\n" % (hello.get("firmware"), hello.get("protocol")))
    return hello


def hand_to_repl(port, out=sys.stdout):
    """``pipboard repl``: stop the game so the REPL has the port; True when a game was stopped."""
    from pipboard.deploy import DeployError, hand_over

    try:
        stopped = hand_over(port, out)
    except DeployError as exc:
        raise PicoError(str(exc))
    if wait_answering(port, BOOT_TIMEOUT) != "repl":
        raise PicoError("%s still runs the game after the hand-over to the REPL" % port)
    return stopped


def start_game(port, timeout=GAME_START_TIMEOUT, opener=None):
    """Put the game back: Ctrl-C, Ctrl-B (leave a raw REPL), Ctrl-D (soft reset: main.py runs), then wait
    for the protocol's hello; returns it."""
    link = (opener or _open_serial)(port)
    try:
        link.write(b"\r\x03\x03\x02")
        time.sleep(0.3)
        link.write(b"\x04")
        time.sleep(0.5)
    finally:
        link.close()
    return wait_for_game(port, timeout)


def wait_for_game(port, timeout=GAME_START_TIMEOUT):
    """Wait until the game on ``port`` answers the protocol's hello; returns it."""
    from pipboard.link import Link, LinkError

    time.sleep(1.0)
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            with Link.open(port, timeout=3.0) as link:
                return link.hello_reply
        except LinkError as exc:
            last = exc
            time.sleep(1.0)
    raise PicoError("the game did not answer on %s within %d s (%s)" % (port, timeout, last))


# -- scripts ---------------------------------------------------------------------------------------
class ScriptResult:
    """What one tests/pico script said: ``passed``, ``verdict`` (its RESULT line or why there is none),
    ``budgets`` [(line, ok)], ``figures`` [line], ``lines`` (all of them), ``seconds``, ``returncode``."""

    def __init__(self, name, lines, returncode, seconds, timed_out=False):
        self.name = name
        self.lines = lines
        self.returncode = returncode
        self.seconds = seconds
        self.timed_out = timed_out
        parsed = parse_output(lines)
        self.budgets = parsed["budgets"]
        self.figures = parsed["figures"]
        self.verdict = parsed["verdict"]
        self.passed = parsed["passed"] and returncode == 0 and not timed_out
        if timed_out:
            self.verdict = "no RESULT line: stopped after %d s" % seconds
        elif parsed["passed"] and returncode != 0:
            self.verdict = "mpremote ended with status %d" % returncode

    def reason(self):
        """One short phrase for a table: PASS, or what failed."""
        if self.passed:
            return "PASS"
        failed = [line for line, ok in self.budgets if not ok]
        why = self.verdict if self.verdict.startswith("no RESULT") else (failed[0] if failed else self.verdict)
        return "FAIL: " + why


def parse_output(lines):
    """Read a script's output by the convention of tests/pico: ``{"budgets", "figures", "verdict", "passed"}``."""
    if isinstance(lines, str):
        lines = lines.splitlines()
    lines = [line.rstrip() for line in lines]
    budgets, figures = [], []
    for line in lines:
        text = line.strip()
        if not text or text.startswith("RESULT:"):
            continue
        if text.endswith((" PASS", " FAIL")) or text.startswith(("PASS ", "FAIL ")):  # (the first form, or pipbench's)
            budgets.append((text, not (text.endswith(" FAIL") or text.startswith("FAIL "))))
        else:
            figures.append(text)
    content = [line.strip() for line in lines if line.strip()]
    last = content[-1] if content else ""
    if last.startswith("RESULT:"):
        verdict = last[len("RESULT:"):].strip()
        passed = verdict == "PASS" and all(ok for _, ok in budgets)
    else:
        crash = next((line for line in reversed(content) if "Error" in line), None)
        verdict = "no RESULT line" + (": " + crash if crash else (": it printed nothing" if not content else ""))
        passed = False
    return {"budgets": budgets, "figures": figures, "verdict": verdict, "passed": passed}


def mpremote_command():
    """mpremote as this Python runs it (pipboard depends on it)."""
    return [sys.executable, "-m", "mpremote"]


QUICK_FLAG = "import builtins; builtins.PIPBOARD_QUICK = True"


def run_script(port, path, timeout=SCRIPT_TIMEOUT, echo=None, mpremote=None, quick=False):
    """Run ``path`` on the board at ``port`` (at the REPL) with ``mpremote run``; returns a ScriptResult.

    ``echo(line)`` sees each line as it comes (a maker watching a slow script). After ``timeout``
    seconds mpremote is interrupted (it sends Ctrl-C to the board), then killed. ``quick``: the name
    ``PIPBOARD_QUICK`` is defined (True) for the script, which may then run only its fast cases
    (mpremote's soft reset at the start of each session forgets it again).
    """
    cmd = (mpremote or mpremote_command()) + ["connect", port] + (["exec", QUICK_FLAG] if quick else []) + ["run", path]
    started = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    lines = []

    def read():
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            lines.append(line)
            if echo is not None:
                echo(line)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    timed_out = False
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        for sig, wait in ((signal.SIGINT, 10.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(proc.pid, sig)
                proc.wait(wait)
                break
            except subprocess.TimeoutExpired:
                continue
            except ProcessLookupError:
                break
    reader.join(5.0)
    name = os.path.basename(path)
    return ScriptResult(name, lines, proc.returncode if proc.returncode is not None else -1,
                        time.monotonic() - started, timed_out)


def exec_on_board(port, code, timeout=600.0, mpremote=None):
    """Run a few lines of Python at the board's REPL with ``mpremote exec``; returns (returncode, output)."""
    cmd = (mpremote or mpremote_command()) + ["connect", port, "exec", code]
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, "no answer within %d s" % timeout
    return proc.returncode, proc.stdout + proc.stderr


# The game as main.py builds it (the imports, App(board_pins.build()), HostLink), then quiet polls as the loop
# makes while it waits: the free heap once built, and the lowest seen after a poll.
HEAP_PROBE = """
import gc
gc.collect()
import main
from pipcore.app import App
from pipdrivers import board_pins
from pipdrivers.usb_serial import HostLink
app = App(board_pins.build())
host = HostLink(app, main.FIRMWARE_VERSION)
gc.collect()
built = gc.mem_free()
lowest = built
now = 0
for i in range(%d):
    now += 10
    app.poll(now)
    free = gc.mem_free()
    if free < lowest:
        lowest = free
gc.collect()
print('HEAP ' + repr({'free_built': built, 'lowest': lowest, 'heap': gc.mem_free() + gc.mem_alloc()}))
"""


def measure_heap(port, polls=300, timeout=600.0):
    """The free heap with the game built and idle on the board at ``port`` (at the REPL):
    ``{"free_built", "lowest", "heap"}`` in bytes, or ``{"error": text}``."""
    rc, output = exec_on_board(port, HEAP_PROBE % polls, timeout=timeout)
    for line in output.splitlines():
        if line.startswith("HEAP "):
            try:
                figures = json.loads(line[5:].replace("'", '"'))
            except ValueError:
                break
            return figures
    tail = [line for line in output.splitlines() if line.strip()][-3:]
    return {"error": " / ".join(tail) or "no output (status %d)" % rc}
