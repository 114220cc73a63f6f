"""``pipboard check`` and ``pipboard.pico``: the Pico in the loop.

The pieces are tested here without a board (a script's output read by the convention of tests/pico,
mpremote stood in for by a small script, the emulator's folder copied and set up once per content).
The test marked ``pico`` runs the check's short set (``--quick``) on the emulated Pico named by
``PIPBOARD_RP2EMU``; ``make test`` leaves it out and ``.ci/run`` runs it alone (one emulator at a time).
"""

import os
import stat
import sys
import textwrap

import pytest

from pipboard import check, pico

# -- reading a script's output ----------------------------------------------------------------------


def test_a_script_passes_on_its_result_line_with_every_budget_met():
    parsed = pico.parse_output(["steps first call: 8.0 ms, budget 150 ms PASS", "592 B per call",
                                "steps part-way: 7.6 ms, budget 20 ms PASS", "RESULT: PASS"])
    assert parsed["passed"]
    assert parsed["budgets"] == [("steps first call: 8.0 ms, budget 150 ms PASS", True),
                                 ("steps part-way: 7.6 ms, budget 20 ms PASS", True)]
    assert parsed["figures"] == ["592 B per call"]


def test_a_failed_budget_or_a_failing_result_line_fails():
    assert not pico.parse_output(["worst 271 ms, budget 150 ms FAIL", "RESULT: FAIL (1 over budget)"])["passed"]
    # a RESULT: PASS that contradicts a FAIL line above it is not believed
    assert not pico.parse_output(["worst 271 ms, budget 150 ms FAIL", "RESULT: PASS"])["passed"]
    assert pico.parse_output(["x FAIL", "RESULT: FAIL (slow)"])["verdict"] == "FAIL (slow)"


def test_no_result_line_at_the_end_is_a_failure_that_names_the_crash():
    crashed = pico.parse_output(["record 8.3 B per action PASS", "Traceback (most recent call last):",
                                 '  File "<stdin>", line 9, in <module>',
                                 "MemoryError: memory allocation failed, allocating 640 bytes"])
    assert not crashed["passed"]
    assert crashed["verdict"] == "no RESULT line: MemoryError: memory allocation failed, allocating 640 bytes"
    assert pico.parse_output([])["verdict"] == "no RESULT line: it printed nothing"
    # a RESULT line followed by a traceback (the script died after its verdict) fails too
    assert not pico.parse_output(["RESULT: PASS", "Traceback (most recent call last):", "OSError: 5"])["passed"]


# -- running a script (mpremote stood in for) ---------------------------------------------------------
def _fake_mpremote(tmp_path, body):
    """A stand-in for ``mpremote connect PORT [exec CODE] run SCRIPT``: runs ``body`` with ARGS (its arguments)."""
    fake = tmp_path / "fake_mpremote.py"
    fake.write_text("import sys, time\nARGS = sys.argv[1:]\n" + textwrap.dedent(body))
    return [sys.executable, str(fake)]


def test_run_script_streams_lines_and_reads_the_verdict(tmp_path):
    fake = _fake_mpremote(tmp_path, """
        assert ARGS[:2] == ["connect", "/dev/ttyX"] and ARGS[-2] == "run", ARGS
        print("quick" if "exec" in ARGS else "full")
        print("a figure: 3 ms, budget 5 ms PASS", flush=True)
        print("RESULT: PASS")
    """)
    seen = []
    result = pico.run_script("/dev/ttyX", "tests/pico/x.py", echo=seen.append, mpremote=fake)
    assert result.passed and result.reason() == "PASS" and result.name == "x.py"
    assert seen == ["full", "a figure: 3 ms, budget 5 ms PASS", "RESULT: PASS"]
    quick = pico.run_script("/dev/ttyX", "x.py", mpremote=fake, quick=True)
    assert quick.lines[0] == "quick"


def test_a_script_that_hangs_is_stopped_at_its_timeout_and_fails(tmp_path):
    fake = _fake_mpremote(tmp_path, """
        print("first case PASS", flush=True)
        time.sleep(60)
        print("RESULT: PASS")
    """)
    result = pico.run_script("/dev/ttyX", "slow.py", timeout=1.5, mpremote=fake)
    assert result.timed_out and not result.passed
    assert result.seconds < 30
    assert result.reason().startswith("FAIL: no RESULT line: stopped after")
    assert result.lines[0] == "first case PASS"  # (then the stand-in's KeyboardInterrupt: mpremote was interrupted)


def test_mpremote_failing_fails_the_script_even_after_a_result_line(tmp_path):
    fake = _fake_mpremote(tmp_path, """
        print("RESULT: PASS")
        sys.exit(1)
    """)
    result = pico.run_script("/dev/ttyX", "x.py", mpremote=fake)
    assert not result.passed and result.reason() == "FAIL: mpremote ended with status 1"


# -- the emulator's folder: copied, set up once per content ---------------------------------------------
def _fake_rp2emu(folder):
    folder.mkdir()
    (folder / "pico_pty.sh").write_text("#!/bin/sh\nexit 0\n")
    (folder / "setup.sh").write_text("#!/bin/sh\nmkdir -p node_modules venv\necho run >> node_modules/setup_runs\n")
    for path in folder.iterdir():
        path.chmod(stat.S_IREAD | stat.S_IEXEC)
    folder.chmod(stat.S_IREAD | stat.S_IEXEC)  # read-only, as CI's copy of shared/


