"""Controller unit tests (CPython and the real MicroPython).

A small ``Table`` keeps true checker counts per location and feeds them to the
controller as the settled sensor state, so each test reads like a person at
the board: lift, place, press.
"""

from pipcore.board import BAR0, NLOC, TRAY0, fill_counts, slot_loc
from pipcore.controller import (
    CUBE_OFFERED, GAME_OVER, M_ADD, M_CAND_FROM, M_CAND_TO, M_ERROR, M_FIX_FROM, M_FIX_TO, M_LIFTED, M_PLAY_FROM,
    M_PLAY_TO, M_REMOVE, M_REQUIRED, M_SOURCE, M_TARGET, MATCH_OVER, MOVING, OPENING, PICK, SETUP, TURN_START, Controller,
    ControllerError)
from pipcore.position import Position


class Table:
    def __init__(self, options=None, capacity=None, variant="backgammon"):
        self.ctl = Controller(options, variant, capacity)
        self.counts = bytearray(NLOC)
        self.now = 0

    def send(self):
        self.now += 50
        self.ctl.step(("board", bytes(self.counts)), self.now)

    def setup(self, pos=None, mover=0):
        fill_counts(pos or self.ctl.ref.start_position(), mover, self.counts, None, self.ctl.nardy)
        self.send()

    def press(self, name):
        self.now += 10
        self.ctl.step(("button", name), self.now)

    def dice(self, a, b):
        self.now += 10
        self.ctl.step(("dice", a, b), self.now)

    def loc(self, point, player=None):
        """Location of ``point`` in the numbering of ``player`` (default: the mover)."""
        return slot_loc(self.ctl.mover if player is None else player, point, self.ctl.nardy)

    def lift(self, point, player=None):
        loc = self.loc(point, player)
        assert self.counts[loc] > 0
        self.counts[loc] -= 1
        self.send()

    def place(self, point, player=None):
        self.counts[self.loc(point, player)] += 1
        self.send()

    def move(self, a, b, player=None):
        self.lift(a, player)
        self.place(b, player)

    def marked(self, role):
        m = self.ctl.marks
        return [i for i in range(NLOC) if m[i] == role]

    def points(self, role):
        """Marked locations as points of the mover (25 bar, 0 tray)."""
        mover = self.ctl.mover
        out = []
        for loc in self.marked(role):
            for p in range(26):
                if slot_loc(mover, p, self.ctl.nardy) == loc:
                    out.append(p)
        return sorted(out)


def started(dice=(3, 1), options=None, capacity=None):
    """A table after setup and an opening roll won by player 0 with ``dice``."""
    t = Table(options, capacity)
    t.setup()
    t.press("ROLL")
    t.dice(dice[0], dice[1])
    return t


def loaded(me, opp, dice, capacity=None, mover=0):
    t = Table(capacity=capacity)
    pos = Position.from_dicts(me, opp)
    t.ctl.step(("load", pos.position_id(), mover, dice), 0)
    t.setup(pos, mover)
    return t


# -- setup ----------------------------------------------------------------------
def test_setup_guides_every_point_then_opens():
    t = Table()
    t.send()  # empty board
    assert t.ctl.phase == SETUP
    adds = t.marked(M_ADD)
    assert sorted(adds) == sorted([slot_loc(p, s) for p in (0, 1) for s in (24, 13, 8, 6)])
    assert t.ctl.mark_player[slot_loc(0, 24)] == 0 and t.ctl.mark_player[slot_loc(1, 24)] == 1
    t.setup()
    assert t.ctl.phase == OPENING
    assert t.ctl.save_due


def test_setup_asks_to_remove_extra_checkers():
    t = Table()
    fill_counts(Position.start(), 0, t.counts)
    t.counts[10] += 1
    t.send()
    assert t.ctl.phase == SETUP and t.marked(9) == [10]  # M_REMOVE


