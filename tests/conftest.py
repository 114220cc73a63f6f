"""Shared pytest set-up: the firmware core is importable as on the Pico."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for sub in ("firmware", "host_tools", os.path.join("tests", "mp")):
    path = os.path.join(ROOT, sub)
    if path not in sys.path:
        sys.path.insert(0, path)
