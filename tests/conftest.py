"""Shared pytest set-up: the firmware core is importable as on the Pico."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for sub in ("firmware", "host_tools", os.path.join("tests", "mp")):
    path = os.path.join(ROOT, sub)
    if path not in sys.path:
        sys.path.insert(0, path)


# -- HIL: `pytest --board PORT` runs the protocol and controller tests on a real board -------------
def pytest_addoption(parser):
    parser.addoption("--board", metavar="PORT", default=None,
                     help="run protocol/controller tests against a real board on this serial port "
                          "(deployed with 'pipboard deploy --test'); default: the simulator")


def _board_target(config):
    return config.getoption("--board")


import pytest  # noqa: E402


@pytest.fixture
def board_link(request):
    """A protocol Link to the board under test: the real one with --board, else a fresh simulator."""
    from board_fixture import open_board_link

    with open_board_link(_board_target(request.config)) as link:
        yield link
