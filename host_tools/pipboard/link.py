"""The host end of the board protocol (docs/protocol.md), over serial or TCP.

A real board is a USB serial port (pyserial); the simulator listens on a TCP
port on the loopback interface. Both carry the same newline-delimited JSON
frames, so every tool takes a *target*:

    /dev/ttyACM0, COM5        a serial port
    auto                      the first Raspberry Pi Pico found by USB ID: MicroPython's
                              port, or CircuitPython's data channel (its second port)
    sim, sim:PORT, HOST:PORT  the simulator over TCP (default 127.0.0.1:8766)

``Link.request(cmd, **args)`` sends a command and returns its reply; events
that arrive meanwhile are queued for ``Link.next_event``. Lines that are not
JSON objects (a MicroPython banner, a traceback printed by the REPL) are
skipped, so the link survives a board that reboots.
"""

import collections
import json
import socket
import time

PICO_VID = 0x2E8A
PICO_PID_MICROPYTHON = 0x0005
ADAFRUIT_VID = 0x239A  # CircuitPython boards (the Pico's CircuitPython build: 239A:80F4)
DEFAULT_SIM_PORT = 8766
MAX_LINE = 1 << 20  # longest board frame the host accepts
BAUD = 115200  # ignored by USB CDC, needed by pyserial


class LinkError(Exception):
    """The board cannot be reached, stopped answering, or went away."""


class CommandError(Exception):
    """The board refused a command; ``code`` is the protocol error code."""

    def __init__(self, code, message, reply=None):
        super().__init__("%s: %s" % (code, message))
        self.code = code
        self.message = message
        self.reply = reply or {}


def find_pico_ports():
    """Serial ports of attached Picos running MicroPython (USB 2E8A:0005)."""
    try:
        from serial.tools import list_ports
    except ImportError:  # pragma: no cover - pyserial is a dependency
        return []
    return sorted(p.device for p in list_ports.comports() if p.vid == PICO_VID and p.pid == PICO_PID_MICROPYTHON)


def _interface_number(port):
    """The USB interface number of a serial port (``location`` ends in ``:1.N`` on Linux/macOS), or None."""
    location = getattr(port, "location", None) or ""
    tail = location.rpartition(":")[2]
    try:
        return int(tail.rpartition(".")[2]) if "." in tail else None
    except ValueError:
        return None


def circuitpython_ports(ports=None):
    """``[(data_port or None, console_port)]`` for each CircuitPython board (USB vendor 239A) attached.

    With boot.py's ``usb_cdc.enable(data=True)`` a board shows two serial
    ports: the console (REPL) first, then the data channel; CircuitPython
    names the second interface "CircuitPython CDC2". A board with one port
    only has no data channel yet (boot.py not run since it was copied).
    """
    if ports is None:
        try:
            from serial.tools import list_ports
        except ImportError:  # pragma: no cover - pyserial is a dependency
            return []
        ports = list_ports.comports()
    boards = {}
    for p in ports:
        if p.vid != ADAFRUIT_VID:
            continue
        location = getattr(p, "location", None) or ""
        key = (p.serial_number or "", location.rpartition(":")[0] or p.device)
        boards.setdefault(key, []).append(p)
    found = []
    for key in sorted(boards):
        group = boards[key]
        named = [p for p in group if "CDC2" in (getattr(p, "interface", None) or "")]
        group.sort(key=lambda p: (_interface_number(p) is None, _interface_number(p) or 0, p.device))
        if named:
            data = named[0]
        elif len(group) >= 2:
            data = group[1]
        else:
            data = None
        console = next((p for p in group if p is not data), group[0])
        found.append((data.device if data else None, console.device))
    return found


def find_board_ports():
    """Serial ports that carry the protocol: MicroPython Picos, then CircuitPython data channels."""
    return find_pico_ports() + [data for data, _ in circuitpython_ports() if data]


def parse_target(target):
    """``("tcp", host, port)`` or ``("serial", device)`` for a target text."""
    if target is None or target == "auto":
        ports = find_board_ports()
        if not ports:
            consoles = [console for data, console in circuitpython_ports() if not data]
            if consoles:
                raise LinkError(
                    "a CircuitPython board is on %s but shows no data channel: boot.py enables it at power-up, "
                    "so unplug the board and plug it in again (without holding menu)" % consoles[0])
            raise LinkError(
                "no Raspberry Pi Pico with MicroPython (%04X:%04X) or CircuitPython's data channel (%04X:*) found "
                "on USB; plug the board in, or name the port with --port, or use --sim"
                % (PICO_VID, PICO_PID_MICROPYTHON, ADAFRUIT_VID))
        return ("serial", ports[0])
    if target == "sim":
        return ("tcp", "127.0.0.1", DEFAULT_SIM_PORT)
    if target.startswith("sim:"):
        target = target[4:]
        if ":" not in target:
            target = "127.0.0.1:" + target
    if target.startswith("tcp:"):
        target = target[4:]
    host, sep, port = target.rpartition(":")
    if sep and port.isdigit() and not target.startswith("/") and not target.upper().startswith("COM"):
        return ("tcp", host or "127.0.0.1", int(port))
    return ("serial", target)


