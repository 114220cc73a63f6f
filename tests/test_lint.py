"""Static checks with zero findings: ruff over the code, pyright over the firmware (``make lint``).

Ruff's rules live in pyproject.toml ``[tool.ruff]``. Pyright's in
``[tool.pyright]``: the MicroPython firmware is checked against the rp2 port's
stubs (``micropython-rp2-rpi-pico-stubs`` with ``micropython-stdlib-stubs`` as
its stdlib), the CircuitPython back end against ``circuitpython-stubs`` and the
Adafruit libraries it imports. The two stub sets both define ``micropython``,
``time`` and ``neopixel`` and cannot share one site-packages, so each run gets
an environment of its own, made here of links to the installed distributions'
files (the dev extra installs them; nothing is downloaded).
"""

import fnmatch
import glob
import json
import os
import shutil
import subprocess
import sys
from importlib import metadata

import pytest

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINTED = ("firmware", "host_tools", "tests")

MICROPYTHON_STUBS = ("micropython-rp2-rpi-pico-stubs", "micropython-stdlib-stubs")
CIRCUITPYTHON_STUBS = ("circuitpython-stubs",)
# Libraries the CircuitPython back end imports on the board (circup installs them there), if installed here.
CIRCUITPYTHON_LIBRARIES = ("adafruit-circuitpython-neopixel", "adafruit-circuitpython-pixelbuf",
                           "adafruit-circuitpython-typing")
# The CircuitPython back end; pyproject's [tool.pyright] excludes these from the MicroPython run.
CIRCUITPYTHON_FILES = ("firmware/code.py", "firmware/boot.py", "firmware/pipdrivers/cp_*.py")


def pyproject():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)


def run_ruff(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_ruff_finds_nothing():
    proc = run_ruff("check", "--no-cache", *LINTED)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_finds_a_bug():
    """The configuration still reports what matters: an undefined name, an unused import, a mutable default."""
    code = "import os\n\n\ndef f(x=[]):\n    return y\n"
    proc = run_ruff("check", "--no-cache", "--stdin-filename", "firmware/pipcore/probe.py", "-", stdin=code)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    for rule in ("F401", "F821", "B006"):
        assert rule in out, out


def test_ruff_allows_the_firmwares_idioms():
    """%-formatting, const() and the native decorator are the firmware's style, not findings."""
    code = ('import micropython\nfrom micropython import const\n\n_N = const(4)\n\n\n@micropython.native\n'
            'def f(a):\n    return "%d of %d" % (a, _N)\n')
    proc = run_ruff("check", "--no-cache", "--stdin-filename", "firmware/pipcore/probe.py", "-", stdin=code)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# -- pyright -------------------------------------------------------------------
def stub_environment(where, distributions):
    """A virtual environment's site-packages holding only ``distributions`` (links to their installed files)."""
    site = os.path.join(where, "lib", "python%d.%d" % sys.version_info[:2], "site-packages")
    os.makedirs(site)
    for name in distributions:
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            pytest.fail("%s is not installed (pip install -e '.[dev]' installs it)" % name)
        for top in sorted({f.parts[0] for f in dist.files or () if f.parts[0] not in ("..", "__pycache__")}):
            if top.endswith(".dist-info") or top.endswith(".egg-info"):
                continue
            target = os.path.join(site, top)
            if not os.path.lexists(target):
                os.symlink(str(dist.locate_file(top)), target)
    return site


def run_pyright(tmp_path, config):
    """Run pyright with ``config`` (paths relative to the repository); returns its diagnostics."""
    exe = shutil.which("pyright", path=os.path.dirname(sys.executable)) or shutil.which("pyright")
    if exe is None:
        pytest.fail("pyright is not installed (pip install -e '.[dev]' installs it)")
    up = os.path.relpath(ROOT, str(tmp_path))

    def rel(path):
        return path if path.startswith("**") else os.path.join(up, path)

    config = dict(config)
    for key in ("include", "exclude", "extraPaths"):
        if key in config:
            config[key] = [rel(p) for p in config[key]]
    config["executionEnvironments"] = [
        dict(env, root=rel(env["root"]), **({"extraPaths": [rel(p) for p in env["extraPaths"]]}
                                            if "extraPaths" in env else {}))
        for env in config.get("executionEnvironments", [])]
    with open(os.path.join(str(tmp_path), "pyrightconfig.json"), "w") as f:
        json.dump(config, f, indent=1)
    env = dict(os.environ, PYRIGHT_PYTHON_IGNORE_WARNINGS="1")
    proc = subprocess.run([exe, "-p", str(tmp_path), "--outputjson"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        pytest.fail("pyright gave no report: %s" % (proc.stdout + proc.stderr)[-3000:])
    assert report["summary"]["filesAnalyzed"] > 0, report
    return ["%s:%d: %s (%s)" % (os.path.relpath(d["file"], ROOT), d["range"]["start"]["line"] + 1,
                                d["message"].splitlines()[0], d.get("rule", d["severity"]))
            for d in report["generalDiagnostics"]]


def micropython_config(tmp_path):
    """[tool.pyright] with the rp2 port's stubs as the environment and MicroPython's stdlib as typeshed."""
    config = dict(pyproject()["tool"]["pyright"])
    site = stub_environment(str(tmp_path / "micropython"), MICROPYTHON_STUBS)
    config.update(venvPath=str(tmp_path), venv="micropython", typeshedPath=site)
    return config


def circuitpython_config(tmp_path, include):
    """The same rules over ``include``, with CircuitPython's modules and CPython's stdlib (as its stubs expect).

    CircuitPython's ``gc`` is MicroPython's (``mem_free`` and all) and circuitpython-stubs ships none:
    the run's typeshed is pyright's own with the rp2 stubs' ``gc.pyi`` in place of CPython's.
    """
    config = dict(pyproject()["tool"]["pyright"])
    present = [d for d in CIRCUITPYTHON_LIBRARIES if _installed(d)]
    stub_environment(str(tmp_path / "circuitpython"), CIRCUITPYTHON_STUBS + tuple(present))
    bundled = str(metadata.distribution("pyright").locate_file("pyright/dist/dist/typeshed-fallback"))
    if not os.path.isdir(os.path.join(bundled, "stdlib")):
        pytest.fail("pyright's own typeshed is not at %s (another pyright version?)" % bundled)
    typeshed = tmp_path / "circuitpython_typeshed"
    (typeshed / "stdlib").mkdir(parents=True)
    os.symlink(os.path.join(bundled, "stubs"), str(typeshed / "stubs"))
    for name in os.listdir(os.path.join(bundled, "stdlib")):
        if name != "gc.pyi":
            os.symlink(os.path.join(bundled, "stdlib", name), str(typeshed / "stdlib" / name))
    os.symlink(str(metadata.distribution(MICROPYTHON_STUBS[0]).locate_file("gc.pyi")), str(typeshed / "stdlib" / "gc.pyi"))
    config.update(venvPath=str(tmp_path), venv="circuitpython", typeshedPath=str(typeshed), include=list(include),
                  exclude=["**/__pycache__"], executionEnvironments=[{"root": "firmware"}])
    return config


def _installed(name):
    try:
        metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return False
    return True


def circuitpython_files():
    found = []
    for pattern in CIRCUITPYTHON_FILES:
        found += sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, pattern)))
    return found


