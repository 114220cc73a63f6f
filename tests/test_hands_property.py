"""Issue 16's property on many random plays: the guidance never leads away from the play being made.

Random legal plays of random games (``tests/mp/hands.py``), each executed in
a random order hands produce (one-motion moves through blots, hits in either
order, a blot lifted before or after its hitter, put on the bar at any later
instant), checked at every settled change (no mark asking for a change away
from the play) and at DONE (that play is committed). 20,000 plays in
``make test`` (eight cases for xdist), 200,000 more in ``make soak``, and the
same property under the unix MicroPython (the firmware as .mpy).
"""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "mp"))

import hands  # noqa: E402
from unix_mp import MP_DIR, run_unix_micropython, unix_micropython  # noqa: E402

CASES = 8
PLAYS = 2500  # per case: 20,000 in all


@pytest.mark.parametrize("case", range(CASES))
def test_random_plays_are_never_misled(case):
    assert hands.run(1000 + case, PLAYS) == PLAYS


@pytest.mark.soak
@pytest.mark.parametrize("case", range(40))
def test_random_plays_soak(case):
    assert hands.run(50000 + case, 5000) == 5000


@pytest.mark.skipif(unix_micropython() is None, reason="unix MicroPython not installed")
def test_the_property_under_the_unix_micropython():
    import tempfile

    from pipboard.deploy import build

    with tempfile.TemporaryDirectory() as tmp:
        build(build_dir=tmp)
        proc = run_unix_micropython("-c", "import hands; print('plays', hands.run(77, 300))", heap="1024k",
                                    firmware=tmp)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "plays 300" in output, output[-3000:]
    assert os.path.isdir(MP_DIR)
