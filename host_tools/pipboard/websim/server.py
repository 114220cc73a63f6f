"""``pipboard sim``: the whole board in a browser page, served locally.

Runs the firmware app on the simulated board (``pipboard.simboard``: the same
``pipcore.app.App`` as ``main.py``, with driver twins), and serves

* ``http://127.0.0.1:8765/backalley``: Back Alley at a table of bots, or
  of four people at one screen (``pipboard.websim.backalley``);
* ``http://127.0.0.1:8765/``: one page (plain HTML/JS/SVG, no build step)
  showing points, checkers, the LEDs as the hardware lights them, the dice
  display, the cube and the buttons; checkers are lifted and placed by
  clicking or dragging;
* the board protocol (docs/protocol.md) on TCP port 8766, so
  ``pipboard monitor --sim``, ``export``, ``play`` and the tests attach to it.

HTTP endpoints: ``GET /layout`` (static geometry), ``GET /state`` (what the
page draws), ``POST /action`` with ``{"do": "lift"|"place"|"press"|"key"|"setup"|
"box"|"power", ...}`` (``press``: a button by its meaning, short or ``long``; ``key``: a physical
button by number, short or ``long``, as the
menu and undo buttons are pressed; ``power``: a power cut, and the board starts again). The page polls ``/state`` a few times a second.
"""

import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from pipboard.websim import hub

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml"}


class ActionError(ValueError):
    """A click the simulated hands cannot carry out (nothing to lift, empty hand...)."""


class WebSim:
    """A simulated board shared by the web page and the protocol port."""

    def __init__(self, seed=None, test_mode=False, options=None, variant="backgammon", flash_dir=None):
        from pipboard.simboard import SimBoard
        from pipcore.bridge import AppBridge

        flash = None
        if flash_dir:
            from pipboard.twins import FolderFlash

            flash = FolderFlash(flash_dir)
        self.board = SimBoard(seed=seed, options=options, variant=variant, flash=flash)
        self.bridge = AppBridge(SimBoardApp(self.board))
        self.host = hub.BoardHost(self.bridge, test_mode=test_mode)
        self.host.handler.can_reset = True  # test mode's "reset": its twin is the power cut below
        self.host.power_cycle = self.power_cycle
        self.lock = self.host.lock
        from pipboard.websim.backalley import BackAlleyRoom

        self.backalley = BackAlleyRoom(flash_dir=flash_dir, seed=seed)  # the Back Alley page's table

    # -- what the page draws -------------------------------------------------
    def state(self):
        from pipboard.websim import view

        with self.lock:
            return view.state(self.board, self.bridge)

    def act(self, action):
        """Carry out one page action under the board lock; returns the new state."""
        board = self.board
        kind = action.get("do")
        with self.lock:
            try:
                if kind == "lift":
                    loc = _loc(action)
                    if not board.stacks[loc]:
                        raise ActionError("there is no checker to lift there")
                    board.lift(loc)
                elif kind == "place":
                    loc = _loc(action)
                    if not board.hand:
                        raise ActionError("no checker in hand: lift one first")
                    colour = action.get("colour")
                    board.place(loc, colour if colour in board.hand else None)
                elif kind == "box":  # take a checker from the box, or drop the one in hand there
                    colour = action.get("colour")
                    if board.hand:
                        board.put_in_box()
                    elif colour in (0, 1):
                        board.take_from_box(colour)
                    else:
                        raise ActionError("say which colour to take from the box")
                elif kind == "press":
                    name = action.get("button")
                    if name not in button_names():
                        raise ActionError("unknown button %r" % (name,))
                    player = action.get("player")
                    if player is not None and player not in (0, 1):
                        raise ActionError("player must be 0 (white) or 1 (black)")
                    board.press(name, player, bool(action.get("long")))  # long: held, as on the board
                elif kind == "key":  # a physical button: the menu (held: open/leave), undo...
                    button = action.get("button")
                    if type(button) is not int or not 0 <= button < 10:
                        raise ActionError("button must be a button number 0..9")
                    board.key(button, bool(action.get("long")))
                elif kind == "setup":
                    board.follow_guidance()
                elif kind == "power":  # a power cut: the board loses its RAM and starts again from its flash
                    self.power_cycle()
                else:
                    raise ActionError("unknown action %r" % (kind,))
            except ActionError:
                raise
            except (AssertionError, ValueError, IndexError) as exc:  # BoardError is an AssertionError
                raise ActionError(str(exc))
            self.host.handler.poll()
        return self.state()

    def power_cycle(self, how="power"):
        """A power cut, and the board starts again from its flash (the page's ``power`` action; the protocol's
        test-mode ``reset``: a watchdog reset is the same here, the twin has no watchdog). The host's injected
        readings go with the RAM: the board senses its own checkers again until a host injects new ones."""
        board = self.board
        with self.lock:
            board.power_cut()
            board.power_on()
            self.bridge.injected = None
            if self.bridge.dice is not None:  # (test mode's chosen dice, as before the cut)
                board.app.dice = self.bridge.dice