def test_the_emulator_folder_is_copied_and_set_up_once_per_content(tmp_path):
    source = tmp_path / "rp2emu"
    _fake_rp2emu(source)
    cache = tmp_path / "cache"
    first = pico.prepare_rp2emu(str(source), root=str(cache), out=open(os.devnull, "w"))
    again = pico.prepare_rp2emu(str(source), root=str(cache), out=open(os.devnull, "w"))
    assert first == again and first.startswith(str(cache))
    with open(os.path.join(first, "node_modules", "setup_runs")) as f:
        assert f.read() == "run\n"  # the second call found the copy ready
    assert not os.path.exists(source / "node_modules")  # the read-only source was left alone
    # what setup.sh makes is not the folder's content: an already set-up folder has the same key
    assert pico.folder_key(first) == pico.folder_key(str(source))
    source.chmod(stat.S_IRWXU)
    (source / "pico_pty.sh").chmod(stat.S_IRWXU)
    (source / "pico_pty.sh").write_text("#!/bin/sh\nexit 1\n")
    changed = pico.prepare_rp2emu(str(source), root=str(cache), out=open(os.devnull, "w"))
    assert changed != first


def test_a_failing_setup_is_reported_and_tried_again_next_time(tmp_path):
    source = tmp_path / "rp2emu"
    source.mkdir()
    (source / "pico_pty.sh").write_text("")
    (source / "setup.sh").write_text("echo 'npm: no network' >&2\nexit 1\n")
    with pytest.raises(pico.PicoError, match="(?s)setup.sh failed.*npm: no network"):
        pico.prepare_rp2emu(str(source), root=str(tmp_path / "cache"), out=open(os.devnull, "w"))
    (source / "setup.sh").write_text("exit 0\n")
    assert pico.prepare_rp2emu(str(source), root=str(tmp_path / "cache"), out=open(os.devnull, "w"))
    with pytest.raises(pico.PicoError, match="not the emulated Pico's folder"):
        pico.prepare_rp2emu(str(tmp_path), root=str(tmp_path / "cache"))


# -- the table ----------------------------------------------------------------------------------------
def test_the_table_fails_on_any_failed_row_and_names_it():
    table = check.Table()
    table.add("free heap at start", "91,000 B", "PASS")
    table.add("games", 20)
    assert not table.failed()
    assert table.render().splitlines()[-1] == "RESULT: PASS"
    table.add("tests/pico/bench_nardy.py", "3 budget lines", "FAIL: worst 271 ms FAIL")
    assert table.render().splitlines()[-1] == "RESULT: FAIL (tests/pico/bench_nardy.py)"


def test_game_figures_become_rows_and_any_fault_fails():
    table = check.Table()
    lows = []
    figures = {"games": 2, "plays": 40, "faults": 0, "internal": 0, "desyncs": 1, "wrong_accepts": 0,
               "wrong_refusals": 0, "heap_min": 61000, "problems": ["DESYNC: game 1 turn 3: phase moving"]}
    check._game_rows(table, figures, lows)
    verdicts = {what: verdict for what, figure, verdict in table.rows}
    assert verdicts["faults"] == "PASS" and verdicts["desyncs"] == "FAIL"
    assert [r[0] for r in table.failed()] == ["desyncs"]
    assert lows == [(61000, "after a turn of the games")]


def test_the_quick_set_is_a_few_of_the_scripts_and_every_one_exists():
    every = check.script_paths()
    quick = check.script_paths(quick=True)
    assert set(quick) < set(every)
    assert sorted(os.path.basename(p) for p in quick) == sorted(check.QUICK_SCRIPTS)
    assert check.script_paths(["bench_steps.py"]) == [os.path.join(check.SCRIPTS_DIR, "bench_steps.py")]


# -- on the emulated Pico -------------------------------------------------------------------------------
RP2EMU = os.environ.get("PIPBOARD_RP2EMU")


@pytest.mark.pico
@pytest.mark.skipif(not RP2EMU, reason="no emulated Pico: set PIPBOARD_RP2EMU=/path/to/rp2emu "
                    "(../shared/tools/rp2emu; .ci/run sets it when the folder is there)")
def test_the_quick_check_passes_on_the_emulated_pico(capsys):
    """`pipboard check --quick` on a fresh emulated Pico: deploy, the quick scripts, 2 games, 1 power cut."""
    folder = pico.prepare_rp2emu(RP2EMU)
    with pico.EmulatedPico(folder) as board:
        table = check.check(board.port, check.script_paths(quick=True), check.QUICK_GAMES, check.QUICK_RESETS,
                            quick=True, board="the emulated Pico (%s)" % RP2EMU)
    rendered = table.render()
    with capsys.disabled():
        sys.stdout.write("\n" + rendered + "\n")
    rows = [r[0] for r in table.rows]
    assert "tests/pico/bench_steps.py" in rows and "games" in rows, rendered
    assert not table.failed(), rendered
