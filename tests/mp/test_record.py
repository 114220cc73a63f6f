"""The game record: written as the game goes, read back after a power cut, replayed by the rules.

Plain test functions: they run under pytest and under the real MicroPython.
"""

from pipcore.cube import OFFER, TAKE
from pipcore.match import GAME_ENDED, MATCH_ENDED, Referee
from pipcore.options import make_options
from pipcore.record import RecordError, RecordWriter, crc16, frame, read_record, replay


class Sink:
    """A stream that keeps every write separately (one write per entry)."""

    def __init__(self):
        self.writes = []
        self.flushes = 0

    def write(self, data):
        self.writes.append(bytes(data))

    def flush(self):
        self.flushes += 1

    def data(self):
        return b"".join(self.writes)


def raises(exc_type, func, *args):
    try:
        func(*args)
    except exc_type as exc:
        return str(exc)
    raise AssertionError("%s was not raised" % exc_type.__name__)


def short_match():
    """A 3-point match: an opening tie, a dropped double, then a double taken and a resignation."""
    sink = Sink()
    ref = Referee(make_options({"matchLength": 3}), ("Ann", "Bo"), RecordWriter(sink))
    ref.new_game()
    ref.opening_roll(4, 4)
    ref.opening_roll(6, 1)
    ref.play([(13, 7), (8, 7)])
    ref.roll((3, 1))
    ref.play([(8, 5), (6, 5)])
    ref.double()
    ref.drop()
    ref.new_game()
    ref.opening_roll(2, 5)
    ref.play([(13, 8), (13, 11)])
    ref.double()
    ref.take()
    ref.roll((6, 6))
    ref.play([(24, 18), (24, 18), (13, 7), (13, 7)])
    ref.resign(1, 1)  # player 1 gives up a single at cube 2: 1 + 2 = 3 points, match over
    return sink, ref


def test_crc16_known_value():
    assert crc16(b"123456789") == 0x29B1  # CRC-16/CCITT-FALSE check value


def test_written_as_the_game_goes_one_write_per_entry():
    sink, ref = short_match()
    assert ref.phase == MATCH_ENDED and ref.match.score == [3, 0]
    assert sink.flushes == len(sink.writes)
    data = sink.data()
    assert len(data) < 200  # compact: a whole short match in a few dozen bytes per game
    rec = read_record(data)
    assert rec.players == ["Ann", "Bo"] and rec.options["matchLength"] == 3 and not rec.torn
    kinds = [e[0] for e in rec.entries]
    assert kinds[:6] == ["game", "opening", "opening", "play", "roll", "play"]
    assert ("cube", 0, OFFER) in rec.entries and ("cube", 1, TAKE) in rec.entries
    assert rec.entries[-1] == ("end", 0, 1, 2)
    again = replay(rec)
    assert again.match.score == [3, 0] and again.match_id() == ref.match_id()


def test_every_cut_point_reads_back_to_the_last_complete_entry():
    sink, ref = short_match()
    data = sink.data()
    ends = []
    total = 0
    for w in sink.writes:
        total += len(w)
        ends.append(total)
    for cut in range(len(data) + 1):
        rec = read_record(data[:cut]) if cut >= ends[0] else None
        if rec is None:
            assert raises(RecordError, read_record, data[:cut])
            continue
        complete = len([e for e in ends if e <= cut])
        assert rec.length == ends[complete - 1]
        assert rec.torn == (cut not in ends)
        replay(rec)  # what survived is always a legal prefix of the match


def test_erased_flash_after_the_record_is_not_an_entry():
    sink, _ = short_match()
    data = sink.data()
    for filler in (b"\xff" * 64, b"\x00" * 64):
        rec = read_record(data + filler)
        assert not rec.torn and rec.length == len(data)


def test_torn_last_entry_is_dropped_not_misread():
    sink, _ = short_match()
    data = bytearray(sink.data())
    last = len(sink.writes[-1])
    data[-2] ^= 0xFF  # the last entry's CRC is damaged (a cut write)
    rec = read_record(bytes(data))
    assert rec.torn and rec.length == len(data) - last
    assert rec.entries[-1][0] == "resign"


def test_corrupt_entry_in_the_middle_is_an_error_naming_it():
    sink, _ = short_match()
    data = bytearray(sink.data())
    offset = sum(len(w) for w in sink.writes[:9])
    data[offset + 2] ^= 0x01
    text = raises(RecordError, read_record, bytes(data))
    assert "entry 10" in text and ("byte %d" % offset) in text and "CRC" in text


