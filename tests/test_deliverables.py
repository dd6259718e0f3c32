"""The hardened deliverable reader: real Word files read; hostile and wrong files are refused, never raise."""

from __future__ import annotations

import io
import os
import shutil
import struct
import subprocess
import zipfile
from pathlib import Path

import docx
import pydantic
import pytest
from docx.oxml import parse_xml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lae.errors import DeliverableError
from lae.grader import _zipguard
from lae.grader.deliverables import DeliverableRead, read_deliverable
from lae.render import markdown_to_docx

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
FOOTNOTES_XML = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:footnotes xmlns:w="{W_NS}">
<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>
<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>
<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Footnote: see Section 11.3 of the lease.</w:t></w:r></w:p></w:footnote>
</w:footnotes>""".encode()


# -- building real files -------------------------------------------------------------------
def memo_docx(*, footnote: bool = True, tracked: bool = True) -> bytes:
    """A memo written by python-docx: heading, paragraphs, table, header, footer,
    a tracked insertion and deletion (XML edited in), and a footnote part."""
    import docx
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    document = docx.Document()
    document.sections[0].header.paragraphs[0].text = "PRIVILEGED & CONFIDENTIAL"
    document.sections[0].footer.paragraphs[0].text = "Draft for partner review"
    document.add_heading("Lease Risk Memo", level=1)
    body = document.add_paragraph("The renewal notice deadline under Section 9.1 is June 30, 2025.")
    if footnote:
        body._p.append(parse_xml(f'<w:r {nsdecls("w")}><w:footnoteReference w:id="1"/></w:r>'))
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Issue", "Severity"
    table.cell(1, 0).text, table.cell(1, 1).text = "Broad-form indemnity", "High"
    if tracked:
        p = document.add_paragraph("The indemnity ")
        p._p.append(parse_xml(
            f'<w:ins {nsdecls("w")} w:id="11" w:author="Agent" w:date="2025-01-01T00:00:00Z">'
            '<w:r><w:t xml:space="preserve">must be narrowed</w:t></w:r></w:ins>'))
        p._p.append(parse_xml(
            f'<w:del {nsdecls("w")} w:id="12" w:author="Agent" w:date="2025-01-01T00:00:00Z">'
            '<w:r><w:delText xml:space="preserve"> is acceptable as drafted</w:delText></w:r></w:del>'))
        # A deletion wrapping w:t instead of w:delText (malformed, or an agent gaming the reader).
        p._p.append(parse_xml(
            f'<w:del {nsdecls("w")} w:id="13" w:author="Agent" w:date="2025-01-01T00:00:00Z">'
            '<w:r><w:t xml:space="preserve"> and no change is needed</w:t></w:r></w:del>'))
    raw = io.BytesIO()
    document.save(raw)
    data = raw.getvalue()
    if footnote:
        data = rezip(data, edit={
            "[Content_Types].xml": lambda b: b.replace(b"</Types>", (
                b'<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-'
                b'officedocument.wordprocessingml.footnotes+xml"/></Types>')),
            "word/_rels/document.xml.rels": lambda b: b.replace(b"</Relationships>", (
                b'<Relationship Id="rIdFn1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                b'relationships/footnotes" Target="footnotes.xml"/></Relationships>')),
        }, add={"word/footnotes.xml": FOOTNOTES_XML})
    return data


def rezip(data: bytes, *, edit: dict | None = None, add: dict | None = None,
          compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """Copy a zip, editing members (name -> fn(bytes) -> bytes) and adding others."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", compression) as dst:
        for info in src.infolist():
            blob = src.read(info)
            if edit and info.filename in edit:
                blob = edit[info.filename](blob)
            dst.writestr(info.filename, blob)
        for name, blob in (add or {}).items():
            dst.writestr(name, blob)
    return out.getvalue()


def _central_records(data: bytes) -> list[int]:
    """Offsets of the central-directory records (no archive comment assumed)."""
    eocd = data.rindex(b"PK\x05\x06")
    count, _size, start = struct.unpack("<HII", data[eocd + 10:eocd + 20])
    offsets, pos = [], start
    for _ in range(count):
        offsets.append(pos)
        n, m, k = struct.unpack("<HHH", data[pos + 28:pos + 34])
        pos += 46 + n + m + k
    return offsets


