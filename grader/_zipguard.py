"""Shared guards for untrusted files: bounded reads, zip-structure checks, XML pre-scan.

Private to ``lae.grader``. Both the hardened deliverable reader (agent output,
untrusted) and the matter-document reader (our files, but LAB mode reads other
people's trees) go through these guards before any third-party parser
(python-docx, openpyxl, pypdf) sees a byte.

Every guard raises :class:`Refusal` with a one-line, human-readable reason; the
public readers turn it into ``DeliverableRead(ok=False, reason=...)`` or a
:class:`lae.errors.DocumentError`.

Why each check exists (attack or failure it stops):

* size cap before reading, regular files only, no FIFOs (a FIFO would block);
* OLE2/CFB signature: encrypted OOXML and legacy binary ``.doc`` are refused by name;
* central-directory record count (zip with millions of tiny entries);
* overlapping entries (David Fifield's ``zbsm`` bomb: entries share compressed data);
* duplicate names, also case-insensitively (OPC part names are case-insensitive;
  "which one wins?" differs between readers);
* encrypted entries, compression methods other than stored/deflate;
* per-member and total *inflated* size, counted while streaming, never trusting
  the sizes in the headers; compression ratio once a member passes a grace size;
* XML members: a tighter size cap (the tree a parser builds is ~30x the bytes),
  and a C-speed expat pre-scan that refuses any DOCTYPE, entity declaration or
  external entity (billion laughs, quadratic blowup, XXE, SSRF).
"""

from __future__ import annotations

import io
import os
import re
import stat
import struct
import threading
import xml.parsers.expat
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

__all__ = [
    "MiB",
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
    "Refusal",
    "read_file_limited",
    "sniff",
    "SafeZip",
    "hardened_parser",
    "parse_xml",
    "check_text_size",
]

MiB = 1024 * 1024

#: Largest file read at all (bytes on disk).
MAX_FILE_BYTES = 25 * MiB
#: Most entries a zip archive (docx/xlsx) may hold.
MAX_ZIP_MEMBERS = 2_000
#: Largest inflated size of one non-XML member (images, embedded objects), measured while streaming.
MAX_MEMBER_BYTES = 50 * MiB
#: Largest inflated size of all members together, measured while streaming.
MAX_TOTAL_BYTES = 200 * MiB
#: Largest inflated size of one XML member (the parsed tree costs ~10x this in memory for
#: real documents, up to ~30x for pathological ones). Word's own document.xml for a
#: very long document can pass 12 MiB (apache-poi bug65649.docx).
MAX_XML_MEMBER_BYTES = 16 * MiB
#: Largest inflated size of all XML members together.
MAX_TOTAL_XML_BYTES = 32 * MiB
#: Highest inflated/compressed ratio of one member, once it has inflated past ``RATIO_GRACE_BYTES``.
MAX_COMPRESSION_RATIO = 200
#: Members may exceed the ratio while they are smaller than this (tiny repetitive parts are harmless).
RATIO_GRACE_BYTES = 1 * MiB
#: Deepest XML nesting accepted. Enforced by libxml2 itself: without XML_PARSE_HUGE
#: (``huge_tree=False``, which python-docx and :func:`hardened_parser` use) it refuses
#: any document nested deeper than 256 elements.
MAX_XML_DEPTH = 256
#: Most characters of extracted text returned for one file.
MAX_TEXT_CHARS = 5_000_000