class _SocketStream:
    def __init__(self, host, port, timeout):
        try:
            self.sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as exc:
            raise LinkError("cannot reach the simulator at %s:%d (%s); start it with 'pipboard sim'"
                            % (host, port, exc.strerror or exc))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.name = "%s:%d" % (host, port)

    def read(self, timeout):
        self.sock.settimeout(timeout)
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            return b""
        except OSError as exc:
            raise LinkError("connection to %s lost (%s)" % (self.name, exc))
        if not data:
            raise LinkError("connection to %s closed" % self.name)
        return data

    def write(self, data):
        try:
            self.sock.sendall(data)
        except OSError as exc:
            raise LinkError("connection to %s lost (%s)" % (self.name, exc))

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class _SerialStream:
    def __init__(self, device, timeout):
        import serial

        try:
            self.port = serial.Serial(device, BAUD, timeout=timeout, write_timeout=2)
        except (serial.SerialException, OSError, ValueError) as exc:
            raise LinkError("cannot open serial port %s (%s)" % (device, exc))
        self.name = device
        self.serial = serial

    def read(self, timeout):
        try:
            self.port.timeout = timeout
            first = self.port.read(1)
            if not first:
                return b""
            return first + self.port.read(self.port.in_waiting or 0)
        except (self.serial.SerialException, OSError) as exc:
            raise LinkError("board on %s went away (%s)" % (self.name, exc))

    def write(self, data):
        try:
            self.port.write(data)
            self.port.flush()
        except (self.serial.SerialException, OSError) as exc:
            raise LinkError("board on %s went away (%s)" % (self.name, exc))

    def close(self):
        try:
            self.port.close()
        except Exception:
            pass


