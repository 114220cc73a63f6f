"""The Back Alley heap tests' common part (tests/test_bamode_heap.py, tests/test_baref_heap.py).

The harness (``tests/mp/bamode_board.py``: the App on its drivers with stand-ins, pressed as people press;
``bamode_turn``, ``bamode_game``, ``baref_game`` and their keying code) is compiled to .mpy beside the
firmware, as ``pipboard deploy`` compiles the firmware (a Pico compiles only the script it runs; its helpers
are deployed, as ``pipbench_board`` is for tests/pico/bench_controller.py), and run with ``micropython -m``
in a fixed heap. A game's three parts run one after the other on one flash folder, each in a fresh
process: the power cut twice.
"""

import os
import subprocess

from unix_mp import MP_DIR, unix_micropython

HARNESS = ("bamode_board", "bamode_play", "bamode_turn", "bamode_game", "baref_play", "baref_game")
BUDGET = "240k"  # the bench's budget until 8a89165 (256k since): Back Alley keeps to the tighter line
ROOMY = "1m"


def build_tree(out):
    """The firmware as ``pipboard deploy`` builds it (x64 native code), and the harness, compiled into ``out``."""
    from pipboard.deploy import build, compile_module

    build(build_dir=out, arch="x64")
    for name in HARNESS:
        compile_module(os.path.join(MP_DIR, name + ".py"), os.path.join(out, name + ".mpy"), name + ".py")
    return out


def run(tree, heap, module, *args):
    """``micropython -X heapsize=HEAP -m MODULE ARGS`` in the tree: (exit code, output). The modules are found
    as ``pipcore/app.mpy``, short paths as on the Pico's ``/pipcore/app.mpy``: each module's path is an interned
    name, whose bytes would otherwise change the heap's layout from one machine's temporary folder to the next."""
    env = dict(os.environ, MICROPYPATH=".frozen:.")
    proc = subprocess.run([unix_micropython(), "-X", "heapsize=" + heap, "-m", module] + list(args), cwd=tree, env=env,
                          capture_output=True, text=True, timeout=900)
    return proc.returncode, proc.stdout + proc.stderr


def figures(output, tag):
    """The ``name=value`` words of the output's line starting with ``tag``."""
    line = [x for x in output.splitlines() if x.startswith(tag + " ")][0]
    return dict((k, int(v)) for k, v in (w.split("=") for w in line.split()[1:] if "=" in w))


def parts(tree, heap, module, *args):
    """The game's three runs (``module PART ARGS``): (exit code, output, the game's figures or None): the
    last run's line ``TAG ...`` (tag: the module's name before ``_``) with ``heap`` and ``save`` the most of
    the three runs and ``cuts`` the runs that resumed a game."""
    outs = []
    for part in range(3):
        rc, out = run(tree, heap, module, str(part), *args)
        outs.append(out)
        if rc:
            return rc, "\n".join(outs), None
    runs = [figures(out, "part") for out in outs]
    got = figures(outs[-1], module.split("_")[0])
    got.update(heap=max(p["heap"] for p in runs), save=max(p["save"] for p in runs),
               cuts=sum(p["resumed"] for p in runs))
    if "idle" in runs[0]:
        got["idle"] = runs[0]["idle"]
    return 0, "\n".join(outs), got
