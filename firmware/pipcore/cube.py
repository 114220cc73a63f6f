"""The doubling cube of one game (RULES.md section 2).

``Cube`` referees every cube action of one game: offers (D1-D5 of 2.2),
takes, drops, beavers and raccoons, automatic doubles at the opening, and
the points a finished game is worth (Jacoby, ``noGammonsWithCube``).
Players are 0 and 1. An action that breaks a rule raises ``CubeError``
whose message is the reason a player would be told.

The caller tells the cube whose turn starts (``start_turn``) and when that
player has rolled (``note_roll``); the cube keeps no clock and does no I/O.
"""

from pipcore.compat import const

CENTRE = const(-1)

# what the cube is waiting for
IDLE = const(0)  # no offer pending
OFFERED = const(1)  # a double was offered; the receiver answers
BEAVERED = const(2)  # the receiver beavered; the doubler answers
RACCOONED = const(3)  # the doubler raccooned; the beaverer answers

# cube actions, as stored in the game record
OFFER = const(1)
TAKE = const(2)
DROP = const(3)
BEAVER = const(4)
RACCOON = const(5)
ACTION_NAMES = {OFFER: "double", TAKE: "take", DROP: "drop", BEAVER: "beaver", RACCOON: "raccoon"}
ACTIONS = {"double": OFFER, "take": TAKE, "drop": DROP, "beaver": BEAVER, "raccoon": RACCOON}


class CubeError(ValueError):
    """A cube action the rules do not allow; ``str()`` says why."""


def _player_name(player):
    return "white" if player == 0 else "black"


