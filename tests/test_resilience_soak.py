"""``make soak``: one fault at every single call of the scripted game (about 2,300 calls x 2 kinds, ~2 min)."""

import pytest

from resilience import sweep


@pytest.mark.soak
def test_one_fault_at_every_call_of_a_scripted_game():
    failures, runs, total = sweep(("memory", "runtime"), points=10**6)
    assert runs >= 2 * total > 2000
    assert not failures, "\n".join(failures[:5])
