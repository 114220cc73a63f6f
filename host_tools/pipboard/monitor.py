"""``pipboard monitor``: mirror the game on a board or the simulator, live.

Connects, says hello (which brings the full snapshot), draws the board, then
prints every event as it comes and redraws from a fresh snapshot whenever the
game moved on. When the link drops (the board is unplugged, the simulator
stops, a frame is cut in half) it says so, keeps trying, and on reconnect
resynchronises from the snapshot: nothing is assumed from before the cut.
"""

import sys
import time

from pipboard.link import CommandError, Link, LinkError
from pipcore.position import Position, PositionError

REDRAW_EVENTS = ("record", "record_reset", "roll", "cube", "game_over", "new_game", "phase", "hello", "resign",
                 "fair", "backalley")


def describe(snapshot):
    """The snapshot as text: the board as gnubg draws it and a status line."""
    from pipboard.textgame import draw_board

    lines = []
    if isinstance(snapshot.get("backalley"), dict):  # the board keeps a Back Alley score: no checkers to draw
        lines.extend(backalley_lines(snapshot["backalley"]))
        if snapshot.get("message"):
            lines.append(" board says: %s" % snapshot["message"])
        if snapshot.get("error"):
            lines.append(" FAULT: %s" % snapshot["error"])
        lines += _board_lines(snapshot)
        return "\n".join(lines)
    pid = snapshot.get("position_id")
    mover = snapshot.get("mover", 0)
    dice = snapshot.get("dice")
    try:
        pos = Position.from_id(pid)
        lines.append(draw_board(pos, mover == 0, tuple(dice) if dice else None, names=("white (X)", "black (O)")))
    except (PositionError, TypeError):
        lines.append(" Position ID: %r (cannot be drawn)" % (pid,))
    cube = snapshot.get("cube")
    if isinstance(cube, dict):
        owner = {0: "white", 1: "black"}.get(cube.get("owner"), "centred")
        cube_text = "%s (%s)" % (cube.get("value"), owner)
    else:
        cube_text = str(cube)
    status = [
        "phase: %s" % snapshot.get("phase"),
        "on roll: %s" % ("white" if mover == 0 else "black"),
        "cube: %s" % cube_text,
    ]
    if snapshot.get("score") is not None:
        status.append("score: %s-%s" % tuple(snapshot["score"][:2]))
    if snapshot.get("match_length"):
        status.append("match to %s" % snapshot["match_length"])
    lines.append(" " + "   ".join(status))
    lines.append(" Match ID: %s   event #%s" % (snapshot.get("match_id"), snapshot.get("seq")))
    clock = snapshot.get("clock")
    if isinstance(clock, dict):
        lines.append(" clock: %s" % clock_text(clock))
    if snapshot.get("message"):
        lines.append(" board says: %s" % snapshot["message"])
    lines.extend(_table_lines(snapshot))
    if snapshot.get("error"):
        lines.append(" FAULT: %s" % snapshot["error"])
    lines += _board_lines(snapshot)
    storage = snapshot.get("storage")
    if isinstance(storage, dict) and storage.get("low"):
        lines.append(" the board's flash is nearly full (%s bytes free): export the matches "
                     "(pipboard export --all -o DIR)" % storage.get("free"))
    return "\n".join(lines)


def backalley_lines(ba):
    """The snapshot's ``backalley`` (docs/protocol.md) as text: the deal, each seat, the contracts, the scores;
    the whole score sheet once the game is over."""
    state = ba.get("state")
    if not isinstance(state, dict):
        return [" Back Alley scorekeeper: who deals first? (%s)" % ba.get("entry")]
    try:
        names = ba["names"]
        lines = [" Back Alley scorekeeper: deal %s of 25, %s card%s, dealer %s, trump %s" % (
            ba["deal"], ba["cards"], "" if ba["cards"] == 1 else "s", ba["dealer"], ba["trump"] or "not keyed yet")]
        seats = []
        for i, seat in enumerate("NESW"):
            text = "%s (%s): %s" % (names[i], seat, ba["calls"].get(seat, "-"))
            if seat in ba["tricks"]:
                text += "/%s" % ba["tricks"][seat]
            seats.append(text + ("*" if ba["leader"] == seat else ""))
        lines.append("   " + "   ".join(seats))
        if ba.get("contracts"):
            lines.append("   contracts: NS %s, EW %s%s" % (ba["contracts"]["NS"], ba["contracts"]["EW"],
                                                           ", %s leads" % ba["leader"] if ba["leader"] else ""))
        ref = ba.get("referee")
        if isinstance(ref, dict):
            lines.extend(referee_lines(ref, names))
        elif ba.get("to_act"):
            lines.append("   %s keys %s (the board's view: %s)" % (ba["to_act"], ba["entry"], ba["view"]))
        lines.append("   score: NS %s, EW %s%s" % (ba["scores"]["NS"], ba["scores"]["EW"],
                                                   "  (%d redeal%s)" % (ba["redeals"], "" if ba["redeals"] == 1
                                                                        else "s") if ba["redeals"] else ""))
        if ba.get("refused"):
            lines.append("   refused: %s" % ba["refused"])
        if ba.get("winner"):
            from pipboard.basheet import sheet_text
            from pipcore.bascore import ScoreKeeper

            lines.append(sheet_text(ScoreKeeper.restore(state)).rstrip("\n"))
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        return [" Back Alley scorekeeper: unreadable state (%s: %s)" % (type(exc).__name__, exc)]
    return lines


