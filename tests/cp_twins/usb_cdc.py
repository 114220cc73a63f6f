"""Twin of CircuitPython's ``usb_cdc``: the console and the data channel as byte pipes with a host end."""

console = None
data = None
enabled = {"console": True, "data": False}


class Serial:
    def __init__(self):
        self.timeout = None
        self.write_timeout = None
        self.connected = True  # the host has the port open (DTR)
        self.incoming = bytearray()  # host -> board
        self.outgoing = bytearray()  # board -> host

    # -- the board's end --------------------------------------------------------
    @property
    def in_waiting(self):
        return len(self.incoming)

    def readinto(self, buf):
        if self.timeout != 0 and len(self.incoming) < len(buf):
            raise AssertionError("a blocking read (timeout %r) on the data channel would stall the loop"
                                 % (self.timeout,))
        n = min(len(buf), len(self.incoming))
        buf[:n] = self.incoming[:n]
        del self.incoming[:n]
        return n

    def read(self, size=-1):
        n = len(self.incoming) if size < 0 else min(size, len(self.incoming))
        out = bytes(self.incoming[:n])
        del self.incoming[:n]
        return out

    def write(self, buf):
        self.outgoing.extend(bytes(buf))
        return len(buf)

    def flush(self):
        pass

    def reset_input_buffer(self):
        self.incoming = bytearray()

    # -- the host's end ---------------------------------------------------------
    def host_write(self, raw):
        self.incoming.extend(raw)

    def host_read(self):
        out = bytes(self.outgoing)
        self.outgoing = bytearray()
        return out


def enable(*, console=True, data=False):
    enabled["console"] = console
    enabled["data"] = data


def disable():
    enable(console=False, data=False)


def _power_on(data_enabled):
    """A reset: the ports boot.py enabled (``data_enabled``) appear."""
    global console, data
    console = Serial()
    data = Serial() if data_enabled else None
