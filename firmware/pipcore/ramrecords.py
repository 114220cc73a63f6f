"""The match store's interface in RAM, for a controller without flash (tests, host tools).

The board's store is ``pipdrivers.recstore.MatchStore`` (its record files on the flash); a
``pipcore.controller.Controller`` built without one keeps its records here (``pipcore.keeper``).
"""


class RamRecords:
    """The store's interface in RAM (a controller without flash): records as bytearrays."""

    def __init__(self):
        self.records = {}
        self.infos = {}
        self.live = 0

    def begin(self, variant, players, length):
        mid = max(self.records) + 1 if self.records else 1
        self.records[mid] = bytearray()
        self.infos[mid] = {"id": mid, "variant": variant, "players": list(players), "length": length, "date": None,
                           "games": 0, "score": [0, 0], "bytes": 0, "exported": 0, "open": True}
        return mid

    def append(self, mid, offset, data):
        rec = self.records[mid]
        if len(rec) != offset:
            rec = self.records[mid] = rec[:offset]  # (MicroPython's bytearray has no slice deletion)
        rec.extend(data)

    def rewind(self, mid, offset):
        rec = self.records.get(mid)
        if rec is None:
            raise OSError(2, "no record %d" % mid)
        self.records[mid] = rec[:offset]

    def read(self, mid, offset, n):
        return bytes(self.records[mid][offset:offset + n])

    def info(self, mid):
        return self.infos.get(mid)

    def ids(self):
        return sorted(self.records)

    def game_over(self, mid, length, games, score):
        self.infos[mid].update({"bytes": length, "games": games, "score": list(score)})

    def stopped(self, mid, game, why):
        if mid in self.infos:
            self.infos[mid].update({"stopped": why, "stopped_game": game})

    def close(self, mid, length, games, score):
        if mid in self.infos:
            self.infos[mid].update({"bytes": length, "games": games, "score": list(score), "open": False})

    def free(self):
        return None

    def low(self):
        return False
