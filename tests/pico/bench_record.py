"""Game record timings: writing a match as it is played, and reading it back after a power cut.

Runs unchanged on a real Pico with the firmware deployed at the filesystem root:

    mpremote run tests/pico/bench_record.py

and under the WebAssembly MicroPython for ``make bench`` (tests/bench/bench_record.py
runs it and multiplies by 20 for the Pico estimate).

A 7-point match of random legal plays and random cube actions is played by the
referee with a RecordWriter into memory. ``write`` is the whole match's time
(rules included), ``bytes`` the record size, ``games`` its games; ``read`` is
read_record (frames and CRCs) and ``replay`` the full rules replay of the
record: what the board does after a power cut to get back to the last entry.

Output::

    record games=G actions=A bytes=B write_us=W read_us=R replay_us=P
"""

import time

from pipcore.cube import DROP, TAKE
from pipcore.match import ANSWER, CUBE_OR_ROLL, MATCH_ENDED, OPENING, PLAY, Referee
from pipcore.options import make_options
from pipcore.record import RecordWriter, read_record, replay

try:
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
except AttributeError:  # CPython
    def ticks_us():
        return int(time.perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b


class Lcg:
    def __init__(self, seed):
        self.state = seed

    def randrange(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


class Sink:
    def __init__(self):
        self.data = bytearray()

    def write(self, b):
        self.data.extend(b)


def play_match(rng, sink):
    ref = Referee(make_options({"matchLength": 7}), ("White", "Black"), RecordWriter(sink))
    actions = 0
    while ref.phase != MATCH_ENDED:
        ref.new_game()
        while not ref.game_over():
            actions += 1
            if ref.phase == OPENING:
                ref.opening_roll(rng.randrange(6) + 1, rng.randrange(6) + 1)
            elif ref.phase == CUBE_OR_ROLL:
                if ref.cube.may_offer(ref.turn) and rng.randrange(12) == 0:
                    ref.double()
                else:
                    ref.roll((rng.randrange(6) + 1, rng.randrange(6) + 1))
            elif ref.phase == ANSWER:
                ref.cube_action(TAKE if rng.randrange(3) else DROP)
            elif ref.phase == PLAY:
                turn = ref.legal_turn()
                ref.play_code(turn, turn.plays[rng.randrange(len(turn.plays))])
    return ref, actions


def main():
    sink = Sink()
    t0 = ticks_us()
    ref, actions = play_match(Lcg(7), sink)
    t1 = ticks_us()
    data = bytes(sink.data)
    record = read_record(data)
    t2 = ticks_us()
    again = replay(record)
    t3 = ticks_us()
    assert again.match.score == ref.match.score
    print("record games=%d actions=%d bytes=%d write_us=%d read_us=%d replay_us=%d"
          % (ref.game_number, actions, len(data), ticks_diff(t1, t0), ticks_diff(t2, t1), ticks_diff(t3, t2)))


main()
