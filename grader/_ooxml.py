"""Office Open XML text extraction over a validated :class:`SafeZip` (private).

Shared by :mod:`lae.grader.documents` and :mod:`lae.grader.deliverables`. Every
function raises :class:`lae.grader._zipguard.Refusal` on a file it will not read.

Word text model (the same for matter documents and deliverables):

* parts in page order: headers, body, footnotes, endnotes, footers (each header
  or footer text once, even when several sections repeat it);
* body blocks in document order: paragraphs, tables (one line per row, cells
  joined with ``" | "``), content controls, text boxes; blocks are separated by
  a blank line, empty paragraphs are dropped;
* tracked insertions (``w:ins``, ``w:moveTo``) count; deletions (``w:del``,
  ``w:delText``, ``w:moveFrom``) do not; neither do field instructions
  (``w:instrText``), hidden runs (``w:vanish``), or the fallback copy of
  ``mc:AlternateContent``.
"""

from __future__ import annotations

import datetime as _dt
import io
import warnings
from collections.abc import Iterator

import regex
from lxml import etree

from lae.grader._zipguard import (
    MAX_TEXT_CHARS,
    Refusal,
    SafeZip,
    _exc_text,
    _PassedScans,
    check_text_size,
    parse_xml,
)

__all__ = [
    "DOCX_MAIN",
    "XLSX_MAIN",
    "require_main_part",
    "read_docx",
    "read_xlsx",
    "docx_element_text",
    "MAX_SHEET_CELLS",
]

DOCX_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
XLSX_MAIN = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"

#: Most cells (including the empty ones a sparse row is padded with) visited in one workbook.
MAX_SHEET_CELLS = 2_000_000

_MAIN_TYPES = {
    DOCX_MAIN: "a Word document (.docx)",
    "application/vnd.ms-word.document.macroEnabled.main+xml": "a macro-enabled Word document (.docm)",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml": "a Word template (.dotx)",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml": "a macro-enabled Word template (.dotm)",
    XLSX_MAIN: "an Excel workbook (.xlsx)",
    "application/vnd.ms-excel.sheet.macroEnabled.main+xml": "a macro-enabled Excel workbook (.xlsm)",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml": "an Excel template (.xltx)",
    "application/vnd.ms-excel.template.macroEnabled.main+xml": "a macro-enabled Excel template (.xltm)",
    "application/vnd.ms-excel.sheet.binary.macroEnabled.main": "a binary Excel workbook (.xlsb)",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml": "a PowerPoint deck (.pptx)",
}
_EXPECTED = {"docx": DOCX_MAIN, "xlsx": XLSX_MAIN}

_CT_NS = "http://schemas.openxmlformats.org/package/2006/content-types"
_RELS_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
_STRICT_PREFIX = "http://purl.oclc.org/ooxml/"

_W_NAMESPACES = frozenset({
    "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "http://purl.oclc.org/ooxml/wordprocessingml/main",
})
_MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"


# -- package checks ------------------------------------------------------------
def _member_lookup(safe: SafeZip) -> dict[str, str]:
    return {name.lstrip("/").casefold(): name for name in safe.names}


