"""Files the host writes are whole or not written at all: ``write_file``.

Every file a host tool writes (exports, imports, ``export --all``, the room's recordings, the saves of
the text and Back Alley games) goes through ``write_file``: the bytes go to a temporary file in the
target's folder, are flushed to the disk (fsync), and the temporary file is renamed over the target.
A failure (a full disk, a folder that cannot be written) leaves the previous file as it was and
raises ``FileWriteError``, whose message names the file:
``cannot write small/club.mat: No space left on device``.
"""

import itertools
import os

_NUMBERS = itertools.count(1)  # temporary names unique within the process (threads too)


class FileWriteError(OSError):
    """A file could not be written; the previous file (if any) is untouched. ``str()`` names the file."""

    def __str__(self):
        return "cannot write %s: %s" % (self.filename, self.strerror or "error %s" % self.errno)


def _fsync_folder(folder):
    """Make the rename itself durable (best effort: not every system opens folders)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_file(path, data):
    """Write ``data`` (str: UTF-8, written as given; or bytes) to ``path`` atomically (module docstring).

    The new file keeps the mode of the file it replaces (a new one gets the umask's). Raises
    FileWriteError naming ``path``.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(folder, ".%s.%d-%d.part" % (os.path.basename(path), os.getpid(), next(_NUMBERS)))
    try:
        if os.path.isdir(path):
            raise IsADirectoryError(21, "it is a folder")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        raise FileWriteError(exc.errno, exc.strerror or str(exc), path) from exc
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        except FileNotFoundError:
            pass
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise FileWriteError(exc.errno, exc.strerror or str(exc), path) from exc
        raise
    _fsync_folder(folder)