def test_a_new_match_clears_the_colours_the_last_match_left():
    # a 1-point match ends with black's two back checkers still on white's 24-point: the counts of the
    # start position alone must not set up the new match; the wrong colour is cleared first
    from pipcore.matchid import MatchState
    t = Table({"matchLength": 1})
    pos = Position.from_dicts({1: 1, "off": 14}, {24: 2, 19: 13})
    mid = MatchState(on_roll=0, dice=(2, 1), length=1, score=(0, 0), jacoby=False).encode()
    t.ctl.step(("load", pos.position_id(), 0, (2, 1), mid), 0)
    t.setup(pos, 0)
    t.move(1, 0)
    t.press("DONE")
    assert t.ctl.phase == MATCH_OVER
    t.press("DONE")  # a new match
    assert t.ctl.phase == SETUP
    back = slot_loc(0, 24)
    t.setup()  # the counts of the start position, black still on white's 24-point
    assert t.ctl.phase == SETUP
    assert t.marked(M_REMOVE) == [back] and t.ctl.mark_player[back] == 1
    t.counts[back] = 0
    t.send()
    assert t.marked(M_ADD) == [back] and t.ctl.mark_player[back] == 0
    t.counts[back] = 2  # white's back checkers
    t.send()
    assert t.ctl.phase == OPENING


def test_new_in_the_middle_of_a_roll_clears_the_colours_on_the_board():
    # NEW (long press) while a roll is half played: white has just moved to its 12-point, where the
    # start position wants black's 13-point; the checker moved this roll is on the board too
    t = loaded({13: 2, 6: 13}, {19: 15}, (1, 2))
    t.move(13, 12)
    t.press("NEW")
    assert t.ctl.phase == SETUP
    mid = slot_loc(0, 12)
    t.setup()  # the counts of the start position, white still under black's 13-point
    assert t.ctl.phase == SETUP
    assert t.marked(M_REMOVE) == [mid] and t.ctl.mark_player[mid] == 0
    t.counts[mid] = 0
    t.send()
    assert t.marked(M_ADD) == [mid] and t.ctl.mark_player[mid] == 1
    t.counts[mid] = 5
    t.send()
    assert t.ctl.phase == OPENING


# -- opening --------------------------------------------------------------------
def test_opening_tie_rolls_again_and_auto_doubles():
    t = Table({"autoDoubles": 1})
    t.setup()
    t.press("ROLL")
    assert t.ctl.want_roll
    t.dice(4, 4)
    assert t.ctl.phase == OPENING and t.ctl.cube == 2
    t.press("ROLL")
    t.dice(2, 2)
    assert t.ctl.phase == OPENING and t.ctl.cube == 2  # limit 1 reached
    t.press("ROLL")
    t.dice(2, 5)
    assert t.ctl.phase == MOVING and t.ctl.mover == 1 and t.ctl.dice == (5, 2)


def test_opening_reroll_option_lets_the_winner_roll_fresh():
    t = Table({"openingReroll": True})
    t.setup()
    t.press("ROLL")
    t.dice(6, 1)
    assert t.ctl.phase == TURN_START and t.ctl.mover == 0
    assert t.ctl.can_double()


# -- moving ---------------------------------------------------------------------
def test_roll_marks_movable_checkers():
    t = started((3, 1))
    assert t.ctl.phase == MOVING
    assert t.points(M_SOURCE) == [6, 8, 13, 24]


def test_lifted_checker_shows_its_targets_with_dice_left():
    t = started((3, 1))
    t.lift(8)
    assert t.points(M_LIFTED) == [8]
    assert t.points(M_TARGET) == [4, 5, 7]
    t.place(5)
    assert t.ctl.dice_left() == (1,)
    t.lift(6)
    assert t.points(M_TARGET) == [5]


def test_complete_play_commits_and_records():
    t = started((3, 1))
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    assert t.ctl.phase == TURN_START and t.ctl.mover == 1
    assert t.ctl.record[-1] == "white 31: 8/5 6/5"
    assert t.ctl.accepted == 1 and t.ctl.save_due


def test_combined_move_in_one_motion():
    t = started((3, 1))
    t.move(13, 9)  # straight from 13 to 9 over 10 or 12
    t.press("DONE")
    assert t.ctl.record[-1] == "white 31: 13/10/9"


def test_done_before_the_play_is_complete_shows_what_is_required():
    t = started((3, 1))
    t.move(8, 5)
    t.press("DONE")
    assert t.ctl.phase == MOVING
    assert t.points(M_REQUIRED)
    assert "1" in t.ctl.message


