"""Pipboard host tools: the ``pipboard`` command and the board simulator.

The host runs exactly the code the Pico runs: the firmware's pure core
(``pipcore``) and drivers (``pipdrivers``). An installed pipboard (a wheel,
``pipx install .``) carries the whole firmware as ``pipboard/firmware``, the
tree ``pipboard deploy`` sends, and ``pipcore``/``pipdrivers`` beside it as
packages of their own; in a clone (the developers' editable install, or
``host_tools`` on PYTHONPATH) the firmware is the repository's ``firmware/``.
"""

import os
import sys
from importlib.util import find_spec

__version__ = "0.1.0"

_HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGED_FIRMWARE = os.path.join(_HERE, "firmware")  # in the wheel (pyproject.toml's package-dir)
CLONE_FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(_HERE)), "firmware")  # host_tools/pipboard -> firmware


def _firmware_dir():
    for folder in (PACKAGED_FIRMWARE, CLONE_FIRMWARE):
        if os.path.isdir(os.path.join(folder, "pipcore")):
            return folder
    return None


FIRMWARE_DIR = _firmware_dir()  # None: a broken install (deploy says so; pipcore imports fail by name)
FROM_CLONE = FIRMWARE_DIR == CLONE_FIRMWARE
# Installed, pipcore is a package of its own; only a clone used without installing needs the path.
if FIRMWARE_DIR is not None and find_spec("pipcore") is None and FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, FIRMWARE_DIR)
