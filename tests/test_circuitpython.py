"""The CircuitPython build on the host, with Adafruit's real ``neopixel`` and ``adafruit_pixelbuf``.

The composition root (``firmware/code.py``, ``firmware/boot.py``,
``pipdrivers.cp_board_pins``) runs under CPython over the twins of
tests/cp_twins (``board``, ``digitalio``, ``neopixel_write``, ``keypad``,
``usb_cdc``, ...), so brightness, byte order and ``auto_write`` are those of
Adafruit's libraries. Virtual players play whole games on it (as in
tests/test_e2e_games.py), and the bytes it puts on the LED wire are
compared with the MicroPython build's frames for the same games.
"""

import contextlib
import importlib.util
import io
import json
import os
import random

import pytest
from circuitpython import circuitpython, cp_build
from pipboard.simboard import SimBoard, VirtualPlayer
from pipcore import geometry as g
from pipcore import pinmap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def cp():
    with circuitpython() as wiring:
        yield wiring


def _load(name):
    spec = importlib.util.spec_from_file_location("pipboard_cp_" + name, os.path.join(ROOT, "firmware", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # not __main__: nothing runs
    return module


def _games(build, n_games, seed, frames=None, **kw):
    board = SimBoard(seed=seed, build=build, **kw)
    player = VirtualPlayer(board, random.Random(seed * 7919 + 1))
    for _ in range(n_games):
        player.play_game()
    return player.stats, board


# -- the e2e games ---------------------------------------------------------------------
@pytest.mark.parametrize("part", range(2))
def test_games_money_play_on_the_circuitpython_build(cp, part):
    stats, board = _games(cp_build, 10, seed=300 + part)
    assert stats["games"] == 10 and stats["refused"] == 0
    assert stats["accepted"] == stats["turns"] > 0
    assert stats["resumed"] > 0  # power cuts happened (every one a fresh power-up of code's build)
    assert stats["wrong"] > 0
    assert cp.frames > 0  # the LEDs were driven through neopixel_write
    assert [a.resyncs for a in board.hw.inputs] == [0, 0]  # the keypad queues never overflowed


def test_match_to_five_and_long_nardy_on_the_circuitpython_build(cp):
    board = SimBoard(seed=5, options={"matchLength": 5}, build=cp_build)
    player = VirtualPlayer(board, random.Random(5), double_rate=0.2)
    for _ in range(40):
        player.play_game()
        if player.match_over:
            break
    assert player.match_over and player.stats["refused"] == 0
    stats, board = _games(cp_build, 3, seed=12, variant="nardy")
    assert stats["refused"] == 0 and stats["games"] == 3


def test_small_sensor_capacity_forces_picks_on_the_circuitpython_build(cp):
    stats, _ = _games(cp_build, 5, seed=9, capacity=bytes([2] * 24 + [2, 2, 6, 6]))
    assert stats["refused"] == 0 and stats["picks"] > 0


# -- the same frames as the MicroPython build ------------------------------------------------
def _mp_recording(frames):
    from pipdrivers.board import Board

    def build(board):
        tw = board.twins

        def write(buf):
            frames.append(bytes(buf))
            tw.strip.write(buf)

        return Board(tw.switches.readinto, write, tw.pad.read, tw.flash, tw.entropy)  # as SimBoard's own

    return build


def _cp_recording(frames):
    import cpsim

    def build(board):
        hw = cp_build(board)
        cpsim.WIRING.on_frame = frames.append
        return hw

    return build


@pytest.mark.parametrize("seed,options,games",
                         [(41, None, 3), (42, {"matchLength": 7}, 2), (43, {"caucasian": True}, 3)])
def test_led_frames_equal_the_micropython_builds(cp, seed, options, games):
    mp_frames, cp_frames = [], []
    mp_stats, _ = _games(_mp_recording(mp_frames), games, seed, options=options)
    cp_stats, _ = _games(_cp_recording(cp_frames), games, seed, options=options)
    assert mp_stats == cp_stats  # the same games, the same power cuts
    assert len(mp_frames) > 100
    assert len(cp_frames) == len(mp_frames)
    for i, (a, b) in enumerate(zip(mp_frames, cp_frames)):
        assert a == b, "frame %d differs: MicroPython %s.. CircuitPython %s.." % (i, a[:24].hex(), b[:24].hex())
    assert any(f != bytes(len(f)) for f in cp_frames)


def test_one_wire_write_per_frame_in_grb_and_unscaled_by_the_neopixel(cp):
    import cpsim
    from pipdrivers import cp_board_pins

    cpsim.power_on(clock=lambda: 0)
    strip = cp_board_pins.led_strip()
    assert strip.brightness == 1.0 and strip.auto_write is False and strip.byteorder == "GRB"
    write = cp_board_pins.strip_writer(strip)
    frame = bytearray(3 * g.LEDS)
    frame[0:3] = bytes((0x11, 0x22, 0x33))  # pixel 0: r, g, b
    frame[-3:] = bytes((0xFF, 0x80, 0x01))
    write(frame)
    assert cp.frames == 1  # auto_write off: 197 pixels set, one transmission
    wire = cp.last_frame
    assert len(wire) == 3 * g.LEDS
    assert wire[0:3] == bytes((0x22, 0x11, 0x33))  # GRB on the wire
    assert wire[-3:] == bytes((0x80, 0xFF, 0x01))
    assert wire[3:-3] == bytes(len(wire) - 6)
    strip.brightness = 0.5  # what the build must not do: Adafruit's scaling on top of ours
    write(frame)
    assert cp.last_frame[0:3] == bytes((0x11, 0x08, 0x19)) != wire[0:3]


# -- the keypad adapters ------------------------------------------------------------------------
def test_keypad_key_numbers_are_the_scan_bits(cp):
    import cpsim
    from pipboard.twins import VirtualSwitches
    from pipdrivers import cp_board_pins

    switches = VirtualSwitches()
    now = [0]
    cpsim.power_on(chain=switches, clock=lambda: now[0])
    chain = cp_board_pins.chain_reader()
    buf = bytearray(g.SCAN_BYTES + 1)
    for bit in (0, 7, 8, 100, 167):
        switches.set(bit, True)
    for t in range(0, 20, 5):  # four scans at 5 ms: settled at the fourth
        now[0] = t
        chain.readinto(buf)
        assert (t < 15) == (buf == bytearray(len(buf))), (t, buf.hex())
    want = bytearray(g.SCAN_BYTES + 1)
    for bit in (0, 7, 8, 100, 167):
        want[bit >> 3] |= 1 << (bit & 7)
    want[g.SCAN_BYTES] = 0xFF  # the sentinel byte: the chain is intact
    assert buf == want
    switches.broken = True
    for t in range(20, 40, 5):
        now[0] = t
        chain.readinto(buf)
    assert buf[g.SCAN_BYTES] == 0x00


def test_chatter_shorter_than_the_debounce_never_settles(cp):
    import cpsim
    from pipboard.twins import VirtualSwitches
    from pipdrivers import cp_board_pins

    switches = VirtualSwitches(seed=4)
    now = [0]
    cpsim.power_on(chain=switches, clock=lambda: now[0])
    chain = cp_board_pins.chain_reader()
    buf = bytearray(g.SCAN_BYTES + 1)
    for t in range(0, 40, 5):
        now[0] = t
        chain.readinto(buf)
    settled = bytes(buf)
    switches.chatter(50, 3)  # three random reads: fewer than four scans
    for t in range(40, 100, 5):
        now[0] = t
        chain.readinto(buf)
        assert bytes(buf) == settled


def test_a_full_queue_resyncs_from_a_fresh_scan(cp):
    import board
    import cpsim
    import keypad
    from pipboard.twins import VirtualSwitches
    from pipdrivers import cp_board_pins
    from pipdrivers.cp_keys import KeypadChain

    assert cp_board_pins.CHAIN_EVENTS >= cp_board_pins.KEY_COUNT  # a resync (every key pressed) always fits
    switches = VirtualSwitches()
    now = [0]
    cpsim.power_on(chain=switches, clock=lambda: now[0])
    keys = keypad.ShiftRegisterKeys(clock=board.GP18, data=board.GP16, latch=board.GP17, key_count=176,
                                    value_when_pressed=True, interval=0.005, max_events=40, debounce_threshold=4)

    def wait():  # the board sleeps while the keypad rescans
        now[0] += 30

    chain = KeypadChain(keys, keypad.Event(), wait)
    buf = bytearray(g.SCAN_BYTES + 1)
    chain.readinto(buf)
    for bit in range(30):
        switches.set(bit, True)
    now[0] = 50
    chain.readinto(buf)  # 30 + 8 sentinel events: they fit
    assert chain.resyncs == 0 and buf[:4] == b"\xff\xff\xff\x3f"
    for bit in range(30):  # while the loop is stalled, 60 changes: more than the queue holds
        switches.set(bit, False)
        switches.set(30 + bit, True)
    now[0] = 150
    chain.readinto(buf)
    assert chain.resyncs == 1
    want = bytearray(g.SCAN_BYTES + 1)
    for bit in range(30, 60):
        want[bit >> 3] |= 1 << (bit & 7)
    want[g.SCAN_BYTES] = 0xFF
    assert buf == want


def test_keypad_buttons_read_as_the_micropython_pins_do(cp):
    import cpsim
    from pipboard.twins import VirtualButtons
    from pipdrivers import cp_board_pins

    pad = VirtualButtons()
    now = [0]
    cpsim.power_on(pad=pad, clock=lambda: now[0])
    read = cp_board_pins.button_reader().read
    pad.press(g.BTN_MENU)
    pad.press(g.BTN_WHITE_ROLL)
    seen = []
    for t in range(0, 40, 10):
        now[0] = t
        seen.append(read())
    assert seen == [0, 0, 1 << g.BTN_MENU | 1 << g.BTN_WHITE_ROLL, 1 << g.BTN_MENU | 1 << g.BTN_WHITE_ROLL]
    with pytest.raises(ValueError, match="in use"):  # the pins are keypad's now
        cp_board_pins.button_reader()


# -- boot.py and code.py -------------------------------------------------------------------------
def test_boot_gives_the_drive_to_the_board_and_enables_the_data_channel(cp):
    import board
    import cpsim
    import digitalio
    import storage
    import usb_cdc

    boot = _load("boot")
    cpsim.power_on()
    assert boot.configure(board, digitalio, storage, usb_cdc, lambda s: None) == "board"
    assert cp.remounts == [False] and not cp.drive_readonly
    assert usb_cdc.enabled == {"console": True, "data": True}
    assert not cp.claimed  # the menu pin is free again for keypad
    cpsim.power_on()
    cp.held.add(pinmap.BUTTON_PINS[g.BTN_MENU])  # the safe-mode escape: menu held while plugging in
    assert boot.configure(board, digitalio, storage, usb_cdc, lambda s: None) == "computer"
    assert cp.remounts == [] and cp.drive_readonly
    assert usb_cdc.enabled["data"] is True and not cp.claimed


class _Stop(BaseException):
    """Ends the loop from the clock twin, as Ctrl-C (KeyboardInterrupt) does on the console."""


class _Clock:
    def __init__(self, ms, loops, on_loop=None):
        self.ms = ms
        self.loops = 0
        self.max_loops = loops
        self.on_loop = on_loop

    def sleep(self, seconds):
        self.ms[0] += 5
        self.loops += 1
        if self.on_loop:
            self.on_loop(self.loops)
        if self.loops >= self.max_loops:
            raise _Stop()


def _run_code(cp, tmp_path, monkeypatch, loops=60, drive_readonly=False, data=True, host=b"", on_loop=None):
    import cpsim
    import microcontroller
    import storage
    import supervisor
    import usb_cdc
    from pipboard.twins import MemFlash, VirtualBoard
    from pipdrivers import cp_board_pins

    code = _load("code")
    twins = VirtualBoard(seed=2)
    ms = [0]
    cpsim.power_on(chain=twins.switches, pad=twins.pad, clock=lambda: ms[0], drive_readonly=drive_readonly,
                   data_enabled=data)
    flash = MemFlash()
    pins = type("Pins", (), {"build": staticmethod(lambda: cp_board_pins.build(fs=flash, entropy=twins.entropy))})
    if usb_cdc.data is not None:
        usb_cdc.data.host_write(host)
    clock = _Clock(ms, loops, on_loop and (lambda n: on_loop(n, twins)))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        try:
            result = code.run(board_pins=pins, supervisor=supervisor, microcontroller=microcontroller,
                              usb_cdc=usb_cdc, storage=storage, clock=clock, mem_free=lambda: 100000)
        except _Stop:
            result = "stopped"
    out = usb_cdc.data.host_read() if usb_cdc.data is not None else b""
    replies = [json.loads(line) for line in out.decode().splitlines() if line.startswith("{")]
    return result, printed.getvalue(), replies, microcontroller.watchdog, flash, clock


def test_code_runs_the_game_on_the_data_channel(cp, tmp_path, monkeypatch):
    def set_up(n, twins):
        if n == 10:
            from pipcore.board import fill_counts
            from pipcore.position import Position

            counts = bytearray(g.LOCATIONS)
            fill_counts(Position.start(), 0, counts)
            for loc in range(g.LOCATIONS):
                twins.switches.place(loc, counts[loc])

    host = b'{"id": 1, "cmd": "ping"}\n{"id": 2, "cmd": "repl"}\n\x03\n{"id": 3, "cmd": "ping"}\n'
    result, printed, replies, wdt, flash, clock = _run_code(cp, tmp_path, monkeypatch, host=host, on_loop=set_up)
    assert result == "stopped" and clock.loops == 60
    assert replies[0]["event"] == "hello" and replies[0]["geometry"]["sensors"] == g.SENSORS
    by_id = {r.get("id"): r for r in replies if "id" in r}
    assert by_id[1]["ok"] and by_id[3]["ok"]  # 0x03 on the data channel stops nothing
    assert not by_id[2]["ok"] and "REPL" in by_id[2]["message"]  # the REPL is on the console
    assert wdt.timeout == 8.0 and wdt.feeds >= clock.loops
    assert wdt.mode is None  # switched off when the loop ended: the REPL is not reset under the maker
    assert cp.frames > 0 and cp.last_frame == bytes(3 * g.LEDS)  # the LEDs went off
    from pipdrivers.storage import AtomicStore

    saved = json.loads(AtomicStore(flash, "/pipboard_state.bin").load())
    assert not saved["setup"]  # the switches showed the start position and the board saved it
    assert "game running" in printed


def test_code_does_not_start_while_the_computer_owns_the_drive(cp, tmp_path, monkeypatch):
    result, printed, _, wdt, _, _ = _run_code(cp, tmp_path, monkeypatch, drive_readonly=True)
    assert result == "drive" and "belongs to the computer" in printed
    assert wdt.mode is None and cp.frames == 0
    result, printed, _, wdt, _, _ = _run_code(cp, tmp_path, monkeypatch, data=False)
    assert result == "no data channel" and "data channel is off" in printed


# -- allocation-free on the real MicroPython ------------------------------------------------------
def test_the_circuitpython_adapters_allocate_nothing_under_heap_lock():
    from unix_mp import run_unix_micropython, unix_micropython

    if unix_micropython() is None:
        pytest.skip("unix MicroPython not installed")
    proc = run_unix_micropython(os.path.join("tests", "mp_cp_alloc.py"), heap="256k", timeout=120)
    assert proc.returncode == 0 and "PASS" in proc.stdout, proc.stdout + proc.stderr


def test_a_build_without_hashlib_gets_adafruits(monkeypatch):
    import hashlib
    import sys
    import types

    code = _load("code")
    adafruit_hashlib = types.ModuleType("adafruit_hashlib")
    adafruit_hashlib.sha256 = hashlib.sha256
    monkeypatch.setitem(sys.modules, "hashlib", None)  # "import hashlib" raises ImportError, as on such a build
    monkeypatch.setitem(sys.modules, "adafruit_hashlib", adafruit_hashlib)
    code.use_hashlib()
    assert sys.modules["hashlib"] is adafruit_hashlib
    from pipdrivers import storage

    monkeypatch.setattr(storage, "hashlib", sys.modules["hashlib"])
    assert storage.decode(storage.encode(3, b"saved")) == (3, b"saved")