_CHUNK = 256 * 1024
_OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ZIP_LOCAL = b"PK\x03\x04"
_ZIP_EMPTY = b"PK\x05\x06"
_ZIP_CENTRAL = b"PK\x01\x02"
#: Encodings a DOCTYPE could hide in when expat cannot read a member: every Unicode form
#: libxml2 detects by itself (UTF-8/16/32 either byte order) and the EBCDIC pages it knows.
#: A member that *declares* another encoding is decoded with that codec too (see _scan_xml).
_SCAN_ENCODINGS = ("ascii", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be", "cp037", "cp500", "cp1140")
_DOCTYPE_MARKERS = tuple(
    marker.encode(enc) for marker in ("<!DOCTYPE", "<!ENTITY") for enc in _SCAN_ENCODINGS
)
_DECLARED_ENCODING = re.compile(rb"""^(?:\xef\xbb\xbf)?<\?xml[^>]{0,200}?encoding\s*=\s*["']([A-Za-z0-9._-]{1,40})["']""")


class Refusal(Exception):
    """The file is refused; ``reason`` is one line a person can act on."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _fmt_bytes(n: int) -> str:
    if n >= MiB:
        return f"{n / MiB:.1f} MiB"
    return f"{n:,} bytes"


def read_file_limited(path: Path, *, max_bytes: int = MAX_FILE_BYTES, follow_symlinks: bool = True) -> bytes:
    """Read a regular file of at most ``max_bytes`` bytes.

    Opens with ``O_NONBLOCK`` (a FIFO must not block us) and, when
    ``follow_symlinks`` is false, ``O_NOFOLLOW``; refuses anything that is not a
    regular file, and reads at most ``max_bytes + 1`` bytes so a file that grows
    while we read cannot push us past the cap.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if not follow_symlinks:
        if path.is_symlink():
            raise Refusal("is a symbolic link (save the file itself, not a link)")
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise Refusal("does not exist") from None
    except OSError as exc:
        raise Refusal(f"cannot be opened: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refusal("is not a regular file")
        if info.st_size > max_bytes:
            raise Refusal(f"is {_fmt_bytes(info.st_size)}, over the {_fmt_bytes(max_bytes)} limit")
        with os.fdopen(fd, "rb", closefd=True) as handle:
            fd = -1
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise Refusal(f"cannot be read: {exc.strerror or exc}") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > max_bytes:
        raise Refusal(f"is over the {_fmt_bytes(max_bytes)} limit")
    return data


def sniff(data: bytes) -> str:
    """Container kind from the leading bytes: ``zip``, ``ole2``, ``pdf``, ``empty`` or ``other``."""
    if not data:
        return "empty"
    if data.startswith(_ZIP_LOCAL) or data.startswith(_ZIP_EMPTY):
        return "zip"
    if data.startswith(_OLE2_MAGIC):
        return "ole2"
    if b"%PDF-" in data[:1024]:  # readers accept junk (a BOM, a byte) before the header
        return "pdf"
    return "other"


OLE2_REASON = (
    "is an OLE2/CFB container (a password-protected/encrypted Office file or a legacy "
    "binary .doc/.xls), not an Office Open XML file; remove the password and save as .docx/.xlsx"
)


def check_text_size(text: str) -> str:
    """Refuse extracted text longer than :data:`MAX_TEXT_CHARS`."""
    if len(text) > MAX_TEXT_CHARS:
        raise Refusal(f"yields more than {MAX_TEXT_CHARS:,} characters of text (the limit)")
    return text


def hardened_parser() -> etree.XMLParser:
    """An lxml parser that never resolves entities, loads DTDs or touches the network,
    and keeps libxml2's default depth/size limits (no XML_PARSE_HUGE)."""
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        huge_tree=False,
        load_dtd=False,
        dtd_validation=False,
        remove_comments=True,
        remove_pis=True,
    )


def parse_xml(data: bytes, *, what: str) -> etree._Element:
    """Parse an XML member with :func:`hardened_parser`; refuse DOCTYPEs and bad XML."""
    try:
        root = etree.fromstring(data, hardened_parser())
    except etree.XMLSyntaxError as exc:
        raise Refusal(f"has a {what} that is not well-formed XML ({exc})") from None
    tree = root.getroottree()
    if tree.docinfo.doctype or tree.docinfo.internalDTD is not None:
        raise Refusal(f"has a {what} that declares a DOCTYPE (XML entity expansion/XXE risk)")
    return root


def _looks_like_xml(head: bytes) -> bool:
    if head.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        return True
    return head.lstrip(b" \t\r\n")[:1] == b"<"


class _DTDFound(Exception):
    pass


def _forbid(*_args: object) -> None:
    raise _DTDFound()


class _PassedScans:
    """Members that passed :func:`_scan_xml`, by content (the scan is a function of the bytes).
    Office files written from one template share their large parts (styles.xml is ~350 KB), so
    a batch of rollouts scans each such part once per process. Bounded in total bytes; `lae run`
    scores from several threads, so additions take a lock."""

    MIN_BYTES = 64 * 1024  # smaller members scan faster than they hash
    MAX_BYTES = 32 * 1024 * 1024

    def __init__(self) -> None:
        self._seen: set[bytes] = set()
        self._bytes = 0
        self._lock = threading.Lock()

    def __contains__(self, data: bytes) -> bool:
        return data in self._seen

    def add(self, data: bytes) -> None:
        with self._lock:
            if data not in self._seen and self._bytes + len(data) <= self.MAX_BYTES:
                self._seen.add(data)
                self._bytes += len(data)


_PASSED = _PassedScans()


def _scan_xml(name: str, data: bytes) -> None:
    """Refuse DOCTYPE, entity declarations and external entities in an XML member.

    Runs expat with only declaration handlers installed, so the scan stays at C
    speed (no Python call per element). This mirrors defusedxml's
    ``forbid_dtd``/``forbid_entities``/``forbid_external``. If expat cannot parse
    the member (unknown encoding, broken markup such as Excel's legacy VML), a
    byte search for the markers decides; the member is then left to the
    consumer's own hardened parser, which refuses or fails on it. A large member
    whose exact bytes passed before in this process is not scanned again.
    """
    cached = len(data) >= _PassedScans.MIN_BYTES
    if cached and data in _PASSED:
        return
    parser = xml.parsers.expat.ParserCreate()
    parser.StartDoctypeDeclHandler = _forbid
    parser.EntityDeclHandler = _forbid
    parser.UnparsedEntityDeclHandler = _forbid
    parser.ExternalEntityRefHandler = _forbid  # type: ignore[assignment]
    try:
        parser.Parse(data, True)
    except _DTDFound:
        raise Refusal(f"has zip member {name!r} declaring a DOCTYPE or entities (XML bomb/XXE risk)") from None
    except (xml.parsers.expat.ExpatError, ValueError, UnicodeError, LookupError):
        if any(marker in data for marker in _DOCTYPE_MARKERS) or _declares_in_own_encoding(data):
            raise Refusal(f"has zip member {name!r} declaring a DOCTYPE or entities (XML bomb/XXE risk)") from None
    if cached:
        _PASSED.add(data)


def _declares_in_own_encoding(data: bytes) -> bool:
    """Decode with the encoding the member declares (e.g. UTF-7) and look for the markers."""
    found = _DECLARED_ENCODING.match(data)
    if not found:
        return False
    try:
        text = data.decode(found.group(1).decode("ascii"), errors="replace")
    except LookupError:
        return False  # unknown to Python: libxml2 refuses an encoding it cannot convert either
    return "<!DOCTYPE" in text or "<!ENTITY" in text


@dataclass
class _Budget:
    total: int = 0
    xml: int = 0


def _content_types(blob: bytes) -> tuple[dict[str, str], dict[str, str]]:
    """``[Content_Types].xml`` as (overrides by part name, defaults by extension), casefolded keys."""
    overrides: dict[str, str] = {}
    defaults: dict[str, str] = {}
    try:
        root = etree.fromstring(blob, hardened_parser())
    except etree.XMLSyntaxError:
        return overrides, defaults
    for el in root:
        tag = el.tag if isinstance(el.tag, str) else ""
        if tag.endswith("}Override"):
            overrides[(el.get("PartName") or "").lstrip("/").casefold()] = el.get("ContentType") or ""
        elif tag.endswith("}Default"):
            defaults[(el.get("Extension") or "").casefold()] = el.get("ContentType") or ""
    return overrides, defaults


@dataclass
class SafeZip:
    """A zip archive that passed every structural and size check.

    Construction validates the whole archive (structure, then every member
    streamed with limits, every XML member pre-scanned as it arrives). Afterwards
    ``data`` can be handed to python-docx/openpyxl: they re-read exactly the
    validated members, and :attr:`xml_members` holds the bytes of the XML ones,
    :attr:`other_members` those of the rest (python-docx is served both, not the zip again).
    """

    data: bytes
    names: list[str] = field(default_factory=list)
    xml_members: dict[str, bytes] = field(default_factory=dict)
    other_members: dict[str, bytes] = field(default_factory=dict)
    total_bytes: int = 0

    @classmethod
    def open(cls, data: bytes) -> "SafeZip":
        """Validate ``data`` as a zip archive; raise :class:`Refusal` otherwise."""
        kind = sniff(data)
        if kind == "ole2":
            raise Refusal(OLE2_REASON)
        if kind == "empty":
            raise Refusal("is empty (0 bytes)")
        if kind != "zip":
            raise Refusal("is not a zip archive (Office Open XML files are zip archives)")
        if data.startswith(_ZIP_EMPTY):
            raise Refusal("is an empty zip archive")
        # Every central-directory record starts with this signature and zipfile
        # checks it, so the count is an upper bound on the entries zipfile will
        # build; refusing here keeps a 25 MiB file of tiny entries cheap.
        if data.count(_ZIP_CENTRAL) > MAX_ZIP_MEMBERS:
            raise Refusal(f"has more than {MAX_ZIP_MEMBERS:,} zip entries")
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
        except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError, OSError, struct.error,
                IndexError, KeyError, NotImplementedError, UnicodeError, OverflowError) as exc:
            raise Refusal(f"is a corrupt zip archive ({_exc_text(exc)})") from None
        with archive:
            infos = archive.infolist()
            if not infos:
                raise Refusal("is an empty zip archive")
            if len(infos) > MAX_ZIP_MEMBERS:
                raise Refusal(f"has more than {MAX_ZIP_MEMBERS:,} zip entries")
            cls._check_names(infos)
            cls._check_entries(infos, data, getattr(archive, "start_dir", len(data)))
            safe = cls(data=data, names=[i.filename for i in infos])
            safe._stream_all(archive, infos)
        return safe

    # -- structure ---------------------------------------------------------
    @staticmethod
    def _check_names(infos: list[zipfile.ZipInfo]) -> None:
        seen: set[str] = set()
        folded: set[str] = set()
        for info in infos:
            name = info.filename
            if name in seen:
                raise Refusal(f"has two zip entries named {name!r}")
            if name.casefold() in folded:
                raise Refusal(f"has zip entries whose names differ only by case ({name!r})")
            seen.add(name)
            folded.add(name.casefold())
            parts = name.replace("\\", "/").split("/")
            if name.startswith(("/", "\\")) or ".." in parts or "\x00" in name or (len(name) > 1 and name[1] == ":"):
                raise Refusal(f"has an unsafe zip entry name {name!r} (absolute or '..' path)")

    @staticmethod
    def _check_entries(infos: list[zipfile.ZipInfo], data: bytes, cd_start: int) -> None:
        spans: list[tuple[int, int, str]] = []
        declared_total = 0
        for info in infos:
            if info.flag_bits & 0x1:
                raise Refusal(f"has an encrypted zip entry {info.filename!r} (password-protected zip)")
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise Refusal(
                    f"has zip entry {info.filename!r} compressed with method {info.compress_type} "
                    "(Office files use stored or deflate)"
                )
            if info.file_size > MAX_MEMBER_BYTES:
                raise Refusal(
                    f"has zip entry {info.filename!r} declaring {_fmt_bytes(info.file_size)} inflated, "
                    f"over the {_fmt_bytes(MAX_MEMBER_BYTES)} per-member limit"
                )
            declared_total += info.file_size
            start = info.header_offset
            if start < 0 or start + 30 > len(data):
                raise Refusal(f"has zip entry {info.filename!r} pointing outside the file")
            header = data[start:start + 30]
            if header[:4] != _ZIP_LOCAL:
                raise Refusal(f"has zip entry {info.filename!r} with no local header where the directory says")
            name_len, extra_len = struct.unpack("<HH", header[26:30])
            end = start + 30 + name_len + extra_len + info.compress_size
            if end > cd_start or end > len(data):
                raise Refusal(f"has zip entry {info.filename!r} running past the end of its data area")
            spans.append((start, end, info.filename))
        spans.sort()
        for (_s1, end1, name1), (start2, _e2, name2) in zip(spans, spans[1:]):
            if start2 < end1:
                raise Refusal(
                    f"has overlapping zip entries {name1!r} and {name2!r} (overlapping-entry zip bomb)"
                )
        if declared_total > MAX_TOTAL_BYTES:
            raise Refusal(
                f"declares {_fmt_bytes(declared_total)} inflated in total, "
                f"over the {_fmt_bytes(MAX_TOTAL_BYTES)} total limit"
            )

    # -- content -----------------------------------------------------------
    def _stream_all(self, archive: zipfile.ZipFile, infos: list[zipfile.ZipInfo]) -> None:
        """Stream every member with the limits; keep (and DTD-scan) the XML ones.

        ``[Content_Types].xml`` goes first, so every later member is judged by its
        name, its declared content type and its first bytes: a member is XML when
        its name ends in .xml/.rels/.vml, its content type is XML, or it starts
        like XML. XML members get the tighter size limits and the expat pre-scan,
        except those the package itself declares as non-XML (altChunk HTML such
        as ``word/afchunk.htm`` legitimately starts with ``<!DOCTYPE html>`` and is
        never parsed as XML).
        """
        ordered = sorted(infos, key=lambda i: i.filename.lstrip("/").casefold() != "[content_types].xml")
        overrides: dict[str, str] = {}
        defaults: dict[str, str] = {}
        budget = _Budget()
        for info in ordered:
            if info.is_dir():
                continue
            name = info.filename
            folded = name.lstrip("/").casefold()
            ext = folded.rsplit(".", 1)[-1] if "." in folded.rsplit("/", 1)[-1] else ""
            ctype = overrides.get(folded, defaults.get(ext, "")).casefold()
            named_xml = folded.endswith((".xml", ".rels", ".vml")) or ctype.endswith("xml")
            declared_other = bool(ctype) and not named_xml
            blob, xml = self._stream_member(archive, info, budget, named_xml)
            if not xml:
                self.other_members[name] = blob
                continue
            if not declared_other:
                _scan_xml(name, blob)
            self.xml_members[name] = blob
            if folded == "[content_types].xml":
                overrides, defaults = _content_types(blob)
        self.total_bytes = budget.total

    @staticmethod
    def _stream_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: "_Budget",
                       named_xml: bool) -> tuple[bytes, bool]:
        """Inflate one member under the limits; return its bytes and whether it is XML."""
        name = info.filename
        chunks: list[bytes] = []
        xml = named_xml
        size = 0
        try:
            with archive.open(info) as member:
                while True:
                    chunk = member.read(_CHUNK)
                    if not chunk:
                        break
                    if size == 0 and not xml and _looks_like_xml(chunk):
                        xml = True
                    size += len(chunk)
                    limit = MAX_XML_MEMBER_BYTES if xml else MAX_MEMBER_BYTES
                    if size > limit:
                        kind = "XML member" if xml else "member"
                        raise Refusal(
                            f"has zip {kind} {name!r} inflating past the {_fmt_bytes(limit)} limit (zip bomb?)"
                        )
                    budget.total += len(chunk)
                    if budget.total > MAX_TOTAL_BYTES:
                        raise Refusal(f"inflates past the {_fmt_bytes(MAX_TOTAL_BYTES)} total limit (zip bomb?)")
                    if size > RATIO_GRACE_BYTES and size > MAX_COMPRESSION_RATIO * max(info.compress_size, 1):
                        raise Refusal(
                            f"has zip member {name!r} with a compression ratio over "
                            f"{MAX_COMPRESSION_RATIO}:1 (zip bomb)"
                        )
                    if xml:
                        budget.xml += len(chunk)
                        if budget.xml > MAX_TOTAL_XML_BYTES:
                            raise Refusal(
                                f"has XML members inflating past the {_fmt_bytes(MAX_TOTAL_XML_BYTES)} total limit"
                            )
                    chunks.append(chunk)
        except Refusal:
            raise
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, struct.error,
                NotImplementedError, RuntimeError, OverflowError) as exc:
            raise Refusal(f"has a corrupt zip member {name!r} ({_exc_text(exc)})") from None
        return b"".join(chunks), xml

    def member(self, name: str) -> bytes | None:
        """The bytes of an XML member by exact name, or ``None``."""
        return self.xml_members.get(name)


def _exc_text(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    text = text[:200]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
