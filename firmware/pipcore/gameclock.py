"""The tournament clock: a reserve and a delay per player, simple delay or Bronstein.

Loaded only by a match whose ``clock`` option is not "off" (``Controller._new_match``).

* **Reserve**: ``clockMinutes`` minutes per point of match length (a match to 7
  with 2 minutes a point: 14 minutes each, kept from game to game); in money
  play ``clockMinutes`` per game (both reserves are full again at every game).
* **Delay**, ``clockDelay`` seconds per turn of the clock. *Simple delay*: the
  first ``clockDelay`` seconds of each turn are not taken from the reserve.
  *Bronstein*: the reserve runs from the first second, and when the turn ends
  the time it used, up to the delay, is given back.
* **Whose clock runs** (``running_side``): the player on roll's, from the end
  of the opponent's turn (their DONE, or the start of the turn) to DONE; while
  a double (beaver, raccoon) waits for an answer, the answering player's. Each
  change of side starts a new turn of the clock, with its own delay (as when
  players press a chess clock: after a take, the doubler's clock starts
  afresh). Nothing runs during setup, the opening roll or between games.
* **The board's menu does not stop it**: the time the menu (or the
  self-test) is open is charged to the side whose clock was running, so a
  player cannot think in the menu. A flag that falls meanwhile is applied
  as the menu closes (the app steps the controller at once, on every exit
  path), never behind the menu's back.
* **Flag fall**: a reserve that reaches zero loses the match (in money play,
  the game): ``pipcore.match.Referee.lose_on_time``. A step that finds a flag
  fallen ignores its button or dice (the time was up before they came).
* **Power cuts**: the state is in the save, and while a clock runs the app
  writes its reading (``reading``) to a small file of its own every
  ``READING_MS``; a restored clock resumes from the newer of the two, so a
  cut gives back at most those few seconds, and the time the board was off
  is not charged (``at`` is not saved).

Time is explicit: ``now`` in ms from ``Controller.step`` (``GameClock.follow``
is its hook); no sleeps, no clock reads; a step allocates nothing here. Every
value stays a small int on the Pico (reserves at most 15,300 minutes,
918,000,000 ms, below 2**30).
"""

from pipcore.compat import const
from pipcore.match import ANSWER, CUBE_OR_ROLL, PLAY, MatchError
from pipcore.names import CUBE_OFFERED, MOVING, PICK, TURN_START

OFF = const(0)
SIMPLE = const(1)
BRONSTEIN = const(2)
MODES = ("off", "simple", "bronstein")

CLOCK_COLOUR = const(0x00B8A0)  # teal on the panel: a clock reading is never taken for a roll (dice colours)
TICK_MS = const(1000)  # while a clock runs, the app steps the controller at least this often
WARN_MS = const(60000)  # under a minute: the panel warns (blinks)
READING_MS = const(5000)  # a running clock's reading is written this often (a cut gives back at most this)
_MINUTE = const(60000)
_STATE_LEN = const(11)