def require_main_part(safe: SafeZip, fmt: str) -> None:
    """Refuse unless the package's main part has the content type of ``fmt`` (docx/xlsx).

    Reads ``[Content_Types].xml`` and ``_rels/.rels`` (already DTD-scanned) with
    the hardened parser, follows the officeDocument relationship to the main
    part, and compares that part's content type with the expected one, naming
    what the file really is when it differs (.docm, .dotx, .xlsx, .pptx, ...).
    """
    expected = _EXPECTED[fmt]
    lookup = _member_lookup(safe)
    ct_name = lookup.get("[content_types].xml")
    ct_bytes = safe.member(ct_name) if ct_name else None
    if ct_bytes is None:
        raise Refusal("has no [Content_Types].xml, so it is not an Office Open XML package")
    rels_name = lookup.get("_rels/.rels")
    rels_bytes = safe.member(rels_name) if rels_name else None
    if rels_bytes is None:
        raise Refusal("has no _rels/.rels, so it is not an Office Open XML package")
    types = parse_xml(ct_bytes, what="[Content_Types].xml")
    rels = parse_xml(rels_bytes, what="_rels/.rels")
    target = None
    for rel in rels.iter(f"{{{_RELS_NS}}}Relationship", "{http://purl.oclc.org/ooxml/package/relationships}Relationship"):
        rtype = rel.get("Type") or ""
        if rtype.endswith("/officeDocument") and rel.get("TargetMode") != "External":
            if rtype.startswith(_STRICT_PREFIX):
                raise Refusal(
                    "is a Strict Open XML package, which is not supported "
                    "(save it as a regular, 'Transitional', Office Open XML file)"
                )
            target = rel.get("Target") or ""
            break
    if target is None:
        raise Refusal("has no main document part (no officeDocument relationship in _rels/.rels)")
    partname = "/" + target.lstrip("/")
    if partname.lstrip("/").casefold() not in lookup:
        raise Refusal(f"names main part {partname!r}, which is not in the archive")
    content_type = None
    for override in types.iter(f"{{{_CT_NS}}}Override"):
        if (override.get("PartName") or "").casefold() == partname.casefold():
            content_type = override.get("ContentType")
            break
    if content_type is None:
        ext = partname.rsplit(".", 1)[-1].casefold() if "." in partname else ""
        for default in types.iter(f"{{{_CT_NS}}}Default"):
            if (default.get("Extension") or "").casefold() == ext:
                content_type = default.get("ContentType")
                break
    if content_type != expected:
        what = _MAIN_TYPES.get(content_type or "", f"content type {content_type!r}")
        raise Refusal(f"is {what}, not {_MAIN_TYPES[expected]}")


# -- Word text -----------------------------------------------------------------
def _is_w(el: etree._Element, name: str) -> bool:
    tag = el.tag
    if not isinstance(tag, str) or not tag.endswith("}" + name):
        return False
    return tag[1:tag.index("}")] in _W_NAMESPACES


def _local(el: etree._Element) -> tuple[str, str]:
    tag = el.tag
    if not isinstance(tag, str):
        return ("", "")
    if tag.startswith("{"):
        ns, _, name = tag[1:].partition("}")
        return (ns, name)
    return ("", tag)


_FALSE = {"0", "false", "off"}


def _is_hidden_run(run: etree._Element) -> bool:
    for child in run:
        if _is_w(child, "rPr"):
            for prop in child:
                if _is_w(prop, "vanish"):
                    val = next((v for k, v in prop.attrib.items() if k.endswith("}val") or k == "val"), None)
                    return val is None or val.lower() not in _FALSE
    return False


# Subtrees whose text never counts (deleted, instructions, properties, fallbacks).
_SKIP_W = frozenset({
    "del", "moveFrom", "delText", "delInstrText", "instrText", "rPr", "pPr", "tblPr", "trPr",
    "tcPr", "sectPr", "fldData", "tblGrid", "customXmlPr", "sdtPr", "sdtEndPr",
})


class _Collector:
    """Accumulates text with a character budget so hostile input cannot balloon. With
    ``markup`` (deliverables), structure is written the way the grader reads it: ``#`` before
    headings, ``- `` before list paragraphs, ``| a | b |`` for table rows."""

    markup = False

    def __init__(self, markup: bool = False) -> None:
        self.markup = markup
        self.size = 0

    def add(self, n: int) -> None:
        self.size += n
        if self.size > MAX_TEXT_CHARS:
            raise Refusal(f"yields more than {MAX_TEXT_CHARS:,} characters of text (the limit)")


def _inline(el: etree._Element, out: list[str], budget: _Collector) -> None:
    for node in el:
        ns, name = _local(node)
        if ns in _W_NAMESPACES:
            if name in _SKIP_W:
                continue
            if name == "t":
                text = node.text or ""
                budget.add(len(text))
                out.append(text)
            elif name == "tab":
                out.append("\t")
            elif name in ("br", "cr"):
                out.append("\n")
            elif name == "noBreakHyphen":
                out.append("-")
            elif name == "r":
                if not _is_hidden_run(node):
                    _inline(node, out, budget)
            elif name == "txbxContent":
                inner = list(_blocks(node, budget))
                if inner:
                    out.append("\n" + "\n".join(inner) + "\n")
            elif name == "p":  # a paragraph nested inline (e.g. inside a shape)
                out.append("\n")
                _inline(node, out, budget)
                out.append("\n")
            elif name == "tbl":
                out.append("\n" + "\n".join(_table_rows(node, budget)) + "\n")
            else:  # ins, moveTo, hyperlink, smartTag, customXml, sdt, sdtContent, fldSimple, ...
                _inline(node, out, budget)
        elif ns == _MC_NS:
            if name == "AlternateContent":
                choice = next((c for c in node if _local(c) == (_MC_NS, "Choice")), None)
                if choice is not None:
                    _inline(choice, out, budget)
            # mc:Fallback duplicates the Choice: skipped.
        else:  # drawing containers (wp:, a:, wps:, v:, ...) may hold text boxes
            _inline(node, out, budget)


