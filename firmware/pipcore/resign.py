"""Resignations at the table: offered with a side's own buttons, answered with the other side's.

RULES.md leaves resignations out of the rules; the board takes them as gnubg
and players over the board do. A player offers to resign a single game, a
gammon or a backgammon on his own turn (before the roll, or while he moves),
or instead of answering a double. His opponent accepts: the game ends, and
the referee scores it (``Referee.resign``: the cube's value, the match score,
the Crawford rule, as any result) and records it, so ``pipboard export``
writes it as gnubg does. Or he declines: the game goes on where it was.

At the table (docs/controller.md):

* a long press of the offering side's DROP offers a single;
* each further DROP of that side raises it: single, gammon, backgammon, then
  single again (a single only, where gammons do not count: the Jacoby rule
  with the cube centred, ``noGammonsWithCube``);
* a long press of his DROP again withdraws the offer;
* the opponent's TAKE accepts, his DROP declines.

While the offer waits the game waits: other presses are refused with a
message (NEW still starts a new match). The panel shows the offer (die A the
level, die B the points at stake, the answering side's light pulsing). The
host offers and answers with the protocol's ``resign`` command (``on_host``).

The waiting offer is an ``Offer`` in ``Controller.pending``; it is saved (a
power cut keeps it). Imported only when a resignation is offered.
"""

from pipcore.match import colour
from pipcore.names import CUBE_OFFERED, MOVING, PICK, TURN_START

LEVELS = ("single", "gammon", "backgammon")
ACTIONS = ("offer", "accept", "decline", "withdraw")


def offerer_now(ctl):
    """The side that may offer to resign now (the mover, or the side facing a double), or None."""
    phase = ctl.phase
    if phase == TURN_START or phase == MOVING or phase == PICK:
        return ctl.ref.turn
    if phase == CUBE_OFFERED:
        return ctl.ref.cube.responder()
    return None


def top_level(ref):
    """The highest level worth offering: 1 where a gammon would score as a single, else 3."""
    cube = ref.cube
    return 1 if cube.points(2) == cube.points(1) else 3


class Offer:
    """``player`` offers to resign at ``level`` (1 single, 2 gammon, 3 backgammon).

    ``before``: the display and message to go back to if it is declined or
    withdrawn; ``display`` and ``message``: what the board shows meanwhile.
    """

    def __init__(self, ctl, player, level, before):
        self.player = player
        self.before = before
        self.display = ()
        self.message = ""
        self.level = 0
        self.set_level(ctl, level)

    def set_level(self, ctl, level):
        self.level = level
        points = ctl.ref.cube.points(level)
        self.display = ("resign", self.player, level, points)
        self.message = "%s offers to resign a %s (%d point%s): %s TAKE accepts, DROP declines" % (
            colour(self.player), LEVELS[level - 1], points, "" if points == 1 else "s", colour(1 - self.player))

    def saved(self):
        return [self.player, self.level]

    def press(self, ctl, name, player):
        """A button while the offer waits; True when it was taken here (NEW goes on to the controller)."""
        if name == "NEW":
            return False
        offerer = self.player
        if player is None:
            player = offerer if name == "RESIGN" else 1 - offerer  # a shared press answers the offer
        if player == offerer:
            if name == "RESIGN":
                _close(ctl, "withdrawn")
            elif name == "DROP":
                self.set_level(ctl, self.level % top_level(ctl.ref) + 1)
                ctl.display = self.display
                ctl.message = self.message
                ctl.save_due = True
            else:
                _refuse(ctl, "%s waits for %s's answer (DROP raises the offer, a long DROP withdraws it)"
                        % (LEVELS[self.level - 1], colour(1 - offerer)))
        elif name == "TAKE":
            accept(ctl)
        elif name == "DROP":
            _close(ctl, "declined")
        else:
            _refuse(ctl, "%s offers to resign a %s: TAKE accepts, DROP declines" % (
                colour(offerer), LEVELS[self.level - 1]))
        return True


def _refuse(ctl, text):
    ctl.refused += 1
    ctl.message = text


def offer(ctl, player, level):
    """``player`` (None: whoever may) offers to resign at ``level``; returns why not, or None."""
    who = offerer_now(ctl)
    if who is None:
        return "a resignation is offered on your own turn, or instead of answering a double"
    if player is None:
        player = who
    if player != who:
        return "%s cannot resign now: it is %s's turn" % (colour(player), colour(who))
    if not 1 <= level <= 3:
        return "a resignation is of a single (1), a gammon (2) or a backgammon (3), not %r" % (level,)
    if level > top_level(ctl.ref):
        return "a gammon would score as a single now: offer a single"
    pending = ctl.pending
    if isinstance(pending, Offer):
        pending.set_level(ctl, level)
    else:
        before = pending.before if pending is not None else (ctl.display, ctl.message)
        ctl.pending = Offer(ctl, player, level, before)  # (dice being keyed in are put aside)
    ctl.save_due = True
    ctl.message = ctl.pending.message
    ctl.display = ctl.pending.display
    return None


def accept(ctl):
    """The opponent accepts: the referee ends the game with the resignation."""
    off = ctl.pending
    ctl.pending = None
    ctl.ref.resign(off.player, off.level)
    ctl.accepted += 1
    ctl._enter()
    ctl.save_due = True
    ctl._evaluate()


def _close(ctl, how):
    """Declined or withdrawn: the game goes on where it was."""
    off = ctl.pending
    ctl.pending = None
    ctl.display, ctl.message = off.before
    ctl.save_due = True
    ctl._evaluate()
    ctl.message = "%s's resignation %s; %s" % (colour(off.player), how, ctl.message)


def on_button(ctl, player):
    """A long press of ``player``'s DROP with no offer waiting: offer a single."""
    why = offer(ctl, player, 1)
    if why is not None:
        _refuse(ctl, why)


def on_host(ctl, player, action, level):
    """The protocol's ``resign`` command: raises ValueError with the reason when it does not fit."""
    pending = ctl.pending if isinstance(ctl.pending, Offer) else None
    if action == "offer":
        if pending is not None and pending.player != player:
            raise ValueError("%s's offer waits for an answer" % colour(pending.player))
        why = offer(ctl, player, level)
        if why is not None:
            raise ValueError(why)
        return
    if action not in ACTIONS:
        raise ValueError("resign: action must be one of %s" % ", ".join(ACTIONS))
    if pending is None:
        raise ValueError("no resignation is offered")
    if action == "withdraw":
        if player != pending.player:
            raise ValueError("only %s can withdraw the offer" % colour(pending.player))
        _close(ctl, "withdrawn")
    elif player != 1 - pending.player:
        raise ValueError("%s answers the offer, not %s" % (colour(1 - pending.player), colour(player)))
    elif action == "accept":
        accept(ctl)
    else:
        _close(ctl, "declined")


def restore(ctl, saved):
    """A saved offer (``Offer.saved``) back on a resumed controller."""
    player, level = saved
    if player not in (0, 1) or not 1 <= level <= 3:
        raise ValueError("a saved resignation %r" % (saved,))
    ctl.pending = Offer(ctl, player, level, (ctl.display, ctl.message))
    ctl.display = ctl.pending.display
    ctl.message = ctl.pending.message