def _loc(action):
    loc = action.get("loc")
    if type(loc) is not int or not 0 <= loc < 28:
        raise ActionError("loc must be a location number 0..27")
    return loc


def button_names():
    from pipcore.controller import BUTTONS

    return BUTTONS


class SimBoardApp:
    """The app behind the bridge: the SimBoard's app, with the SimBoard's clock.

    The bridge steps ``poll(now)`` with real milliseconds; the SimBoard keeps
    virtual time (its hands also advance it), so real time is added as a delta.
    """

    def __init__(self, board):
        self.board = board
        self.last = None

    def __getattr__(self, name):
        return getattr(self.board.app, name)

    def __setattr__(self, name, value):
        if name in ("board", "last"):
            object.__setattr__(self, name, value)
        else:  # e.g. the bridge swapping in a new controller or wrapping the dice driver
            setattr(self.board.app, name, value)

    MAX_STEP_MS = 1000  # real time the board catches up in one poll (after a long hold of the lock)

    def stick_switch(self, bit, level):
        """The protocol's test-mode ``inject`` ``switch``: a switch of the twin stuck closed (1), open (2)
        or working again (0)."""
        self.board.stick(bit, level)
    def event(self, event, now):
        """A host's event, at the board's own (virtual) time: the one time base of its app."""
        self.board.app.event(event, self.board.now)

    def advance_time(self, ms):
        """Test mode (``advance``): the board's time jumps ``ms`` ahead; the app sees it at once."""
        from pipboard.simboard import SCAN_MS

        self.board.app.advance_time(ms)
        self.board.advance(SCAN_MS)

    def poll(self, now):
        dt = 0 if self.last is None else max(0, now - self.last)
        self.last = now
        # a caller that held the board for minutes (a test playing a long session) must not make the next
        # poll replay those minutes scan by scan while the host waits for its answer
        self.board.advance(min(dt, self.MAX_STEP_MS))