def test_wrong_placement_flashes_and_guides_back():
    t = started((3, 1))
    t.lift(8)
    t.place(3)  # a 5 is not on the dice
    assert t.points(M_ERROR) == [3]
    assert t.points(M_FIX_TO) == [8]
    t.press("DONE")
    assert t.ctl.phase == MOVING and t.ctl.refused == 1
    t.move(3, 5)
    assert not t.marked(M_ERROR)
    assert t.ctl.dice_left() == (1,)


def test_take_back_before_done_is_free():
    t = started((3, 1))
    t.move(8, 5)
    t.move(5, 8)
    assert t.ctl.dice_left() == (3, 1)
    t.move(24, 21)
    t.move(21, 20)
    t.press("DONE")
    assert t.ctl.record[-1] == "white 31: 24/21/20"


def test_hit_with_the_blot_lifted_first():
    t = loaded({13: 5, 8: 3, 6: 5, 24: 2}, {5: 1, 19: 14}, (3, 1))
    assert t.ctl.phase == MOVING
    t.lift(5, 1 - t.ctl.mover) if False else None
    loc5 = t.loc(5)
    t.counts[loc5] -= 1  # the blot lifted first
    t.send()
    t.counts[BAR0 + 1] += 1  # onto black's bar
    t.send()
    assert t.ctl.phase == MOVING
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    assert t.ctl.record[-1] == "white 31: 8/5* 6/5"
    assert t.ctl.pos.me[25] == 1  # black (now on roll) is on the bar


def test_hit_with_the_hitter_placed_first():
    t = loaded({13: 5, 8: 3, 6: 5, 24: 2}, {5: 1, 19: 14}, (3, 1))
    t.move(8, 5)  # lands on the blot
    assert t.points(M_FIX_FROM) == [5]
    assert t.marked(M_FIX_TO) == [BAR0 + 1]
    t.counts[t.loc(5)] -= 1
    t.send()
    t.counts[BAR0 + 1] += 1
    t.send()
    assert not t.marked(M_FIX_FROM)
    t.move(6, 5)
    t.press("DONE")
    assert t.ctl.record[-1] == "white 31: 8/5* 6/5"


def test_bar_entry_first():
    t = loaded({"bar": 1, 13: 5, 8: 3, 6: 5, 24: 1}, {19: 15}, (3, 1))
    assert 25 in t.points(M_SOURCE)
    t.lift(25)
    assert t.points(M_TARGET) == [21, 22, 24]
    t.place(22)
    assert 25 not in t.points(M_SOURCE)
    t.move(22, 21)
    t.press("DONE")
    assert t.ctl.record[-1] == "white 31: bar/22/21"


def test_bear_off_into_the_tray():
    t = loaded({6: 2, 3: 3}, {19: 15}, (6, 3))
    t.move(6, 0)
    t.move(3, 0)
    t.press("DONE")
    assert t.ctl.record[-1] == "white 63: 6/off 3/off"


def test_win_ends_the_game_with_points():
    t = loaded({1: 1}, {19: 15}, (2, 1))
    t.move(1, 0)
    t.press("DONE")
    assert t.ctl.phase == GAME_OVER
    assert t.ctl.result == (0, 2, "gammon")
    assert t.ctl.scores == [2, 0]


def test_tournament_mode_hides_hints_but_still_validates():
    t = started((3, 1))
    t.ctl.step(("tournament", True), t.now)
    assert not t.marked(M_SOURCE)
    t.lift(8)
    assert not t.marked(M_TARGET)
    assert "lit point" not in t.ctl.message and "tournament" in t.ctl.message  # nothing is lit to point to
    t.place(3)
    assert t.points(M_ERROR) == [3]


def test_a_lifted_checker_is_sent_to_a_lit_point_outside_tournament_mode():
    t = started((3, 1))
    t.lift(8)
    assert t.marked(M_TARGET) and t.ctl.message == "put the checker on a lit point"


def test_no_legal_move_passes_on_done():
    t = loaded({24: 2, 13: 13}, {18: 2, 7: 2, 1: 11}, (6, 6))
    assert not t.marked(M_SOURCE)
    t.press("DONE")
    assert t.ctl.record[-1] == "white 66: -"