_HEADING_STYLE = regex.compile(r"(?i)^(?:heading|berschrift|titre|titulo|kop)\s*([1-6])$")
_LIST_STYLE = regex.compile(r"(?i)^list")
_LIST_STYLE_LEVEL = regex.compile(r"(?i)^list(?:bullet|number|continue|paragraph)?([2-9])$")


def _list_depth(ppr: etree._Element, style: str) -> int:
    """Nesting of a list paragraph: its numbering level (``w:ilvl``), else the level in its
    style name ("List Bullet 2" is one level in); at most 2."""
    num = next((c for c in ppr if _is_w(c, "numPr")), None)
    ilvl = next((c for c in num if _is_w(c, "ilvl")), None) if num is not None else None
    if ilvl is not None:
        val = next((v for k, v in ilvl.attrib.items() if k.endswith("}val")), "0")
        if val.isdigit():
            return min(int(val), 2)
    m = _LIST_STYLE_LEVEL.match(style)
    return min(int(m.group(1)) - 1, 2) if m else 0


def _paragraph_prefix(p: etree._Element) -> str:
    """``#``.. for a heading style (Title counts as level 1), ``- `` for a list paragraph
    (indented two spaces per nesting level)."""
    for child in p:
        if not _is_w(child, "pPr"):
            continue
        style = next((c for c in child if _is_w(c, "pStyle")), None)
        val = next((v for k, v in style.attrib.items() if k.endswith("}val")), "") if style is not None else ""
        val = val.replace(" ", "")
        m = _HEADING_STYLE.match(val)
        if m or val.lower() == "title":
            return "#" * (int(m.group(1)) if m else 1) + " "
        outline = next((c for c in child if _is_w(c, "outlineLvl")), None)
        if outline is not None:
            level = next((v for k, v in outline.attrib.items() if k.endswith("}val")), "9")
            if level.isdigit() and int(level) < 6:
                return "#" * (int(level) + 1) + " "
        if _LIST_STYLE.match(val) or any(_is_w(c, "numPr") for c in child):
            return "  " * _list_depth(child, val) + "- "
    return ""


def _paragraph(p: etree._Element, budget: _Collector) -> str:
    out: list[str] = []
    _inline(p, out, budget)
    text = "".join(out).strip()
    if budget.markup and text:
        return _paragraph_prefix(p) + text
    return text


def _cell_text(tc: etree._Element, budget: _Collector) -> str:
    return " ".join(b.replace("\n", " ") for b in _blocks(tc, budget))


def _row_cells(tr: etree._Element, budget: _Collector) -> Iterator[str]:
    for node in tr:
        if _is_w(node, "tc"):
            yield _cell_text(node, budget)
        elif _is_w(node, "sdt") or _is_w(node, "customXml") or _is_w(node, "sdtContent"):
            yield from _row_cells(node, budget)


def _row_deleted(tr: etree._Element) -> bool:
    for node in tr:
        if _is_w(node, "trPr"):
            return any(_is_w(c, "del") for c in node)
    return False


def _table_rows(tbl: etree._Element, budget: _Collector) -> Iterator[str]:
    for node in tbl:
        if _is_w(node, "tr"):
            if _row_deleted(node):
                continue
            cells = list(_row_cells(node, budget))
            if any(c.strip() for c in cells):
                row = " | ".join(c.strip() for c in cells)
                yield f"| {row} |" if budget.markup else row
        elif _is_w(node, "sdt") or _is_w(node, "customXml") or _is_w(node, "sdtContent"):
            yield from _table_rows(node, budget)


