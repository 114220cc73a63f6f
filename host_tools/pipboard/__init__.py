"""Pipboard host tools: the ``pipboard`` command and the board simulator.

The firmware's pure core (``firmware/pipcore``) is imported from the
repository itself, so the host runs exactly the code the Pico runs.
"""

import os
import sys

FIRMWARE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "firmware")
if FIRMWARE_DIR not in sys.path:
    sys.path.insert(0, FIRMWARE_DIR)

__version__ = "0.1.0"
