"""Twin of CircuitPython's ``microcontroller``: ``Pin`` and the ``watchdog``."""


class Pin:
    def __init__(self, name, gpio):
        self.name = name
        self.gpio = gpio

    def __repr__(self):
        return "board.%s" % self.name


class WatchDogTimer:
    def __init__(self):
        self.timeout = 0.0
        self.mode = None
        self.feeds = 0

    def feed(self):
        self.feeds += 1


watchdog = WatchDogTimer()


def reset():
    raise SystemExit("microcontroller.reset()")
