"""Read matter documents (docx, pdf, xlsx, eml, txt) as text.

Used by the environment's ``read_document`` tool, the grader's quote-masking
index and the pocket tests. The documents are ours, but LAB mode reads other
people's trees, so every file goes through the same hard limits as agent
deliverables (:mod:`lae.grader._zipguard`). An unreadable file raises
:class:`lae.errors.DocumentError` with the reason.

Text layout per format:

* **docx** -- headers, body (paragraphs; tables one row per line, ``A | B | C``),
  footnotes, endnotes, footers; tracked insertions count, deletions do not.
* **pdf** -- one entry of :attr:`DocumentText.pages` per page (pypdf text
  extraction); ``text`` joins them with a blank line. Encrypted files open only
  when the user password is empty.
* **xlsx** -- per worksheet ``## Sheet: Name`` then one ``A | B | C`` line per
  non-empty row (cached values, never formulas); read-only and bounded.
* **eml** -- ``From``/``To``/``Cc``/``Date``/``Subject`` lines, a blank line, the
  text/plain body (else the tag-stripped text/html body), then
  ``Attachments: a.pdf, b.xlsx`` when there are any (names only).
* **txt** -- strict UTF-8 (a BOM is dropped); CRLF/CR become LF.

Every format but PDF has one page.
"""

from __future__ import annotations

import contextlib
import email
import io
import email.policy
import html.parser
import logging
import re
from collections.abc import Iterator
from email.message import Message
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from lae.errors import DocumentError, Problem
from lae.project import Project
from lae.grader._ooxml import read_docx, read_xlsx
from lae.grader._zipguard import (
    MAX_FILE_BYTES,
    MAX_TEXT_CHARS,
    OLE2_REASON,
    Refusal,
    _exc_text,
    _fmt_bytes,
    check_text_size,
    read_file_limited,
    sniff,
)

__all__ = [
    "DOCUMENT_FORMATS",
    "MAX_PDF_PAGES",
    "MAX_MIME_PARTS",
    "MAX_EML_HEADER_CHARS",
    "MAX_EML_HEADER_BLOCK_CHARS",
    "MAX_EML_ENCODED_WORDS",
    "DocumentText",
    "read_document",
    "read_document_bytes",
    "task_document_texts",
    "decode_utf8",
    "html_to_text",
]

#: File extensions :func:`read_document` reads.
DOCUMENT_FORMATS = ("docx", "pdf", "xlsx", "eml", "txt")
#: Most pages read from one PDF.
MAX_PDF_PAGES = 2_000
#: Most MIME parts walked in one message.
MAX_MIME_PARTS = 500
#: Longest raw header field of an email (any part), and most header bytes of one part.
#: ``email.policy.default`` parses a header in time that grows faster than its length
#: (a 1 MB Subject took 17 s; 425 KB of RFC 2047 encoded words, 5 s and 5 GB), so the raw
#: headers are measured before anything parses them.
MAX_EML_HEADER_CHARS = 32 * 1024
MAX_EML_HEADER_BLOCK_CHARS = 64 * 1024
#: Most RFC 2047 encoded words (``=?charset?q?...?=``) in one header field.
MAX_EML_ENCODED_WORDS = 500


class DocumentText(BaseModel):
    """The text of one matter document."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(description="File name, e.g. '03-board-minutes.docx'.")
    format: str = Field(description="One of docx, pdf, xlsx, eml, txt (from the extension).")
    text: str = Field(description="The whole text; for PDFs the pages joined by a blank line.")
    pages: tuple[str, ...] = Field(description="Real pages for PDF; one page (== text) for every other format.")
    size_bytes: int = Field(ge=0, description="Size of the file on disk.")


def decode_utf8(data: bytes) -> str:
    """Strict UTF-8 (BOM dropped, CRLF/CR -> LF); :class:`Refusal` names the bad byte."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise Refusal(f"is not valid UTF-8 (byte {exc.start}, line {line}); save it as UTF-8") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


# -- pdf -------------------------------------------------------------------------------
@contextlib.contextmanager
def _quiet_pypdf() -> Iterator[None]:
    """pypdf logs a warning per oddity in broken files; keep them off the console."""
    logger = logging.getLogger("pypdf")
    previous = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(previous)