def _blocks(container: etree._Element, budget: _Collector) -> Iterator[str]:
    for node in container:
        ns, name = _local(node)
        if ns in _W_NAMESPACES:
            if name == "p":
                text = _paragraph(node, budget)
                if text.strip():
                    yield text
            elif name == "tbl":
                rows = list(_table_rows(node, budget))
                if rows:
                    yield "\n".join(rows)
            elif name in ("sdt", "sdtContent", "customXml", "ins", "moveTo", "smartTag", "body",
                          "footnote", "endnote", "hdr", "ftr", "txbxContent"):
                yield from _blocks(node, budget)
            # del/moveFrom/sectPr/altChunk/bookmarks...: nothing to read.
        elif ns == _MC_NS and name == "AlternateContent":
            choice = next((c for c in node if _local(c) == (_MC_NS, "Choice")), None)
            if choice is not None:
                yield from _blocks(choice, budget)


def docx_element_text(element: etree._Element, budget: _Collector | None = None) -> str:
    """Text of one Word story (body, header, footer, footnotes, endnotes)."""
    budget = budget or _Collector()
    ns, name = _local(element)
    if name in ("footnotes", "endnotes"):
        notes = []
        for note in element:
            _, nname = _local(note)
            if nname not in ("footnote", "endnote"):
                continue
            kind = next((v for k, v in note.attrib.items() if k.endswith("}type")), "normal")
            if kind in ("separator", "continuationSeparator", "continuationNotice"):
                continue
            text = "\n".join(_blocks(note, budget))
            if text.strip():
                notes.append(text)
        return "\n\n".join(notes)
    return "\n\n".join(_blocks(element, budget))


def _part_element(part: object) -> etree._Element:
    element = getattr(part, "element", None)
    if element is not None:
        return element
    blob = getattr(part, "blob", b"")
    return parse_xml(blob, what=str(getattr(part, "partname", "part")))


def _document_text(document: object, markup: bool = False) -> str:
    budget = _Collector(markup)
    part = document.part  # type: ignore[attr-defined]
    stories: dict[str, list[tuple[str, object]]] = {"header": [], "footnotes": [], "endnotes": [], "footer": []}
    for rel in part.rels.values():
        if rel.is_external:
            continue
        kind = rel.reltype[len(_RT):] if rel.reltype.startswith(_RT) else ""
        if kind in stories:
            target = rel.target_part
            stories[kind].append((str(target.partname), target))
    body = docx_element_text(document.element.body, budget)  # type: ignore[attr-defined]

    def texts(kind: str) -> list[str]:
        seen: list[str] = []
        for _name, target in sorted(stories[kind], key=lambda item: item[0]):
            text = docx_element_text(_part_element(target), budget)
            if text.strip() and text not in seen:
                seen.append(text)
        return seen

    sections = [*texts("header"), body, *texts("footnotes"), *texts("endnotes"), *texts("footer")]
    return "\n\n".join(s for s in sections if s.strip())


# Parts python-docx parses on opening that the text model never reads (styles, numbering,
# settings, comments, core properties). A part that does not parse refuses the file, so each is
# parsed the first time its exact bytes are seen in this process; the same bytes again (memos
# written from one template share its ~350 KB styles.xml) are kept as bytes, unparsed.
_UNREAD_PARTS = frozenset({
    "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.settings+xml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml",
    "application/vnd.openxmlformats-package.core-properties+xml",
})
_PARSED_UNREAD = _PassedScans()


class _CheckedPackage:
    """python-docx's physical package reader over a zip the guard checked: its parts are the
    members the guard already inflated, not the zip inflated again; a missing member raises
    KeyError, as python-docx's own zip reader does."""

    def __init__(self, safe: SafeZip) -> None:
        self._xml, self._other = safe.xml_members, safe.other_members

    def blob_for(self, pack_uri: str) -> bytes:
        name = pack_uri[1:]  # PackURI.membername: the part name without its leading slash
        blob = self._xml.get(name)
        return self._other[name] if blob is None else blob

    @property
    def content_types_xml(self) -> bytes:
        return self.blob_for("/[Content_Types].xml")

    def rels_xml_for(self, source_uri: object) -> bytes | None:
        try:
            return self.blob_for(source_uri.rels_uri)  # type: ignore[attr-defined]
        except KeyError:
            return None

    def close(self) -> None:
        pass


