"""Private filesystem helpers for freeze and verify: streaming hashes, a safe walk,
atomic writes and the per-pocket freeze lock."""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from pathlib import Path
from typing import Iterator

import filelock

from lae.fsio import TMP_PREFIX, atomic_write  # noqa: F401  (re-exported for freeze)

__all__ = [
    "TMP_PREFIX",
    "sha256_file",
    "sha256_file_and_bytes",
    "walk_files",
    "atomic_write",
    "pocket_lock",
]


_CHUNK = 1 << 20  # 1 MiB: large enough that hashing, not syscalls, dominates big files
_local = threading.local()


def _buffer() -> bytearray:
    # One buffer per thread, reused: allocating (and zeroing) 1 MiB per file would
    # cost more than hashing a typical small document.
    buf = getattr(_local, "buf", None)
    if buf is None:
        buf = _local.buf = bytearray(_CHUNK)
    return buf


def sha256_file(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of a file's bytes, streamed through one reused 1 MiB buffer, so
    memory stays flat for any size and each byte is read once."""
    buf = _buffer()
    view = memoryview(buf)
    h = hashlib.sha256()
    with open(path, "rb", buffering=0) as handle:
        while n := handle.readinto(buf):
            h.update(view[:n])
    return h.hexdigest()


def sha256_file_and_bytes(path: str | os.PathLike[str]) -> tuple[str, bytes]:
    """Read a (small) file once; return its hex SHA-256 and its bytes."""
    data = Path(path).read_bytes()
    return hashlib.sha256(data).hexdigest(), data


def walk_files(top: Path) -> Iterator[tuple[str, os.DirEntry[str] | None, str]]:
    """Yield ``(relative posix path, entry, kind)`` for everything below ``top``.

    ``kind`` is ``"file"`` for a regular file, ``"symlink"`` for a symbolic link (not
    followed: a link could point anywhere, so frozen folders must hold real files),
    ``"other"`` for sockets, FIFOs and devices. Folders are descended in sorted order;
    a missing ``top`` yields nothing.
    """
    stack: list[tuple[str, str]] = [(os.fspath(top), "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except FileNotFoundError:
            continue
        subdirs: list[tuple[str, str]] = []
        for entry in entries:
            rel = prefix + entry.name
            if entry.is_symlink():
                yield rel, entry, "symlink"
            elif entry.is_dir(follow_symlinks=False):
                subdirs.append((entry.path, rel + "/"))
            elif entry.is_file(follow_symlinks=False):
                yield rel, entry, "file"
            else:
                yield rel, entry, "other"
        stack.extend(reversed(subdirs))


def lock_path_for(anchors_dir: Path) -> Path:
    """The lock file for one pocket: outside the tree (nothing stray appears in a
    frozen folder, and read-only trees can be frozen into a copy), in a per-user
    temp folder, named by a digest of the pocket's resolved anchors folder."""
    key = hashlib.sha256(os.fsencode(str(anchors_dir.resolve()))).hexdigest()[:32]
    user = str(os.getuid()) if hasattr(os, "getuid") else "user"
    folder = Path(tempfile.gettempdir()) / f"lae-freeze-locks-{user}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder / f"{key}.lock"


def pocket_lock(anchors_dir: Path, timeout: float) -> filelock.FileLock:
    """An exclusive OS lock (``flock``) for freezing one pocket; released by the OS if
    the process dies, so a crash never leaves the pocket locked."""
    return filelock.FileLock(os.fspath(lock_path_for(anchors_dir)), timeout=timeout, thread_local=False)
