"""``pipboard deploy --circuitpython``: copy the firmware onto a CircuitPython board's CIRCUITPY drive.

1. **The drive**: ``--drive PATH``, or the mounted volume named CIRCUITPY
   (found as circup finds it). Its ``boot_out.txt`` names the CircuitPython
   version and the board; Pipboard runs on CircuitPython 9 and 10.
2. **The files**: ``firmware/`` less the MicroPython-only files (``main.py``,
   ``pipdrivers/board_pins.py``, ``pipbench.py``). CircuitPython's ``.mpy``
   format is its own (a ``C`` header, not MicroPython's ``M``) and no
   CircuitPython ``mpy-cross`` is published on PyPI, so the modules are
   copied as ``.py`` sources, which CircuitPython compiles when it imports
   them; ``--mpy-cross PATH`` names Adafruit's ``mpy-cross`` binary for the
   board's CircuitPython major version and the modules then go as ``.mpy``.
3. **Changed files only**: a file is written when the drive's copy differs
   (compared by content); files a previous deploy left that are no longer
   part of the firmware (``/.pipboard_manifest.json`` lists them) are
   deleted, and so is a ``.py``/``.mpy`` twin that would shadow a module.
   ``code.py`` is written last, since CircuitPython reloads when it sees it
   change. Every file is flushed to the drive (``fsync``).
4. **Libraries**: ``neopixel`` (Adafruit's, over the built-in
   ``adafruit_pixelbuf``) and ``adafruit_hashlib`` (used only on builds
   without ``hashlib``) go into ``lib/`` with ``circup``, unless present.

The drive must be writable from the computer: once boot.py runs, it belongs
to the board (for its saves); hold ``menu`` while plugging the board in to
give it back (see firmware/boot.py). The game starts at the next power-up.
"""

import hashlib
import json
import os
import subprocess
import sys

from pipboard import deploy as mp_deploy
from pipboard.deploy import DeployError, Progress, plan

SUPPORTED_MAJOR = (9, 10)
LIBRARIES = (("neopixel", ("neopixel.mpy", "neopixel.py")),
             ("adafruit_hashlib", ("adafruit_hashlib", "adafruit_hashlib.mpy", "adafruit_hashlib.py")))
MANIFEST = "/.pipboard_manifest.json"
LAST = "/code.py"  # CircuitPython reloads when code.py changes: the rest must be in place first
ESCAPE = ("the board has the CIRCUITPY drive (boot.py gave it the drive for its saves): unplug the board, "
          "hold the menu button while plugging it in again, and retry")


