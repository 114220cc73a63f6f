"""Back Alley scorekeeper mode: the board keeps the score of a game played with a real pack.

Chosen in the board's menu (the game "Back Alley") or by a host's
``new_game`` with the variant ``backalley``. The players shuffle, deal and
play with their own cards; the buttons tell the board what it cannot see
(the first dealer, the trump, each call, the tricks each seat took) and
``pipcore.bascore`` keeps the rest: the schedule, whose turn, what RULES.md
5.6 forbids, the contracts and the opening lead (5.7), the scores (5.9),
redeals and the end of the game (5.10). This module only maps buttons to
keys and the keeper to the LEDs.

RAM: loaded only while the board keeps such a score (``App.mode``; the app
imports it lazily) and unloaded when a backgammon or nardy match starts
again. The backgammon game waits meanwhile without its code: a fresh
game's setup, without a match record, that the switches never reach
(``pipcore.bawait``, which also starts, resumes and ends the mode).

The board (docs/backalley.md, hardware/backalley-overlay.svg): each seat
has a quadrant of six points (``QUADRANTS``): N top left, E top right, S
bottom right, W bottom left. The glyphs of the top half face the top edge,
those of the bottom half the bottom edge. A quadrant shows in two 3 x 5
glyphs (slots 2..6) its seat's call, tricks or team contract, and on its
outer row (slot 1) the markers (``MARKS``). The trump lights one slot of the
top bar (``TRUMP_LOC``). The panel's dice show the number of cards; the
"to move" light of the side whose buttons key next glows green.

Keys: a seat keys with the buttons of its side (N and E: the black side's,
at the top edge; S and W: the white side's, at the bottom); the other side's
are refused. The first dealer and a new game take either side's.

    take / drop     the value shown up / down (held: 5 steps)
    double          a shortcut: Board (a call), the rest of the tricks (tricks),
                    joker (the trump), a seat at random (the first dealer)
    roll/done       OK: key the value shown (at the game's end: a new game, twice)
    undo            take back the last key; held twice: a new game
    menu            the next view: the deal, the contracts, the scores
    menu held       the board's menu

Referee mode (the option ``referee``, per game): the cards of each trick are
keyed in and checked instead of the trick counts (``pipcore.baref``, loaded
only then, with ``pipcore.batricks``).
"""

from pipcore import geometry as g
from pipcore.bacalls import BOARD, NO_TRUMP, PASS, SEAT_NAMES, BackAlleyError
from pipcore.bascore import CALLING, OVER, PHASE_NAMES, TRICKS, TRUMP, ScoreKeeper, call_short
from pipcore.compat import unload
from pipcore.glyphs import bits as _glyph

VARIANT = "backalley"
SAVE_VERSION = 1
DEALER = -1  # the mode's own phase before the keeper exists: who deals first

# each seat's six points as its half's reader sees them from left to right (loc = point - 1)
QUADRANTS = ((17, 16, 15, 14, 13, 12), (23, 22, 21, 20, 19, 18), (5, 4, 3, 2, 1, 0), (11, 10, 9, 8, 7, 6))
HALVES = ((23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12), (11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0))  # top, bottom
SIDES = (1, 1, 0, 0)  # the side whose buttons key for seat N, E, S, W (0 white: bottom edge, 1 black: top)
SIDE_TEXT = ("the white side's buttons (bottom edge)", "the black side's buttons (top edge)")
# the outer row of a quadrant, by its place (slot 1 of the quadrant's 1st..6th point)
MARKS = ("dealer", "leads", "keys now", "team", "team", "team")
TRUMP_LOC = g.LOC_BAR_WHITE  # the top bar: slots 1..5 clubs, diamonds, hearts, spades, joker
TRUMP_LETTERS = "CDHSJ"
VIEWS = ("deal", "contracts", "scores")

_SHORT = 1  # pipdrivers.buttons kinds
_LONG = 2
_STEADY = 0  # pipdrivers.leds effects
_BLINK = 1
_PULSE = 2
_TEAM = ((150, 85, 0), (0, 80, 170))  # NS amber, EW blue
_TEAM_DIM = ((40, 22, 0), (0, 20, 45))
_WHITE = (120, 120, 120)
_GREEN = (0, 130, 0)
_RED = (140, 0, 0)


