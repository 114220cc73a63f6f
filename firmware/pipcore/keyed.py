"""Physical dice keyed in with the buttons (the match option ``dice``: ``physical``).

The players roll real dice and the board is told what they show. The player
on roll keys both values with his own buttons (at the opening roll either
player keys both: die A is white's die, die B black's):

* ROLL opens the entry: both dice blink on the panel, blank until keyed;
* DOUBLE steps die A (1, 2 .. 6, then 1 again), TAKE steps die B;
* ROLL confirms once both are keyed: the board takes the roll as if it had
  rolled it (the panel shows it steady, the record keeps it);
* DROP (or UNDO) cancels: back to before the roll (to double instead, say).

A value keyed wrong can be corrected until the first checker moves: UNDO,
while the board still shows the position before the roll, reopens the entry
with the dice keyed; ROLL (the roll/done button) confirms the corrected dice,
DROP keeps the old ones. The referee takes the roll back (``Referee.unroll``:
the record keeps the roll and says it was taken back, then the corrected
one) and the corrected roll is played.

An entry in progress is not saved: after a power cut, ROLL opens it again
(a confirmed roll is saved as every roll is). Imported only for a match with
physical dice.
"""

from pipcore.match import OPENING as R_OPENING
from pipcore.match import colour
from pipcore.names import OPENING, ROLL_OPENING, ROLL_TURN


class Entry:
    """Dice being keyed in by ``player`` (-1: the opening roll, either player), or corrected."""

    def __init__(self, ctl, player, opening, values=(0, 0), correcting=False):
        self.player = player
        self.opening = opening
        self.values = [values[0], values[1]]
        self.correcting = correcting
        self.before = (ctl.display, ctl.message)
        self.display = ()
        self.message = ""
        self._show()

    def _show(self):
        a, b = self.values
        self.display = ("keyed", a, b, self.player)
        who = "white and black" if self.player < 0 else colour(self.player)
        if self.correcting:
            self.message = "%s: correct the dice: DOUBLE die A, TAKE die B, ROLL confirms %d-%d, DROP keeps them" % (
                who, a, b)
        else:
            self.message = "%s: key in the dice: DOUBLE die A, TAKE die B, ROLL confirms, DROP cancels" % who

    def saved(self):
        return None  # not saved: after a power cut ROLL opens the entry again

    def press(self, ctl, name, player):
        """A button while the dice are keyed in; True when it was taken here."""
        if name == "NEW" or name == "RESIGN":
            return False  # a new match, or a resignation offered instead (it puts the entry aside)
        if player is not None and self.player >= 0 and player != self.player:
            ctl.refused += 1
            ctl.message = "%s keys in the dice now" % colour(self.player)
            return True
        v = self.values
        if name == "DOUBLE":
            v[0] = v[0] % 6 + 1
        elif name == "TAKE":
            v[1] = v[1] % 6 + 1
        elif name == "ROLL" or name == "DONE":
            self._confirm(ctl)
            return True
        elif name == "DROP" or name == "UNDO":
            _close(ctl)
            return True
        else:
            ctl.refused += 1
            ctl.message = self.message
            return True
        self._show()
        ctl.display = self.display
        ctl.message = self.message
        return True

    def _confirm(self, ctl):
        a, b = self.values
        if not a or not b:
            ctl.refused += 1
            ctl.message = "key in both dice first: DOUBLE die A, TAKE die B"
            return
        ref = ctl.ref
        if ctl.have_sensed and not ctl.board_matches(ref.position):
            ctl.refused += 1
            if self.correcting:
                _close(ctl)
                ctl.message = "a checker has moved: the dice can no longer be changed"
            else:
                ctl.message = "restore the board first"
            return
        if self.correcting:
            if (a, b) == ref.dice:
                _close(ctl)
                return
            ref.unroll()  # the record keeps the roll, marked as taken back
            ctl.forced = None  # a play shown for the old dice no longer fits
            ctl._leave()  # the old roll's tracker goes
        ctl.pending = None
        ctl.want_roll = ROLL_OPENING if ref.phase == R_OPENING else ROLL_TURN
        ctl._on_dice(a, b)  # the board's own path for a roll


def _close(ctl):
    """Cancelled (or nothing to correct): back to what the board showed before."""
    entry = ctl.pending
    ctl.pending = None
    ctl.display, ctl.message = entry.before
    ctl._evaluate()


def open_entry(ctl, phase):
    """ROLL with physical dice: the entry opens instead of the board rolling."""
    ctl.pending = Entry(ctl, -1 if phase == OPENING else ctl.ref.turn, phase == OPENING)
    ctl.display = ctl.pending.display
    ctl.message = ctl.pending.message


def correct(ctl):
    """UNDO while moving: reopen the entry with the dice keyed, if no checker has moved yet."""
    ref = ctl.ref
    if not ctl.have_sensed or not ctl.board_matches(ref.position):
        ctl.refused += 1
        ctl.message = "the dice can be corrected only before the first checker moves"
        return
    ctl.pending = Entry(ctl, -1 if ref.opening_dice else ref.turn, ref.opening_dice, ref.dice, True)
    ctl.display = ctl.pending.display
    ctl.message = ctl.pending.message


def set_source(ctl, source):
    """The dice of the match being played switch between ``electronic`` and ``physical`` (the next roll
    on): they change nothing of the game, and the record keeps every roll either way. A fair match keeps
    its committed seed to the end, and no match becomes fair half-way: raises ValueError."""
    now = ctl.options["dice"]
    if source not in ("electronic", "physical"):
        raise ValueError("the dice of a match being played switch between electronic and physical, not %r"
                         % (source,))
    if now == "fair":
        raise ValueError("a fair match keeps its committed seed to the end")
    if isinstance(ctl.pending, Entry):
        _close(ctl)  # an entry left open: the next ROLL uses the new source
    ctl.options["dice"] = source
    ctl.save_due = True
