"""Each side's own buttons: which presses a side may make now.

The board has four buttons per side (``pipcore.geometry``). A side's buttons
act only for that side: ROLL and DOUBLE before the roll and DONE after it are
the mover's, the answers to a cube offer (TAKE, DROP, DOUBLE as beaver or
raccoon) the answering side's. The opening roll, a game's end, NEXT and NEW
belong to both. The controller asks ``refusal`` before acting on a press.
"""

from pipcore.match import colour
from pipcore.names import CUBE_OFFERED, MOVING, PICK, TURN_START

_CUBE_ANSWERS = ("TAKE", "DROP", "BEAVER", "RACCOON", "DOUBLE")


def refusal(phase, ref, name, player):
    """The message refusing ``name`` pressed by ``player`` (0/1) in ``phase``, or None if it is his."""
    if phase == CUBE_OFFERED and name in _CUBE_ANSWERS:
        owner = ref.cube.responder()
    elif phase == TURN_START and name in ("ROLL", "DOUBLE", "TAKE", "DROP"):
        owner = ref.turn  # (the other side's TAKE or DROP with no cube offered is refused too)
    elif phase in (MOVING, PICK) and name in ("DONE", "DOUBLE"):
        owner = ref.turn
    else:
        return None
    if player == owner:
        return None
    return "%s's %s refused: it is %s's turn to %s" % (colour(player), name, colour(owner),
                                                       "answer the cube" if phase == CUBE_OFFERED else "play")