def restore(app, saved):
    """The mode of a state save's ``backalley`` (``pipcore.bawait.resume``). A damaged part is refused whole,
    never half-loaded: a new game starts, and the message and the LEDs say why (the damaged save stays until
    the first key)."""
    from pipcore.bahost import ConfigError, ba_options

    try:
        if type(saved) is not dict or saved.get("v") != SAVE_VERSION:
            raise ConfigError("not a Back Alley save of version %d" % SAVE_VERSION)
        opts = ba_options(saved.get("options"))
        keeper = saved.get("keeper")
        keeper = _lean(ScoreKeeper.restore(keeper)) if keeper is not None else None
        tricks = saved.get("tricks")  # referee mode's cards (pipcore.baref: a damaged part refused there)
        if keeper is not None and keeper.referee != opts["referee"] or tricks is not None and not opts["referee"]:
            raise ConfigError("its referee mode and its options disagree")
    except ValueError as exc:
        app.load_error = "the saved Back Alley game was refused: %s" % exc
        session = BaSession(app, ba_options())  # (the defaults)
        session.refuse(-1, app.load_error + "; a new game begins")
        keeper = session
    else:
        keeper = BaSession(app, opts, keeper, tricks)
    return keeper


class BaSession:
    """The scorekeeper on the board: ``App.mode``, and ``App.overlay`` while no menu or self-test is open."""

    def __init__(self, app, options, keeper=None, tricks=None):
        self.app = app
        self.options = options
        self.referee = options["referee"]  # referee mode: the cards keyed in (``ref``, pipcore.baref)
        self.keeper = keeper
        if keeper is None and options["dealer"]:
            self.keeper = _lean(ScoreKeeper(options["dealer"], options["names"], self.referee))
        self.changes = 0  # bumped by every change the LEDs show (``frame``)
        self.view = None  # a view chosen with menu; None: the phase's own
        self.refused = None  # (seat or -1, why): the last key refused, until the next key
        self.asked = False  # a new game was asked once (undo held, or OK at the end): again starts it
        self.note = ""  # a line added to the message (the menu's waiting match, the card just played...)
        self.ref = None
        if self.referee:
            from pipcore.baref import Referee

            self.ref = Referee(self, tricks)
        self._committed = self.keeper.snapshot() if self.keeper is not None else None
        self._fresh()

    @property
    def frame(self):
        """Changes when the LEDs must be drawn again (``App.draw``): a key, a view, a fault shown or cleared."""
        return self.changes * 2 + (self.app.error_kind is not None)

    # -- what the keeper waits for ------------------------------------------------------
    @property
    def phase(self):
        return DEALER if self.keeper is None else self.keeper.phase

    def idle(self):
        """True when nothing of a game is keyed yet, or the game is over: another game may start at once."""
        k = self.keeper
        return k is None or not k._keys or k.phase == OVER

    def actor(self):
        """The seat whose side keys next, or None (either side: the first dealer, the game's end)."""
        k = self.keeper
        if k is None or k.phase == OVER:
            return None
        if self.ref is not None and self.ref.playing():
            return self.ref.tricks.to_act  # the seat to play a card
        return k.dealer if k.phase == TRUMP else k.to_act

    def _fresh(self):
        """The value shown for the next key: the likeliest one."""
        self.touched = False
        k = self.keeper
        if k is None:
            self.entry = 0
        elif k.phase == TRICKS:
            left = k.hand_size - sum(k.keyed_tricks)
            call = k.call_of(k.to_act)
            self.entry = left if len(k.keyed_tricks) == 3 else min(call, left) if call > 0 else 0
        else:
            self.entry = PASS if k.phase == CALLING else 0  # (a call: Pass; the trump: clubs)
        self.changes += 1

    def _choices(self):
        """The values the entry steps through, in order."""
        k = self.keeper
        if k is None:
            return (0, 1, 2, 3)
        if k.phase == TRUMP:
            return (0, 1, 2, 3, 4)
        if k.phase == CALLING:  # h itself is offered, and refused (5.6): a number is at most h - 1
            return [PASS] + list(range(1, k.hand_size + 1)) + [BOARD]
        return range(k.hand_size + 1)

    # -- the buttons --------------------------------------------------------------------------
    def press(self, button, kind, now):
        if kind != _SHORT and kind != _LONG:
            return
        # (MicroPython: the key's garbage is collected by the next quiet pass, as a backgammon event's is, so what
        # the game keeps stays low in the heap and the free heap above it in one piece: App.quiet)
        self.app._litter = True
        try:
            self._press(button, kind, now)
        except BackAlleyError as exc:  # the keeper refused the key and changed nothing
            self.refuse(self.actor(), str(exc))
        except Exception as exc:  # a fault (out of memory...): back to the last committed key
            self._recover(exc)

    def _press(self, button, kind, now):
        app = self.app
        if self.ref is not None and self.ref.press(button, kind):  # referee mode's undo and views
            return
        if button == g.BTN_MENU:
            if kind == _LONG:
                from pipcore.settings import MenuSession

                app.show_overlay(MenuSession(app))
            else:
                self.view = VIEWS[(VIEWS.index(self.shown_view()) + 1) % 3]
                self.changes += 1
            return
        if button == g.BTN_UNDO:
            if kind == _LONG:
                self._new_game(now)
            else:
                self._undo()
            return
        side = 0 if button < 4 else 1
        role = button & 3  # roll/done, double, take, drop
        seat = self.actor()
        self.asked = self.asked and role == 0 and self.phase == OVER
        if seat is not None and SIDES[seat] != side:
            self.refuse(seat, "it is %s's turn: %s" % (self.keeper.names[seat], SIDE_TEXT[SIDES[seat]]))
            return
        self.refused = None
        self.view = None
        if self.ref is not None and self.ref.playing():
            self.ref.key(role, kind)  # a card
        elif role == 0:
            self._ok(now)
        elif role == 1:
            if kind == _SHORT:
                self._shortcut()
        else:
            step = 5 if kind == _LONG else 1
            self._step(step if role == 2 else -step)

    def _step(self, step):
        if self.phase == OVER:
            return
        choices = self._choices()
        i = 0
        for j in range(len(choices)):
            if choices[j] == self.entry:
                i = j
        self.entry = choices[(i + step) % len(choices)]
        self.touched = True
        self.changes += 1

    def _shortcut(self):
        k = self.keeper
        phase = self.phase
        if phase == DEALER:
            self.entry = self._random_seat()
        elif phase == TRUMP:
            self.entry = 4
        elif phase == CALLING:
            self.entry = BOARD
        elif phase == TRICKS:
            self.entry = k.hand_size - sum(k.keyed_tricks)
        self.touched = True
        self.changes += 1

    def _random_seat(self):
        """A seat at random (RULES.md 5.3) from the board's dice: 1..4 name N..W, 5 and 6 roll again."""
        dice = self.app.dice
        for _ in range(24):
            got = dice.roll()
            die = got if type(got) is int else got[0]
            if 1 <= die <= 4:
                return die - 1
        return self.entry

    def _ok(self, now):
        k = self.keeper
        phase = self.phase
        if phase == OVER:
            self._new_game(now)
            return
        if phase == DEALER:
            self.keeper = _lean(ScoreKeeper(self.entry, self.options["names"], self.referee))
        elif phase == TRUMP:
            k.key_trump(NO_TRUMP if self.entry == 4 else self.entry)
        elif phase == CALLING:
            k.key_call(self.entry)
        else:
            k.key_tricks(self.entry)
        self.commit()

    def _undo(self):
        self.refused = None
        self.asked = False
        self.view = None
        k = self.keeper
        if k is not None and not k.undo():
            if self.options["dealer"]:
                self.refuse(-1, "nothing to take back")
                return
            self.keeper = None  # before the first trump: back to choosing the first dealer
        elif k is None:
            self.refuse(-1, "nothing to take back")
            return
        self.commit()

    def _new_game(self, now):
        if not self.asked:
            self.asked = True
            self.note = "a new game? %s again to start it (the sheet of this one: pipboard export)" % (
                "ROLL/DONE" if self.phase == OVER else "hold UNDO")
            self.changes += 1
            return
        app = self.app
        if app.pending:  # a match chosen in the menu waits for the next new game
            from pipcore.settings import start_waiting

            if start_waiting(app):
                return
        app.new_game(VARIANT, self.options)

    def refuse(self, seat, why):
        self.refused = (-1 if seat is None else seat, why)
        self.changes += 1

    def commit(self):
        """A key went in: the next value, and the state saved (as a backgammon move is)."""
        k = self.keeper
        self._committed = k.snapshot() if k is not None else None
        self.asked = False
        self.note = ""
        self._fresh()
        if self.ref is not None:
            self.ref.follow()
        app = self.app
        if app.error_kind in ("memory", "internal"):  # (pipcore.guard) a key went through: the board works
            app._clear_error()
        app.ctl.save_due = True
        app._save()

    def _recover(self, exc):
        from pipcore import guard

        kind = guard.kind_of(exc)
        exc = None
        k = self.keeper
        self.keeper = None
        if self.ref is not None:
            self.ref.tricks = None
        guard.relieve(None)
        try:
            if k is not None and self._committed is not None:
                self.keeper = _lean(ScoreKeeper.restore(self._committed))
            if self.ref is not None:
                self.ref.restore()
        except Exception as again:
            self.app.fault(kind, again)
            return
        self._fresh()
        self.app.fault(kind, "the last key was lost; key it again")

    # -- the state save and the host -------------------------------------------------------------
    def snapshot(self):
        """The mode's part of the state save (``App._save``): the keys as last committed."""
        snap = {"v": SAVE_VERSION, "options": self.options, "keeper": self._committed}
        if self.ref is not None:
            snap["tricks"] = self.ref.committed  # the deal's cards (pipcore.batricks)
        return snap

    def sensed(self, now):
        return True  # the switches are not the game's: cards are played beside the board

    def close(self, keep, now):
        pass  # (the self-test takes the board from the mode: it comes back when the test ends)

    def host_event(self, event):
        """A host's event for the backgammon game (``App.event``): refused while the score is kept."""
        if event[0] != "board":
            raise ValueError("the board keeps a Back Alley score: start a backgammon or nardy match first "
                             "(new_game)")

    def seen(self):
        """What a host's event says changed (``pipcore.bridge``): the keys keyed so far (and the cards)."""
        k = self.keeper
        n = -1 if k is None else len(k._keys)
        t = self.ref.tricks if self.ref is not None else None
        return n if t is None else n * 64 + 4 * sum(t.taken) + len(t.trick)

    def event(self):
        k = self.keeper
        out = {"event": VARIANT, "phase": self.phase_name(), "deal": min(k.number, 25) if k is not None else 0,
               "keys": -1 if k is None else len(k._keys)}
        t = self.ref.tricks if self.ref is not None else None
        if t is not None:
            out["cards"] = 4 * sum(t.taken) + len(t.trick)
        return out

    def phase_name(self):
        return "dealer" if self.keeper is None else PHASE_NAMES[self.keeper.phase]

    def state(self):
        """The snapshot's ``backalley`` (docs/protocol.md; ``pipcore.bahost``, loaded for the host only)."""
        from pipcore import bahost

        out = bahost.state(self)
        unload("pipcore", ("bahost",))
        return out

    def describe(self, snap):
        from pipcore import bahost

        bahost.describe(self, snap)
        unload("pipcore", ("bahost",))

    # -- words --------------------------------------------------------------------------------------
    def fold(self, seat):
        """The k of ``seat``'s Board call in this deal (the k-th board of the deal), else 0."""
        k = self.keeper
        i = (seat - k.dealer - 1) % 4
        return k.calls[:i + 1].count(BOARD) if k.calls[i] == BOARD else 0

    def contract(self, team):
        """A team's contract so far as the glyphs show it: ``"7"``, ``"B"``, ``"B2"``, ``"-"`` (none)."""
        k = self.keeper
        tricks = 0
        board = 0
        for seat in (team, team + 2):
            c = k.call_of(seat)
            if c == BOARD:
                board = max(board, self.fold(seat))
            elif c is not None:
                tricks += c
        if board:
            return "B" if board == 1 else "B%d" % board
        return str(tricks) if tricks else "-"

    def entry_text(self):
        """The value being keyed, as the glyphs show it (None at the game's end)."""
        phase = self.phase
        e = self.entry
        if phase == DEALER:
            return SEAT_NAMES[e]
        if phase == TRUMP:
            return TRUMP_LETTERS[e]
        if phase == CALLING:
            return call_short(e, 1 + self.keeper.calls.count(BOARD))
        if phase == TRICKS:
            return self.ref.entry_glyphs() if self.ref is not None and self.ref.playing() else str(e)
        return None

    # -- the LEDs ----------------------------------------------------------------------------------
    def shown_view(self):
        """The view the LEDs show: one chosen with menu, else the phase's own."""
        if self.view is not None:
            return self.view
        k = self.keeper
        if k is None:
            return "deal"
        if self.ref is not None and self.ref.playing():
            return "trick"  # the cards of the trick (pipcore.baref)
        if k.phase == OVER or k.phase == TRUMP and (k.number > 1 or k.redeals) and not self.touched:
            return "scores"  # between deals, while the cards are dealt
        if k.phase == TRICKS and not k.keyed_tricks and not self.touched:
            return "contracts"  # while the cards are played
        return "deal"

    def draw(self, px, display):
        for i in range(g.LED_LOC_BASE, g.LEDS):
            px.set(i, 0, 0, 0)
        k = self.keeper
        view = self.shown_view()
        if view == "scores":
            self._draw_scores(px)
        elif view == "trick":
            self.ref.draw(px)
        else:
            for seat in range(4):
                self._draw_seat(px, seat, view)
        if k is not None and k.trump is not None:
            _set(px, g.led_index(TRUMP_LOC, 1 + (4 if k.trump < 0 else k.trump)), _WHITE, _STEADY)
        elif k is not None and k.phase == TRUMP:
            _set(px, g.led_index(TRUMP_LOC, 1 + self.entry), _WHITE, _PULSE)
        display.blank()
        for i in range(g.LED_CUBE_VALUE, g.LED_TURN_WHITE):
            px.set(i, 0, 0, 0)
        app = self.app
        if app.error_kind is not None:
            from pipcore.guard import KINDS

            display.error(KINDS.index(app.error_kind) + 1)
        elif k is not None and k.phase != OVER:  # the number of cards: die A the tens, die B the units
            h = k.hand_size % 10
            display.dice(k.hand_size // 10, min(h, 6), 0, False, False, h - 6 if h > 6 else -1)
        seat = self.actor()
        display.turn(SIDES[seat] if seat is not None else -1)

    def _draw_seat(self, px, seat, view):
        k = self.keeper
        quad = QUADRANTS[seat]
        team = seat & 1
        for m in range(3, 6):
            _set(px, g.led_index(quad[m], 0), _TEAM_DIM[team], _STEADY)
        refused = self.refused is not None and self.refused[0] in (seat, -1)
        if k is None:
            if refused:
                _set(px, g.led_index(quad[2], 0), _RED, _BLINK)
            if seat == self.entry:
                _set(px, g.led_index(quad[0], 0), _WHITE, _PULSE)
                _text(px, quad, 2, SEAT_NAMES[seat], _WHITE, _PULSE)
            return
        if seat == k.dealer:
            _set(px, g.led_index(quad[0], 0), _WHITE, _STEADY)
        if seat == k.leader:
            _set(px, g.led_index(quad[1], 0), _GREEN, _STEADY)
        acting = seat == self.actor()
        if acting:
            _set(px, g.led_index(quad[2], 0), _RED if refused else _WHITE, _BLINK if refused else _PULSE)
        elif refused and self.refused[0] == -1:
            _set(px, g.led_index(quad[2], 0), _RED, _BLINK)
        if view == "contracts":
            if k.calls:
                _text(px, quad, 2, self.contract(team), _TEAM[team], _STEADY)
            return
        if acting:
            _text(px, quad, 2, self.entry_text(), _RED if refused else _WHITE, _BLINK if refused else _PULSE)
            return
        t = k.tricks_of(seat)
        if t is not None:
            _text(px, quad, 2, str(t), _TEAM[team], _STEADY)
            return
        c = k.call_of(seat)
        if c is not None:
            _text(px, quad, 2, call_short(c, self.fold(seat)), _TEAM_DIM[team] if k.phase == TRICKS else
                  _TEAM[team], _STEADY)

    def _draw_scores(self, px):
        k = self.keeper
        if k is None:
            return
        winner = k.winner() if k.phase == OVER else -2
        for team in range(2):
            s = k.scores[team]
            text = str(s)
            effect = _PULSE if winner in (team, -1) else _STEADY
            if len(text) > 4:  # below -999: the digits blink
                text = text[1:]
                effect = _BLINK
            _text(px, HALVES[team], 4, text, _TEAM[team], effect)
            for loc in HALVES[team]:
                _set(px, g.led_index(loc, 0), _TEAM_DIM[team], _STEADY)


def _lean(keeper):
    """The board's keeper keeps no score sheet rows (a host makes the sheet from the keys: pipboard export);
    in referee mode it does (``pipcore.batricks`` reads the last deal's row for undo)."""
    if not keeper.referee:
        keeper.keep_rows = False
        keeper._rows = []
    return keeper


def _set(px, index, colour, effect):
    px.set(index, colour[0], colour[1], colour[2], effect)


def _text(px, locs, cells, text, colour, effect):
    """``text`` right-aligned in ``cells`` glyphs along ``locs`` (three each), the rows on slots 6..2."""
    n = len(text)
    for i in range(min(n, cells)):
        b = _glyph(text[n - 1 - i])
        c0 = (cells - 1 - i) * 3
        for row in range(5):
            for col in range(3):
                if b >> (14 - 3 * row - col) & 1:
                    _set(px, g.led_index(locs[c0 + col], 5 - row), colour, effect)
