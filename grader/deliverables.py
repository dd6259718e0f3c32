"""The hardened deliverable reader: agent output is untrusted.

:func:`read_deliverable` never raises for any file content. It returns a
:class:`DeliverableRead` whose ``ok`` says whether the file counts, with the
text, or a one-line ``reason`` when it does not. A hostile or broken file ends
as ``ok=False`` within about a second and bounded memory.

Rules:

* Only the declared name counts: in a folder, the file must be named exactly
  ``declared_name`` (case-sensitive; a ``memo.md`` never stands in for a declared
  ``memo.docx``). Symbolic links and non-regular files are refused.
* Only the declared format counts, judged by content, not by name: a declared
  ``.docx`` must be a zip whose ``[Content_Types].xml`` gives the main part the
  Word document type (not .docm/.dotx/.xlsx/...); Markdown, text, PDF, an OLE2
  container (password-protected Office file or legacy .doc) are refused.
* ``.docx`` is read with python-docx after every guard in
  :mod:`lae.grader._zipguard` passed: body paragraphs, tables, headers/footers,
  footnotes/endnotes; tracked insertions count, deletions do not.
* ``.md``/``.txt`` must be UTF-8 without NUL bytes.
* Any other declared extension is refused, naming the supported ones.

Hard limits: the module constants of :mod:`lae.grader._zipguard` (``MAX_FILE_BYTES``,
``MAX_ENTRIES``, ``MAX_MEMBER_BYTES``, ``MAX_TOTAL_BYTES``, ``MAX_XML_MEMBER_BYTES``,
``MAX_TOTAL_XML_BYTES``, ``MAX_COMPRESSION_RATIO`` past ``RATIO_GRACE_BYTES``,
``MAX_XML_DEPTH``, ``MAX_TEXT_CHARS``), documented there and in SPEC.md §8.3 with their
values; no DOCTYPE/entities in any XML member, in any encoding the parser accepts.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from lae.errors import DeliverableError, Problem
from lae.grader._ooxml import read_docx
from lae.grader._zipguard import (
    MAX_COMPRESSION_RATIO,
    MAX_FILE_BYTES,
    MAX_MEMBER_BYTES,
    MAX_TEXT_CHARS,
    MAX_TOTAL_BYTES,
    MAX_TOTAL_XML_BYTES,
    MAX_XML_DEPTH,
    MAX_XML_MEMBER_BYTES,
    MAX_ZIP_MEMBERS,
    OLE2_REASON,
    RATIO_GRACE_BYTES,
    Refusal,
    _exc_text,
    check_text_size,
    read_file_limited,
    sniff,
)

__all__ = [
    "SUPPORTED_FORMATS",
    "MAX_FILE_BYTES",
    "MAX_ZIP_MEMBERS",
    "MAX_MEMBER_BYTES",
    "MAX_TOTAL_BYTES",
    "MAX_XML_MEMBER_BYTES",
    "MAX_TOTAL_XML_BYTES",
    "MAX_COMPRESSION_RATIO",
    "RATIO_GRACE_BYTES",
    "MAX_XML_DEPTH",
    "MAX_TEXT_CHARS",
    "DeliverableRead",
    "read_deliverable",
]

#: Declared deliverable formats the grader reads.
SUPPORTED_FORMATS = ("docx", "md", "txt")

DeliverableFormat = Literal["docx", "md", "txt"]


class DeliverableRead(BaseModel):
    """The outcome of reading one declared deliverable."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    declared_name: str = Field(description="The file name the task declares, e.g. 'risk-memo.docx'.")
    found: bool = Field(description="A regular file with exactly the declared name exists.")
    ok: bool = Field(description="The file counts: found, of the declared format, and its text was read.")
    format: DeliverableFormat | None = Field(description="The declared format, or None if it is not supported.")
    text: str = Field(default="", description="Extracted text when ok, else empty.")
    reason: str | None = Field(default=None, description="Why the file does not count (None when ok).")
    bytes_read: int = Field(default=0, ge=0, description="Bytes read from disk.")

    def require(self) -> str:
        """The text, or raise :class:`DeliverableError` with the reason."""
        if not self.ok:
            raise DeliverableError(
                f"deliverable {self.declared_name} does not count",
                [Problem(self.declared_name, self.reason or "not readable",
                         mend=f"save the deliverable as {self.declared_name} in the declared format")],
            )
        return self.text


