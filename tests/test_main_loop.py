"""The composition root (firmware/main.py) runs: drivers built, app polled, protocol served.

``machine`` does not exist here, so ``pipdrivers.board_pins`` is replaced by a
module whose ``build()`` wires the firmware's own ``Board`` to the twins of
``pipboard.twins``; ``time`` gets the MicroPython tick functions, and the
loop is stopped with the KeyboardInterrupt that ``mpremote`` would send.
"""

import io
import json
import os
import sys
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAIN = os.path.join(ROOT, "firmware", "main.py")


class _Stop(KeyboardInterrupt):
    pass


def test_main_runs_the_app_and_answers_the_host(monkeypatch):
    from pipboard.twins import VirtualBoard
    from pipcore import geometry as g

    twins = VirtualBoard(seed=3)
    pins = types.ModuleType("pipdrivers.board_pins")
    pins.build = lambda **config: twins.board
    monkeypatch.setitem(sys.modules, "pipdrivers.board_pins", pins)
    import pipdrivers

    monkeypatch.setattr(pipdrivers, "board_pins", pins, raising=False)

    host_in = io.BytesIO(b'{"id": 1, "cmd": "ping"}\n')
    host_out = io.BytesIO()

    class Poller:
        def poll(self, timeout):
            return host_in.tell() < len(host_in.getvalue())

    import pipdrivers.usb_serial as usb

    real_init = usb.UsbSerial.__init__

    def init(self, stream_in=None, stream_out=None, poller=None):
        real_init(self, host_in, host_out, Poller())

    monkeypatch.setattr(usb.UsbSerial, "__init__", init)
    monkeypatch.setattr(usb, "test_mode_requested", lambda path=usb.TEST_MODE_FILE: False)

    clock = {"ms": 0, "loops": 0}
    fake_time = types.ModuleType("time")
    fake_time.ticks_ms = lambda: clock["ms"]
    fake_time.ticks_diff = lambda a, b: a - b

    def sleep_ms(ms):
        clock["ms"] += 5
        clock["loops"] += 1
        if clock["loops"] == 20:  # set up the start position on the switches
            from pipcore.board import fill_counts
            from pipcore.position import Position

            counts = bytearray(g.LOCATIONS)
            fill_counts(Position.start(), 0, counts)
            for loc in range(g.LOCATIONS):
                twins.switches.place(loc, counts[loc])
        if clock["loops"] >= 200:
            raise _Stop()

    fake_time.sleep_ms = sleep_ms
    monkeypatch.setitem(sys.modules, "time", fake_time)
    import gc

    if not hasattr(gc, "mem_free"):
        monkeypatch.setattr(gc, "mem_free", lambda: 100000, raising=False)
    code = compile(open(MAIN).read(), MAIN, "exec")
    try:
        exec(code, {"__name__": "__main__"})
    except _Stop:
        pass
    replies = [json.loads(line) for line in host_out.getvalue().decode().splitlines() if line.strip()]
    assert any(r.get("id") == 1 and r.get("ok") for r in replies), replies
    assert twins.strip.frames, "no LED frame was shown"
    state = twins.flash.files
    assert any(name.startswith("/pipboard_state") for name in state), "nothing was saved"
    # the board was set up: the app saved the opening phase
    from pipdrivers.storage import AtomicStore

    saved = json.loads(AtomicStore(twins.flash, "/pipboard_state.bin").load())
    assert not saved["setup"] and saved["ref"]["phase"] == 0  # opening: the switches showed the start position