def patch_central(data: bytes, index: int, field_offset: int, fmt: str, value: int) -> bytes:
    buf = bytearray(data)
    pos = _central_records(data)[index] + field_offset
    struct.pack_into(fmt, buf, pos, value)
    return bytes(buf)


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


# -- reading real Word files ----------------------------------------------------------------
def test_python_docx_memo_reads_every_story(tmp_path: Path) -> None:
    result = read_deliverable(write(tmp_path, "memo.docx", memo_docx()), "memo.docx")
    assert result.ok and result.found and result.reason is None and result.format == "docx"
    text = result.text
    order = ["PRIVILEGED & CONFIDENTIAL", "Lease Risk Memo", "June 30, 2025", "Broad-form indemnity | High",
             "The indemnity must be narrowed", "Footnote: see Section 11.3", "Draft for partner review"]
    positions = [text.index(s) for s in order]
    assert positions == sorted(positions)
    assert "is acceptable as drafted" not in text  # deletions never count
    assert "no change is needed" not in text
    assert result.bytes_read == (tmp_path / "memo.docx").stat().st_size


def test_rendered_memo_reads(tmp_path: Path) -> None:
    markdown_to_docx("# Memo\n\n- **Critical:** renewal notice deadline June 30, 2025\n", tmp_path / "memo.docx")
    result = read_deliverable(tmp_path / "memo.docx", "memo.docx")
    assert result.ok and "Critical: renewal notice deadline June 30, 2025" in result.text


def test_libreoffice_docx_reads(tmp_path: Path) -> None:
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        reason = "LibreOffice (soffice) is not on PATH; LibreOffice-written .docx are covered by the corpora sweep"
        print(reason)
        pytest.skip(reason)
    src = write(tmp_path, "memo.txt", b"LibreOffice memo: the renewal notice deadline is June 30, 2025.\n")
    subprocess.run([soffice, "--headless", "--convert-to", "docx", "--outdir", str(tmp_path), str(src)],
                   check=True, capture_output=True, timeout=120, env={**os.environ, "HOME": str(tmp_path)})
    result = read_deliverable(tmp_path / "memo.docx", "memo.docx")
    assert result.ok and "June 30, 2025" in result.text


def test_html_alt_chunk_with_html_doctype_is_not_xml(tmp_path: Path) -> None:
    data = rezip(memo_docx(), edit={"[Content_Types].xml": lambda b: b.replace(
        b"</Types>", b'<Default Extension="htm" ContentType="text/html"/></Types>')},
        add={"word/afchunk.htm": b"<!DOCTYPE html><html><body><p>imported</p></body></html>"})
    result = read_deliverable(write(tmp_path, "memo.docx", data), "memo.docx")
    assert result.ok, result.reason


def test_markdown_and_text_deliverables(tmp_path: Path) -> None:
    write(tmp_path, "memo.md", "# Memo\r\n\r\nRenewal deadline — June 30.\r\n".encode())
    result = read_deliverable(tmp_path / "memo.md", "memo.md")
    assert result.ok and result.text == "# Memo\n\nRenewal deadline — June 30.\n" and result.format == "md"
    write(tmp_path, "notes.txt", b"plain notes\n")
    assert read_deliverable(tmp_path / "notes.txt", "notes.txt").text == "plain notes\n"


# -- the declared name and format -------------------------------------------------------------
def test_md_never_satisfies_a_declared_docx(tmp_path: Path) -> None:
    out = tmp_path / "outputs"
    out.mkdir()
    write(out, "memo.md", b"# Memo\n\nAll the findings.\n")
    result = read_deliverable(out, "memo.docx")
    assert not result.found and not result.ok and result.text == ""
    assert "no file named memo.docx" in result.reason and "memo.md" in result.reason
    # ... nor does the same Markdown renamed to the declared name.
    write(out, "memo.docx", b"# Memo\n\nAll the findings.\n")
    result = read_deliverable(out, "memo.docx")
    assert result.found and not result.ok and "no zip signature" in result.reason


def test_renamed_txt_is_refused(tmp_path: Path) -> None:
    result = read_deliverable(write(tmp_path, "memo.docx", b"The renewal deadline is June 30.\n"), "memo.docx")
    assert not result.ok and "renamed text or Markdown" in result.reason


def test_name_must_match_exactly_in_a_folder(tmp_path: Path) -> None:
    write(tmp_path, "MEMO.DOCX", memo_docx(footnote=False, tracked=False))
    result = read_deliverable(tmp_path, "memo.docx")
    assert not result.found and "MEMO.DOCX" in result.reason