def _handler_for(sim):
    class Handler(BaseHTTPRequestHandler):
        server_version = "pipboard-sim"

        def log_message(self, fmt, *args):  # quiet: the terminal shows the game, not requests
            pass

        def _send(self, code, body, ctype="application/json"):
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            path = self.path.split("?")[0]
            if path == "/state":
                return self._send(200, sim.state())
            if path.startswith("/ba/"):
                return self._backalley_get(path)
            if path == "/layout":
                from pipboard.websim import view

                with sim.lock:
                    return self._send(200, view.layout(sim.board))
            name = {"/": "index.html", "/backalley": "backalley.html"}.get(path, path.lstrip("/"))
            full = os.path.normpath(os.path.join(STATIC, name))
            if not full.startswith(STATIC + os.sep) or not os.path.isfile(full):
                return self._send(404, {"error": "not found: %s" % path})
            with open(full, "rb") as f:
                body = f.read()
            return self._send(200, body, CONTENT_TYPES.get(os.path.splitext(full)[1], "application/octet-stream"))

        def _backalley_get(self, path):
            if path == "/ba/state":
                return self._send(200, sim.backalley.state())
            kinds = {"/ba/sheet.txt": "text", "/ba/sheet.json": "json", "/ba/record.txt": "record"}
            if path not in kinds:
                return self._send(404, {"error": "not found: %s" % path})
            sheet = sim.backalley.sheet(kinds[path])
            if sheet is None:
                return self._send(404, {"error": "no Back Alley game yet"})
            return self._send(200, sheet[1], sheet[0])

        def _read_action(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length > 4096:
                raise ActionError("request too large")
            action = json.loads(self.rfile.read(length) or b"{}")
            if not isinstance(action, dict):
                raise ActionError("an action is a JSON object")
            return action

        def do_POST(self):
            if self.path == "/ba/action":
                from pipboard.websim.backalley import BackAlleyActionError

                try:
                    return self._send(200, sim.backalley.act(self._read_action()))
                except (ActionError, BackAlleyActionError, ValueError) as exc:
                    return self._send(400, {"error": str(exc)})
            if self.path != "/action":
                return self._send(404, {"error": "not found"})
            try:
                return self._send(200, sim.act(self._read_action()))
            except (ActionError, ValueError) as exc:
                return self._send(400, {"error": str(exc)})

    return Handler


class Servers:
    """The running simulator: board clock, protocol port and web server."""

    def __init__(self, sim, host="127.0.0.1", http_port=8765, protocol_port=8766):
        self.sim = sim
        self.protocol = hub.serve(sim.host, host, protocol_port)
        self.http = ThreadingHTTPServer((host, http_port), _handler_for(sim))
        self.http.daemon_threads = True
        threading.Thread(target=self.http.serve_forever, name="pipboard-sim-http", daemon=True).start()
        sim.host.start_clock()
        self.url = "http://%s:%d/" % (host, self.http.server_address[1])
        self.protocol_address = "%s:%d" % (host, self.protocol.server_address[1])

    def close(self):
        self.sim.host.stop()
        self.sim.host.cut_clients()
        self.http.shutdown()
        self.http.server_close()
        self.protocol.shutdown()
        self.protocol.server_close()


def start(seed=None, test_mode=False, host="127.0.0.1", http_port=8765, protocol_port=8766, options=None,
          flash_dir=None):
    """Start everything in background threads (ports 0 = any free port); returns ``Servers``.
    ``flash_dir``: the simulated board's flash is that folder (saves and match records outlive the run)."""
    return Servers(WebSim(seed=seed, test_mode=test_mode, options=options, flash_dir=flash_dir), host, http_port,
                   protocol_port)


def run(host="127.0.0.1", http_port=8765, protocol_port=8766, test_mode=False, seed=None, open_browser=False,
        out=sys.stdout, flash_dir=None, options=None):
    try:
        servers = start(seed, test_mode, host, http_port, protocol_port, options=options, flash_dir=flash_dir)
    except OSError as exc:
        sys.stderr.write("pipboard sim: cannot listen on %s (ports %d/%d): %s\n"
                         "  another 'pipboard sim' may be running; choose --http-port/--protocol-port\n"
                         % (host, http_port, protocol_port, exc.strerror or exc))
        return 1
    out.write("Pipboard simulator running%s.\n" % (" in TEST MODE" if test_mode else ""))
    out.write("  open %s in a web browser\n" % servers.url)
    out.write("  protocol on %s  (pipboard monitor --sim %s)\n" % (servers.protocol_address, servers.protocol_address))
    if flash_dir:
        out.write("  flash: the folder %s (the game and the match records are kept there)\n" % flash_dir)
    out.write("  Ctrl-C stops it.\n")
    out.flush()
    if open_browser:
        import webbrowser

        webbrowser.open(servers.url)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        out.write("\nstopped.\n")
    finally:
        servers.close()
    return 0
