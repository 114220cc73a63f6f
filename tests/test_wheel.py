"""The pipboard wheel installs anywhere and carries the firmware it deploys.

The wheel is built from a copy of the sources (never the working tree's
``build/``, whose stale files a wheel could pick up), installed into a fresh
virtual environment outside the repository with its dependencies from PyPI,
and run from there with no PYTHONPATH: ``pipboard rules``, ``pipboard sim
--text`` and ``pipboard deploy --dry-run`` must work from the firmware inside
the installed package.
"""

import json
import os
import shutil
import subprocess
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ("pyproject.toml", "README.md", "host_tools", "firmware")
START = "4HPwATDgc/ABMA"


def _firmware_files():
    found = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, "firmware")):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__"))]
        for name in files:
            if name.endswith((".py", ".json")):
                found.append(os.path.relpath(os.path.join(folder, name), ROOT).replace(os.sep, "/"))
    return sorted(found)


def _run(cmd, cwd, env, stdin=None, timeout=300):
    proc = subprocess.run(cmd, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, "%s\n%s%s" % (" ".join(cmd), proc.stdout[-3000:], proc.stderr[-3000:])
    return proc.stdout


def install(base):
    """(venv folder, environment, work folder, wheel) of a fresh venv with the built wheel installed."""
    src = base / "src"
    src.mkdir()
    for name in SOURCES:
        path = os.path.join(ROOT, name)
        if os.path.isdir(path):
            shutil.copytree(path, str(src / name), ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
        else:
            shutil.copy(path, str(src / name))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(HOME=str(base / "home"), XDG_CACHE_HOME=str(base / "cache"), PIP_DISABLE_PIP_VERSION_CHECK="1",
               PIP_CACHE_DIR=os.environ.get("PIP_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".cache", "pip")))
    dist = base / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)], str(base), env)
    wheels = sorted(os.listdir(str(dist)))
    assert len(wheels) == 1 and wheels[0].startswith("pipboard-"), wheels
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], str(base), env)
    python = str(venv / "bin" / "python")
    _run([sys.executable, "-m", "pip", "--python", python, "install", "-q", str(dist / wheels[0])], str(base), env)
    work = base / "elsewhere"
    work.mkdir()
    return venv, env, work, str(dist / wheels[0])


def check_the_wheel_carries_every_firmware_file(installed):
    with zipfile.ZipFile(installed[3]) as whl:
        names = set(whl.namelist())
    expected = ["pipboard/" + f for f in _firmware_files()]
    missing = [f for f in expected if f not in names]
    assert not missing, missing
    assert "pipboard/firmware/main.py" in expected and "pipboard/firmware/pipcore/rules.py" in expected
    assert "pipcore/rules.py" in names and "pipdrivers/scan.py" in names  # importable as on the board
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def check_the_installed_package_imports_the_core_it_carries(installed):
    venv, env, work, _ = installed
    code = ("import pipcore, pipdrivers.scan, pipboard, sys; "
            "print(pipboard.FIRMWARE_DIR, pipcore.__file__, pipboard.FIRMWARE_DIR in sys.path)")
    out = _run([str(venv / "bin" / "python"), "-c", code], str(work), env).split()
    assert out[0].startswith(str(venv)) and out[0].endswith(os.path.join("pipboard", "firmware")), out
    assert out[1].startswith(str(venv)) and out[1].endswith(os.path.join("pipcore", "__init__.py")), out
    assert out[2] == "False", out  # one copy of the core: the installed package, not the deploy tree


def check_rules_from_the_installed_package(installed):
    venv, env, work, _ = installed
    out = _run([str(venv / "bin" / "pipboard"), "rules"], str(work), env,
               stdin=json.dumps({"position_id": START, "dice": [3, 1]}) + "\n" + "not json\n")
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == 2 and "error" in lines[1], lines
    assert lines[0]["position_id"] == START and len(lines[0]["plays"]) == 16, lines[0]


def check_text_simulator_from_the_installed_package(installed):
    venv, env, work, _ = installed
    out = _run([str(venv / "bin" / "pipboard"), "sim", "--text", "--seed", "3"], str(work), env,
               stdin="13/8 13/11\nroll\n24/18 24/18 24/18\nquit\n")
    assert "O to play 5-2" in out and "X to play 5-2" in out, out[-2000:]
    assert "Pip count  O: 160  X: 167" in out and out.count("Illegal:") == 1, out[-2000:]


def check_deploy_dry_run_from_the_installed_package(installed):
    """The firmware inside the package is compiled (into the user's cache) and listed; no board needed."""
    venv, env, work, _ = installed
    out = _run([str(venv / "bin" / "pipboard"), "deploy", "--dry-run"], str(work), env)
    firmware = [x for x in out.splitlines() if x.startswith("firmware: ")][0][len("firmware: "):]
    built = [x for x in out.splitlines() if x.startswith("built into: ")][0][len("built into: "):]
    assert firmware.startswith(str(venv)), out
    assert built.startswith(env["XDG_CACHE_HOME"]), out
    listed = [x.split()[0] for x in out.splitlines() if x.startswith("  /")]
    assert "/main.py" in listed and "/pipcore/rules.mpy" in listed and "/pipdrivers/scan.mpy" in listed, out
    assert "/manifest.py" not in listed and "/manifest.mpy" not in listed, out  # read by the image build only
    from pipboard import deploy  # the clone's deploy: the installed one lists what it would copy

    expected = sorted(deploy.device_path(r) for r in deploy.source_files(os.path.join(ROOT, "firmware")))
    assert sorted(listed) == expected, out
    with open(os.path.join(built, "pipcore", "rules.mpy"), "rb") as f:
        assert f.read(2) == b"M\x06"  # MicroPython bytecode, .mpy version 6
    assert "nothing was sent" in out and not os.listdir(str(work)), out
    out = _run([str(venv / "bin" / "pipboard"), "deploy", "--dry-run", "--circuitpython"], str(work), env)
    listed = sorted(x.split()[0] for x in out.splitlines() if x.startswith("  /"))
    expected = sorted("/" + r for r in deploy.source_files(os.path.join(ROOT, "firmware"), "circuitpython"))
    assert listed == expected and "/code.py" in listed and "/main.py" not in listed, out
    assert firmware in out and "CIRCUITPY" in out and "nothing was sent" in out, out


def test_the_wheel_installed_outside_the_clone_runs_rules_sim_and_deploy(tmp_path):
    """One build and install (it takes seconds), then each check in turn."""
    installed = install(tmp_path)
    check_the_wheel_carries_every_firmware_file(installed)
    check_the_installed_package_imports_the_core_it_carries(installed)
    check_rules_from_the_installed_package(installed)
    check_text_simulator_from_the_installed_package(installed)
    check_deploy_dry_run_from_the_installed_package(installed)


def test_an_install_without_firmware_or_hardware_folder_says_so(tmp_path, monkeypatch):
    """Clear messages, not tracebacks: a deploy with no firmware to send, hwdocs with no hardware/ to write."""
    import io

    from pipboard import deploy, hwdocs

    try:
        deploy.dry_run(io.StringIO(), firmware_dir=str(tmp_path / "none"), build_dir=str(tmp_path / "build"))
    except deploy.DeployError as exc:
        assert "no firmware to deploy" in str(exc)
    else:
        raise AssertionError("a dry run without firmware succeeded")
    monkeypatch.setattr(hwdocs, "default_dir", lambda: str(tmp_path / "site-packages" / "hardware"))
    out = io.StringIO()
    assert hwdocs.run(stream=out) == 2
    assert "--out" in out.getvalue() and not (tmp_path / "site-packages").exists()