def test_invalid_utf8_is_reported(tmp_path: Path) -> None:
    result = read_deliverable(write(tmp_path, "memo.md", b"ok line\n\xff\xfe bad\n"), "memo.md")
    assert result.found and not result.ok and "not valid UTF-8 (byte 8, line 2)" in result.reason


def test_nul_bytes_in_text_are_refused(tmp_path: Path) -> None:
    result = read_deliverable(write(tmp_path, "memo.txt", b"text\x00\x00binary"), "memo.txt")
    assert not result.ok and "NUL" in result.reason


def test_docx_declared_as_md_is_refused(tmp_path: Path) -> None:
    result = read_deliverable(write(tmp_path, "memo.md", memo_docx()), "memo.md")
    assert not result.ok and "not a .md text file" in result.reason


def test_unsupported_declared_format_lists_the_supported_ones(tmp_path: Path) -> None:
    result = read_deliverable(write(tmp_path, "memo.pdf", b"%PDF-1.4"), "memo.pdf")
    assert result.found and not result.ok and result.format is None
    assert "(supported: .docx, .md, .txt)" in result.reason


def test_missing_file(tmp_path: Path) -> None:
    result = read_deliverable(tmp_path / "memo.docx", "memo.docx")
    assert not result.found and not result.ok and "not saved" in result.reason


def test_symlink_is_refused(tmp_path: Path) -> None:
    target = write(tmp_path, "real.docx", memo_docx(footnote=False, tracked=False))
    (tmp_path / "memo.docx").symlink_to(target)
    result = read_deliverable(tmp_path / "memo.docx", "memo.docx")
    assert not result.ok and "symbolic link" in result.reason


def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "memo.md")
    result = read_deliverable(tmp_path / "memo.md", "memo.md")
    assert not result.ok and "not a regular file" in result.reason


def test_declared_name_must_be_a_bare_file_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        read_deliverable(tmp_path, "../memo.docx")


def test_require_raises_deliverable_error(tmp_path: Path) -> None:
    result = read_deliverable(tmp_path / "memo.docx", "memo.docx")
    with pytest.raises(DeliverableError) as err:
        result.require()
    assert "memo.docx" in err.value.report()
    ok = read_deliverable(write(tmp_path, "memo.md", b"text"), "memo.md")
    assert ok.require() == "text"


def test_result_is_frozen(tmp_path: Path) -> None:
    result = read_deliverable(tmp_path / "memo.docx", "memo.docx")
    with pytest.raises(pydantic.ValidationError, match="frozen"):
        result.ok = True  # type: ignore[misc]


# -- hostile and broken files (named after the attack) -----------------------------------------
BOMB_DOCUMENT = f"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<w:document xmlns:w="{W_NS}"><w:body><w:p><w:r><w:t>&lol3;</w:t></w:r></w:p></w:body></w:document>""".encode()

XXE_TYPES = b"""<?xml version="1.0"?>
<!DOCTYPE Types [<!ENTITY % dtd SYSTEM "http://127.0.0.1:9/evil.dtd"> %dtd;]>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>"""


EXTERNAL_DTD_DOCUMENT = f"""<?xml version="1.0"?>
<!DOCTYPE w:document SYSTEM "http://127.0.0.1:9/word.dtd">
<w:document xmlns:w="{W_NS}"><w:body><w:p><w:r><w:t>external</w:t></w:r></w:p></w:body></w:document>""".encode()


def _deep_document(depth: int) -> bytes:
    inner = "<w:sdt><w:sdtContent>" * depth + "<w:p><w:r><w:t>deep</w:t></w:r></w:p>" + \
        "</w:sdtContent></w:sdt>" * depth
    return f'<w:document xmlns:w="{W_NS}"><w:body>{inner}</w:body></w:document>'.encode()


def _overlapping_zip() -> bytes:
    """Two directory entries whose data share bytes (the zbsm construction in miniature)."""
    base = memo_docx(footnote=False, tracked=False)
    names = zipfile.ZipFile(io.BytesIO(base)).namelist()
    first = _central_records(base)[0]
    offset0 = struct.unpack("<I", base[first + 42:first + 46])[0]
    # Point the second entry's local header at the first entry's: their data now overlap.
    assert names[1] != names[0]
    return patch_central(base, 1, 42, "<I", offset0)