def _read_pdf(data: bytes) -> tuple[str, ...]:
    if sniff(data) != "pdf":
        raise Refusal("is not a PDF (no %PDF- header)")
    import pypdf
    from pypdf.errors import DependencyError, FileNotDecryptedError

    with _quiet_pypdf():
        try:
            reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
            if reader.is_encrypted:
                try:
                    opened = reader.decrypt("")
                except DependencyError:
                    raise Refusal("is encrypted with AES; reading it needs the 'cryptography' package "
                                  "(pip install 'pypdf[crypto]') or an unencrypted copy") from None
                if not opened:
                    raise Refusal("is password-protected (no empty user password); supply an unencrypted copy")
            count = len(reader.pages)
            if count > MAX_PDF_PAGES:
                raise Refusal(f"has {count:,} pages, over the {MAX_PDF_PAGES:,}-page limit")
            pages: list[str] = []
            total = 0
            for page in reader.pages:
                text = page.extract_text() or ""
                total += len(text)
                if total > MAX_TEXT_CHARS:
                    raise Refusal(f"yields more than {MAX_TEXT_CHARS:,} characters of text (the limit)")
                pages.append(text.replace("\r\n", "\n").replace("\r", "\n"))
        except Refusal:
            raise
        except FileNotDecryptedError:
            raise Refusal("is password-protected; supply an unencrypted copy") from None
        except DependencyError as exc:
            raise Refusal(f"needs an optional pypdf dependency ({_exc_text(exc)})") from None
        except RecursionError:
            raise Refusal("is nested too deeply to read (malformed PDF)") from None
        except Exception as exc:  # pypdf raises many types on damaged files
            raise Refusal(f"could not be read as a PDF ({_exc_text(exc)})") from None
    return tuple(pages)


# -- eml -------------------------------------------------------------------------------
class _TextOfHTML(html.parser.HTMLParser):
    _BLOCK = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "blockquote", "pre", "hr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:  # type: ignore[type-arg]
        if tag in ("script", "style", "head", "title"):
            self._skip += 1
        elif tag in self._BLOCK:
            self.out.append("\n")
        elif tag in ("td", "th"):
            self.out.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head", "title"):
            self._skip = max(0, self._skip - 1)
        elif tag in self._BLOCK:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.out.append(data)


def html_to_text(markup: str) -> str:
    """Tag-stripped text of an HTML body (scripts/styles dropped, blocks on their own lines)."""
    parser = _TextOfHTML()
    parser.feed(markup)
    parser.close()
    lines = [" ".join(line.split()) for line in "".join(parser.out).split("\n")]
    text = "\n".join(lines)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip()


def _header(message: Message, name: str) -> list[str]:
    try:
        values = message.get_all(name) or []
    except Exception:
        return []
    out = []
    for value in values:
        try:
            text = str(value)
        except Exception:
            text = str(getattr(value, "_raw", "") or "")
        out.append(" ".join(text.split()))
    return out


def _part_text(part: Message) -> str:
    try:
        content = part.get_content()  # type: ignore[attr-defined]
        if isinstance(content, bytes):
            content = content.decode("utf-8", errors="replace")
        return str(content)
    except Exception:
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            return ""
        charset = part.get_content_charset() or "utf-8"
        try:
            return payload.decode(charset, errors="replace")
        except LookupError:
            return payload.decode("utf-8", errors="replace")


_ENCODED_WORD = re.compile(r"=\?[^?\s]{1,75}\?[bBqQ]\?")


def _check_headers(part: Message) -> None:
    """Refuse oversized raw headers before ``email.policy.default`` parses any of them."""
    block = 0
    for name, value in part.raw_items():
        size = len(name) + len(value)
        block += size
        if size > MAX_EML_HEADER_CHARS:
            raise Refusal(f"has a {name[:40]!r} header of {size:,} characters, over the "
                          f"{MAX_EML_HEADER_CHARS:,}-character limit")
        if len(_ENCODED_WORD.findall(value)) > MAX_EML_ENCODED_WORDS:
            raise Refusal(f"has a {name[:40]!r} header with more than {MAX_EML_ENCODED_WORDS} "
                          "RFC 2047 encoded words (the limit)")
    if block > MAX_EML_HEADER_BLOCK_CHARS:
        raise Refusal(f"has {block:,} characters of headers in one part, over the "
                      f"{MAX_EML_HEADER_BLOCK_CHARS:,}-character limit")


def _walk(message: Message) -> Iterator[Message]:
    """Every part, depth-first, iteratively and bounded (no recursion on nesting)."""
    stack = [message]
    seen = 0
    while stack:
        part = stack.pop()
        seen += 1
        if seen > MAX_MIME_PARTS:
            raise Refusal(f"has more than {MAX_MIME_PARTS} MIME parts")
        _check_headers(part)
        yield part
        if part.is_multipart() and part.get_content_type() != "message/rfc822":
            payload = part.get_payload()
            if isinstance(payload, list):
                stack.extend(p for p in reversed(payload) if isinstance(p, Message))