class Cube:
    """Value, owner and pending offer of the cube in one game.

    ``options`` is a dict from ``pipcore.options.make_options``;
    ``crawford_game`` is True in the Crawford game of a match (2.7).
    """

    def __init__(self, options, crawford_game=False):
        self.options = options
        self.crawford_game = crawford_game
        self.value = 1
        self.owner = CENTRE
        self.state = IDLE
        self.doubler = None  # who made the pending first offer
        self.stake = 0  # points the refusing side gives away now
        self.offered_value = 0  # the value if the pending offer is accepted
        # While a beaver (raccoon) waits for an answer, ``value`` and ``owner``
        # already show the taken cube (2v, 4v) as gnubg does; a refusal scores it.
        self.player_doubled = False  # an offer, beaver or raccoon happened (Jacoby)
        self.auto_doubles = 0
        self.turn = None  # player whose turn it is
        self.rolled = False
        self.offered_this_turn = False

    def __repr__(self):
        return "<Cube value=%d owner=%s state=%d>" % (self.value, self.owner, self.state)

    # -- turns -----------------------------------------------------------
    def start_turn(self, player):
        """``player``'s turn begins (before his roll)."""
        if self.state != IDLE:
            raise CubeError("a double is still waiting for an answer")
        self.turn = player
        self.rolled = False
        self.offered_this_turn = False

    def note_roll(self):
        """The player on turn has rolled: no more offers this turn."""
        if self.state != IDLE:
            raise CubeError("answer the double before rolling")
        self.rolled = True

    # -- values --------------------------------------------------------------
    def next_value(self, value):
        """The value after one accepted double (2.3, 2.6.5)."""
        if self.options["cubeProgression"] == "arithmetic":
            return value + 1
        return value * 2

    def _check_cap(self, value, what):
        cap = self.options["cubeCap"]
        if cap and value > cap:
            raise CubeError("the cube is capped at %d: %s would make it %d" % (cap, what, value))

    # -- offers ----------------------------------------------------------------
    def offer_error(self, player):
        """Why ``player`` may not offer a double now, or None if he may."""
        opts = self.options
        if not opts["cubeEnabled"]:
            return "the cube is not in use in this game"
        if self.state != IDLE:
            return "a double is already waiting for an answer"
        if self.turn is None:
            return "no turn has started: offers come at the start of your turn"
        if player != self.turn:
            return "you may only offer at the start of your own turn"
        if self.rolled:
            return "you must offer before rolling"
        if self.offered_this_turn:
            return "you have already offered a double this turn"
        if self.crawford_game:
            return "no doubling in the Crawford game"
        if self.owner != CENTRE and self.owner != player:
            return "only the cube owner may redouble"
        cap = opts["cubeCap"]
        new = self.next_value(self.value)
        if cap and new > cap:
            return "the cube is capped at %d" % cap
        return None

    def may_offer(self, player):
        return self.offer_error(player) is None

    def offer(self, player):
        """``player`` offers a double (2.2); raises CubeError with the reason."""
        reason = self.offer_error(player)
        if reason:
            raise CubeError(reason)
        self.state = OFFERED
        self.doubler = player
        self.stake = self.value
        self.offered_value = self.next_value(self.value)
        self.offered_this_turn = True
        self.player_doubled = True

    # -- answers -------------------------------------------------------------
    def responder(self):
        """The player who must answer now, or None when nothing is pending."""
        if self.state == OFFERED or self.state == RACCOONED:
            return 1 - self.doubler
        if self.state == BEAVERED:
            return self.doubler
        return None

    def answers(self):
        """The answers allowed now, as action codes (empty when none)."""
        if self.state == IDLE:
            return []
        out = [TAKE, DROP]
        if self.state == OFFERED and self._beaver_error() is None:
            out.append(BEAVER)
        elif self.state == BEAVERED and self._raccoon_error() is None:
            out.append(RACCOON)
        return out

    def _check_responder(self, player):
        if self.state == IDLE:
            raise CubeError("no double has been offered")
        if player is not None and player != self.responder():
            raise CubeError("%s must answer the double, not %s" % (_player_name(self.responder()),
                                                                    _player_name(player)))

    def take(self, player=None):
        """Accept the pending offer (or beaver, or raccoon)."""
        self._check_responder(player)
        self.value = self.offered_value
        self.owner = 1 - self.doubler  # the receiver of the first offer owns it in every case
        self._clear()

    def drop(self, player=None):
        """Refuse: returns ``(winner, points)``; the game is over (2.3, 2.6.2-3)."""
        self._check_responder(player)
        loser = self.responder()
        points = self.stake
        self._clear()
        return 1 - loser, points

    def _beaver_error(self):
        opts = self.options
        if not opts["beavers"]:
            return "beavers are not allowed"
        if opts["matchLength"]:
            return "beavers are for money play only"
        if self.state != OFFERED:
            return "a beaver answers a double"
        cap = opts["cubeCap"]
        if cap and self.offered_value * 2 > cap:
            return "the cube is capped at %d" % cap
        return None

    def beaver(self, player=None):
        """Take and at once redouble (2.6.2): value 4v, the beaverer owns it."""
        self._check_responder(player)
        reason = self._beaver_error()
        if reason:
            raise CubeError(reason)
        # the beaverer has taken (2v, his cube) and redoubled to 4v, as gnubg models it
        self.value = self.offered_value
        self.owner = 1 - self.doubler
        self.stake = self.value
        self.offered_value = self.value * 2
        self.state = BEAVERED
        self.player_doubled = True

    def _raccoon_error(self):
        opts = self.options
        if not opts["raccoons"]:
            return "raccoons are not allowed"
        if self.state != BEAVERED:
            return "a raccoon answers a beaver"
        cap = opts["cubeCap"]
        if cap and self.offered_value * 2 > cap:
            return "the cube is capped at %d" % cap
        return None

    def raccoon(self, player=None):
        """Answer a beaver by redoubling again (2.6.3): value 8v, beaverer owns it."""
        self._check_responder(player)
        reason = self._raccoon_error()
        if reason:
            raise CubeError(reason)
        # the doubler has taken the beaver (4v; the cube stays with the beaverer) and redoubled to 8v
        self.value = self.offered_value
        self.stake = self.value
        self.offered_value = self.value * 2
        self.state = RACCOONED

    def _clear(self):
        self.state = IDLE
        self.stake = 0
        self.offered_value = 0

    def act(self, action, player):
        """Apply a cube action code (OFFER, TAKE, ...) by ``player``.

        Returns ``(winner, points)`` for a drop, else None.
        """
        if action == OFFER:
            self.offer(player)
        elif action == TAKE:
            self.take(player)
        elif action == DROP:
            return self.drop(player)
        elif action == BEAVER:
            self.beaver(player)
        elif action == RACCOON:
            self.raccoon(player)
        else:
            raise CubeError("unknown cube action %r" % (action,))
        return None

    # -- opening ---------------------------------------------------------------
    def auto_double(self):
        """An opening tie: double the cube if ``autoDoubles`` allows (2.6.1).

        Returns True if the cube was doubled (it stays in the centre).
        """
        limit = self.options["autoDoubles"]
        if not limit or not self.options["cubeEnabled"]:
            return False
        if limit > 0 and self.auto_doubles >= limit:
            return False
        cap = self.options["cubeCap"]
        if cap and self.value * 2 > cap:
            return False
        self.value *= 2
        self.auto_doubles += 1
        return True

    # -- scoring ---------------------------------------------------------------
    def points(self, kind):
        """Points for a win of ``kind`` (1 single, 2 gammon, 3 backgammon)."""
        opts = self.options
        m = kind
        if opts["noGammonsWithCube"]:
            m = 1
        elif opts["jacoby"] and not opts["matchLength"] and not self.player_doubled:
            m = 1
        return m * self.value