def _many_entries() -> bytes:
    return rezip(memo_docx(footnote=False, tracked=False),
                 add={f"customXml/item{i}.bin": b"x" for i in range(_zipguard.MAX_ZIP_MEMBERS + 1)},
                 compression=zipfile.ZIP_STORED)


def _docm() -> bytes:
    return rezip(memo_docx(footnote=False, tracked=False), edit={"[Content_Types].xml": lambda b: b.replace(
        b"wordprocessingml.document.main+xml", b"MACRO").replace(
        b"application/vnd.openxmlformats-officedocument.MACRO", b"application/vnd.ms-word.document.macroEnabled.main+xml")})


def _duplicate_names() -> bytes:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns "Duplicate name"
        return rezip(memo_docx(footnote=False, tracked=False), add={"word/document.xml": _deep_document(1)})


HOSTILE = {
    "billion-laughs-in-document": (
        lambda: rezip(memo_docx(), edit={"word/document.xml": lambda b: BOMB_DOCUMENT}), "DOCTYPE"),
    "external-dtd-without-entities": (
        lambda: rezip(memo_docx(), edit={"word/document.xml": lambda b: EXTERNAL_DTD_DOCUMENT}), "DOCTYPE"),
    "doctype-in-xml-part-with-a-non-xml-name": (
        lambda: rezip(memo_docx(), edit={"[Content_Types].xml": lambda b: b.replace(b"</Types>", (
            b'<Override PartName="/word/extra.dat" ContentType="application/xml"/></Types>'))},
            add={"word/extra.dat": b" " * 300_000 + BOMB_DOCUMENT}), "DOCTYPE"),
    "xxe-parameter-entity-in-content-types": (
        lambda: rezip(memo_docx(), edit={"[Content_Types].xml": lambda b: XXE_TYPES}), "DOCTYPE"),
    "deflate-ratio-bomb": (
        lambda: rezip(memo_docx(), add={"word/media/zeros.bin": bytes(20 * 1024 * 1024)}), "compression ratio"),
    "overlapping-entries-zbsm": (_overlapping_zip, "overlapping zip entries"),
    "too-many-entries": (_many_entries, "more than 2,000 zip entries"),
    "encrypted-entry-flag": (lambda: patch_central(memo_docx(), 0, 8, "<H", 0x1), "encrypted zip entry"),
    "duplicate-entry-names": (_duplicate_names, "two zip entries named"),
    "case-duplicate-entry-names": (
        lambda: rezip(memo_docx(), add={"WORD/DOCUMENT.XML": b"<x/>"}), "differ only by case"),
    "nesting-deeper-than-libxml2-allows": (
        lambda: rezip(memo_docx(footnote=False), edit={"word/document.xml": lambda b: _deep_document(300)}),
        "depth"),
    "lying-uncompressed-size": (lambda: patch_central(memo_docx(), 0, 24, "<I", 10), "corrupt"),
    "ole2-encrypted-ooxml": (lambda: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(4096), "password-protected"),
    "macro-enabled-docm-renamed": (_docm, "macro-enabled Word document (.docm)"),
    "workbook-renamed-docx": (lambda: _xlsx_bytes(), "Excel workbook (.xlsx)"),
    "truncated-zip": (lambda: memo_docx()[:3000], "corrupt zip archive"),
    "pdf-renamed-docx": (lambda: b"%PDF-1.7\n1 0 obj\n", "is a PDF"),
    "empty-file": (lambda: b"", "empty"),
}


def _xlsx_bytes() -> bytes:
    from openpyxl import Workbook

    raw = io.BytesIO()
    Workbook().save(raw)
    return raw.getvalue()


@pytest.mark.parametrize("attack", sorted(HOSTILE))
def test_hostile_docx_is_refused_with_a_reason(tmp_path: Path, attack: str) -> None:
    build, expected = HOSTILE[attack]
    result = read_deliverable(write(tmp_path, "memo.docx", build()), "memo.docx")
    assert isinstance(result, DeliverableRead)
    assert result.found and not result.ok and result.text == ""
    assert expected in result.reason, result.reason
    assert "\n" not in result.reason