class GameClock:
    """Two reserves and the turn of the clock being played (see the module docstring)."""

    def __init__(self, mode, delay_ms, reserve_ms, per_game=False):
        if mode not in (SIMPLE, BRONSTEIN):
            raise ValueError("a clock is simple (1) or bronstein (2), not %r" % (mode,))
        self.mode = mode
        self.delay = delay_ms
        self.full = reserve_ms  # each reserve at the start (of the match; of every game in money play)
        self.per_game = per_game
        self.left = [reserve_ms, reserve_ms]  # ms left per player
        self.running = -1  # whose clock runs (-1: nobody's)
        self.turn = -1  # whose turn of the clock is open (a pause keeps it open)
        self.used = 0  # ms used in the open turn (its delay counts from its start)
        self.flag = -1  # the player whose reserve ran out
        self.game = 0  # the game the reserves belong to (money play fills them at every game)
        self.at = -1  # when the clock was last charged; -1: not since power-up (the time off is free)
        self.read_at = 0  # when the reading was last written (``keep_reading``)
        # what the app shows (``_show``): the dice faces, the bar of markers, the warning
        self.wake = -1  # the app steps the controller when ``now`` reaches this (-1: no need)
        self.shown = 0  # all of the panel's reading in one int: the app redraws when it changes
        self.face_a = 0
        self.face_b = 0
        self.bar = 0
        self.warn = False

    @classmethod
    def for_options(cls, options):
        """The clock a match with these options (``pipcore.options``) starts with."""
        length = options["matchLength"]
        minutes = options["clockMinutes"] * (length if length else 1)
        return cls(MODES.index(options["clock"]), options["clockDelay"] * 1000, minutes * _MINUTE, not length)

    # -- time --------------------------------------------------------------------
    def cost(self, dt, used):
        """What ``dt`` ms more of a turn that used ``used`` ms takes from the reserve."""
        if self.mode == SIMPLE:
            free = self.delay - used
            if free > 0:
                return dt - free if dt > free else 0
        return dt

    def charge(self, now):
        """Take the time since the last charge from the running reserve; returns the fallen flag (or -1)."""
        at = self.at
        if now < at:
            return self.flag  # an older stamp (another time base) changes nothing: time never runs back
        self.at = now
        side = self.running
        if side < 0 or at < 0 or now == at:
            return self.flag
        dt = now - at
        left = self.left[side] - self.cost(dt, self.used)
        self.used += dt
        if left <= 0:
            left = 0
            if self.flag < 0:
                self.flag = side
        self.left[side] = left
        return self.flag

    def run(self, side, now):
        """From ``now`` the clock of ``side`` runs (-1: nobody's). Another side than the open turn's starts
        a new turn (the open one ends: Bronstein gives its time back, up to the delay)."""
        self.charge(now)
        if side >= 0 and side != self.turn:
            self.end_turn()
            self.turn = side
        self.running = side

    def end_turn(self):
        """The open turn of the clock ends (a move made, the game over)."""
        t = self.turn
        if t >= 0 and self.mode == BRONSTEIN and self.flag < 0:
            used = self.used
            self.left[t] += used if used < self.delay else self.delay
        self.turn = -1
        self.used = 0

    def new_game(self, number):
        """Game ``number`` starts: money play fills both reserves again; a match keeps them."""
        self.end_turn()
        self.running = -1
        self.game = number
        if self.per_game:
            self.left[0] = self.left[1] = self.full
            self.flag = -1

    def until_flag(self, side):
        """ms before the flag of ``side`` (whose clock runs) falls if nothing stops it."""
        left = self.left[side]
        if self.mode == SIMPLE and side == self.turn and self.used < self.delay:
            return left + self.delay - self.used
        return left

    # -- the controller's hook (``Controller.step`` calls it before and after each event) -----------------
    def follow(self, ctl, now):
        """Charge up to ``now``; a fallen flag loses the game (the match); then run the clock the phase
        says. Returns True when a flag fell in this call."""
        ref = ctl.ref
        if self.game != ref.game_number:
            self.new_game(ref.game_number)
        fell = self.charge(now)
        if getattr(ctl, "paused", False):  # the menu is open: the running side's time goes on; its flag,
            self.show(now)  # if it falls, is applied when the menu closes
            return False
        if fell >= 0 and not ctl.setting_up and ref.phase in (CUBE_OR_ROLL, ANSWER, PLAY):
            ref.lose_on_time(fell)
            ctl.forced = None
            ctl._enter()
            ctl.message = "%s lost on time; %s" % ("white" if fell == 0 else "black", ctl.message)
            ctl.save_due = True
            side = -1
        else:
            fell = -1
            side = running_side(ctl)
        if side < 0 and ref.game_over():
            self.run(-1, now)
            self.end_turn()  # the game's last move ends its turn of the clock (Bronstein gives back)
        else:
            self.run(side, now)
        self.show(now)
        if fell >= 0:
            ctl._evaluate()
            return True
        return False

    # -- what is shown ---------------------------------------------------------------
    def show(self, now):
        """Work out the panel's reading and when the app must step again (``wake``)."""
        side = self.running
        if side < 0:
            self.wake = -1
            self.shown = self.face_a = self.face_b = self.bar = 0
            self.warn = False
            return
        left = self.left[side]
        if left < WARN_MS:  # under a minute: die A counts the tens of seconds left (1..6), blinking
            a = (left + 9999) // 10000
            b = 0
            warn = True
        else:  # the minutes left (rounded up) as the sum of the two dice: 6-6 is 12 minutes or more
            m = (left + _MINUTE - 1) // _MINUTE
            a = m if m < 6 else 6
            b = m - a
            if b > 6:
                b = 6
            warn = False
        quarter = (self.full + 3) // 4
        bar = (left + quarter - 1) // quarter
        if bar > 4:
            bar = 4
        self.face_a = a
        self.face_b = b
        self.bar = bar
        self.warn = warn
        self.shown = 1 | a << 1 | b << 4 | bar << 7 | (1024 if warn else 0) | side << 11
        wait = self.until_flag(side)
        self.wake = now + (wait if wait < TICK_MS else TICK_MS)

    def view(self):
        """The snapshot's ``clock`` (docs/protocol.md): as of the last step (the app steps every second)."""
        side = self.turn
        delay_left = 0
        if side >= 0 and self.used < self.delay:
            delay_left = self.delay - self.used
        return {"mode": MODES[self.mode], "delay": self.delay, "reserve": self.full,
                "remaining": [self.left[0], self.left[1]], "running": self.running,
                "delay_left": delay_left, "flag": self.flag}

    # -- the reading between saves (a power cut gives back at most READING_MS) ----------------------
    def reading(self, seq):
        """The reserves as a few bytes, tied to the state save ``seq`` they follow (the app writes them
        every ``READING_MS`` while a clock runs)."""
        return ("%d %d %d %d %d" % (seq, self.game, self.left[0], self.left[1], self.used)).encode()

    def keep_reading(self, store, seq, now):
        """Write the reading to ``store`` (an AtomicStore) when ``READING_MS`` have passed since the last one
        (the app calls this at its clock ticks while the clock runs). A refused write waits for the next."""
        if store is None or now - self.read_at < READING_MS:
            return
        self.read_at = now
        try:
            store.save(self.reading(seq))
        except (OSError, ValueError):
            pass  # the state save stands; the next reading tries again

    def take_reading(self, data, seq):
        """Go on from ``data``, a ``reading`` written after the state save ``seq`` this clock was restored
        from. A reading of another save or game, a damaged one, or one that would give time back is
        ignored. True when taken."""
        try:
            parts = [int(x) for x in bytes(data).split()]
        except (TypeError, ValueError):
            return False
        if len(parts) != 5 or parts[0] != seq or parts[1] != self.game:
            return False
        l0, l1, used = parts[2], parts[3], parts[4]
        # within a turn of the clock the reserves only fall and the time used only grows
        if not (0 <= l0 <= self.left[0] and 0 <= l1 <= self.left[1] and used >= self.used):
            return False
        self.left[0] = l0
        self.left[1] = l1
        self.used = used
        return True

    # -- the save ----------------------------------------------------------------------
    def state(self):
        """Compact JSON-ready state for the save (``at`` is left out: the time off is never charged)."""
        return [self.mode, self.delay, self.full, 1 if self.per_game else 0, self.left[0], self.left[1],
                self.running, self.turn, self.used, self.flag, self.game]

    @classmethod
    def restore(cls, data):
        """A clock from ``state()`` data; raises ValueError when it is unusable."""
        if not isinstance(data, list) or len(data) != _STATE_LEN:
            raise ValueError("saved clock is not a list of %d numbers" % _STATE_LEN)
        for x in data:
            if type(x) is not int:
                raise ValueError("saved clock holds %r" % (x,))
        mode, delay, full, per_game, l0, l1, running, turn, used, flag, game = data
        if delay < 0 or full < 1 or l0 < 0 or l1 < 0 or used < 0 or game < 0:
            raise ValueError("saved clock holds negative times")
        for side in (running, turn, flag):
            if side not in (-1, 0, 1):
                raise ValueError("saved clock names player %r" % (side,))
        c = cls(mode, delay, full, bool(per_game))
        c.left = [l0, l1]
        c.running = running
        c.turn = turn
        c.used = used
        c.flag = flag
        c.game = game
        return c


