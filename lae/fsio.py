"""The one atomic file writer: every artifact the project writes goes through it.

Temp file in the same folder, fsync, ``os.replace``, fsync of the folder: readers see
the old bytes or the new, never a mix, and a crash leaves the old file intact.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

__all__ = ["TMP_PREFIX", "atomic_write"]

# Temp files of atomic writes start with this; a crash may leave one behind.
TMP_PREFIX = ".lae-tmp-"


def atomic_write(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` atomically, creating parent folders. Keeps the old
    file's permission bits. Returns False (and writes nothing) when the file already
    holds exactly ``data``."""
    path = Path(path)
    try:
        if path.read_bytes() == data:
            return False
        mode = stat.S_IMODE(path.stat().st_mode)
    except (FileNotFoundError, NotADirectoryError):
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(path.parent)
    return True


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows cannot open folders
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some filesystems refuse
        pass
    finally:
        os.close(fd)