def _read_eml(data: bytes) -> str:
    try:
        message = email.message_from_bytes(data, policy=email.policy.default)
    except RecursionError:
        raise Refusal("has a MIME structure nested too deeply") from None
    except Exception as exc:
        raise Refusal(f"could not be parsed as an email message ({_exc_text(exc)})") from None
    _check_headers(message)
    lines = []
    for name in ("From", "To", "Cc", "Date", "Subject"):
        for value in _header(message, name):
            lines.append(f"{name}: {value}")
    plain: Message | None = None
    markup: Message | None = None
    attachments: list[str] = []
    for part in _walk(message):
        if part.is_multipart() and part.get_content_type() != "message/rfc822":
            continue
        try:
            disposition = (part.get_content_disposition() or "").lower()
            ctype = part.get_content_type()
            filename = part.get_filename()
        except Exception:
            disposition, ctype, filename = "attachment", "application/octet-stream", None
        if disposition == "attachment" or (filename and disposition != "inline") or ctype == "message/rfc822":
            attachments.append(" ".join(str(filename or ("attached message" if ctype == "message/rfc822"
                                                          else "unnamed attachment")).split()))
            continue
        if ctype == "text/plain" and plain is None:
            plain = part
        elif ctype == "text/html" and markup is None:
            markup = part
    body = ""
    if plain is not None:
        body = _part_text(plain)
    elif markup is not None:
        body = html_to_text(_part_text(markup))
    body = body.replace("\r\n", "\n").replace("\r", "\n").strip("\n")
    text = "\n".join(lines) + "\n\n" + body
    if attachments:
        text += "\n\nAttachments: " + ", ".join(attachments)
    return text.strip("\n")


# -- entry point -----------------------------------------------------------------------
def _extract(fmt: str, data: bytes) -> tuple[str, ...]:
    if fmt == "pdf":
        return _read_pdf(data)
    if sniff(data) == "ole2":
        raise Refusal(OLE2_REASON)
    if fmt == "docx":
        return (read_docx(data),)
    if fmt == "xlsx":
        return (read_xlsx(data),)
    if fmt == "eml":
        return (check_text_size(_read_eml(data)),)
    return (check_text_size(decode_utf8(data)),)


def read_document(path: Path) -> DocumentText:
    """Read one matter document; raise :class:`DocumentError` if it cannot be read.

    The format comes from the extension (one of :data:`DOCUMENT_FORMATS`); the
    content must match it. Limits: :data:`~lae.grader._zipguard.MAX_FILE_BYTES`
    on disk, the zip/XML limits of :mod:`lae.grader._zipguard`,
    :data:`MAX_PDF_PAGES`, :data:`MAX_MIME_PARTS`, and
    :data:`~lae.grader._zipguard.MAX_TEXT_CHARS` of text.
    """
    path = Path(path)
    _check_format(path.name, path.as_posix())
    try:
        data = read_file_limited(path, max_bytes=MAX_FILE_BYTES)
    except Refusal as refusal:
        raise DocumentError(f"cannot read {path.name}", [Problem(path.as_posix(), refusal.reason)]) from None
    return read_document_bytes(path.name, data, where=path.as_posix())


def read_document_bytes(name: str, data: bytes, *, where: str) -> DocumentText:
    """:func:`read_document` over bytes already read (and hashed) by the caller: the
    freeze gate reads each document once and scoring extracts text from those bytes."""
    fmt = _check_format(name, where)
    try:
        if len(data) > MAX_FILE_BYTES:
            raise Refusal(f"is {_fmt_bytes(len(data))}, over the {_fmt_bytes(MAX_FILE_BYTES)} limit")
        pages = _extract(fmt, data)
    except Refusal as refusal:
        raise DocumentError(f"cannot read {name}", [Problem(where, refusal.reason)]) from None
    except RecursionError:
        raise DocumentError(f"cannot read {name}", [Problem(where, "is nested too deeply to read")]) from None
    text = "\n\n".join(pages) if fmt == "pdf" else pages[0]
    return DocumentText(name=name, format=fmt, text=text, pages=pages, size_bytes=len(data))


def _check_format(name: str, where: str) -> str:
    fmt = Path(name).suffix.lower().lstrip(".")
    if fmt not in DOCUMENT_FORMATS:
        raise DocumentError("unsupported document format", [Problem(
            where, f"format {fmt or '(none)'!r} is not supported",
            mend="supported: " + ", ".join(f".{f}" for f in DOCUMENT_FORMATS))])
    return fmt


def task_document_texts(project: Project, pocket: str, task_id: str) -> list[str]:
    """Extracted text of every document of a task (the quote-masking corpus; the compiler's
    calibration and the grader read documents the same way)."""
    docs = project.task_dir(pocket, task_id) / "documents"
    if not docs.is_dir():
        return []
    return [read_document(p).text for p in sorted(docs.iterdir()) if p.is_file() and not p.name.startswith(".")]
