"""Back Alley: a whole game of random legal actions; time and heap per action.

    mpremote run tests/pico/bench_backalley.py

Every call and card is chosen among ``legal_calls()``/``legal_cards()``, so an
action is one legality query plus the action, as on the board. Best of GAMES
games. ``heap`` is the most one action allocates (collector off for that
action only: a whole game with the collector off is megabytes of garbage,
which is why this script used to die with MemoryError on the Pico);
``log`` the bytes of the game's record log. Budgets on the Pico: 10 ms and
16 KB per action (an action must fit easily in the ~100 KB the app leaves).
"""

import gc

from pipbench import check_bytes, check_ms, finish, now_us, since_us
from pipcore.backalley import BIDDING, GAME_OVER, PASS, PLAYING, Game

GAMES = 3


class Lcg:
    """Deterministic ``randrange``: the same choices on every port."""

    def __init__(self, seed):
        self.state = seed

    def randrange(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def action(game, choose):
    if game.phase == BIDDING:
        calls = game.legal_calls()
        game.bid(game.to_act, PASS if choose.randrange(2) else calls[choose.randrange(len(calls))])
    elif game.phase == PLAYING:
        cards = game.legal_cards()
        game.play(game.to_act, cards[choose.randrange(len(cards))])
    else:
        game.deal()


def play_game(seed, heap):
    """(actions, most heap one action allocates if ``heap``)."""
    choose = Lcg(seed + 1000)
    game = Game(rng=Lcg(seed))
    n = most = 0
    while game.phase != GAME_OVER:
        if heap:
            gc.collect()
            gc.disable()
            before = gc.mem_alloc()
        action(game, choose)
        if heap:
            most = max(most, gc.mem_alloc() - before)
            gc.enable()
        n += 1
    return game, n, most


def main():
    best = None
    for seed in range(GAMES):
        gc.collect()
        t0 = now_us()
        game, n, _ = play_game(seed, False)
        us = since_us(t0)
        if best is None or us / n < best[1] / best[0]:
            best = (n, us)
    game, n, most = play_game(0, True)
    print("game actions=%d us=%d heap=%d log=%d" % (best[0], best[1], most, len(game.record_log())))
    check_ms("backalley action", best[1] / best[0], "generation", 10)
    check_bytes("backalley heap per action", most, 16 * 1024)
    finish()


main()
