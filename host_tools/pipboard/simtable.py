"""A simulated table: a board served on the protocol port, played by virtual hands at a human-like pace.

``SimTable`` puts a ``SimBoard`` (the firmware app on driver twins) behind
the simulator's protocol port (``pipboard.websim.hub``), exactly what
``pipboard sim`` serves, and lets a ``VirtualPlayer`` play one match on it in
a background thread, a pause of ``pace_s`` after every play. Every event the
board makes goes out on the protocol at once, as on a real board. The room's
tests, its benchmark and ``pipboard room --demo`` use it; ``target`` is the
link target (``sim:HOST:PORT``) a room bridges.

With ``done_at_end`` the players press DONE at once when the match ends
(the board starts a new match; otherwise it stays at the match's end).

``SimTable(player=False)`` serves the board without hands: another program
(``pipboard remote``'s tests) plays it through the protocol.
"""

import random
import threading
import time

from pipboard.simboard import SimBoard, VirtualPlayer
from pipboard.websim import hub


class _Stopped(Exception):
    """The table was stopped in the middle of a game."""


class _TableBoard(SimBoard):
    """A SimBoard whose every step of virtual time is taken under the table's lock and flushed as events."""

    table = None
    stay_over = True  # False: the players press DONE at once at the match's end (a new match starts)

    def advance(self, ms):
        table = self.table
        if table is None:
            return SimBoard.advance(self, ms)
        with table.host.lock:
            SimBoard.advance(self, ms)
            table.flush()


    def press(self, name, player=None):
        from pipcore.names import MATCH_OVER

        if name == "DONE" and self.stay_over and self.app is not None and self.ctl.phase == MATCH_OVER:
            return  # the players leave the table at the end of the match: it stays over for the room
        SimBoard.press(self, name, player)


class _TableApp:
    """The protocol's app seam over the table's board (its clock is the hands' virtual time)."""

    def __init__(self, board):
        object.__setattr__(self, "board", board)

    def __getattr__(self, name):
        return getattr(self.board.app, name)

    def __setattr__(self, name, value):
        setattr(self.board.app, name, value)

    def poll(self, now):
        self.board.advance(0)


class SimTable:
    """A simulated board on a loopback TCP port, optionally with hands that play a match."""

    def __init__(self, seed=1, match_length=3, pace_s=0.05, test_mode=False, player=True, host="127.0.0.1",
                 port=0, double_rate=0.03, done_at_end=False):
        from pipcore.bridge import AppBridge

        options = {"matchLength": match_length}
        self.board = _TableBoard(seed=seed, options=options)
        self.bridge = AppBridge(_TableApp(self.board))
        self.host = hub.BoardHost(self.bridge, test_mode=test_mode)
        self.board.table = self
        self.board.stay_over = not done_at_end
        self.server = hub.serve(self.host, host, port)
        self.target = "sim:%s:%d" % self.server.server_address[:2]
        self.pace_s = pace_s
        self.player = None
        if player:
            self.player = VirtualPlayer(self.board, rng=random.Random(seed), wrong_rate=0.0, chatter_rate=0.0,
                                        knock_rate=0.0, cut_rate=0.0, fast_rate=0.0, double_rate=double_rate)
        self.thread = None
        self.running = False
        self.finished = threading.Event()
        self.stopping = threading.Event()
        self.error = None
        self.games = 0
        self.done_at = []  # time.time() of every DONE that committed a play (latency figures)
        self._plays_seen = 0

    def flush(self):
        """Turn what changed on the board into events and send them (under the lock)."""
        self.bridge._changes()
        while self.host.handler.poll():
            pass

    def start(self):
        if self.player is None:
            self.host.start_clock()
            return
        self.running = True
        self.thread = threading.Thread(target=self._play, name="simtable", daemon=True)
        self.thread.start()

    def _play(self):
        player = self.player
        original = player._finish

        def finish(base, intended, dice):
            original(base, intended, dice)
            self.done_at.append(time.time())
            if self.pace_s:
                self.stopping.wait(self.pace_s * (0.5 + random.random()))
            if not self.running:
                raise _Stopped()

        player._finish = finish
        try:
            while self.running:
                player.play_game()
                self.games += 1
                if player.match_over:
                    break
        except _Stopped:
            pass
        except Exception as exc:  # reported by the tests; the board stays served
            self.error = exc
        finally:
            self.finished.set()

    def cut_link(self):
        """Unplug the board's USB cable, as far as the host can tell: every client is dropped."""
        self.host.cut_clients()

    def stop(self):
        self.running = False
        self.stopping.set()
        self.host.stop()
        if self.thread is not None:
            self.thread.join(5)
        self.host.cut_clients()
        self.server.shutdown()
        self.server.server_close()