def test_knocked_board_is_guided_back_one_checker_at_a_time():
    t = started((3, 1))
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    assert t.ctl.phase == TURN_START
    a = t.loc(13)
    b = t.loc(11)
    t.counts[a] -= 1
    t.counts[b] += 1
    t.send()
    assert t.marked(M_FIX_FROM) == [b] and t.marked(M_FIX_TO) == [a]
    t.press("ROLL")
    assert not t.ctl.want_roll
    t.counts[b] -= 1
    t.counts[a] += 1
    t.send()
    assert not t.marked(M_FIX_FROM)


def test_stacks_beyond_the_switches_ask_the_player_to_pick():
    cap = bytes([3] * 24 + [4, 4, 6, 6])
    t = loaded({13: 5, 8: 4, 6: 6}, {19: 15}, (2, 1), capacity=cap)
    # 8/6 6/5 and 8/7 8/6... : 13 stays 3-sensed, 6 stays full
    t.move(8, 6)
    t.move(6, 5)
    t.press("DONE")
    assert t.ctl.phase in (PICK, TURN_START)
    if t.ctl.phase == PICK:
        assert t.marked(M_CAND_FROM) and t.marked(M_CAND_TO)
        n = len(t.ctl.pick[0])
        seen = []
        for _ in range(n):
            seen.append(t.ctl.pick_candidate().key())
            t.press("NEXT")
        assert len(set(seen)) == n > 1
        t.press("DONE")
        assert t.ctl.phase == TURN_START


def test_cube_double_take_and_drop():
    t = started((3, 1))
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    t.press("DOUBLE")
    assert t.ctl.phase == CUBE_OFFERED
    t.press("TAKE")
    assert t.ctl.phase == TURN_START and t.ctl.cube == 2 and t.ctl.owner == 0
    assert not t.ctl.can_double()  # black does not own the cube
    t.press("ROLL")
    t.dice(6, 5)
    t.move(24, 13)
    t.press("DONE")
    t.press("DOUBLE")
    t.press("DROP")
    assert t.ctl.phase == GAME_OVER and t.ctl.result == (0, 2, "drop")


def test_crawford_game_forbids_doubling():
    # a 3-point match at 1-0: white bears off its last checker for a single and stands 1-away
    from pipcore.matchid import MatchState
    t = Table({"matchLength": 3})
    pos = Position.from_dicts({1: 1, "off": 14}, {13: 13, "off": 2})
    mid = MatchState(on_roll=0, dice=(2, 1), length=3, score=(1, 0), jacoby=False).encode()
    t.ctl.step(("load", pos.position_id(), 0, (2, 1), mid), 0)
    t.setup(pos, 0)
    assert t.ctl.phase == MOVING and not t.ctl.crawford_game
    t.lift(1)
    t.place(0)
    t.press("DONE")
    assert t.ctl.phase == GAME_OVER and list(t.ctl.scores) == [2, 0]
    t.press("DONE")
    assert t.ctl.phase == SETUP and t.ctl.crawford_game
    t.counts = bytearray(NLOC)  # the hands clear the board (switches cannot tell colours) and set it up
    t.send()
    t.setup()
    t.press("ROLL")
    t.dice(3, 1)
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    assert t.ctl.phase == TURN_START and not t.ctl.can_double()
    t.press("DOUBLE")
    assert t.ctl.phase == TURN_START and "Crawford" in t.ctl.message


def test_host_play_is_the_only_play_accepted():
    t = started((3, 1))
    t.ctl.step(("host_play", "24/21 6/5"), t.now)
    assert t.points(M_PLAY_FROM) == [6, 24]
    assert t.points(M_PLAY_TO) == [5, 21]
    t.move(8, 5)
    assert t.points(M_ERROR) == [5]
    t.move(5, 8)
    t.move(24, 21)
    t.move(6, 5)
    t.press("DONE")
    assert t.ctl.record[-1] == "white 31: 24/21 6/5"


def test_host_play_must_be_legal():
    t = started((3, 1))
    try:
        t.ctl.step(("host_play", "24/20 6/2"), t.now)
    except ControllerError:
        return
    assert False, "an illegal host play was accepted"


def test_snapshot_restores_the_turn_with_the_same_dice():
    t = started((3, 1))
    t.move(8, 5)
    snap = t.ctl.snapshot()
    c = Controller.restore(snap, store=t.ctl.records.store)  # (the store stands for the board's flash)
    assert c.phase == MOVING and c.dice == (3, 1) and c.pos == t.ctl.pos
    c.step(("board", bytes(t.counts)), 0)
    assert c.dice_left() == (1,)  # the physical progress is recognised
    assert c.snapshot() == snap