def referee_lines(ref, names):
    """The snapshot's ``backalley.referee`` (the board referees the play: docs/protocol.md) as text: the trick
    being played and the card being keyed, the last trick and its winner, the tricks taken."""
    seats = "NESW"

    def played(leader, cards):
        start = seats.index(leader)
        return ", ".join("%s %s" % (seats[(start + i) % 4], card) for i, card in enumerate(cards))

    lines = []
    last = ref.get("last")
    if last:
        lines.append("   trick %s: %s: %s wins" % (last["trick"], played(last["leader"], last["cards"]),
                                                  names[seats.index(last["winner"])]))
    if ref.get("playing"):
        now = played(ref["leader"], ref["cards"]) if ref["cards"] else "%s leads" % ref["leader"]
        lines.append("   trick %s of %s: %s; %s keys %s%s" % (
            ref["trick"], ref["of"], now, ref["to_act"], ref["entry"],
            " (the last trick is shown: a key opens the entry)" if ref.get("showing_last") else ""))
    taken = ref["taken"]
    lines.append("   tricks taken: " + ", ".join("%s %s" % (seat, taken[seat]) for seat in seats) +
                 ("" if ref.get("playing") else " (the last deal refereed)"))
    return lines


def _board_lines(snapshot):
    """The board's own state: its menu, the self-test, the power-up checks (docs/protocol.md)."""
    lines = []
    menu = snapshot.get("menu")
    if isinstance(menu, dict) and menu.get("open"):
        lines.append(" menu open: %s = %s" % (menu.get("title"), menu.get("text")))
    elif isinstance(menu, dict) and menu.get("pending"):
        lines.append(" a match chosen in the board's menu starts with the next new match")
    test = snapshot.get("self_test")
    if isinstance(test, dict):
        lines.append(" self-test: %s" % _self_test_text(test))
    for problem in snapshot.get("hardware") or ():
        lines.append(" HARDWARE: %s" % problem)
    return lines


def _self_test_text(test):
    problems = test.get("problems") or []
    if test.get("step") != "done":
        return "%s, %s of %s slots walked" % (test.get("step"), test.get("checked"), test.get("total"))
    if not problems:
        return "done: every switch %s works" % ("walked" if test.get("complete") else "reached")
    return "done: " + ", ".join("%s %s" % (p.get("switch"), p.get("fault")) for p in problems)


def clock_text(clock):
    """The snapshot's ``clock`` as one line (``white 13:42*  black 14:00   (simple delay 12 s)``)."""
    from pipcore.gameclock import format_line

    try:
        return format_line(clock)
    except (KeyError, TypeError, IndexError, ValueError):
        return "unreadable (%r)" % (clock,)


