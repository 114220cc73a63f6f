"""The board's shared vocabulary: phases, LED mark roles, buttons, and the options' error.

The controller, the app, the protocol, the simulator and ``pipboard
hwdocs`` all speak these names; nothing here depends on anything else.
"""

from pipcore.compat import const

# -- phases of the board (what the players are doing) ---------------------
SETUP = const(0)  # the checkers are being laid out to match the game
OPENING = const(1)  # waiting for the opening roll
TURN_START = const(2)  # the player on roll may double or roll
CUBE_OFFERED = const(3)  # a double (beaver, raccoon) waits for an answer
MOVING = const(4)  # the roll is being played on the board
PICK = const(5)  # the sensors cannot tell plays apart: the player picks one
GAME_OVER = const(6)
MATCH_OVER = const(7)
PHASE_NAMES = ("setup", "opening", "turn-start", "cube-offered", "moving", "pick", "game-over", "match-over")

# -- LED mark roles (pipcore.render draws them) ------------------------------
M_NONE = const(0)
M_SOURCE = const(1)  # a checker here can move
M_LIFTED = const(2)  # the checker in hand came from here
M_TARGET = const(3)  # the lifted checker may land here
M_ERROR = const(4)  # wrong: flashes
M_FIX_FROM = const(5)  # guidance: take a checker from here...
M_FIX_TO = const(6)  # ...and put it here
M_MISSING = const(7)  # a checker belongs here and is not sensed
M_ADD = const(8)  # setup: add a checker
M_REMOVE = const(9)  # setup: remove a checker
M_CAND_FROM = const(10)  # a candidate play (pick with NEXT / DONE)
M_CAND_TO = const(11)
M_PLAY_FROM = const(12)  # a play given by the host
M_PLAY_TO = const(13)
M_REQUIRED = const(14)  # DONE pressed too early: checkers that must still move
M_WIN = const(15)  # game over: the winner's tray
M_COACH_FROM = const(16)  # the coach's better play (pipboard coach): from...
M_COACH_TO = const(17)  # ...and to
ROLE_NAMES = ("none", "source", "lifted", "target", "error", "fix-from", "fix-to", "missing", "add", "remove",
              "cand-from", "cand-to", "play-from", "play-to", "required", "win", "coach-from", "coach-to")

NOBODY = const(2)  # mark_player of a mark that concerns no colour

# -- what the controller asks the app for ------------------------------------
ROLL_TURN = const(1)
ROLL_OPENING = const(2)

# -- buttons, by meaning (the app maps physical buttons to these) ------------
# (RESIGN: a side's DROP held, pipcore.resign; UNDO: undo short, reopens keyed-in dice, pipcore.keyed)
BUTTONS = ("ROLL", "DONE", "DOUBLE", "TAKE", "DROP", "BEAVER", "RACCOON", "NEXT", "NEW", "RESIGN", "UNDO")


class ConfigError(ValueError):
    """An unknown option, a bad value, or a combination RULES.md forbids (``pipcore.options``). Here, not
    there, so that a variant's generator can refuse an option without holding the options' table in RAM."""