def test_restore_rejects_damaged_state():
    for bad in ({}, {"v": 99}, {"v": 1, "options": {}, "variant": "backgammon"}):
        try:
            Controller.restore(bad)
        except ControllerError:
            continue
        assert False, "damaged state %r accepted" % (bad,)


def test_bad_events_raise_controller_error():
    t = Table()
    for ev in ((), ("nonsense",), ("board", b"\x00")):
        try:
            t.ctl.step(ev, 0)
        except ControllerError:
            continue
        assert False, "%r accepted" % (ev,)


def test_tray_and_bar_locations_are_per_colour():
    assert slot_loc(0, 0) == TRAY0 and slot_loc(1, 0) == TRAY0 + 1
    assert slot_loc(0, 25) == BAR0 and slot_loc(1, 25) == BAR0 + 1
    assert slot_loc(0, 24) == slot_loc(1, 1)


def test_match_id_follows_the_game():
    t = Table({"matchLength": 5})
    t.setup()
    t.press("ROLL")
    t.dice(3, 1)
    mid = t.ctl.match_id()
    try:
        from pipcore.matchdecode import decode_match_id
    except ImportError:
        return
    st = decode_match_id(mid)
    assert st.dice == (3, 1) and st.length == 5 and st.on_roll == 0 and st.cube_value == 1
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    t.press("DOUBLE")
    st = decode_match_id(t.ctl.match_id())
    assert st.doubled and st.on_roll == 1 and st.turn == 0 and st.dice == (0, 0)


def test_load_with_match_id_sets_cube_and_score():
    try:
        from pipcore.matchid import MatchState
    except ImportError:
        return
    mid = MatchState(cube_value=4, cube_owner=1, on_roll=0, length=7, score=(2, 5)).encode()
    t = Table()
    pos = Position.start()
    t.ctl.step(("load", pos.position_id(), 0, None, mid), 0)
    t.setup(pos, 0)
    assert t.ctl.cube == 4 and t.ctl.owner == 1 and t.ctl.scores == [2, 5]
    assert t.ctl.options["matchLength"] == 7
    assert not t.ctl.can_double()  # black owns the cube


def test_host_play_as_the_result_position_id():
    t = started((3, 1))
    from pipcore.rules import apply_move
    target = t.ctl.pos.copy()
    apply_move(target, 8, 5)
    apply_move(target, 6, 5)
    t.ctl.step(("host_play", target.swapped().position_id()), t.now)  # as gnubg writes it after the play
    assert t.points(M_PLAY_FROM) == [6, 8] and t.points(M_PLAY_TO) == [5]
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    assert t.ctl.record[-1] == "white 31: 8/5 6/5"


def test_host_play_garbage_is_a_clear_error():
    t = started((3, 1))
    for bad in ("hello", "AAAAAAAAAAAAAA", "13/x"):
        try:
            t.ctl.step(("host_play", bad), t.now)
        except ControllerError as exc:
            assert bad in str(exc)
            continue
        assert False, "%r accepted" % bad
    assert t.ctl.forced is None


def test_long_nardy_setup_opening_and_first_turn():
    t = Table(variant="nardy")
    t.send()
    # all 15 on each head: white's 24 is board point 24, black's is board point 12
    assert sorted(t.marked(M_ADD)) == [11, 23]
    t.setup()
    assert t.ctl.phase == OPENING
    t.press("ROLL")
    t.dice(5, 2)
    assert t.ctl.phase == TURN_START and t.ctl.mover == 0  # fresh roll for the first turn
    t.press("ROLL")
    t.dice(6, 6)
    assert t.points(M_SOURCE) == [24]
    t.move(24, 18)
    t.move(24, 18)  # first-turn exception: a second checker leaves the head on 6-6
    t.press("DONE")
    assert t.ctl.record[-1] == "white 66: 24/18(2)"
    assert t.ctl.mover == 1