def _check_declared(declared_name: str) -> None:
    if not isinstance(declared_name, str) or not declared_name or declared_name in (".", ".."):
        raise ValueError(f"declared_name must be a file name, got {declared_name!r}")
    if "/" in declared_name or "\\" in declared_name or "\x00" in declared_name:
        raise ValueError(f"declared_name must be a bare file name, got {declared_name!r}")


def _locate(path: Path, declared_name: str) -> tuple[Path | None, str | None]:
    """The file to read: ``path`` itself, or ``path/declared_name`` when ``path`` is a folder.

    In a folder the name must match exactly (listing the folder, so a
    case-insensitive file system cannot pass off ``MEMO.DOCX``); the reason for a
    miss names near misses such as ``memo.md`` for ``memo.docx``.
    """
    if not path.is_dir():
        return path, None
    try:
        entries = sorted(os.listdir(path))
    except OSError as exc:
        return None, f"output folder cannot be listed: {exc.strerror or exc}"
    if declared_name in entries:
        return path / declared_name, None
    stem = declared_name.rsplit(".", 1)[0].casefold()
    near = [e for e in entries if e.rsplit(".", 1)[0].casefold() == stem or e.casefold() == declared_name.casefold()]
    reason = f"no file named {declared_name} in the output folder"
    if near:
        reason += f" (found {', '.join(near[:5])}; only the declared name and format count)"
    return None, reason


def _read(fmt: str, data: bytes) -> str:
    kind = sniff(data)
    if fmt == "docx":
        if kind == "ole2":
            raise Refusal(OLE2_REASON)
        if kind == "pdf":
            raise Refusal("is a PDF, not a Word document (.docx)")
        if kind == "empty":
            raise Refusal("is empty (0 bytes)")
        if kind != "zip":
            raise Refusal("is not a Word document (.docx): no zip signature (a renamed text or Markdown file?)")
        return read_docx(data, markup=True)
    # md / txt
    if kind == "zip":
        raise Refusal(f"is a zip/Office file, not a .{fmt} text file")
    if kind == "ole2":
        raise Refusal(f"is an OLE2/Office binary file, not a .{fmt} text file")
    if kind == "pdf":
        raise Refusal(f"is a PDF, not a .{fmt} text file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise Refusal(f"is not valid UTF-8 (byte {exc.start}, line {line})") from None
    if "\x00" in text:
        raise Refusal("contains NUL bytes (a binary file, not text)")
    return check_text_size(text.replace("\r\n", "\n").replace("\r", "\n"))


def read_deliverable(path: Path, declared_name: str) -> DeliverableRead:
    """Read one declared deliverable; never raises for any file content.

    ``path`` is either the folder the agent saved into (the file named exactly
    ``declared_name`` is looked up there) or the file itself, which is then read
    as that deliverable whatever its name on disk: the declared extension sets
    the format, and the content must match it. ``declared_name`` must be a bare
    file name (misuse raises ``ValueError``).
    """
    _check_declared(declared_name)
    ext = declared_name.rsplit(".", 1)[-1].lower() if "." in declared_name else ""
    fmt: DeliverableFormat | None = ext if ext in SUPPORTED_FORMATS else None  # type: ignore[assignment]
    path = Path(path)

    def result(found: bool, reason: str | None, text: str = "", size: int = 0) -> DeliverableRead:
        return DeliverableRead(declared_name=declared_name, found=found, ok=reason is None, format=fmt,
                               text=text if reason is None else "", reason=reason, bytes_read=size)

    try:
        target, miss = _locate(path, declared_name)
        if target is None:
            return result(False, miss)
        if not target.exists() and not target.is_symlink():
            return result(False, f"{declared_name} was not saved (no such file)")
        if fmt is None:
            return result(True, f"declared format {('.' + ext) if ext else '(none)'} is not supported "
                                f"(supported: {', '.join('.' + f for f in SUPPORTED_FORMATS)})")
        try:
            data = read_file_limited(target, max_bytes=MAX_FILE_BYTES, follow_symlinks=False)
        except Refusal as refusal:
            return result(True, f"{declared_name} {refusal.reason}")
        try:
            text = _read(fmt, data)
        except Refusal as refusal:
            return result(True, f"{declared_name} {refusal.reason}", size=len(data))
        return result(True, None, text=text, size=len(data))
    except RecursionError:
        return result(True, f"{declared_name} is nested too deeply to read")
    except MemoryError:
        return result(True, f"{declared_name} needs more memory than is available to read")
    except Exception as exc:  # the promise: never raise for file content
        return result(True, f"{declared_name} could not be read ({_exc_text(exc)})")
