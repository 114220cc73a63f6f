"""The composition root (firmware/main.py) on twins: the loop runs, survives, and hands over the REPL.

``machine`` and ``micropython`` do not exist here: ``main.run`` takes them
as arguments, and these tests pass twins (a watchdog that counts feeds, a
``kbd_intr`` that records the interrupt character). The USB stream twin
behaves as MicroPython's: while the interrupt character is 3, reading 0x03
raises KeyboardInterrupt instead of delivering the byte. ``board_pins`` is
replaced by the twins of ``pipboard.twins``. The loop is stopped from the
clock twin with a BaseException, as a power cut would.
"""

import importlib.util
import io
import json
import os
import types

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAIN = os.path.join(ROOT, "firmware", "main.py")


def load_main():
    spec = importlib.util.spec_from_file_location("pipboard_main", MAIN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # not __main__: nothing runs
    return module


class _Stop(BaseException):
    """Ends the loop from the clock twin (the loop must not be able to catch it)."""


class MicroPythonTwin:
    def __init__(self, obeys=True):
        self.intr = 3
        self.calls = []
        self.obeys = obeys  # False: a build where kbd_intr does nothing (the negative control)

    def kbd_intr(self, char):
        self.calls.append(char)
        if self.obeys:
            self.intr = char


class WdtTwin:
    def __init__(self, timeout):
        self.timeout = timeout
        self.feeds = 0

    def feed(self):
        self.feeds += 1


class MachineTwin:
    def __init__(self):
        self.wdt = None
        self.resets = 0

    def WDT(self, timeout):  # noqa: N802 - machine's name
        assert self.wdt is None, "a second watchdog"
        self.wdt = WdtTwin(timeout)
        return self.wdt

    def reset(self):
        self.resets += 1


class UsbStream:
    """The host's bytes as MicroPython's stdin delivers them (see module docstring)."""

    def __init__(self, mp, data=b""):
        self.mp = mp
        self.data = bytearray(data)
        self.out = bytearray()

    def readinto(self, buf):
        while self.data:
            b = self.data.pop(0)
            if b == self.mp.intr:
                raise KeyboardInterrupt()
            buf[0] = b
            return 1
        return 0

    def poll(self, timeout):
        return bool(self.data)

    def write(self, data):
        self.out += data

    def replies(self):
        lines = bytes(self.out).decode("utf-8", "replace").splitlines()
        return [json.loads(line) for line in lines if line.startswith("{")]


class Rig:
    def __init__(self, monkeypatch, tmp_path, data=b"", loops=200, obeys=True, seed=3):
        from pipboard.twins import VirtualBoard

        self.main = load_main()
        self.main.REPL_FLAG = str(tmp_path / "pipboard_repl")
        self.twins = VirtualBoard(seed=seed)
        self.mp = MicroPythonTwin(obeys)
        self.machine = MachineTwin()
        self.usb = UsbStream(self.mp, data)
        self.loops = 0
        self.max_loops = loops
        self.ms = 0
        self.intr_in_loop = []
        twins = self.twins
        self.pins = types.SimpleNamespace(build=lambda **config: twins.board, button_reader=lambda: twins.pad.read)
        usb = self.usb
        import pipdrivers.usb_serial as usb_serial

        real_init = usb_serial.UsbSerial.__init__

        def init(link, stream_in=None, stream_out=None, poller=None):
            real_init(link, usb, usb, usb)

        monkeypatch.setattr(usb_serial.UsbSerial, "__init__", init)
        monkeypatch.setattr(usb_serial, "started_in_test_mode", lambda path=None: False)
        rig = self

        class Clock:
            @staticmethod
            def ticks_ms():
                return rig.ms

            @staticmethod
            def ticks_diff(a, b):
                return a - b

            @staticmethod
            def sleep_ms(ms):
                rig.ms += max(ms, 5)
                if ms < 100 and rig.machine.wdt is not None:  # a pass of the game loop (it sleeps 1..20 ms)
                    rig.loops += 1
                    rig.intr_in_loop.append(rig.mp.intr)
                    rig.on_loop(rig.loops)
                    if rig.loops >= rig.max_loops:
                        raise _Stop()

        self.clock = Clock

    def on_loop(self, n):
        pass

    def run(self):
        self.printed = io.StringIO()
        import contextlib

        with contextlib.redirect_stdout(self.printed):
            try:
                return self.main.run(machine=self.machine, micropython=self.mp, board_pins=self.pins,
                                     clock=self.clock, mem_free=lambda: 100000)
            except _Stop:
                return "stopped"


def _set_up_start_position(twins):
    from pipcore import geometry as g
    from pipcore.board import fill_counts
    from pipcore.position import Position

    counts = bytearray(g.LOCATIONS)
    fill_counts(Position.start(), 0, counts)
    for loc in range(g.LOCATIONS):
        twins.switches.place(loc, counts[loc])


def test_main_runs_the_app_answers_the_host_and_feeds_the_watchdog(monkeypatch, tmp_path):
    rig = Rig(monkeypatch, tmp_path, b'{"id": 1, "cmd": "ping"}\n')
    rig.on_loop = lambda n: n == 20 and _set_up_start_position(rig.twins)
    assert rig.run() == "stopped"
    assert any(r.get("id") == 1 and r.get("ok") for r in rig.usb.replies()), rig.usb.out
    assert rig.twins.strip.frames, "no LED frame was shown"
    wdt = rig.machine.wdt
    assert wdt is not None and 1000 <= wdt.timeout <= 8388  # the RP2040's maximum
    assert wdt.feeds >= rig.loops  # fed on every pass
    assert rig.mp.calls[0] == -1 and set(rig.intr_in_loop) == {-1}  # Ctrl-C off for the whole game
    from pipdrivers.storage import AtomicStore

    saved = json.loads(AtomicStore(rig.twins.flash, "/pipboard_state.bin").load())
    assert not saved["setup"] and saved["ref"]["phase"] == 0  # opening: the switches showed the start position


def _every_byte():
    """Every byte value 0..255 (newline included) in lines, then a ping that must be answered."""
    return bytes(range(256)) + b"\n" + bytes(range(255, -1, -1)) + b"\n\x03\x04\x01\x02\x05\n" + \
        b'{"id": 77, "cmd": "ping"}\n'


def test_every_byte_on_the_line_leaves_the_game_running(monkeypatch, tmp_path):
    rig = Rig(monkeypatch, tmp_path, _every_byte(), loops=100)
    assert rig.run() == "stopped"  # the loop ran to the end: no byte ended it
    assert rig.loops == 100
    replies = rig.usb.replies()
    assert any(r.get("id") == 77 and r.get("pong") is True for r in replies), replies
    assert all(r.get("ok") or r.get("error") in ("bad_frame", "oversized") for r in replies if "ok" in r)


def test_without_kbd_intr_off_a_0x03_would_stop_the_game(monkeypatch, tmp_path):
    """The negative control: the stream twin does raise on 0x03 when Ctrl-C is left on."""
    rig = Rig(monkeypatch, tmp_path, _every_byte(), loops=100, obeys=False)
    with pytest.raises(KeyboardInterrupt):
        rig.run()


def test_repl_command_stops_the_game_deliberately(monkeypatch, tmp_path):
    rig = Rig(monkeypatch, tmp_path, b'{"id": 5, "cmd": "repl"}\n{"id": 6, "cmd": "ping"}\n')
    assert rig.run() == "reset"
    replies = rig.usb.replies()
    assert [r for r in replies if r.get("id") == 5][0]["ok"] is True
    assert not [r for r in replies if r.get("id") == 6], "the bytes after the request belong to the REPL"
    assert rig.usb.data == bytearray(b'{"id": 6, "cmd": "ping"}\n')
    assert rig.mp.calls == [-1, 3] and rig.mp.intr == 3  # Ctrl-C restored
    assert not any(rig.twins.strip.last), "the LEDs stay lit"
    assert "game stopped" in rig.printed.getvalue()
    assert rig.machine.resets == 1 and os.path.exists(rig.main.REPL_FLAG)
    # the restart that follows leaves the REPL alone, once
    again = Rig(monkeypatch, tmp_path)
    again.main.REPL_FLAG = rig.main.REPL_FLAG
    assert again.run() == "repl"
    assert again.machine.wdt is None and again.mp.calls == [] and "REPL" in again.printed.getvalue()
    assert not os.path.exists(rig.main.REPL_FLAG)
    third = Rig(monkeypatch, tmp_path, loops=5)
    third.main.REPL_FLAG = rig.main.REPL_FLAG
    assert third.run() == "stopped" and third.machine.wdt is not None


def test_menu_held_at_power_up_starts_the_board_without_the_game(monkeypatch, tmp_path):
    from pipcore import geometry as g

    rig = Rig(monkeypatch, tmp_path)
    rig.twins.pad.press(g.BTN_MENU)
    assert rig.run() == "held"
    assert rig.machine.wdt is None and rig.mp.calls == [] and rig.loops == 0
    assert "menu held" in rig.printed.getvalue()
    other = Rig(monkeypatch, tmp_path, loops=3)
    other.twins.pad.press(g.BTN_UNDO)  # another button does not stop the game
    assert other.run() == "stopped"


def test_a_pass_that_always_fails_leaves_the_board_answering(monkeypatch, tmp_path):
    """MemoryError, then RuntimeError, in every pass of the app: the loop goes on and the host hears why."""
    from pipcore import bridge

    failures = {"n": 0}

    def failing_poll(bridge, now):
        failures["n"] += 1
        raise MemoryError("test") if failures["n"] < 80 else RuntimeError("bug")

    monkeypatch.setattr(bridge.AppBridge, "poll", failing_poll)
    frames = b"".join(b'{"id": %d, "cmd": "snapshot"}\n' % i for i in range(3))
    rig = Rig(monkeypatch, tmp_path, frames, loops=60)

    def more(n):
        if n in (30, 55):
            rig.usb.data += b'{"id": %d, "cmd": "snapshot"}\n' % n

    rig.on_loop = more
    assert rig.run() == "stopped" and rig.loops == 60
    snaps = {r["id"]: r["snapshot"] for r in rig.usb.replies() if r.get("ok") and "snapshot" in r}
    assert set(snaps) == {0, 1, 2, 30, 55}
    assert snaps[30]["error"].startswith("memory: MemoryError")
    assert snaps[55]["error"].startswith("internal: RuntimeError: bug")
    assert rig.machine.wdt.feeds >= 60


def test_a_cut_led_chain_is_said_at_power_up_and_in_the_hello(monkeypatch, tmp_path):
    rig = Rig(monkeypatch, tmp_path, b'{"id": 1, "cmd": "ping"}\n', loops=20)
    rig.twins.strip.cut = 60  # a strip's jumper came loose: the chain's end hears nothing
    assert rig.run() == "stopped"
    assert "hardware fault: the LED chain is broken" in rig.printed.getvalue()
    hello = [r for r in rig.usb.replies() if r.get("event") == "hello"][0]
    assert hello["snapshot"]["hardware"] == ["the LED chain is broken (no data comes back from its last pixel)"]
    assert hello["snapshot"]["error"].startswith("hardware:")


def test_an_intact_board_says_no_hardware_fault(monkeypatch, tmp_path):
    rig = Rig(monkeypatch, tmp_path, b'{"id": 1, "cmd": "ping"}\n', loops=20)
    assert rig.run() == "stopped"
    assert "hardware fault" not in rig.printed.getvalue()
    hello = [r for r in rig.usb.replies() if r.get("event") == "hello"][0]
    assert hello["snapshot"]["hardware"] == [] and hello["snapshot"]["error"] is None


def test_the_protocol_is_loaded_at_the_hosts_first_byte_and_the_board_then_says_hello(monkeypatch, tmp_path):
    """A board at the table never holds the protocol's code; the first byte from a host loads it, and the
    host hears the board's hello before the answer to its first frame (the first frame is not lost)."""
    import sys

    rig = Rig(monkeypatch, tmp_path, loops=60)
    seen = {}

    def loop(n):
        if n == 20:
            seen["before"] = rig.usb.replies()
            seen["loaded"] = [name for name in ("pipcore.protocol", "pipcore.bridge") if name in sys.modules]
            rig.usb.data += b'{"id": 9, "cmd": "ping"}\n'

    rig.on_loop = loop
    for name in ("pipcore.protocol", "pipcore.bridge"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    assert rig.run() == "stopped"
    assert seen["before"] == [], "the board spoke before a host did"
    assert seen["loaded"] == [], "the protocol's code was loaded before a host spoke"
    replies = rig.usb.replies()
    assert replies[0].get("event") == "hello" and replies[0]["snapshot"]["phase"] == "setup", replies[:2]
    assert any(r.get("id") == 9 and r.get("pong") is True for r in replies), replies


class CostRig(Rig):
    """The loop on a clock where only sleeping and measuring the heap take time: ``sleep_ms(ms)`` lasts
    ``ms``, ``gc.mem_free`` 9 ms (as on the emulated Pico: it walks the whole heap), a pass nothing. The
    loop stops after ``end_ms``; ``slept`` and ``passes`` are counted from ``from_ms`` on."""

    MEM_FREE_MS = 9

    def __init__(self, monkeypatch, tmp_path, end_ms=3000, from_ms=1000, host=b""):
        super().__init__(monkeypatch, tmp_path, host)
        self.end_ms = end_ms
        self.from_ms = from_ms
        self.slept = 0
        self.passes = 0
        self.measured = 0
        rig = self

        class Clock:
            @staticmethod
            def ticks_ms():
                return rig.ms

            @staticmethod
            def ticks_diff(a, b):
                return a - b

            @staticmethod
            def sleep_ms(ms):
                assert 1 <= ms <= 20, ms  # at least a ms (USB, the host's bytes), at most a few scan periods
                counted = rig.ms >= rig.from_ms
                rig.ms += ms
                if counted:
                    rig.slept += ms
                    rig.passes += 1
                if rig.ms >= rig.end_ms:
                    raise _Stop()

        self.clock = Clock

    def mem_free(self):
        self.ms += self.MEM_FREE_MS
        if self.ms >= self.from_ms:
            self.measured += 1
        return 100000

    def run(self):
        self.printed = io.StringIO()
        import contextlib

        with contextlib.redirect_stdout(self.printed):
            try:
                return self.main.run(machine=self.machine, micropython=self.mp, board_pins=self.pins,
                                     clock=self.clock, mem_free=self.mem_free)
            except _Stop:
                return "stopped"


@pytest.mark.parametrize("host", [b"", b'{"id": 1, "cmd": "ping"}\n'], ids=["at the table", "host connected"])
def test_waiting_for_the_opening_roll_the_loop_sleeps_between_scans(monkeypatch, tmp_path, host):
    """Issue 23 point 7: nothing changes, so the loop wakes once a scan period and does not measure the heap
    every pass (the old loop passed every ms and spent 9 ms in ``gc.mem_free`` each time: 95 % busy on the
    emulated Pico). Busy here is the time not slept: only ``mem_free`` costs time on this clock."""
    from pipcore.app import SCAN_PERIOD_MS

    rig = CostRig(monkeypatch, tmp_path, host=host)
    _set_up_start_position(rig.twins)
    assert rig.run() == "stopped"
    assert any(r.get("id") == 1 for r in rig.usb.replies()) == bool(host)
    elapsed = rig.ms - rig.from_ms
    assert rig.passes <= elapsed // SCAN_PERIOD_MS + 2, (rig.passes, elapsed)
    assert rig.passes >= elapsed // SCAN_PERIOD_MS - 2, "a scan period without a pass: a change would be late"
    assert rig.measured <= 1 + elapsed // 2000, rig.measured
    assert rig.slept >= 0.95 * elapsed, (rig.slept, elapsed)
    saved = json.loads(__import__("pipdrivers.storage", fromlist=["AtomicStore"]).AtomicStore(
        rig.twins.flash, "/pipboard_state.bin").load())
    assert saved["ref"]["phase"] == 0  # waiting for the opening roll all along


def test_a_pressed_button_still_wakes_the_game_within_its_poll(monkeypatch, tmp_path):
    """The sleeping loop sees a press as fast as the old one: a short press acts at its release, and the
    opening roll is rolled within the debounce (3 polls, 10 ms apart) and one poll period of it."""
    from pipcore import geometry as g

    rig = CostRig(monkeypatch, tmp_path, end_ms=1600, from_ms=0)
    _set_up_start_position(rig.twins)
    pressed = {}
    real_sleep = rig.clock.sleep_ms

    def sleep_ms(ms):
        if rig.ms >= 1000 and "at" not in pressed:
            pressed["at"] = rig.ms
            rig.twins.pad.press(g.BTN_WHITE_ROLL)
        if rig.ms >= 1100 and "released" not in pressed:
            pressed["released"] = rig.ms
            rig.twins.pad.release(g.BTN_WHITE_ROLL)
        real_sleep(ms)

    rig.clock.sleep_ms = staticmethod(sleep_ms)
    app = {}
    from pipcore import app as app_module

    real_init = app_module.App.__init__

    def init(self, *args, **kw):
        real_init(self, *args, **kw)
        app["app"] = self

    monkeypatch.setattr(app_module.App, "__init__", init)
    real_step = app_module.App.step

    def step(self, event, now, refusals=False):
        if event[0] == "button" and "button" not in pressed:
            pressed["button"] = now
        return real_step(self, event, now, refusals)

    monkeypatch.setattr(app_module.App, "step", step)
    assert rig.run() == "stopped"
    assert "button" in pressed, "the press was not seen"
    assert 0 < pressed["button"] - pressed["released"] <= 3 * 10 + 10, pressed  # debounce + one poll period
    assert app["app"].ctl.message != "press ROLL for the opening roll", pressed  # rolled (dice, or a tie)
