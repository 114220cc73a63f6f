"""Differential test: the legal plays of ``pipcore.rules`` against GNU Backgammon.

The judge is gnubg's own move generator, reached two ways:

* the PyPI bindings: ``gnubg.find_best_moves(board, cubeinfo, evalcontext,
  dice)`` runs gnubg's ``FindnSaveBestMoves``, which lists every legal play
  (``GenerateMoves`` without partial plays, one entry per distinct resulting
  position; its move filters only prune above 0 ply and we ask for 0 ply).
  A roll with no legal play gives an empty list. The bindings cut a move
  tuple at the first negative value, and gnubg writes a bear-off destination
  as a negative number, so a tuple is complete exactly when its length is
  even; a case with any odd tuple goes to the second route.
* the Debian program ``/usr/games/gnubg -t``, driven by one batch of
  ``set board`` / ``set dice`` / ``hint`` commands at 0 ply; its hint list
  is every legal play in gnubg notation (``6/off(2) 13/10*/9``), which we
  parse and apply. A sample of the other cases also goes through it and must
  agree with the bindings, which checks the parser and the orientation.

Orientation, exactly: a gnubg board is ``(side not on roll, side on roll)``,
each 25 counts (points 1..24 of that side's own numbering, then its bar),
and gnubg's Position ID encoder writes ``board[0]`` (the side NOT on roll)
first. Our ``Position`` keeps ``me`` (on roll) and ``opp`` as 26 slots
(0 off, 1..24, 25 bar), so the gnubg board of a position is
``(opp[1:26], me[1:26])``. Resulting positions are compared as Position IDs
with the mover still "on roll" (no swap), encoded by gnubg's own encoder
from gnubg's plays applied to gnubg's board.

The corpus is regenerated from a fixed seed on every run: positions met in
random self-play (plays drawn from gnubg's list) plus seeded enrichers for
bar entries, closed boards, bear-offs, primes (partially playable doubles,
forced dice) and spread-out positions. A coverage test proves the hard
cases are really in it.
"""

import json
import os
import random
import re
import subprocess
import sys

import gnubg
import pytest
import rules_positions as gen
from pipcore.position import BAR, CHECKERS, Position
from pipcore.rules import Turn

SEED = 20261129
WALK_POSITIONS = 6000
ENRICHED_PER_KIND = 1000
TARGETED_PER_KIND = 400
CLI_CROSS_CHECK_EVERY = 25  # every 25th case the bindings answer fully is also asked of the program
GNUBG_PROGRAM = "/usr/games/gnubg"

CUBE = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0)
ZERO_PLY = gnubg.evalcontext(0, 0, 1, 0, 0.0)  # cubeless, 0 ply, deterministic: no play is filtered

# coverage the corpus must reach (counted with gnubg's answers, not ours)
MIN_CASES = {
    "total": 10000,
    "bar entry": 1500,
    "no legal play": 200,
    "closed board": 300,
    "bear-off": 1000,
    "partial double": 200,
    "forced higher die": 150,
    "one die only (other blocked)": 150,
    "spread small double": 200,
}


def gnubg_board(pos):
    """gnubg's TanBoard for a position: (side not on roll, side on roll)."""
    return (tuple(pos.opp[1:26]), tuple(pos.me[1:26]))


def apply_gnubg_steps(board, steps):
    """The board after ``[(from, to), ...]`` (25 bar, 0 off), the mover still on roll."""
    opp = list(board[0])
    me = list(board[1])
    for src, dst in steps:
        me[src - 1] -= 1
        if dst > 0:
            me[dst - 1] += 1
            # the mover's point dst is the opponent's point 25 - dst (index 24 - dst)
            if opp[24 - dst] == 1:
                opp[24 - dst] = 0
                opp[24] += 1
    return (tuple(opp), tuple(me))


def tuple_steps(move):
    return [(move[i], move[i + 1]) for i in range(0, len(move), 2)]


def board_position(board):
    """Our Position for a gnubg board (opp, me)."""
    opp, me = board
    return Position([CHECKERS - sum(me)] + list(me), [CHECKERS - sum(opp)] + list(opp))


def gnubg_moves(pos, dice):
    """gnubg's legal plays as move tuples (bindings; bear-offs cut the tuple short)."""
    return [entry["move"] for entry in gnubg.find_best_moves(gnubg_board(pos), CUBE, ZERO_PLY, dice)]


def complete(moves):
    return all(len(m) % 2 == 0 for m in moves)


_MOVE_LINE = re.compile(r"^\s*\d+\.\s+\S+\s+\d+-ply\s+(.*?)\s+Eq\.:", re.M)


def parse_gnubg_play(text):
    """gnubg notation (``bar/22* 13/10*/9 6/off(2)``) to ``[(from, to), ...]``."""
    steps = []
    for token in text.split():
        count = 1
        m = re.match(r"^(.*)\((\d)\)$", token)
        if m:
            token, count = m.group(1), int(m.group(2))
        points = [25 if p == "bar" else 0 if p == "off" else int(p.rstrip("*")) for p in token.split("/")]
        for _ in range(count):
            steps.extend(zip(points, points[1:]))
    return steps