class Link:
    """One connection to a board or the simulator."""

    def __init__(self, stream):
        self.stream = stream
        self.name = stream.name
        self.pending = bytearray()
        self.events = collections.deque()
        self.next_id = 1
        self.hello_reply = None
        self.last_seq = None
        self.target = None  # what ``open`` was given (``reopen`` uses it)

    @classmethod
    def open(cls, target=None, timeout=3.0, hello=True):
        """Connect to ``target`` (see module doc); with ``hello`` check it answers."""
        kind = parse_target(target)
        stream = _SocketStream(kind[1], kind[2], timeout) if kind[0] == "tcp" else _SerialStream(kind[1], timeout)
        link = cls(stream)
        link.target = target
        if hello:
            try:
                link.hello(timeout)
            except Exception:
                link.close()
                raise
        return link

    def close(self):
        self.stream.close()

    def reopen(self, timeout=3.0):
        """Connect again to the same board (after its reset: a Pico's port goes away and comes back); says
        hello. Raises LinkError if it does not answer."""
        self.stream.close()
        kind = parse_target(self.target if self.target not in (None, "auto") else self.name)
        self.stream = _SocketStream(kind[1], kind[2], timeout) if kind[0] == "tcp" else _SerialStream(kind[1], timeout)
        self.pending = bytearray()
        self.events.clear()
        return self.hello(timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- frames -----------------------------------------------------------
    def send_frame(self, obj):
        self.stream.write((json.dumps(obj, separators=(",", ":")) + "\n").encode())

    def read_frame(self, timeout=1.0):
        """The next JSON object from the board, or None after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            nl = self.pending.find(b"\n")
            while nl >= 0:
                line = bytes(self.pending[:nl]).strip()
                del self.pending[:nl + 1]
                frame = _parse(line)
                if frame is not None:
                    return frame
                nl = self.pending.find(b"\n")
            if len(self.pending) > MAX_LINE:
                self.pending.clear()  # a runaway line: drop it, keep listening
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.pending += self.stream.read(min(left, 0.5))

    def request(self, cmd, timeout=3.0, **args):
        """Send a command; return its reply (a dict) or raise CommandError/LinkError."""
        request_id = self.next_id
        self.next_id += 1
        frame = {"id": request_id, "cmd": cmd}
        frame.update(args)
        self.send_frame(frame)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise LinkError("%s did not answer %r within %.1f s (is the Pipboard firmware running?)"
                                % (self.name, cmd, timeout))
            reply = self.read_frame(left)
            if reply is None:
                continue
            if "event" in reply:
                self._queue_event(reply)
                continue
            if reply.get("id") != request_id or "cmd" in reply:
                continue  # a late reply to an earlier, timed-out request; or our own frame echoed by a REPL
            if not reply.get("ok"):
                raise CommandError(reply.get("error", "error"), reply.get("message", ""), reply)
            return reply

    def _queue_event(self, event):
        if isinstance(event.get("seq"), int):
            self.last_seq = event["seq"]
        self.events.append(event)

    def next_event(self, timeout=1.0):
        """The next event frame, or None after ``timeout`` seconds."""
        if self.events:
            return self.events.popleft()
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            frame = self.read_frame(left)
            if frame is not None and "event" in frame:
                if isinstance(frame.get("seq"), int):
                    self.last_seq = frame["seq"]
                return frame

    # -- commands ---------------------------------------------------------
    def hello(self, timeout=3.0):
        reply = self.request("hello", timeout=timeout)
        self.hello_reply = reply
        self.last_seq = reply.get("snapshot", {}).get("seq")
        return reply

    def snapshot(self):
        snap = self.request("snapshot")["snapshot"]
        self.last_seq = snap.get("seq")
        return snap

    def ping(self, data=None):
        return self.request("ping", **({} if data is None else {"data": data}))["pong"]

    def new_game(self, variant="backgammon", options=None):
        args = {"variant": variant}
        if options:
            args["options"] = options
        # (the board closes the match's record and opens the next on its flash first: 1.5-2 s on a Pico, measured
        # on the emulated one, more than the 3 s default there at its 0.4x speed)
        return self.request("new_game", timeout=10.0, **args)["snapshot"]

    def set_position(self, position_id, match_id=None):
        args = {"position_id": position_id}
        if match_id:
            args["match_id"] = match_id
        return self.request("set_position", **args)["snapshot"]

    def show_play(self, play):
        return self.request("show_play", play=play)

    def show_cube(self, action):
        return self.request("show_cube", action=action)

    def roll(self):
        return self.request("roll")

    def resign(self, player, level=None, action=None):
        """A resignation: ``player`` (0 white, 1 black) offers ``level`` (1 single, 2 gammon, 3 backgammon),
        or answers the other's offer (``action`` "accept", "decline"), or withdraws his own ("withdraw")."""
        args = {"player": player, "action": action or "offer"}
        if level is not None:
            args["level"] = level
        return self.request("resign", **args)

    def set_dice(self, dice):
        return self.request("set_dice", dice=list(dice))

    def advance(self, ms):
        """Test mode: the board's time jumps ``ms`` ahead (a tournament clock runs out at once)."""
        return self.request("advance", ms=int(ms))

    def inject(self, kind, index, value, player=None):
        """Test mode: a sensor reading, or a button press (``player`` 0 white / 1 black: whose button)."""
        if player is None:
            return self.request("inject", kind=kind, index=index, value=value)
        return self.request("inject", kind=kind, index=index, value=value, player=player)

    def self_test(self, action="start"):
        """The board's guided switch test (docs/board-menu.md): ``start``, ``stop`` or ``status``; returns its
        state (the result once done; the last result, or None, when none runs)."""
        return self.request("self_test", action=action)["self_test"]

    def record(self, match=None):
        """A match's whole record as bytes, read page by page (``match`` None: the one being played)."""
        import base64

        data = bytearray()
        offset = 0
        args = {} if match is None else {"match": match}
        while offset is not None:
            page = self.request("record", offset=offset, **args)
            data += base64.b64decode(page["data"])
            offset = page.get("next")
        return bytes(data)

    def matches(self, start=0):
        """``(entries, storage)``: the board's directory of matches (oldest first, from id ``start``) and its
        flash figures."""
        out = []
        storage = None
        while start is not None:
            reply = self.request("matches", start=start)
            out.extend(reply.get("matches") or [])
            storage = reply.get("storage")
            start = reply.get("next")
        return out, storage

    def mark_exported(self, match, length):
        return self.request("exported", match=match, length=length)

    def delete_match(self, match):
        return self.request("delete_match", match=match)

    def set_time(self, seconds=None):
        """Give the board the host's clock (UTC seconds): its matches get their date. Returns False when the
        board does not take it (an older firmware)."""
        import time

        try:
            self.request("set_time", time=int(time.time() if seconds is None else seconds))
        except CommandError:
            return False
        return True


def _parse(line):
    if not line.startswith(b"{"):
        return None
    try:
        frame = json.loads(line.decode("utf-8", "replace"))
    except ValueError:
        return None
    return frame if isinstance(frame, dict) else None
