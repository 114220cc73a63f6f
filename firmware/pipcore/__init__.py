"""Pipboard's pure core: rules, positions, cube and match, controller.

Nothing in this package touches hardware, a clock or a file. It runs the
same on the Pico, under the WebAssembly MicroPython and under CPython.
"""

__version__ = "0.1.0"
