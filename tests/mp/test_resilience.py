"""The board survives faults and loses no committed play (CPython and MicroPython).

The sweep here is a sample (the first and middle call of every scripted
action, and 20 more); tests/test_unix_micropython.py sweeps more points
under the unix MicroPython with a small heap, and the soak every call.
"""

import json

from pipcore import guard
from pipcore import geometry as g
from resilience import SCRIPT, Bench, Faults, sweep


def test_one_fault_anywhere_in_a_scripted_game_loses_nothing():
    failures, runs, total = sweep(("memory", "runtime"), points=20)
    assert runs >= 2 * 2 * len(SCRIPT) and total > 100
    assert not failures, "\n".join(failures[:5])


def _snapshot(bench):
    before = len(bench.out)
    bench.handler.feed(b'{"id": 9, "cmd": "snapshot"}\n')
    reply = json.loads(bench.out[before])
    assert reply["id"] == 9 and reply["ok"], reply
    return reply["snapshot"]


def test_a_fault_that_persists_is_shown_and_the_board_keeps_answering():
    from pipcore.controller import Controller

    reference = Bench()
    for action in SCRIPT[:4]:  # white's whole turn, DONE included
        reference.step(action)
    bench = Bench()
    for action in SCRIPT[:3]:  # white has moved, DONE not yet pressed
        bench.step(action)
    committed = bench.committed()
    real_step = Controller.step

    def failing_step(ctl, event, now):
        if event[0] == "button":
            raise MemoryError("persistent")
        return real_step(ctl, event, now)

    Controller.step = failing_step
    try:
        bench.step(SCRIPT[3])  # DONE: fails, is retried, fails again
        assert bench.app.error.startswith(guard.MEMORY), bench.app.error
        assert _snapshot(bench)["error"].startswith("memory: MemoryError")
        assert bench.committed() == committed  # nothing half-applied was saved
        px = bench.hw.pixels
        for pip in range(g.DIE_PIPS):  # the fault pattern: every pip of both dice red
            for base in (g.LED_DIE_A, g.LED_DIE_B):
                r, gr, b = px[base + pip]
                assert r > 0 and gr == 0 and b == 0, (base, pip, px[base + pip])
        assert bench.unanswered == 0
    finally:
        Controller.step = real_step
    bench.step(SCRIPT[3])  # the player presses DONE again: it goes through
    assert bench.app.error is None and _snapshot(bench)["error"] is None
    assert bench.committed() == reference.committed()
    assert bench.unanswered == 0


def test_a_start_that_cannot_read_its_save_keeps_it_for_the_next_start():
    from pipcore.app import App
    from pipcore.controller import Controller

    bench = Bench()
    for action in SCRIPT[:4]:
        bench.step(action)
    committed = bench.committed()
    saved = dict(bench.flash.files)
    real_restore = Controller.__dict__["restore"]

    def failing_restore(cls, snap, capacity=None, store=None, entropy=None):
        raise MemoryError("restore")

    Controller.restore = classmethod(failing_restore)
    try:
        app = App(bench.hw)
    finally:
        Controller.restore = real_restore
    assert app.error.startswith(guard.MEMORY) and not app.saving and not app.resumed
    for now in range(0, 200, 5):
        app.poll(now)  # the fresh controller asks for saves: none may overwrite the good one
    assert bench.flash.files == saved
    again = App(bench.hw)
    assert again.resumed and again.error is None
    record = committed.pop("record")
    assert dict((k, again.ctl.snapshot().get(k)) for k in committed) == committed
    assert bytes(again.ctl.record_bytes()) == record and len(record) > 40  # the match's record file too


def test_injected_faults_are_counted_and_removed():
    faults = Faults()
    try:
        faults.arm(3, "runtime")
        bench = Bench()
        assert faults.fired == 1 and bench.app.faults >= 1
    finally:
        faults.remove()
    from pipcore.controller import Controller

    assert Controller.step.__name__ == "step"  # the real method is back


def test_a_refused_save_is_tried_again_from_the_quiet_loop():
    """The last commit's save fails once (no room for its JSON): the board does not wait for another
    commit to write it, so a power cut right after loses nothing."""
    bench = Bench()
    for action in SCRIPT[:-1]:
        bench.step(action)
    encode = bench.app._json.encode
    refused = [0]

    def once(snapshot):
        if not refused[0]:
            refused[0] = 1
            raise MemoryError("no room for the save")
        return encode(snapshot)

    bench.app._json.encode = once
    bench.press(SCRIPT[-1][1])  # black's DONE: a commit whose save is refused
    assert refused[0] == 1
    bench.advance(100)  # quiet passes of the loop
    snap = json.loads(bench.app.hw.state_store.load())
    assert snap["ref"] == bench.app.ctl.snapshot()["ref"]
    assert bench.app.ctl.save_due is False and bench.app.error is None


def test_the_snapshot_names_the_last_fault_after_it_was_recovered():
    """``faults`` counts; ``last_fault`` says what the latest was, once ``error`` has cleared (docs/protocol.md)."""
    bench = Bench()
    bench.step("setup")

    def snapshot():
        before = len(bench.out)
        bench.handler.feed(b'{"id": 9, "cmd": "snapshot"}\n')
        return [json.loads(line) for line in bench.out[before:] if b'"id": 9' in line][0]["snapshot"]

    snap = snapshot()
    assert snap["faults"] == 0 and snap["last_fault"] is None, snap
    ctl = bench.app.ctl
    real = ctl.step
    failed = []

    def step_once(event, now):
        if not failed:
            failed.append(event)
            raise RuntimeError("a fault for the snapshot")
        return real(event, now)

    ctl.step = step_once
    bench.press(0)  # ROLL: the first step fails, the app recovers and goes on
    snap = snapshot()
    assert failed and snap["faults"] >= 1, snap
    assert "RuntimeError" in snap["last_fault"] and "a fault for the snapshot" in snap["last_fault"], snap
