"""The grader's identity: what a freeze binds a release to.

Two parts, both recorded in every freeze stamp and checked by ``lae verify``:

* :data:`SCORING_CONTRACT_VERSION` -- bumped by hand whenever the meaning of a score
  changes (metrics, reward formula, matching rules), even if no file moved;
* :func:`grader_source_digest` -- a SHA-256 over the grader's own source, so any edit
  to the installed ``lae.grader`` code, intended or not, is seen.

The digest is the SHA-256 of the ``sha256sum`` listing (``<hex>  <relative/posix/path>\\n``
per file, sorted by path) of every ``*.py`` below the grader package, followed by the same
listing of the matching kernel ``lae.match`` with paths ``match/<path>`` (SPEC section 6 gives
the shell command).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import lae.match

__all__ = ["SCORING_CONTRACT_VERSION", "grader_source_digest", "grader_source_listing"]

SCORING_CONTRACT_VERSION = 2
"""Version of the scoring contract (what a score means). Bump on any semantic change.
2: grader v2 (subject + problem asserted in one discussion; key format v2)."""

_PACKAGE_DIR = Path(__file__).resolve().parent
# The matching kernel (lae.match) decides every credit, so it is part of the grader's identity:
# its files are listed as ``match/<path>`` after the grader's own.
_KERNEL_DIR = Path(lae.match.__file__).resolve().parent


def grader_source_listing(package_dir: Path | None = None) -> str:
    """The ``sha256sum``-format listing of every ``*.py`` of the grader package.

    One line ``<sha256 hex>  <path relative to the package, POSIX>`` per file, sorted
    by path (code-point order, which is ``LC_ALL=C sort`` order for UTF-8 names);
    ``__pycache__`` folders are skipped.
    """
    if package_dir is not None:
        return "".join(f"{digest}  {rel}\n" for rel, digest in _entries(Path(package_dir), ""))
    entries = _entries(_PACKAGE_DIR, "") + _entries(_KERNEL_DIR, "match/")
    return "".join(f"{digest}  {rel}\n" for rel, digest in entries)


def _entries(base: Path, prefix: str) -> list[tuple[str, str]]:
    entries: list[tuple[str, str]] = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for name in filenames:
            if not name.endswith(".py"):
                continue
            path = Path(dirpath) / name
            rel = prefix + path.relative_to(base).as_posix()
            entries.append((rel, hashlib.sha256(path.read_bytes()).hexdigest()))
    entries.sort()
    return entries


def grader_source_digest(package_dir: Path | None = None) -> str:
    """Lower-case hex SHA-256 identifying the grader's source (see module docstring)."""
    return hashlib.sha256(grader_source_listing(package_dir).encode("utf-8")).hexdigest()