def time_points(ref, winner):
    """What a loss on time gives ``winner`` (``Referee.lose_on_time``).

    In a match: the smallest single, gammon or backgammon at the cube's value that wins the match (as
    gnubg will read the game from a .mat file: a resignation), or, where even a backgammon does not reach,
    the points the match still needed. In money play: the most the game can cost (a backgammon at the
    cube's value under the options; a mars in long nardy), so running out the clock saves nothing.
    """
    if winner not in (0, 1):
        raise MatchError("player must be 0 or 1")
    top = 2 if ref.nardy else 3
    need = ref.match.away(winner)
    if not need:
        return ref.cube.points(top)
    value = ref.cube.value
    for kind in range(1, top + 1):
        if value * kind >= need:
            return value * kind
    return need


def draw(disp, clock, dice_free, markers_free):
    """The running clock on the panel (``pipdrivers.dice_display.DiceDisplay``), in teal: on free dice the
    minutes left as the sum of the two dice (6-6: 12 or more; under a minute die A counts the tens of
    seconds left, blinking); on the move markers (unless they count a double's moves) the quarters of the
    reserve left, blinking under a minute."""
    from pipcore import geometry as g

    effect = 1 if clock.warn else 0  # pipdrivers.leds BLINK, STEADY
    if dice_free:
        disp._face(g.LED_DIE_A, clock.face_a, CLOCK_COLOUR, effect)
        disp._face(g.LED_DIE_B, clock.face_b, CLOCK_COLOUR)
    if markers_free:
        disp.moves(clock.bar, CLOCK_COLOUR, effect)


