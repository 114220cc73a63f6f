"""Twin of CircuitPython's ``storage``: who owns the CIRCUITPY drive."""

from cpsim import WIRING


class _Mount:
    @property
    def readonly(self):
        return WIRING.drive_readonly


def remount(mount_path, readonly=False, *, disable_concurrent_write_protection=False):
    if mount_path != "/":
        raise OSError(22, "no such mount: %s" % mount_path)
    WIRING.remounts.append(readonly)
    WIRING.drive_readonly = bool(readonly)


def getmount(mount_path):
    if mount_path != "/":
        raise OSError(22, "no such mount: %s" % mount_path)
    return _Mount()