def test_xml_member_limit_is_counted_while_streaming(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_zipguard, "MAX_XML_MEMBER_BYTES", 64 * 1024)
    result = read_deliverable(write(tmp_path, "memo.docx", memo_docx()), "memo.docx")
    assert not result.ok and "XML member 'word/styles.xml' inflating past the 65,536 bytes limit" in result.reason


def test_member_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_zipguard, "MAX_MEMBER_BYTES", 1024 * 1024)
    data = rezip(memo_docx(), add={"word/media/noise.bin": os.urandom(2 * 1024 * 1024)},
                 compression=zipfile.ZIP_STORED)
    result = read_deliverable(write(tmp_path, "memo.docx", data), "memo.docx")
    assert not result.ok and "'word/media/noise.bin' declaring 2.0 MiB inflated" in result.reason


def test_lying_size_header_cannot_smuggle_bytes(tmp_path: Path) -> None:
    # zipfile stops at the declared size, so a header that understates the size
    # yields a CRC failure, never extra bytes past the limits.
    data = rezip(memo_docx(), add={"word/media/noise.bin": os.urandom(300 * 1024)}, compression=zipfile.ZIP_STORED)
    last = len(zipfile.ZipFile(io.BytesIO(data)).infolist()) - 1
    result = read_deliverable(write(tmp_path, "memo.docx", patch_central(data, last, 24, "<I", 1000)), "memo.docx")
    assert not result.ok and "corrupt zip member 'word/media/noise.bin'" in result.reason


def test_text_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_zipguard, "MAX_TEXT_CHARS", 100)
    result = read_deliverable(write(tmp_path, "memo.md", b"x" * 101), "memo.md")
    assert not result.ok and "characters of text" in result.reason


def test_oversize_file(tmp_path: Path) -> None:
    path = tmp_path / "memo.docx"
    with open(path, "wb") as handle:
        handle.truncate(_zipguard.MAX_FILE_BYTES + 1)
    result = read_deliverable(path, "memo.docx")
    assert not result.ok and "over the 25.0 MiB limit" in result.reason and result.bytes_read == 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=4096), st.sampled_from(["memo.docx", "memo.md", "memo.txt"]))
def test_never_raises_on_arbitrary_bytes(tmp_path: Path, data: bytes, name: str) -> None:
    result = read_deliverable(write(tmp_path, name, data), name)
    assert isinstance(result, DeliverableRead) and (result.ok or result.reason)


_VALID = None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(min_value=0), st.integers(min_value=0, max_value=255)), min_size=1, max_size=8))
def test_never_raises_on_corrupted_docx(tmp_path: Path, flips: list[tuple[int, int]]) -> None:
    global _VALID
    if _VALID is None:
        _VALID = memo_docx()
    data = bytearray(_VALID)
    for pos, value in flips:
        data[pos % len(data)] = value
    result = read_deliverable(write(tmp_path, "memo.docx", bytes(data)), "memo.docx")
    assert isinstance(result, DeliverableRead) and (result.ok or result.reason)


