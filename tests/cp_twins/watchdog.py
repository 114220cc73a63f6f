"""Twin of CircuitPython's ``watchdog``."""


class WatchDogMode:
    RAISE = "RAISE"
    RESET = "RESET"


class WatchDogTimeout(Exception):
    pass
