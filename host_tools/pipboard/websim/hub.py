"""The simulated board's protocol port: the firmware's handler behind a TCP socket.

One ``ProtocolHandler`` (the very code the Pico runs) serves every client;
each client has its own frame buffer, replies go to the client that asked and
events are numbered once and sent to all. Everything that touches the board
runs under ``BoardHost.lock``, so the web page, the protocol port and the
clock thread can share one simulated board.
"""

import socket
import socketserver
import threading
import time

from pipcore import __version__ as FIRMWARE_VERSION
from pipcore.protocol import FrameReader, ProtocolHandler


class BoardHost:
    """A simulated board (the app seam of ``pipcore.protocol``) with its clock and clients.

    ``app`` must offer the protocol seam and ``poll(now)``; ``now`` is in ms.
    """

    def __init__(self, app, test_mode=False, geometry=None, tick_ms=10, clock=None):
        self.app = app
        self.lock = threading.RLock()
        self.clients = []
        self.tick_ms = tick_ms
        self.clock = clock or (lambda: int(time.monotonic() * 1000))
        self.start = self.clock()
        self.handler = ProtocolHandler(app, self._broadcast, FIRMWARE_VERSION, geometry, test_mode=test_mode,
                                       board="pipboard-sim")
        self.running = False
        self.thread = None
        self.power_cycle = None  # the protocol's test-mode "reset" (the simulator's power cut), if the board has one

    def now(self):
        return self.clock() - self.start

    # -- clock --------------------------------------------------------------
    def step(self):
        """One pass of the main loop: the app, then its events out."""
        with self.lock:
            self.app.poll(self.now())
            self.handler.poll()

    def start_clock(self):
        self.running = True
        self.thread = threading.Thread(target=self._run, name="pipboard-sim-clock", daemon=True)
        self.thread.start()

    def _run(self):
        while self.running:
            try:
                self.step()
            except Exception as exc:  # keep the board alive; report once per kind
                self._report(exc)
            time.sleep(self.tick_ms / 1000.0)

    def _report(self, exc):
        import sys
        import traceback

        key = repr(exc)
        if getattr(self, "_last_report", None) != key:
            self._last_report = key
            sys.stderr.write("simulated board: %s\n" % key)
            traceback.print_exc()

    def stop(self):
        self.running = False
        if self.thread:
            self.thread.join(2)

    # -- clients -------------------------------------------------------------
    def attach(self, client):
        with self.lock:
            self.clients.append(client)

    def detach(self, client):
        with self.lock:
            if client in self.clients:
                self.clients.remove(client)

    def feed(self, client, data):
        """Bytes from one client: replies go back to it alone."""
        with self.lock:
            def on_frame(frame):
                self.handler.write = client.send
                try:
                    self.handler.on_frame(frame)
                finally:
                    self.handler.write = self._broadcast
                how = self.handler.reset_requested
                if how and self.power_cycle is not None:  # test mode's "reset", after its reply
                    self.handler.reset_requested = None
                    self.power_cycle(how)
            client.reader.feed(data, on_frame)

    def _broadcast(self, data):
        for client in list(self.clients):
            client.send(data)

    def cut_clients(self, partial=b""):
        """Drop every client, optionally after half a frame (tests of reconnects)."""
        with self.lock:
            for client in list(self.clients):
                if partial:
                    client.send(partial)
                client.close()
            self.clients = []


class _Client:
    def __init__(self, sock):
        self.sock = sock
        self.reader = FrameReader()
        self.alive = True
        self.send_lock = threading.Lock()

    def send(self, data):
        if not self.alive:
            return
        with self.send_lock:
            try:
                self.sock.sendall(data)
            except OSError:
                self.alive = False

    def close(self):
        self.alive = False
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass


class ProtocolServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    """TCP port speaking the board protocol for ``BoardHost``."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, board_host, address):
        self.board_host = board_host
        socketserver.TCPServer.__init__(self, address, _ProtocolConnection)


class _ProtocolConnection(socketserver.BaseRequestHandler):
    def handle(self):
        sock = self.request
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.settimeout(1.0)
        client = _Client(sock)
        host = self.server.board_host
        host.attach(client)
        try:
            while client.alive:
                try:
                    data = sock.recv(4096)
                except socket.timeout:
                    continue
                except OSError:
                    break
                if not data:
                    break
                host.feed(client, data)
        finally:
            host.detach(client)
            client.close()


def serve(board_host, host="127.0.0.1", port=8766):
    """Start the protocol port in a background thread; returns the server (``server_address`` has the port)."""
    server = ProtocolServer(board_host, (host, port))
    threading.Thread(target=server.serve_forever, name="pipboard-sim-protocol", daemon=True).start()
    return server