def running_side(ctl):
    """Whose clock the controller's phase runs: the player on roll's before and after the roll, the
    answering player's while a double or a resignation waits; nobody's in setup, the opening or between
    games. (The board's menu changes nothing here: ``GameClock.follow`` keeps the side that ran.)"""
    pending = getattr(ctl, "pending", None)
    if pending is not None and pending.display[0] == "resign":  # the answering player decides
        return 1 - pending.display[1]
    phase = ctl.phase
    if phase == TURN_START or phase == MOVING or phase == PICK:
        return ctl.ref.turn
    if phase == CUBE_OFFERED:
        who = ctl.ref.cube.responder()
        return -1 if who is None else who
    return -1


def format_ms(ms):
    """``m:ss`` (rounded up: a flag falls at 0:00), ``h:mm:ss`` from an hour."""
    s = (ms + 999) // 1000
    if s >= 3600:
        return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)
    return "%d:%02d" % (s // 60, s % 60)


def format_line(view):
    """The snapshot's ``clock`` as one line: both players' time, the running one starred, the mode."""
    parts = []
    for p in (0, 1):
        mark = "*" if view["running"] == p else ""
        flag = " (flag fell)" if view["flag"] == p else ""
        parts.append("%s %s%s%s" % ("white" if p == 0 else "black", format_ms(view["remaining"][p]), mark, flag))
    return "%s   (%s delay %d s)" % ("  ".join(parts), view["mode"], view["delay"] // 1000)