def test_not_a_record():
    assert "not a Pipboard record" in raises(RecordError, read_record, frame(b"Xjunk") + frame(b"G"))
    assert "empty" in raises(RecordError, read_record, b"")
    assert "magic" in raises(RecordError, read_record, frame(b"HNOTREC\x01backgammon"))


def test_illegal_play_in_a_record_names_game_and_move():
    sink, _ = short_match()
    rec = read_record(sink.data())
    # replace the second game's 6-6 play by an impossible one
    for i in range(len(rec.entries)):
        if rec.entries[i][0] == "play" and len(rec.entries[i][2]) == 4:
            rec.entries[i] = ("play", 0, [(24, 18), (24, 18), (13, 7), (6, 1)])
    text = raises(RecordError, replay, rec)
    assert "game 2, move 2" in text and "player 0 plays" in text


def test_illegal_cube_action_in_a_record_names_the_reason():
    sink = Sink()
    w = RecordWriter(sink)
    opts = make_options({"matchLength": 5})
    w.header(("a", "b"), opts)
    w.new_game()
    w.opening(6, 1)
    w.play(0, [(13, 7), (8, 7)])
    w.cube(1, OFFER)
    w.cube(0, TAKE)
    w.roll(1, 3, 1)
    w.play(1, [(8, 5), (6, 5)])
    w.roll(0, 2, 1)
    w.play(0, [(13, 11), (6, 5)])
    w.cube(1, OFFER)  # player 1 gave the cube to player 0
    text = raises(RecordError, replay, sink.data())
    assert "only the cube owner may redouble" in text and "game 1, move 4" in text


def test_result_entry_must_match_the_rules():
    sink, _ = short_match()
    data = sink.data()
    # rewrite the final result with other points
    body = b"E" + bytes((0, 1, 0, 9))
    bad = data[:len(data) - len(sink.writes[-1])] + frame(body)
    assert "the rules give" in raises(RecordError, replay, bad)


def test_options_survive_and_bad_options_are_reported():
    sink = Sink()
    ref = Referee(make_options({"beavers": True, "jacoby": True, "cubeCap": 16}), ("x", "y"), RecordWriter(sink))
    rec = read_record(sink.data())
    assert rec.options == ref.options
    bad = frame(b"HPIPREC\x01backgammon") + frame(b"OmatchLength=3") + frame(b"Ojacoby=on") + frame(b"G")
    assert "options are invalid" in raises(RecordError, read_record, bad)


def test_game_over_between_games_and_record_of_a_finished_game():
    sink, ref = short_match()
    rec = read_record(sink.data())
    games = rec.games()
    assert len(games) == 2 and games[0][-1] == ("end", 0, 0, 1)
    first_end = [w[1:2] for w in sink.writes].index(b"E")
    r = replay(sink.data()[:sum(len(w) for w in sink.writes[:first_end + 1])])
    assert r.phase == GAME_ENDED and r.match.score == [1, 0]


def test_header_lines_of_an_imported_file_are_kept_exactly():
    lines = ['; [Site "Bar Loco, Madrid"]', "; [Event \"Autumn Open \u00e9t\u00e9\"]", "", "; " + "long " * 80 + "\u00e9"]
    sink = Sink()
    ref = Referee(make_options({"matchLength": 3}), ("Ann", "Bo"), RecordWriter(sink, "backgammon", lines))
    ref.new_game()
    ref.opening_roll(6, 1)
    rec = read_record(sink.data())
    assert rec.header_lines == lines and rec.version == 2
    assert rec.entries == [("game",), ("opening", 6, 1)]
    assert len(sink.writes) == 1 + 2 + 1 + 5 + 2  # the long line takes two entries
    # without header lines the record stays version 1, as older boards wrote it
    plain, _ = short_match()
    assert plain.data()[8] == 1 and read_record(plain.data()).header_lines == []


def test_header_line_entries_in_the_wrong_place_are_errors():
    head = frame(b"HPIPREC\x02backgammon") + frame(b"OmatchLength=3")
    assert "after the first game" in raises(RecordError, read_record, head + frame(b"G") + frame(b"T\x00late"))
    assert "flag" in raises(RecordError, read_record, head + frame(b"T\x07x") + frame(b"G"))
    assert "empty" in raises(RecordError, read_record, head + frame(b"T") + frame(b"G"))
    assert "version 4" in raises(RecordError, read_record, frame(b"HPIPREC\x04backgammon"))