def test_long_nardy_host_play():
    t = Table(variant="nardy")
    t.setup()
    t.press("ROLL")
    t.dice(5, 2)
    t.press("ROLL")
    t.dice(4, 3)
    t.ctl.step(("host_play", "24/17"), t.now)
    assert t.points(M_PLAY_FROM) == [24] and t.points(M_PLAY_TO) == [17]
    t.move(24, 20)
    t.move(20, 17)
    t.press("DONE")
    assert t.ctl.record[-1] == "white 43: 24/20/17"
    try:
        t.ctl.step(("host_play", "24/10"), t.now)
    except ControllerError:
        pass
    else:
        assert False, "a host play given out of turn was taken"


def test_beaver_and_raccoon():
    t = started((3, 1), {"beavers": True, "raccoons": True})
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    t.press("DOUBLE")  # black offers 2
    t.press("BEAVER")  # white takes at 2 and redoubles to 4
    assert t.ctl.owner == 0 and t.ctl.display == ("offer", 4)
    t.press("RACCOON")  # black takes at 4 and redoubles to 8; white keeps the cube
    assert t.ctl.display == ("offer", 8)
    t.press("TAKE")
    assert t.ctl.phase == TURN_START and t.ctl.cube == 8 and t.ctl.owner == 0 and t.ctl.mover == 1


def test_beaver_refused_scores_twice_the_cube():
    t = started((3, 1), {"beavers": True})
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    t.press("DOUBLE")
    t.press("BEAVER")
    t.press("DROP")  # black refuses the beaver
    assert t.ctl.phase == GAME_OVER and t.ctl.result == (0, 2, "drop")


# -- the match record -------------------------------------------------------------
def resumed(t):
    """``t`` after a power cut: the controller rebuilt from its JSON save, the board sensed again."""
    import json

    before = bytes(t.ctl.record_bytes())
    t.ctl = Controller.restore(json.loads(json.dumps(t.ctl.snapshot())), store=t.ctl.records.store)
    assert bytes(t.ctl.record_bytes()) == before  # exactly the saved entries: none lost, none twice
    t.send()
    return t


def test_match_record_keeps_every_game_across_resumes():
    from pipcore.record import read_record, replay

    t = Table({"matchLength": 5})
    assert t.ctl.record_bytes() == b""  # nothing played yet
    t.setup()
    t.press("ROLL")
    t.dice(3, 1)
    resumed(t)
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    resumed(t)
    t.press("DOUBLE")
    resumed(t)
    t.press("TAKE")
    resumed(t)
    t.press("ROLL")
    t.dice(6, 5)
    resumed(t)
    t.move(24, 13)
    t.press("DONE")
    t.press("DOUBLE")
    t.press("DROP")
    assert t.ctl.phase == GAME_OVER and t.ctl.scores == [2, 0]
    resumed(t)
    t.press("DONE")  # the next game of the match: the record goes on
    t.setup()
    t.press("ROLL")
    t.dice(2, 2)  # an opening tie, then black wins the opening
    t.press("ROLL")
    t.dice(1, 4)
    resumed(t)
    rec = read_record(t.ctl.record_bytes())
    assert not rec.torn and rec.players == ["white", "black"] and rec.options["matchLength"] == 5
    games = rec.games()
    assert len(games) == 2
    assert [e[0] for e in games[0]] == ["opening", "play", "cube", "cube", "roll", "play", "cube", "cube", "end"]
    assert games[0][-1] == ("end", 0, 0, 2)
    assert games[1] == [("opening", 2, 2), ("opening", 1, 4)]
    ref = replay(rec)
    assert list(ref.match.score) == [2, 0] and ref.game_number == 2


def test_match_record_beaver_and_raccoon_replay():
    from pipcore.record import replay

    t = started((3, 1), {"beavers": True, "raccoons": True})
    t.move(8, 5)
    t.move(6, 5)
    t.press("DONE")
    t.press("DOUBLE")
    t.press("BEAVER")
    t.press("RACCOON")
    t.press("TAKE")
    ref = replay(t.ctl.record_bytes())
    assert ref.cube.value == 8 and ref.cube.owner == 0


def test_a_host_loaded_position_falls_back_to_the_text_log():
    t = loaded({1: 1}, {19: 15}, (2, 1))
    t.move(1, 0)
    t.press("DONE")
    assert t.ctl.record_bytes().startswith(b"white 21: 1/off")