def _clock_key(clock):
    """What the clock line says, coarsely: whose clock runs and its minutes (tens of seconds under one)."""
    if not isinstance(clock, dict):
        return None
    side = clock.get("running", -1)
    try:
        left = clock["remaining"][side] if side in (0, 1) else 0
        return (side, clock.get("flag"), left // 60000 if left >= 60000 else -1 - left // 10000)
    except (KeyError, TypeError, IndexError):
        return None


_LEVELS = ("single", "gammon", "backgammon")
_PATTERN_LETTERS = "WBGA"  # the panel's colours of a commitment: warm white, blue, green, amber


def commitment_pattern(commitment):
    """The panel's picture of a fair match's commitment as text: die A's seven pips, then die B's
    (top-left, top-right, middle-left, centre, middle-right, bottom-left, bottom-right), one letter each."""
    from pipcore.fairmatch import pattern

    letters = "".join(_PATTERN_LETTERS[c] for c in pattern(commitment))
    return "die A %s  die B %s" % (letters[:7], letters[7:])


def _table_lines(snapshot):
    """At the table: a resignation offered, dice keyed in, a fair match's commitment and seed."""
    lines = []
    offer = snapshot.get("resign")
    if isinstance(offer, dict):
        player = offer.get("player")
        points = offer.get("points")
        lines.append(" %s offers to resign a %s (%s point%s): %s answers with TAKE (accept) or DROP (decline)" % (
            "white" if player == 0 else "black", _LEVELS[offer.get("level", 1) - 1], points,
            "" if points == 1 else "s", "black" if player == 0 else "white"))
    keyed = snapshot.get("keyed")
    if isinstance(keyed, dict):
        a, b = keyed.get("dice") or (0, 0)
        lines.append(" dice being keyed in: %s-%s" % (a or "?", b or "?"))
    fair = snapshot.get("fair")
    if isinstance(fair, dict) and fair.get("commitment"):
        lines.append(" provably fair dice: commitment %s" % fair["commitment"])
        lines.append("   the panel shows it before the first roll as %s (W white, B blue, G green, A amber)"
                     % commitment_pattern(fair["commitment"]))
        if fair.get("seed"):
            lines.append("   seed revealed: %s (pipboard verify checks every roll of the exported match)"
                         % fair["seed"])
    return lines


def describe_event(event):
    if event.get("event") == "self_test":
        return "#%s self_test: %s" % (event.get("seq"), _self_test_text(event))
    fields = ", ".join("%s=%s" % (k, event[k]) for k in event if k not in ("event", "seq", "snapshot"))
    return "#%s %s%s" % (event.get("seq"), event.get("event"), (": " + fields) if fields else "")


class Monitor:
    """The monitor loop, split into steps so tests can drive it."""

    def __init__(self, target, out=sys.stdout, retry_s=1.0, timeout=3.0):
        self.target = target
        self.out = out
        self.retry_s = retry_s
        self.timeout = timeout
        self.link = None
        self.snapshot = None
        self.connects = 0
        self.resyncs = 0
        self.events = 0
        self.clock_every = 1.0  # seconds between looks at a running clock (no event says it ticks)
        self._clock_at = 0.0
        self._clock_key = None

    def say(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    def connect(self):
        """Try once to connect; returns True when connected and synchronised."""
        try:
            self.link = Link.open(self.target, timeout=self.timeout)
        except (LinkError, CommandError) as exc:
            self.link = None
            return exc
        hello = self.link.hello_reply
        self.connects += 1
        try:
            self.link.set_time()  # the board dates its matches by the host's clock
        except LinkError as exc:
            self.link = None
            return exc
        self.say("connected to %s: firmware %s, protocol %s%s" % (
            self.link.name, hello.get("firmware"), hello.get("protocol"), ", TEST MODE" if hello.get("test_mode") else ""))
        self.show(hello.get("snapshot") or self.link.snapshot())
        return True

    def show(self, snapshot):
        self.snapshot = snapshot
        self._clock_key = _clock_key(snapshot.get("clock"))
        self.say(describe(snapshot))

    def watch_clock(self):
        """While a tournament clock runs, a line whenever its reading changes: each minute, each 10 s in
        the last minute (the board sends no event for time passing)."""
        clock = (self.snapshot or {}).get("clock")
        if not isinstance(clock, dict) or clock.get("running", -1) < 0:
            return
        now = time.monotonic()
        if now - self._clock_at < self.clock_every:
            return
        self._clock_at = now
        snap = self.link.snapshot()
        key = _clock_key(snap.get("clock"))
        if key != self._clock_key:
            self._clock_key = key
            self.snapshot = snap
            if isinstance(snap.get("clock"), dict):
                self.say(" clock: %s" % clock_text(snap["clock"]))

    def resync(self):
        self.resyncs += 1
        self.show(self.link.snapshot())

    def pump(self, timeout=0.5):
        """Handle what arrives within ``timeout`` seconds. Raises LinkError when the link drops."""
        event = self.link.next_event(timeout)
        if event is None:
            self.watch_clock()
            return False
        self.events += 1
        expected = None if self.snapshot is None else (self.snapshot.get("seq") or 0) + 1
        seq = event.get("seq")
        self.say(describe_event(event))
        if expected is not None and isinstance(seq, int) and seq != expected:
            self.say("(missed events %s..%s: resynchronising)" % (expected, seq - 1))
            self.resync()
        elif event.get("event") in REDRAW_EVENTS:
            self.resync()
        elif self.snapshot is not None and isinstance(seq, int):
            self.snapshot["seq"] = seq
        return True

    def run(self, once=False, stop=None):
        """Run until ``stop()`` is true (or forever); returns an exit code."""
        waiting_said = False
        while stop is None or not stop():
            if self.link is None:
                result = self.connect()
                if result is not True:
                    if once:
                        self.say("pipboard monitor: %s" % result)
                        return 1
                    if not waiting_said:
                        self.say("waiting for the board: %s" % result)
                        waiting_said = True
                    time.sleep(self.retry_s)
                    continue
                waiting_said = False
                if once:
                    self.link.close()
                    return 0
            try:
                self.pump()
            except (LinkError, CommandError) as exc:
                self.say("link lost (%s); reconnecting..." % exc)
                self.link.close()
                self.link = None
        if self.link is not None:
            self.link.close()
        return 0


def run(target, once=False, out=sys.stdout):
    monitor = Monitor(target, out)
    try:
        return monitor.run(once=once)
    except KeyboardInterrupt:
        return 0