def _open_document(safe: SafeZip) -> object:
    """``docx.Document(safe.data)``, reading the members the guard already inflated, except that
    an unread part whose bytes parsed before stays unparsed."""
    # python-docx, imported late to keep `import lae.grader` light
    from docx.opc.constants import CONTENT_TYPE
    from docx.opc.package import Unmarshaller
    from docx.opc.packuri import PACKAGE_URI
    from docx.opc.part import Part, PartFactory
    from docx.opc.pkgreader import PackageReader, _ContentTypeMap
    from docx.package import Package

    def part(partname: str, content_type: str, reltype: str, blob: bytes, package: object) -> object:
        unread = content_type in _UNREAD_PARTS
        if unread and blob in _PARSED_UNREAD:
            return Part.load(partname, content_type, blob, package)
        made = PartFactory(partname, content_type, reltype, blob, package)
        if unread and len(blob) >= _PassedScans.MIN_BYTES:
            _PARSED_UNREAD.add(blob)
        return made

    # PackageReader.from_file, with the checked members in place of a second inflation of the zip
    physical = _CheckedPackage(safe)
    content_types = _ContentTypeMap.from_xml(physical.content_types_xml)
    package_rels = PackageReader._srels_for(physical, PACKAGE_URI)
    parts = PackageReader._load_serialized_parts(physical, package_rels, content_types)
    physical.close()
    package = Package()
    Unmarshaller.unmarshal(PackageReader(content_types, package_rels, parts), package, part)
    document_part = package.main_document_part
    if document_part.content_type != CONTENT_TYPE.WML_DOCUMENT_MAIN:
        raise ValueError(f"not a Word file, content type is {document_part.content_type!r}")
    return document_part.document  # type: ignore[attr-defined]


def read_docx(data: bytes, *, markup: bool = False) -> str:
    """Validate and read a .docx; return its text (see the module docstring). ``markup``
    (deliverables): headings, list paragraphs and table rows carry Markdown-like marks."""
    safe = SafeZip.open(data)
    require_main_part(safe, "docx")
    try:
        document = _open_document(safe)
    except Refusal:
        raise
    except Exception as exc:  # python-docx raises many types on broken packages
        raise Refusal(f"could not be opened as a Word document ({_exc_text(exc)})") from None
    try:
        text = _document_text(document, markup)
    except Refusal:
        raise
    except Exception as exc:
        raise Refusal(f"could not be read ({_exc_text(exc)})") from None
    return check_text_size(text)


# -- Excel text ----------------------------------------------------------------
def _cell_str(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return repr(value)
    if isinstance(value, _dt.datetime):
        if value.time() == _dt.time(0, 0):
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, (_dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, _dt.timedelta):
        return str(value)
    return str(value).replace("\r\n", "\n").replace("\n", " ")


def read_xlsx(data: bytes) -> str:
    """Validate and read a .xlsx: per worksheet ``## Sheet: Name`` then one
    ``A | B | C`` line per non-empty row (trailing empty cells dropped)."""
    safe = SafeZip.open(data)
    require_main_part(safe, "xlsx")
    import openpyxl  # uses defusedxml for its own parsing when it is installed

    lines: list[str] = []
    budget = _Collector()
    visited = 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            workbook = openpyxl.load_workbook(
                io.BytesIO(safe.data), read_only=True, data_only=True, keep_links=False
            )
            try:
                for sheet in workbook.worksheets:
                    if lines:
                        lines.append("")
                    title = f"## Sheet: {sheet.title}"
                    budget.add(len(title))
                    lines.append(title)
                    # Dimensions in the file may lie (A1:XFD1048576); never pad to them.
                    sheet.reset_dimensions()
                    for row in sheet.iter_rows(values_only=True):
                        visited += max(1, len(row))
                        if visited > MAX_SHEET_CELLS:
                            raise Refusal(f"has more than {MAX_SHEET_CELLS:,} cells")
                        cells: list[str] = []
                        for value in row:
                            # Budget each cell before building anything bigger: one shared
                            # string referenced by thousands of cells must not be copied
                            # thousands of times (poc-shared-strings.xlsx).
                            if isinstance(value, str):
                                budget.add(len(value) + 3)
                            cell = _cell_str(value)
                            if not isinstance(value, str):
                                budget.add(len(cell) + 3)
                            cells.append(cell)
                        while cells and not cells[-1].strip():
                            cells.pop()
                        if not cells:
                            continue
                        lines.append(" | ".join(cells))
            finally:
                workbook.close()
    except Refusal:
        raise
    except Exception as exc:  # openpyxl raises many types on broken workbooks
        raise Refusal(f"could not be read as an Excel workbook ({_exc_text(exc)})") from None
    return check_text_size("\n".join(lines))
