"""Print which proof tests/mp/test_zero_alloc.py uses on this MicroPython (tests/test_micropython.py)."""
import test_zero_alloc

print("proof: %s" % test_zero_alloc.PROOF)