def gnubg_program_answers(cases):
    """Resulting Position IDs for each case from one batch run of the gnubg program."""
    commands = [
        "set player 0 human", "set player 1 human",
        "set evaluation chequerplay evaluation plies 0",
        "new game", "set turn 1",
    ]
    for case in cases:
        commands += ["set board " + case.position_id, "set dice %d %d" % case.dice, "hint 100000"]
    proc = subprocess.run([GNUBG_PROGRAM, "-t", "-q"], input="\n".join(commands) + "\n",
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    # one chunk per "set board": the board display, the dice, then the hint list
    chunks = proc.stdout.split(" GNU Backgammon  Position ID: ")[3:]  # the first two are from "new game"/"set turn"
    assert len(chunks) == len(cases), "gnubg answered %d of %d cases" % (len(chunks), len(cases))
    answers = []
    for case, chunk in zip(cases, chunks):
        # gnubg shows the board from the side on roll: it must be our ID unchanged
        assert chunk.split()[0] == case.position_id, "gnubg set a different board: %s" % chunk[:200]
        assert "The dice have been set to" in chunk, chunk[-500:]
        plays = _MOVE_LINE.findall(chunk)
        if not plays:
            assert "There are no legal moves" in chunk, chunk[-500:]
        board = gnubg_board(case.pos)
        answers.append(set(gnubg.position_id(apply_gnubg_steps(board, parse_gnubg_play(p))) for p in plays))
    return answers


class Case:
    """One position and roll with gnubg's answer (``expected``: resulting Position IDs)."""

    def __init__(self, pos, dice, kind):
        self.pos = pos
        self.dice = dice
        self.kind = kind
        self.position_id = pos.position_id()
        self.moves = gnubg_moves(pos, dice)
        self.dice_used = None  # unknown when a bear-off cut the tuples short
        self.expected = None
        self.route = "program"
        if complete(self.moves):
            self.dice_used = max(len(m) // 2 for m in self.moves) if self.moves else 0
            board = gnubg_board(pos)
            self.expected = set(gnubg.position_id(apply_gnubg_steps(board, tuple_steps(m))) for m in self.moves)
            self.route = "bindings"


def _playable_alone(pos, die):
    """Whether a single move of ``die`` is legal (gnubg asked with the double)."""
    return bool(gnubg_moves(pos, (die, die)))


def categories(case):
    """The hard-case labels this case counts for (from gnubg's answer)."""
    pos, (a, b) = case.pos, case.dice
    labels = []
    if pos.me[BAR]:
        labels.append("bar entry")
    if not case.moves:
        labels.append("no legal play")
    if all(pos.opp[25 - p] >= 2 for p in range(19, 25)) or all(pos.me[p] >= 2 for p in range(1, 7)):
        labels.append("closed board")
    if not complete(case.moves):  # a bear-off destination cut the tuple
        labels.append("bear-off")
    if a == b and case.dice_used is not None and 0 < case.dice_used < 4:
        labels.append("partial double")
    if a != b and case.dice_used == 1:
        if _playable_alone(pos, min(a, b)) and _playable_alone(pos, max(a, b)):
            labels.append("forced higher die")
        else:
            labels.append("one die only (other blocked)")
    if a == b and a <= 3 and len(case.moves) >= 300:
        labels.append("spread small double")
    return labels


def build_corpus(seed=SEED, walk=WALK_POSITIONS, per_kind=ENRICHED_PER_KIND, targeted=TARGETED_PER_KIND):
    rng = random.Random(seed)

    def choose(pos, dice):
        moves = gnubg_moves(pos, dice)
        if not moves:
            return None
        if not complete(moves):  # a bear-off cut the tuples short: let our generator pick instead
            turn = Turn(pos, dice)
            return turn.result(rng.choice(turn.plays))
        return board_position(apply_gnubg_steps(gnubg_board(pos), tuple_steps(rng.choice(moves))))

    seen = set()
    cases = []

    def add(pos, dice, kind):
        key = (pos.position_id(), min(dice), max(dice))
        if key not in seen:
            seen.add(key)
            cases.append(Case(pos, dice, kind))

    for pos, dice in gen.random_walk(rng, walk, choose):
        add(pos, dice, "walk")
    for enrich in gen.ENRICHERS:
        for i in range(per_kind):
            pos = enrich(rng)
            if enrich is gen.spread or enrich is gen.primed:
                dice = rng.choice([(1, 1), (2, 2), (3, 3), (4, 4)]) if i % 2 == 0 else gen.roll(rng)
            else:
                dice = gen.roll(rng)
            add(pos, dice, enrich.__name__)
    for target in gen.TARGETED:
        for i in range(targeted):
            pos, dice = target(rng)
            add(pos, dice, target.__name__)
    by_program = [c for c in cases if c.expected is None]
    cross_check = [c for c in cases if c.expected is not None][::CLI_CROSS_CHECK_EVERY]
    answers = gnubg_program_answers(by_program + cross_check)
    for case, answer in zip(by_program, answers):
        case.expected = answer
        if len(answer) != len(case.moves):
            raise AssertionError("gnubg's program and bindings count %d and %d plays for %s %d-%d"
                                 % (len(answer), len(case.moves), case.position_id, case.dice[0], case.dice[1]))
    for case, answer in zip(cross_check, answers[len(by_program):]):
        if answer != case.expected:
            raise AssertionError("gnubg's program and bindings disagree on %s %d-%d" % (
                case.position_id, case.dice[0], case.dice[1]))
    return cases


@pytest.fixture(scope="module")
def corpus():
    return build_corpus()


def test_start_position_orientation_matches_gnubg():
    pos = Position.from_dicts({"bar": 1, 13: 14}, {24: 2, 6: 13})
    board = gnubg.position_from_id(pos.position_id())
    assert board == gnubg_board(pos)
    assert board[1][24] == 1  # the mover's bar is in gnubg's second array
    assert gnubg.position_id(gnubg_board(Position.start())) == "4HPwATDgc/ABMA"


def test_position_ids_agree_with_gnubg_encoder(corpus):
    bad = []
    for case in corpus:
        board = gnubg_board(case.pos)
        if gnubg.position_id(board) != case.position_id or gnubg.position_from_id(case.position_id) != board:
            bad.append(case.pos.describe())
        elif Position.from_id(case.position_id) != case.pos:
            bad.append("round trip: " + case.pos.describe())
    assert not bad, "%d Position IDs disagree with gnubg, first: %s" % (len(bad), bad[:3])


def describe_disagreement(case, ours):
    missing = sorted(case.expected - ours)
    extra = sorted(ours - case.expected)
    return "%s %s (%s, %s) dice %d-%d: missing %s, extra %s" % (
        case.kind, case.position_id, case.pos.describe(), "gnubg %d plays" % len(case.expected),
        case.dice[0], case.dice[1], missing[:4], extra[:4])


def disagreements_with_gnubg(corpus):
    out = []
    for case in corpus:
        turn = Turn(case.pos, case.dice)
        ours = set(p.position_id() for p in turn.results()) if turn.dice_used else set()
        used_differs = case.dice_used is not None and turn.dice_used != case.dice_used
        if ours != case.expected or used_differs or len(turn.plays) != len(ours or [0]):
            out.append(describe_disagreement(case, ours))
    return out


def test_every_play_matches_gnubg(corpus):
    disagreements = disagreements_with_gnubg(corpus)
    assert not disagreements, "%d of %d cases disagree with gnubg:\n%s" % (
        len(disagreements), len(corpus), "\n".join(disagreements[:10]))


@pytest.mark.soak
def test_every_play_matches_gnubg_soak():
    """Ten times the corpus of ``make test``, another seed (``make soak``)."""
    corpus = build_corpus(SEED + 1, 10 * WALK_POSITIONS, 10 * ENRICHED_PER_KIND, 10 * TARGETED_PER_KIND)
    disagreements = disagreements_with_gnubg(corpus)
    assert len(corpus) > 100000
    assert not disagreements, "%d of %d cases disagree with gnubg:\n%s" % (
        len(disagreements), len(corpus), "\n".join(disagreements[:10]))


def test_corpus_covers_the_hard_cases(corpus):
    counts = dict((name, 0) for name in MIN_CASES)
    counts["total"] = len(corpus)
    for case in corpus:
        for label in categories(case):
            counts[label] += 1
    short = dict((name, counts[name]) for name in MIN_CASES if counts[name] < MIN_CASES[name])
    print("differential corpus:", counts)
    assert not short, "corpus too thin: %s (need %s)" % (short, MIN_CASES)


def pipboard_command():
    exe = os.path.join(os.path.dirname(sys.executable), "pipboard")
    if os.path.exists(exe):
        return [exe, "rules"]
    return [sys.executable, "-m", "pipboard.cli", "rules"]


def test_pipboard_rules_cli_matches_gnubg(corpus):
    lines = "".join(json.dumps({"position_id": c.position_id, "dice": list(c.dice)}) + "\n" for c in corpus)
    proc = subprocess.run(pipboard_command(), input=lines, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    answers = proc.stdout.splitlines()
    assert len(answers) == len(corpus)
    bad = []
    for case, line in zip(corpus, answers):
        answer = json.loads(line)
        if answer.get("position_id") != case.position_id or answer.get("dice") != list(case.dice):
            bad.append("echo: %s" % line[:120])
        elif answer["plays"] != sorted(case.expected):
            bad.append(describe_disagreement(case, set(answer["plays"])))
    assert not bad, "%d CLI answers disagree with gnubg:\n%s" % (len(bad), "\n".join(bad[:10]))
