"""A whole game of ``pipboard play --engine gnubg`` on a board in test mode, the person's hands injected.

    .venv/bin/python tests/engine_game_board.py PORT [SEED]     # PORT: a Pico's, or sim:HOST:PORT

The engine side is pipboard.engine.EngineGame exactly as `pipboard play` runs it (its roll through the
`roll` command, its play shown with `show_play`); the person (white) rolls, plays random legal plays
checker by checker with `inject`, executes gnubg's shown plays and presses DONE, takes every double.
"""
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, sub) for sub in ("tests", "firmware", "host_tools")]
from board_fixture import start_afresh  # noqa: E402
from pipboard.engine import BLACK, EngineGame, GnubgCubeAdvisor, GnubgEngine  # noqa: E402
from pipboard.link import Link  # noqa: E402
from pipcore.board import BAR0, NLOC, fill_counts, slot_loc  # noqa: E402
from pipcore.notation import parse_play  # noqa: E402
from pipcore.position import Position  # noqa: E402
from pipcore.rules import Turn, apply_move, check_play  # noqa: E402

BUTTONS = ("ROLL", "DONE", "DOUBLE", "TAKE", "DROP", "BEAVER", "RACCOON", "NEXT", "NEW")
PERSON = 0


class Hands:
    def __init__(self, link, rng):
        self.link, self.rng = link, rng
        self.counts = bytearray(NLOC)
        self.shown = None  # gnubg's last play text
        self.injects = 0
        self.person_plays = 0
        self.executed = 0

    def put(self, loc, n):
        self.counts[loc] = n
        self.injects += 1
        self.link.inject("sensor", loc, min(n, 15))

    def press(self, name, player=None):
        self.link.inject("button", BUTTONS.index(name), 1, player)

    def lay(self, pid, mover):
        want = fill_counts(Position.from_id(pid), mover, bytearray(NLOC))
        for loc in range(NLOC):
            if self.counts[loc] and self.counts[loc] != want[loc]:
                self.put(loc, 0)
        for loc in range(NLOC):
            if self.counts[loc] != want[loc]:
                self.put(loc, want[loc])

    def play(self, snap, code_of):
        mover, dice = snap["mover"], tuple(snap["dice"])
        pos = Position.from_id(snap["position_id"])
        turn = Turn(pos, dice)
        code = code_of(turn, pos, dice)
        if code is not None:
            trial = pos.copy()
            for s, t, _ in turn.moves(code):
                if 0 < t < 25 and trial.opp[25 - t] == 1:
                    self.put(slot_loc(mover, t), self.counts[slot_loc(mover, t)] - 1)
                    self.put(BAR0 + 1 - mover, self.counts[BAR0 + 1 - mover] + 1)
                apply_move(trial, s, t)
                a, b = slot_loc(mover, s), slot_loc(mover, t)
                self.put(a, self.counts[a] - 1)
                self.put(b, self.counts[b] + 1)
        self.press("DONE", mover)
        snap2 = self.link.snapshot()
        if snap2["phase"] == "pick":
            self.press("DONE", mover)


def gnubg_code(turn, pos, dice, text):
    """The play code of gnubg's shown play ``text`` in ``turn`` (None: no move)."""
    if not text or text == "-":
        return None
    return turn.result_for(check_play(pos, dice, parse_play(text))[1])


def main(port, seed=7):
    rng = random.Random(seed)
    t0 = time.monotonic()
    link = Link.open(port, timeout=10.0)
    start_afresh(link)
    hands = Hands(link, rng)
    shown_play = link.show_play

    def show_play(play):
        hands.shown = play
        return shown_play(play)

    link.show_play = show_play  # (gnubg's play, for the hands that execute it)
    advisor = GnubgCubeAdvisor()
    game = EngineGame(link, GnubgEngine(), BLACK, out=sys.stdout, cube_advisor=advisor)
    executed = None
    snap = link.snapshot()
    while time.monotonic() - t0 < 3600:
        ph, mover = snap["phase"], snap["mover"]
        if snap.get("error"):
            print("BOARD ERROR", snap["error"], flush=True)
        if ph in ("game-over", "match-over"):
            break
        if game.step(snap):
            snap = link.snapshot()
            continue
        if ph == "setup":
            hands.lay(snap["position_id"], mover)
        elif ph == "opening":
            hands.press("ROLL")
        elif ph == "turn-start" and mover == PERSON:
            hands.lay(snap["position_id"], mover)  # (reconcile: the hands' counts are the board's position)
            hands.press("ROLL", PERSON)
        elif ph == "cube-offered":
            hands.press("TAKE", PERSON)
        elif ph in ("moving", "pick") and mover == PERSON:
            hands.play(snap, lambda turn, pos, dice: rng.choice(turn.plays) if turn.plays else None)
            hands.person_plays += 1
        elif ph == "moving" and mover == BLACK and game.shown is not None and executed != game.shown:
            executed = game.shown
            hands.play(snap, lambda turn, pos, dice, text=hands.shown: gnubg_code(turn, pos, dice, text))
            hands.executed += 1
        else:
            time.sleep(0.2)
        snap = link.snapshot()
    wall = time.monotonic() - t0
    advisor.close()
    print("RESULT phase=%s result=%s gnubg_plays=%d person_plays=%d executed=%d cube_actions=%d injects=%d "
          "faults=%s error=%s wall=%.0fs" % (snap["phase"], snap.get("result"), game.plays, hands.person_plays,
                                             hands.executed, game.cube_actions, hands.injects, snap["faults"],
                                             snap["error"], wall), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 7)
