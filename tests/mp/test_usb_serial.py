"""The USB serial driver and HostLink with injected streams (CPython and MicroPython)."""

import json

from pipdrivers.usb_serial import HostLink, UsbSerial, started_in_test_mode
from protocol_fuzz import RecordingApp


class Stream:
    def __init__(self, data=b""):
        self.data = bytearray(data)
        self.out = bytearray()

    def readinto(self, buf):
        if not self.data:
            return 0
        buf[0] = self.data[0]
        self.data = self.data[1:]
        return 1

    def write(self, data):
        self.out += data


class Poller:
    def __init__(self, stream):
        self.stream = stream

    def poll(self, timeout):
        return [1] if self.stream.data else []


class PollingApp(RecordingApp):
    def __init__(self):
        RecordingApp.__init__(self)
        self.polls = 0

    def poll(self, now):
        self.polls += 1


def test_pump_reads_only_what_is_waiting_and_bounds_the_work():
    stream = Stream(b"x" * 600)
    link = UsbSerial(stream, stream, Poller(stream))
    seen = bytearray()
    assert link.pump(seen.extend) == 256
    assert link.pump(seen.extend, limit=1000) == 344
    assert link.pump(seen.extend) == 0
    assert bytes(seen) == b"x" * 600


def test_no_flag_file_means_normal_mode():
    assert started_in_test_mode("/no/such/pipboard_flag") is False


def test_hostlink_answers_and_keeps_the_app_running():
    stream = Stream(b'{"id": 1, "cmd": "ping"}\n{"id": 2, "cmd": "set_dice", "dice": [1, 2]}\n')
    link = UsbSerial(stream, stream, Poller(stream))

    app = PollingApp()
    # the app already speaks the seam here; AppBridge over the real app is tested with the simulator
    host = HostLink(app, "1.0", test_mode=False, serial=link, bridge=app)
    host.poll(5)
    host.poll(10)
    replies = [json.loads(line) for line in bytes(stream.out).decode().splitlines()]
    assert replies[0] == {"ok": True, "id": 1, "pong": True}
    assert replies[1]["error"] == "test_mode_only"
    assert app.polls == 2 and app.calls == []