PROBE_DRIVER = """import machine
import rp2
import time

pin = machine.Pin(0, machine.Pin.OUTT)
machine.bitstream(pin, 0, (1, 2, 3, 4), bytearray(3), timing=1)
time.ticks_mss()
"""

PROBE_CORE = """import functools
from pipcore import compat
compat.const(1)
undefined_here()
"""

PROBE_CIRCUITPYTHON = """import keypad
import usb_cdc



def chain(clock, data, latch):
    keys = keypad.ShiftRegisterKeys(clock=clock, data=data, latch=latch, key_count=168, value_when_pressed=True)
    keys.events.get_into(keypad.Event())
    usb_cdc.data.read_into(bytearray(4))
"""


def _probe(tmp_path, name, text):
    """A probe file under tmp_path (never in firmware/, which other tests read); its folder, relative to the repository."""
    folder = tmp_path / "probe" / name
    folder.mkdir(parents=True)
    (folder / ("%s_probe.py" % name)).write_text(text)
    return os.path.relpath(str(folder), ROOT)


def _split(findings, probe):
    """(findings outside the probe's folder, findings in it)."""
    inside = [f for f in findings if f.startswith(probe + os.sep)]
    return [f for f in findings if f not in inside], inside


def test_pyright_finds_nothing_in_the_micropython_firmware_and_misuse_in_a_probe(tmp_path):
    """Zero findings in firmware/; in probes run alongside (one run: pyright takes seconds), a misspelt Pin
    constant, keyword and time function, and a module MicroPython lacks, are found as a board would."""
    drivers = _probe(tmp_path, "drivers", PROBE_DRIVER)
    core = _probe(tmp_path, "core", PROBE_CORE)
    config = micropython_config(tmp_path)
    envs = config["executionEnvironments"]
    core_env = dict([e for e in envs if e["root"] == "firmware/pipcore"][0], root=core, extraPaths=["firmware"])
    driver_env = dict([e for e in envs if e["root"] == "firmware"][0], root=drivers, extraPaths=["firmware"])
    config.update(include=config["include"] + [drivers, core], executionEnvironments=[core_env, driver_env] + envs)
    findings, in_drivers = _split(run_pyright(tmp_path, config), drivers)
    findings, in_core = _split(findings, core)
    assert findings == [], "\n".join(findings)
    text = "\n".join(in_drivers + in_core)
    assert '"OUTT"' in text and 'No parameter named "timing"' in text and '"ticks_mss"' in text, text
    assert 'Import "functools" could not be resolved' in text and '"undefined_here" is not defined' in text, text
    assert '"rp2"' not in text and "compat" not in text, text  # the rp2 module and the core are known


def test_pyright_finds_nothing_in_the_circuitpython_back_end_and_misuse_in_a_probe(tmp_path):
    """The CircuitPython back end has zero findings; a probe's wrong usb_cdc method is its only one."""
    probe = _probe(tmp_path, "circuitpython", PROBE_CIRCUITPYTHON)
    findings, in_probe = _split(run_pyright(tmp_path, circuitpython_config(tmp_path, circuitpython_files() + [probe])),
                                probe)
    assert findings == [], "\n".join(findings)
    assert len(in_probe) == 1 and 'attribute "read_into" for class "Serial"' in in_probe[0], in_probe
    if not circuitpython_files():
        print("no CircuitPython back end yet (%s): only the probe was checked" % ", ".join(CIRCUITPYTHON_FILES))


def test_the_circuitpython_files_are_kept_out_of_the_micropython_run():
    exclude = pyproject()["tool"]["pyright"]["exclude"]
    assert all(p in exclude for p in CIRCUITPYTHON_FILES), exclude
    assert all(any(fnmatch.fnmatch(f, p) for p in exclude) for f in circuitpython_files())