def test_a_large_member_that_passed_the_scan_is_not_scanned_again(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """python-docx's template styles.xml (over 64 KiB) is scanned once per process; the same
    part with a DOCTYPE added is new bytes, so it is scanned and refused."""
    clean = write(tmp_path, "memo.docx", memo_docx())
    assert read_deliverable(clean, "memo.docx").ok
    with zipfile.ZipFile(clean) as z:
        large = [i.filename for i in z.infolist() if i.file_size >= _zipguard._PassedScans.MIN_BYTES]
        xml_members = [n for n in z.namelist() if n.endswith((".xml", ".rels"))]
    assert "word/styles.xml" in large
    scanned: list[int] = []
    real = _zipguard.xml.parsers.expat.ParserCreate
    monkeypatch.setattr(_zipguard.xml.parsers.expat, "ParserCreate", lambda *a: scanned.append(1) or real(*a))
    assert read_deliverable(clean, "memo.docx").ok
    assert len(scanned) == len(xml_members) - len(large)
    hostile = rezip(memo_docx(), edit={"word/styles.xml": lambda b: b.replace(
        b"?>", b'?><!DOCTYPE w:styles [<!ENTITY x "x">]>', 1)})
    (tmp_path / "hostile").mkdir()
    result = read_deliverable(write(tmp_path / "hostile", "memo.docx", hostile), "memo.docx")
    assert not result.ok and "DOCTYPE" in result.reason, result.reason


def test_a_part_the_reader_never_reads_is_parsed_once_per_process(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """styles.xml (over 64 KiB) is parsed the first time its bytes are seen; the same bytes again
    are kept unparsed and the text is the same. A copy that does not parse is new bytes, so it is
    parsed, and refused, every time."""
    import docx.opc.part

    parsed: list[int] = []
    real = docx.opc.part.parse_xml
    monkeypatch.setattr(docx.opc.part, "parse_xml", lambda blob: parsed.append(len(blob)) or real(blob))
    data = memo_docx()
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        styles = len(z.read("word/styles.xml"))
    clean = write(tmp_path, "memo.docx", data)
    first = read_deliverable(clean, "memo.docx")
    second = read_deliverable(clean, "memo.docx")
    assert first.ok and second == first
    assert parsed.count(styles) <= 1  # parsed on the first read, unless an earlier test saw these bytes
    parsed.clear()
    assert read_deliverable(clean, "memo.docx").ok and styles not in parsed and parsed  # the body still parses
    broken = rezip(data, edit={"word/styles.xml": lambda b: b.replace(b"</w:styles>", b"")})
    (tmp_path / "broken").mkdir()
    path = write(tmp_path / "broken", "memo.docx", broken)
    for _ in range(2):
        result = read_deliverable(path, "memo.docx")
        assert not result.ok and "could not be opened as a Word document" in result.reason, result.reason


def test_nested_list_items_keep_their_level_through_render_and_read(tmp_path):
    """A nested Markdown list renders to Word's nested list styles, and the reader indents each
    list paragraph two spaces per level, so the grader can read a list item with its sub-items."""
    md = "- 1. Renewal option\n  - Issue: the notice deadline\n    - detail\n- 2. Parking\n"
    path = tmp_path / "memo.docx"
    markdown_to_docx(md, path)
    text = read_deliverable(path, "memo.docx").text
    lines = [line for line in text.split("\n") if line.strip()]
    assert lines == ["- 1. Renewal option", "  - Issue: the notice deadline", "    - detail", "- 2. Parking"]


def test_a_word_numbering_level_is_read_as_nesting(tmp_path):
    """Word marks nesting with w:numPr/w:ilvl on a plain paragraph; the reader honours it."""
    document = docx.Document()
    for level, words in ((0, "Parent point"), (1, "Child point"), (0, "Next point")):
        paragraph = document.add_paragraph(words)
        paragraph._p.get_or_add_pPr().append(parse_xml(
            f'<w:numPr xmlns:w="{W_NS}"><w:ilvl w:val="{level}"/><w:numId w:val="1"/></w:numPr>'))
    path = tmp_path / "word.docx"
    document.save(str(path))
    lines = [line for line in read_deliverable(path, "word.docx").text.split("\n") if line.strip()]
    assert lines == ["- Parent point", "  - Child point", "- Next point"]


def _png() -> bytes:
    """A real 1x1 PNG (a non-XML member the guard does not keep)."""
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))


def test_the_checked_members_read_as_python_docx_reads_the_file() -> None:
    """The reader hands python-docx the members the zip guard inflated instead of inflating the
    zip again: the text is what python-docx's own reading of the file gives, for the fixture memos,
    a memo with every story and one with a picture (a member read from the zip)."""
    from lae.grader._ooxml import _document_text, _open_document

    pictured = docx.Document()
    pictured.add_paragraph("Before the picture, the lease's Section 11.3.")
    pictured.add_picture(io.BytesIO(_png()))
    pictured.add_paragraph("After it.")
    out = io.BytesIO()
    pictured.save(out)
    files = [memo_docx(), out.getvalue()] + [p.read_bytes() for p in sorted(
        (Path(__file__).parent / "fixtures" / "memos").glob("*/*/*.docx"))]
    assert len(files) >= 20
    for data in files:
        safe = _zipguard.SafeZip.open(data)
        ours, theirs = _open_document(safe), docx.Document(io.BytesIO(data))
        for markup in (False, True):
            assert _document_text(ours, markup) == _document_text(theirs, markup)
        assert [(p.partname, p.blob) for p in ours.part.package.iter_parts()] == \
            [(p.partname, p.blob) for p in theirs.part.package.iter_parts()]
    media = [p.blob for p in _open_document(_zipguard.SafeZip.open(files[1])).part.package.iter_parts()
             if p.partname.startswith("/word/media/")]
    assert media == [_png()]
