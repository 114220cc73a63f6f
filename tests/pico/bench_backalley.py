"""Back Alley engine timings: a whole game of random legal actions, per action and per game.

Runs unchanged on a real Pico with the firmware deployed at the filesystem root:

    mpremote run tests/pico/bench_backalley.py

and under the WebAssembly MicroPython for ``make bench`` (tests/bench/bench_backalley.py
runs it and multiplies by 20 for the Pico estimate).

Each game deals 25 counted deals (plus redeals) from a deterministic shuffle;
every call and card is chosen among ``legal_calls()`` / ``legal_cards()``, so an
action costs one legality query plus the action itself, as on the board when a
player's choice is shown and then taken. The best of GAMES games is kept (the
least disturbed by a shared host). ``heap`` is what one game allocates in total
(``gc.mem_alloc()`` delta, collector off: garbage included); ``log`` the bytes
of the game's record log, what a save of the whole game takes.

Output::

    game actions=N us=T us_per_action=A heap=H log=L
"""

import gc
import time

from pipcore.backalley import BIDDING, GAME_OVER, PASS, PLAYING, Game

GAMES = 3


class Lcg:
    """Deterministic rng with ``randrange`` (the same choices on every port)."""

    def __init__(self, seed):
        self.state = seed

    def randrange(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def play_game(seed):
    choose = Lcg(seed + 1000)
    game = Game(rng=Lcg(seed))
    actions = 0
    while game.phase != GAME_OVER:
        game.deal()
        actions += 1
        while game.phase == BIDDING:
            calls = game.legal_calls()
            game.bid(game.to_act, PASS if choose.randrange(2) else calls[choose.randrange(len(calls))])
            actions += 1
        while game.phase == PLAYING:
            cards = game.legal_cards()
            game.play(game.to_act, cards[choose.randrange(len(cards))])
            actions += 1
    return game, actions


def main():
    best = None
    for seed in range(GAMES):
        gc.collect()
        t0 = time.ticks_us()
        game, actions = play_game(seed)
        us = time.ticks_diff(time.ticks_us(), t0)
        if best is None or us / actions < best[1] / best[0]:
            best = (actions, us)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    game, actions = play_game(0)
    heap = gc.mem_alloc() - before
    gc.enable()
    print("game actions=%d us=%d us_per_action=%d heap=%d log=%d"
          % (best[0], best[1], best[1] // best[0], heap, len(game.record_log())))


main()