def parse_boot_out(text):
    """``{"version": (9, 2, 1), "version_text": "9.2.1", "board_id": "raspberry_pi_pico"}`` from boot_out.txt."""
    first = text.splitlines()[0] if text.strip() else ""
    marker = "CircuitPython "
    if marker not in first:
        raise DeployError("boot_out.txt does not name a CircuitPython version (%r): is this a CircuitPython "
                          "drive?" % first[:80])
    version_text = first.split(marker, 1)[1].split()[0].rstrip(";")
    parts = []
    for piece in version_text.split("-")[0].split("."):
        digits = "".join(ch for ch in piece if ch.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    if not parts:
        raise DeployError("boot_out.txt names an unreadable CircuitPython version %r" % version_text)
    board_id = None
    for line in text.splitlines():
        if line.startswith("Board ID:"):
            board_id = line.split(":", 1)[1].strip()
    return {"version": tuple(parts), "version_text": version_text, "board_id": board_id}


def find_drive(drive=None, finder=None):
    """The CIRCUITPY drive: ``drive`` as given, or the mounted volume named CIRCUITPY."""
    if drive is None:
        if finder is None:
            try:
                from circup.command_utils import find_device as finder
            except ImportError:
                raise DeployError("circup is not installed (pip install circup), so the CIRCUITPY drive cannot be "
                                  "found by itself: name it with --drive PATH")
        drive = finder()
        if not drive:
            raise DeployError(
                "no drive named CIRCUITPY is mounted.\n"
                "  - put CircuitPython 9 or 10 on the Pico first (README: 'CircuitPython'): hold BOOTSEL, plug it in,\n"
                "    copy the .uf2 for the Raspberry Pi Pico onto the RPI-RP2 drive;\n"
                "  - or name the drive: pipboard deploy --circuitpython --drive /media/you/CIRCUITPY")
    if not os.path.isdir(drive):
        raise DeployError("%s is not a mounted drive" % drive)
    if not os.path.isfile(os.path.join(drive, "boot_out.txt")):
        raise DeployError("%s has no boot_out.txt: it is not a CircuitPython drive (or CircuitPython has not "
                          "started on it yet)" % drive)
    return drive


def board_info(drive):
    with open(os.path.join(drive, "boot_out.txt"), encoding="utf-8", errors="replace") as f:
        info = parse_boot_out(f.read())
    if info["version"][0] not in SUPPORTED_MAJOR:
        raise DeployError("the board runs CircuitPython %s; Pipboard needs CircuitPython 9 or 10 "
                          "(README: 'CircuitPython')" % info["version_text"])
    return info


def check_writable(drive):
    probe = os.path.join(drive, ".pipboard_write_probe")
    try:
        with open(probe, "wb") as f:
            f.write(b"1")
        os.remove(probe)
    except OSError as exc:
        raise DeployError("%s cannot be written (%s): %s" % (drive, exc.strerror or exc, ESCAPE))


# -- the files ---------------------------------------------------------------------------------
def mpy_cross_version(path):
    """The CircuitPython major version an ``mpy-cross`` binary compiles for (it prints it with --version)."""
    try:
        proc = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as exc:
        raise DeployError("cannot run %s: %s" % (path, exc))
    text = (proc.stdout or "") + (proc.stderr or "")
    if "CircuitPython" not in text:
        raise DeployError("%s is not CircuitPython's mpy-cross (its --version says %r); MicroPython's .mpy files "
                          "do not load on CircuitPython" % (path, text.strip()[:100]))
    words = text.split("CircuitPython", 1)[1].split()
    try:
        return int(words[0].split(".")[0])
    except (IndexError, ValueError):
        raise DeployError("cannot read the version of %s from %r" % (path, text.strip()[:100]))


def build(version, mpy_cross=None, firmware_dir=None, build_dir=None, compiler=None):
    """``{device_path: (local_file, sha256)}`` of the CircuitPython firmware (``.py``, or ``.mpy`` with mpy_cross)."""
    firmware_dir = firmware_dir or mp_deploy.FIRMWARE_DIR
    build_dir = build_dir or os.path.join(os.path.dirname(mp_deploy.BUILD_DIR), "circuitpython-%d" % version[0])
    if mpy_cross is not None and compiler is None:
        major = mpy_cross_version(mpy_cross)
        if major != version[0]:
            raise DeployError("%s compiles for CircuitPython %d but the board runs %d: use the mpy-cross of "
                              "CircuitPython %d" % (mpy_cross, major, version[0], version[0]))

        def compiler(src, dst, rel):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            proc = subprocess.run([mpy_cross, "-s", mp_deploy.source_name(rel), "-o", dst, src], capture_output=True, text=True)
            if proc.returncode != 0:
                raise DeployError("mpy-cross could not compile %s:\n%s" % (rel, (proc.stderr or proc.stdout).strip()))
            with open(dst, "rb") as f:
                if f.read(1) != b"C":
                    raise DeployError("%s wrote a .mpy that is not CircuitPython's (no 'C' header)" % mpy_cross)

    files = {}
    for rel in mp_deploy.source_files(firmware_dir, "circuitpython"):
        src = os.path.join(firmware_dir, rel)
        if compiler is not None and rel.endswith(".py") and rel not in mp_deploy.KEEP_AS_SOURCE:
            out = os.path.join(build_dir, rel[:-3] + ".mpy")
            compiler(src, out, rel)
            files["/" + rel[:-3] + ".mpy"] = (out, _sha_file(out))
        else:
            files["/" + rel] = (src, _sha_file(src))
    return files


def _sha_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _on_drive(drive, path):
    return os.path.join(drive, *path.strip("/").split("/"))


def drive_state(drive, local):
    """``{device_path: sha256}`` of the files on the drive that a deploy may touch (ours, earlier ones, twins)."""
    try:
        with open(_on_drive(drive, MANIFEST), encoding="utf-8") as f:
            earlier = list(json.load(f))
    except (OSError, ValueError, TypeError):
        earlier = []
    candidates = set(local) | set(earlier)
    for path in local:
        if path.endswith(".py"):
            candidates.add(path[:-3] + ".mpy")
        elif path.endswith(".mpy"):
            candidates.add(path[:-4] + ".py")
    state = {}
    for path in candidates:
        full = _on_drive(drive, path)
        if os.path.isfile(full):
            state[path] = _sha_file(full)
    return state


def _write(full, data):
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def libraries_missing(drive):
    lib = os.path.join(drive, "lib")
    return [name for name, files in LIBRARIES if not any(os.path.exists(os.path.join(lib, f)) for f in files)]


def install_libraries(drive, names, out, runner=None, version_text="9/10"):
    """``circup --path DRIVE install NAMES`` (the Adafruit bundle for the board's CircuitPython version)."""
    cmd = [sys.executable, "-c", "from circup.commands import main; main()", "--path", drive, "install"] + list(names)
    out.write("circup: installing %s into %s/lib\n" % (" ".join(names), drive))
    proc = (runner or subprocess.run)(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or libraries_missing(drive):
        said = [line for line in ((proc.stderr or "") + (proc.stdout or "")).splitlines() if line.strip()]
        raise DeployError(
            "the firmware is on the drive, but circup could not install %s:\n%s\n"
            "  circup downloads Adafruit's library bundle: connect to the internet and run\n"
            "    circup --path %s install %s\n"
            "  or copy %s from the bundle for CircuitPython %s into lib/ by hand"
            % (" ".join(names), "\n".join("  | " + line for line in said[-3:]), drive, " ".join(names),
               ", ".join(n + ".mpy" for n in names), version_text))


def deploy(drive=None, test_mode=False, force=False, mpy_cross=None, libraries=True, out=sys.stdout, finder=None,
           runner=None):
    """Copy what changed onto the CIRCUITPY drive; returns ``(copied, deleted)``."""
    drive = find_drive(drive, finder)
    info = board_info(drive)
    out.write("CIRCUITPY: %s (CircuitPython %s, board %s)\n" % (drive, info["version_text"], info["board_id"]))
    if info["board_id"] and not info["board_id"].startswith("raspberry_pi_pico"):
        out.write("warning: the board is %s, not a Raspberry Pi Pico: the pins are the Pico's (hardware/)\n"
                  % info["board_id"])
    check_writable(drive)
    files = build(info["version"], mpy_cross)
    if mpy_cross is None:
        out.write("modules go as .py: CircuitPython's mpy-cross is not on PyPI (--mpy-cross PATH uses Adafruit's "
                  "binary for CircuitPython %d)\n" % info["version"][0])
    remote = {} if force else drive_state(drive, files)
    copy, delete = plan(files, remote)
    if force:
        delete = sorted(p for p in drive_state(drive, files) if p not in files)
    copy.sort(key=lambda p: (p == LAST, p))
    total = sum(os.path.getsize(files[p][0]) for p in copy)
    out.write("%d file(s) to copy (%d bytes), %d to delete, %d unchanged\n"
              % (len(copy), total, len(delete), len(files) - len(copy)))
    try:
        for path in delete:
            os.remove(_on_drive(drive, path))
        bar = Progress(total, out)
        for path in copy:
            with open(files[path][0], "rb") as f:
                data = f.read()
            _write(_on_drive(drive, path), data)
            bar.update(path, len(data))
        bar.finish()
        _write(_on_drive(drive, MANIFEST), json.dumps(sorted(files)).encode())
        flag = _on_drive(drive, mp_deploy.TEST_MODE_FILE)
        if test_mode:
            _write(flag, b"1\n")
        elif os.path.exists(flag):
            os.remove(flag)
    except OSError as exc:
        raise DeployError("writing to %s failed (%s): %s" % (drive, exc.strerror or exc, ESCAPE))
    if libraries:
        missing = libraries_missing(drive)
        if missing:
            install_libraries(drive, missing, out, runner, info["version_text"])
        else:
            out.write("libraries: %s already in lib/\n" % ", ".join(name for name, _ in LIBRARIES))
    out.write("done%s. Eject the drive, unplug the board and plug it in again: boot.py gives the drive to the board "
              "and opens the data channel, and the game starts.\n" % (" (TEST MODE)" if test_mode else ""))
    return copy, delete


def run(args, out=sys.stdout):
    try:
        deploy(args.drive, test_mode=args.test, force=args.force, mpy_cross=args.mpy_cross,
               libraries=not args.no_libs, out=out)
    except DeployError as exc:
        sys.stderr.write("pipboard deploy: %s\n" % exc)
        return 1
    return 0
