"""10,000 random and mutated frames through the firmware's frame parser.

Runs under CPython (pytest) and under the real MicroPython
(tests/test_micropython.py); the million-frame run is tests/test_protocol_fuzz.py.
"""

from protocol_fuzz import every_byte, run


def test_fuzz_10000_frames_normal_mode():
    frames, errors = run(5000, seed=101, test_mode=False)
    assert frames == 5000 and 0 < errors < frames


def test_fuzz_10000_frames_test_mode():
    frames, errors = run(5000, seed=202, test_mode=True)
    assert frames == 5000 and 0 < errors < frames


def test_every_byte_value_is_answered_and_the_board_keeps_answering():
    assert every_byte(test_mode=False) == 256 * 6 + 3
    assert every_byte(test_mode=True) == 256 * 6 + 3
