"""Render matter documents (and test memos) from text sources, byte-for-byte reproducibly.

A source file's name is the output name plus one suffix::

    NAME.docx.md     -> NAME.docx   (python-docx)   Markdown subset, below
    NAME.pdf.md      -> NAME.pdf    (fpdf2)         Markdown subset, below
    NAME.xlsx.yaml   -> NAME.xlsx   (openpyxl)      sheets: [{name, rows: [[cell, ...], ...], header?}]
    NAME.eml.txt     -> NAME.eml    (email)         headers, blank line, body
    NAME.txt.txt     -> NAME.txt                    UTF-8, LF line ends

Markdown subset: ``#``..``######`` headings; blank-line-separated paragraphs (lines
of one paragraph are joined by a space; a line ending in two spaces or ``\\``
breaks the line); ``- ``/``* ``/``+ `` bullets; ``1. `` numbered items (the
number is kept as written); pipe tables (first row is the header; an optional
``|---|`` line is skipped); ``**bold**`` and ``*italic*`` inline (``\\*`` is a
literal asterisk); a line ``\\pagebreak``.

Determinism: no wall clock, no zlib-version dependence. Office files get fixed
core properties (the key's matter date at 00:00:00Z, else 2025-01-01T00:00:00Z)
and are rewritten as zips with a fixed member order, fixed 1980-01-01 timestamps,
fixed attributes and *stored* (uncompressed) members, because deflate output may
differ between zlib builds (zlib, zlib-ng, Apple's). PDFs are written
uncompressed with a fixed creation date and producer; fpdf2's /ID is an MD5 of the
content. The bytes therefore depend only on the source, the timestamp and the
versions of python-docx/openpyxl/fpdf2 (a library upgrade can change layout
bytes: re-render and re-freeze).
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import email.policy
import email.utils
import hashlib
import io
import json
import os
import re
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import IO, Any, Literal, Union

import yaml

from lae.catalog import find_task
from lae.fsio import atomic_write
from lae.errors import InvalidInputError, LaeError, Problem
from lae.project import Project

__all__ = [
    "SOURCE_SUFFIXES",
    "DEFAULT_TIMESTAMP",
    "Heading",
    "Paragraph",
    "ListItem",
    "Table",
    "PageBreak",
    "Block",
    "parse_markdown",
    "inline_runs",
    "plain_text",
    "markdown_to_docx",
    "docx_bytes",
    "pdf_bytes",
    "xlsx_bytes",
    "eml_bytes",
    "txt_bytes",
    "normalize_zip",
    "output_name",
    "render_source",
    "task_json_bytes",
    "RenderReport",
    "render_project",
    "render_memos",
    "render_validation",
]

#: Source suffix -> output format. The output name is the source name minus the last suffix.
SOURCE_SUFFIXES: dict[str, str] = {
    ".docx.md": "docx",
    ".pdf.md": "pdf",
    ".xlsx.yaml": "xlsx",
    ".eml.txt": "eml",
    ".txt.txt": "txt",
}

#: Core-property timestamp when no matter date is known.
DEFAULT_TIMESTAMP = _dt.datetime(2025, 1, 1, 0, 0, 0, tzinfo=_dt.timezone.utc)

_ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
MAX_SOURCE_BYTES = 5 * 1024 * 1024
MAX_SOURCE_CELLS = 1_000_000


# -- Markdown subset -------------------------------------------------------------
@dataclass(frozen=True)
class Heading:
    """``#``..``######`` heading: level 1-6 and its inline text."""

    level: int
    text: str
    line: int


@dataclass(frozen=True)
class Paragraph:
    """Blank-line-separated paragraph; lines joined by a space, ``\\n`` for hard breaks."""

    text: str  # may hold "\n" for hard line breaks
    line: int


@dataclass(frozen=True)
class ListItem:
    """A ``- `` bullet or a ``1. `` numbered item (the marker is kept as written)."""

    kind: Literal["bullet", "number"]
    marker: str  # "1." for numbered items, "" for bullets
    text: str
    line: int
    depth: int = 0  # nesting: the item's indentation in steps of two spaces (a tab counts as one step)


@dataclass(frozen=True)
class Table:
    """A pipe table; the first row is the header."""

    rows: tuple[tuple[str, ...], ...]  # first row is the header; rows padded to equal width
    line: int


@dataclass(frozen=True)
class PageBreak:
    """A line ``\\pagebreak``."""

    line: int


Block = Union[Heading, Paragraph, ListItem, Table, PageBreak]

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$")
_BULLET = re.compile(r"^[-*+][ \t]+(.*)$")
_NUMBER = re.compile(r"^(\d{1,3}[.)])[ \t]+(.*)$")
_TABLE_SEP = re.compile(r"^\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$")


def _split_row(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    cells = re.split(r"(?<!\\)\|", body)
    return [c.strip().replace("\\|", "|") for c in cells]


def _join_lines(lines: list[str]) -> str:
    out = ""
    for i, raw in enumerate(lines):
        hard = raw.endswith("  ") or (raw.endswith("\\") and not raw.endswith("\\\\"))
        text = raw.strip()
        if text.endswith("\\") and hard:
            text = text[:-1].rstrip()
        out += text
        if i < len(lines) - 1:
            out += "\n" if hard else " "
    return out


def parse_markdown(text: str) -> list[Block]:
    """Parse the Markdown subset into blocks (see the module docstring)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff").split("\n")
    blocks: list[Block] = []
    para: list[str] = []
    para_line = 0
    item: tuple[str, str, list[str], int, int] | None = None  # kind, marker, lines, line, depth

    def flush() -> None:
        nonlocal para, item
        if para:
            blocks.append(Paragraph(_join_lines(para), para_line))
            para = []
        if item is not None:
            kind, marker, item_lines, line, depth = item
            blocks.append(ListItem(kind, marker, _join_lines(item_lines), line, depth))  # type: ignore[arg-type]
            item = None

    i = 0
    while i < len(lines):
        raw = lines[i]
        stripped = raw.strip()
        lineno = i + 1
        if not stripped:
            flush()
            i += 1
            continue
        if stripped == "\\pagebreak":
            flush()
            blocks.append(PageBreak(lineno))
            i += 1
            continue
        heading = _HEADING.match(stripped)
        if heading and not raw.startswith((" ", "\t")):
            flush()
            blocks.append(Heading(len(heading.group(1)), heading.group(2), lineno))
            i += 1
            continue
        if stripped.startswith("|"):
            flush()
            rows: list[list[str]] = []
            start = lineno
            while i < len(lines) and lines[i].strip().startswith("|"):
                row_text = lines[i].strip()
                if not _TABLE_SEP.match(row_text):
                    rows.append(_split_row(row_text))
                i += 1
            width = max(len(r) for r in rows)
            blocks.append(Table(tuple(tuple(r + [""] * (width - len(r))) for r in rows), start))
            continue
        bullet = _BULLET.match(stripped)
        number = _NUMBER.match(stripped)
        if (bullet or number) and not para:
            flush()
            indent = raw[:len(raw) - len(raw.lstrip(" \t"))].replace("\t", "  ")
            depth = min(len(indent) // 2, 2)
            if bullet:
                item = ("bullet", "", [bullet.group(1)], lineno, depth)
            else:
                assert number is not None
                item = ("number", number.group(1), [number.group(2)], lineno, depth)
            i += 1
            continue
        if item is not None:  # continuation of a list item (indented or lazy)
            item[2].append(raw)
            i += 1
            continue
        if not para:
            para_line = lineno
        para.append(raw)
        i += 1
    flush()
    return blocks


_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_ITALIC = re.compile(r"(?<![*\\\w])\*(?=[^\s*])(.+?)(?<=[^\s*\\])\*(?![*\w])")


def inline_runs(text: str) -> list[tuple[str, bool, bool]]:
    """Split inline Markdown into ``(text, bold, italic)`` runs."""

    def italic_split(segment: str, bold: bool) -> list[tuple[str, bool, bool]]:
        out: list[tuple[str, bool, bool]] = []
        pos = 0
        for m in _ITALIC.finditer(segment):
            if m.start() > pos:
                out.append((segment[pos:m.start()], bold, False))
            out.append((m.group(1), bold, True))
            pos = m.end()
        if pos < len(segment):
            out.append((segment[pos:], bold, False))
        return out

    runs: list[tuple[str, bool, bool]] = []
    pos = 0
    for m in _BOLD.finditer(text):
        if m.start() > pos:
            runs.extend(italic_split(text[pos:m.start()], False))
        runs.extend(italic_split(m.group(1), True))
        pos = m.end()
    if pos < len(text):
        runs.extend(italic_split(text[pos:], False))
    return [(t.replace("\\*", "*"), b, it) for t, b, it in runs if t]


def plain_text(text: str) -> str:
    """Inline Markdown with the emphasis markers removed."""
    return "".join(t for t, _b, _i in inline_runs(text))


def _first_title(blocks: list[Block]) -> str:
    for block in blocks:
        if isinstance(block, Heading):
            return plain_text(block.text)
    return ""


# -- zip normalisation -------------------------------------------------------------
def normalize_zip(data: bytes) -> bytes:
    """Rewrite an OOXML zip deterministically: ``[Content_Types].xml`` first, then
    ``_rels/.rels``, then every other member by name; fixed 1980-01-01 timestamps,
    fixed attributes, stored (uncompressed) members."""
    with zipfile.ZipFile(io.BytesIO(data)) as src:
        members = {info.filename: src.read(info) for info in src.infolist() if not info.is_dir()}

    def order(name: str) -> tuple[int, str]:
        return ({"[Content_Types].xml": 0, "_rels/.rels": 1}.get(name, 2), name)

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as dst:
        for name in sorted(members, key=order):
            info = zipfile.ZipInfo(name, date_time=_ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_STORED
            info.create_system = 3
            info.create_version = 20
            info.extract_version = 20
            info.external_attr = 0o100644 << 16
            dst.writestr(info, members[name])
    return out.getvalue()


# -- docx ---------------------------------------------------------------------------
def _docx_runs(paragraph: Any, text: str, *, bold: bool = False) -> None:
    for chunk, is_bold, is_italic in inline_runs(text):
        parts = chunk.split("\n")
        run = paragraph.add_run(parts[0])
        for extra in parts[1:]:
            run.add_break()
            run.add_text(extra)
        if is_bold or bold:
            run.bold = True
        if is_italic:
            run.italic = True


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_DROP_RELS = ("/thumbnail", "/stylesWithEffects", "/customXml")


def _slim_docx(document: Any) -> None:
    """Drop what python-docx's template carries but no document needs.

    The template's thumbnail (a picture of a page that is not ours), its
    ``stylesWithEffects`` part and custom XML are dropped, and ``styles.xml``
    keeps only the styles in use (plus defaults and their basedOn/next/link
    chains): a stored .docx shrinks from ~840 KB to a few dozen KB.
    """
    package = document.part.package
    for rels in (package.rels, document.part.rels):
        for rId in [rId for rId, rel in rels.items() if rel.reltype.endswith(_DROP_RELS)]:
            del rels[rId]
    styles = document.styles.element
    wanted: set[str] = set()
    trees = [document.element]
    numbering = next((rel.target_part for rel in document.part.rels.values()
                      if not rel.is_external and rel.reltype.endswith("/numbering")), None)
    if numbering is not None and hasattr(numbering, "element"):
        trees.append(numbering.element)
    for tree in trees:
        for tag in ("pStyle", "rStyle", "tblStyle", "styleLink", "numStyleLink"):
            for el in tree.iter(_W + tag):
                wanted.add(el.get(_W + "val", ""))
    by_id = {s.get(_W + "styleId"): s for s in styles.iter(_W + "style")}
    for style_id, style in by_id.items():
        if style.get(_W + "default") in ("1", "true"):
            wanted.add(style_id or "")
    pending = list(wanted)
    while pending:
        style = by_id.get(pending.pop())
        if style is None:
            continue
        for tag in ("basedOn", "next", "link"):
            for el in style.iter(_W + tag):
                target = el.get(_W + "val", "")
                if target not in wanted:
                    wanted.add(target)
                    pending.append(target)
    for style_id, style in by_id.items():
        if style_id not in wanted:
            styles.remove(style)


def docx_bytes(
    text: str,
    *,
    title: str | None = None,
    timestamp: _dt.datetime = DEFAULT_TIMESTAMP,
    list_paragraphs: bool = False,
) -> bytes:
    """Render the Markdown subset to .docx bytes (deterministic; see the module docstring).

    With ``list_paragraphs`` numbered items are Word list paragraphs (style ``List
    Paragraph``, the number kept as text) rather than indented plain paragraphs; the
    matter documents keep the plain form so their frozen bytes do not move."""
    import docx
    from docx.shared import Inches

    blocks = parse_markdown(text)
    document = docx.Document()
    for block in blocks:
        if isinstance(block, Heading):
            paragraph = document.add_heading(level=min(block.level, 9))
            _docx_runs(paragraph, block.text)
        elif isinstance(block, Paragraph):
            _docx_runs(document.add_paragraph(), block.text)
        elif isinstance(block, ListItem):
            if block.depth:  # a nested item: Word's own nested list style, the marker kept as text
                paragraph = document.add_paragraph(style=f"List Bullet {block.depth + 1}")
                if block.kind == "number":
                    paragraph.add_run(block.marker + " ")
                _docx_runs(paragraph, block.text)
            elif block.kind == "bullet":
                _docx_runs(document.add_paragraph(style="List Bullet"), block.text)
            else:
                # The number is text, as the author wrote it: a reader (and an agent)
                # sees "3." exactly, whatever Word's list numbering would do.
                paragraph = document.add_paragraph(style="List Paragraph" if list_paragraphs else None)
                if not list_paragraphs:
                    paragraph.paragraph_format.left_indent = Inches(0.4)
                paragraph.paragraph_format.first_line_indent = Inches(-0.3)
                paragraph.add_run(block.marker + " ")
                _docx_runs(paragraph, block.text)
        elif isinstance(block, Table):
            table = document.add_table(rows=len(block.rows), cols=len(block.rows[0]))
            table.style = "Table Grid"
            for r, row in enumerate(block.rows):
                for c, value in enumerate(row):
                    _docx_runs(table.cell(r, c).paragraphs[0], value, bold=(r == 0))
        elif isinstance(block, PageBreak):
            document.add_page_break()
    _slim_docx(document)
    props = document.core_properties
    props.author = ""
    props.title = title if title is not None else _first_title(blocks)
    props.subject = ""
    props.comments = ""
    props.keywords = ""
    props.category = ""
    props.last_modified_by = ""
    props.revision = 1
    stamp = timestamp.astimezone(_dt.timezone.utc).replace(tzinfo=None)
    props.created = stamp
    props.modified = stamp
    raw = io.BytesIO()
    document.save(raw)
    return normalize_zip(raw.getvalue())


def markdown_to_docx(
    text: str,
    path_or_stream: str | os.PathLike[str] | IO[bytes],
    *,
    title: str | None = None,
    timestamp: _dt.datetime = DEFAULT_TIMESTAMP,
) -> None:
    """Render Markdown (the subset above; anything else stays literal text) to a .docx.

    Used by the environment's ``save_deliverable`` for agent memos. ``title`` sets
    the core-properties title only (never body text); by default it is the first
    heading. The same text always gives the same bytes.
    """
    data = docx_bytes(text, title=title, timestamp=timestamp)
    if hasattr(path_or_stream, "write"):
        path_or_stream.write(data)  # type: ignore[union-attr]
    else:
        Path(path_or_stream).write_bytes(data)  # type: ignore[arg-type]


# -- pdf ----------------------------------------------------------------------------
# fpdf2's core fonts (Helvetica) use WinAnsiEncoding: every Windows-1252 character
# renders and extracts (— – ‘ ’ “ ” … • € § ¶ ...). The few others a source may
# hold are transliterated; anything else is refused with its line number rather
# than silently changed.
_PDF_TRANSLITERATE = {
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2212": "-", "\u2043": "-",
    "\u2009": " ", "\u200a": " ", "\u202f": " ", "\u2007": " ", "\u2002": " ", "\u2003": " ",
    "\u200b": "", "\ufeff": "",
    "\u2032": "'", "\u2033": '"', "\u2264": "<=", "\u2265": ">=", "\u2260": "!=",
    "\u2192": "->", "\u2190": "<-", "\u25cf": "\u2022", "\u25aa": "\u2022", "\u2713": "[x]", "\u2610": "[ ]",
}


def _pdf_safe(text: str, *, where: str, line: int) -> str:
    out = []
    for ch in text:
        if ch in _PDF_TRANSLITERATE:
            out.append(_PDF_TRANSLITERATE[ch])
            continue
        try:
            ch.encode("cp1252")
        except UnicodeEncodeError:
            raise InvalidInputError(
                "source has a character the PDF fonts cannot render",
                [Problem(where, f"character U+{ord(ch):04X} {ch!r} has no glyph in the PDF core fonts", line,
                         mend="use a Windows-1252 character, or render this document as .docx")],
            ) from None
        out.append(ch)
    return "".join(out)


_PDF_BODY = 10.5
_PDF_LINE = 5.2
_PDF_HEADINGS = {1: 15.0, 2: 12.5, 3: 11.0}


def pdf_bytes(
    text: str,
    *,
    title: str | None = None,
    timestamp: _dt.datetime = DEFAULT_TIMESTAMP,
    where: str = "<source>",
) -> bytes:
    """Render the Markdown subset to PDF bytes (US Letter, Helvetica; deterministic)."""
    from fpdf import FPDF

    blocks = parse_markdown(text)
    pdf = FPDF(format="letter", unit="mm")
    pdf.core_fonts_encoding = "windows-1252"
    pdf.set_compression(False)
    pdf.set_creation_date(timestamp.astimezone(_dt.timezone.utc))
    pdf.set_producer("legal-agent-eval")
    pdf.set_margins(left=25, top=22, right=25)
    pdf.set_auto_page_break(auto=True, margin=20)
    doc_title = title if title is not None else _first_title(blocks)
    if doc_title:
        pdf.set_title(_pdf_safe(doc_title, where=where, line=1))
    pdf.add_page()
    left = pdf.l_margin

    def write_runs(value: str, line: int, *, size: float = _PDF_BODY, bold: bool = False) -> None:
        for chunk, is_bold, is_italic in inline_runs(value):
            style = ("B" if (is_bold or bold) else "") + ("I" if is_italic else "")
            pdf.set_font("Helvetica", style=style, size=size)
            pdf.write(_PDF_LINE, _pdf_safe(chunk, where=where, line=line))

    for index, block in enumerate(blocks):
        if isinstance(block, PageBreak):
            pdf.add_page()
            continue
        if isinstance(block, Heading):
            size = _PDF_HEADINGS.get(block.level, _PDF_BODY)
            if index:
                pdf.ln(3)
            pdf.set_font("Helvetica", style="B", size=size)
            pdf.multi_cell(0, size * 0.5, _pdf_safe(plain_text(block.text), where=where, line=block.line),
                           new_x="LMARGIN", new_y="NEXT")
            pdf.ln(1.5)
        elif isinstance(block, Paragraph):
            write_runs(block.text, block.line)
            pdf.ln(_PDF_LINE)
            pdf.ln(2.2)
        elif isinstance(block, ListItem):
            marker = "\u2022" if block.kind == "bullet" else block.marker
            pdf.set_font("Helvetica", size=_PDF_BODY)
            pdf.set_x(left + 2)
            pdf.write(_PDF_LINE, marker)
            pdf.set_left_margin(left + 9)
            pdf.set_x(left + 9)
            write_runs(block.text, block.line)
            pdf.set_left_margin(left)
            pdf.ln(_PDF_LINE)
            pdf.ln(1.2)
        elif isinstance(block, Table):
            pdf.set_font("Helvetica", size=_PDF_BODY - 1)
            with pdf.table(line_height=_PDF_LINE - 0.6, text_align="LEFT", first_row_as_headings=True) as table:
                for row in block.rows:
                    cells = table.row()
                    for value in row:
                        cells.cell(_pdf_safe(plain_text(value), where=where, line=block.line))
            pdf.ln(2.5)
    return bytes(pdf.output())


# -- xlsx ---------------------------------------------------------------------------
_SHEET_BAD = re.compile(r"[\[\]:*?/\\]")
_CELL_TYPES = (str, int, float, bool, _dt.date, _dt.datetime, type(None))


def _yaml_node(text: str, where: str) -> yaml.Node:
    # Anchors/aliases are allowed (a generator may reuse a header row); the
    # composed graph shares nodes, and the walker below caps the cells it visits.
    _Loader = yaml.SafeLoader
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise InvalidInputError("invalid YAML source", [
            Problem(where, f"invalid YAML: {exc.problem or exc.context}", mark.line + 1 if mark else None,
                    mark.column + 1 if mark else None, mend="fix the YAML syntax")]) from None
    except yaml.YAMLError as exc:
        raise InvalidInputError("invalid YAML source", [Problem(where, f"invalid YAML: {exc}",
                                                                mend="fix the YAML syntax")]) from None
    finally:
        loader.dispose()
    if node is None:
        raise InvalidInputError("empty source", [Problem(where, "file is empty", 1, mend="write `sheets:`")])
    return node


def _parse_workbook_source(text: str, where: str) -> list[dict[str, Any]]:
    """``sheets: [{name, rows, header?}]`` with every problem located."""
    node = _yaml_node(text, where)
    problems: list[Problem] = []
    constructor = yaml.constructor.SafeConstructor()

    def at(n: yaml.Node, fld: str, message: str, mend: str) -> None:
        problems.append(Problem(where, message, n.start_mark.line + 1, n.start_mark.column + 1, fld, mend))

    sheets: list[dict[str, Any]] = []
    if not isinstance(node, yaml.MappingNode):
        at(node, "(top)", "top level must be a mapping", "start with `sheets:`")
        raise InvalidInputError("invalid workbook source", problems)
    top = {k.value: v for k, v in node.value if isinstance(k, yaml.ScalarNode)}
    for key_node, _v in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.value != "sheets":
            at(key_node, str(getattr(key_node, "value", "?")), "unknown field", "only `sheets` is allowed")
    seq = top.get("sheets")
    if not isinstance(seq, yaml.SequenceNode) or not seq.value:
        at(seq or node, "sheets", "must be a non-empty list of sheets", "add `- name: ...` entries")
        raise InvalidInputError("invalid workbook source", problems)
    names: set[str] = set()
    cells_seen = 0
    for s, sheet_node in enumerate(seq.value):
        fld = f"sheets[{s}]"
        if not isinstance(sheet_node, yaml.MappingNode):
            at(sheet_node, fld, "must be a mapping", "write `name:` and `rows:`")
            continue
        fields = {k.value: v for k, v in sheet_node.value if isinstance(k, yaml.ScalarNode)}
        for key in fields:
            if key not in ("name", "rows", "header"):
                at(fields[key], f"{fld}.{key}", "unknown field", "use name, rows, header")
        name_node = fields.get("name")
        name = name_node.value if isinstance(name_node, yaml.ScalarNode) else None
        if not name or len(name) > 31 or _SHEET_BAD.search(name) or name.casefold() in names:
            at(name_node or sheet_node, f"{fld}.name",
               "sheet name must be 1-31 characters, unique, without [ ] : * ? / \\", "rename the sheet")
            name = name or f"Sheet{s + 1}"
        names.add(name.casefold())
        header = True
        if "header" in fields:
            value = constructor.construct_object(fields["header"])
            if not isinstance(value, bool):
                at(fields["header"], f"{fld}.header", "must be true or false", "write true or false")
            else:
                header = value
        rows_node = fields.get("rows")
        rows: list[list[Any]] = []
        if not isinstance(rows_node, yaml.SequenceNode):
            at(rows_node or sheet_node, f"{fld}.rows", "must be a list of rows", "write `rows:` with `- [a, b]` rows")
        else:
            for r, row_node in enumerate(rows_node.value):
                if not isinstance(row_node, yaml.SequenceNode):
                    at(row_node, f"{fld}.rows[{r}]", "a row must be a list of cells", "write `- [a, b, c]`")
                    continue
                row: list[Any] = []
                cells_seen += len(row_node.value)
                if cells_seen > MAX_SOURCE_CELLS:
                    at(row_node, f"{fld}.rows[{r}]", f"more than {MAX_SOURCE_CELLS:,} cells", "split the workbook")
                    raise InvalidInputError("invalid workbook source", problems)
                for c, cell_node in enumerate(row_node.value):
                    if not isinstance(cell_node, yaml.ScalarNode):
                        at(cell_node, f"{fld}.rows[{r}][{c}]", "a cell must be a single value", "quote it")
                        row.append(None)
                        continue
                    row.append(constructor.construct_object(cell_node))
                rows.append(row)
        sheets.append({"name": name, "rows": rows, "header": header})
    if problems:
        raise InvalidInputError("invalid workbook source", problems)
    return sheets


def xlsx_bytes(
    text: str,
    *,
    title: str | None = None,
    timestamp: _dt.datetime = DEFAULT_TIMESTAMP,
    where: str = "<source>",
) -> bytes:
    """Render a workbook source (YAML) to .xlsx bytes (deterministic).

    Strings are always stored as text, never as formulas (a cell ``=SUM(..)`` is
    shown literally), so every value a reader sees is in the file.
    """
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter
    from openpyxl.writer.excel import ExcelWriter

    sheets = _parse_workbook_source(text, where)
    workbook = Workbook()
    workbook.remove(workbook.active)
    for spec in sheets:
        sheet = workbook.create_sheet(spec["name"])
        widths: dict[int, int] = {}
        for r, row in enumerate(spec["rows"], start=1):
            for c, value in enumerate(row, start=1):
                if value is None:
                    continue
                try:
                    cell = sheet.cell(row=r, column=c, value=value)
                except Exception as exc:  # openpyxl: IllegalCharacterError and friends
                    raise InvalidInputError("cell cannot be written", [
                        Problem(where, f"sheet {spec['name']!r} row {r} column {c}: {exc}",
                                mend="remove control characters from the value")]) from None
                if isinstance(value, str):
                    cell.data_type = "s"  # never a formula
                if isinstance(value, _dt.datetime):
                    cell.number_format = "yyyy-mm-dd hh:mm"
                elif isinstance(value, _dt.date):
                    cell.number_format = "yyyy-mm-dd"
                if spec["header"] and r == 1:
                    cell.font = Font(bold=True)
                shown = len(str(value))
                widths[c] = max(widths.get(c, 0), shown)
        for c, width in sorted(widths.items()):
            sheet.column_dimensions[get_column_letter(c)].width = float(min(60, max(8, width + 2)))
        if spec["header"] and spec["rows"]:
            sheet.freeze_panes = "A2"
    props = workbook.properties
    stamp = timestamp.astimezone(_dt.timezone.utc).replace(tzinfo=None)
    props.creator = ""
    props.lastModifiedBy = ""
    props.title = title or None
    props.created = stamp
    props.modified = stamp
    raw = io.BytesIO()
    # ExcelWriter directly: openpyxl's save_workbook() stamps "modified" with the clock.
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_STORED, allowZip64=True) as archive:
        ExcelWriter(workbook, archive).save()
    return normalize_zip(raw.getvalue())


# -- eml ----------------------------------------------------------------------------
_EML_POLICY = email.policy.default.clone(linesep="\n", max_line_length=998)
_HEADER_LINE = re.compile(r"^([A-Za-z][A-Za-z0-9-]*):[ \t]?(.*)$")


def eml_bytes(text: str, *, where: str = "<source>") -> bytes:
    """Render ``Header: value`` lines, a blank line and a body to an RFC 5322 message.

    From, To, Date and Subject are required; Cc and others are kept in source
    order. A Message-ID derived from the source's SHA-256 is added when absent.
    Lines end in LF; bodies are UTF-8 (8bit when lines fit in 998 characters).
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    head, sep, body = text.partition("\n\n")
    if not sep:
        raise InvalidInputError("email source has no body", [
            Problem(where, "no blank line between headers and body", 1, mend="put one blank line after the headers")])
    headers: list[tuple[str, str, int]] = []
    for n, line in enumerate(head.split("\n"), start=1):
        if line[:1] in (" ", "\t") and headers:
            name, value, at = headers[-1]
            headers[-1] = (name, value + " " + line.strip(), at)
            continue
        m = _HEADER_LINE.match(line)
        if not m:
            raise InvalidInputError("bad email header", [
                Problem(where, f"not a header line: {line[:60]!r}", n, mend="write `Name: value`")])
        headers.append((m.group(1), m.group(2).strip(), n))
    present = {name.casefold(): (value, n) for name, value, n in headers}
    problems = [
        Problem(where, f"missing {name} header", 1, mend=f"add `{name}: ...`")
        for name in ("From", "To", "Date", "Subject") if name.casefold() not in present
    ]
    if "date" in present:
        value, n = present["date"]
        try:
            email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            problems.append(Problem(where, f"Date {value!r} is not an RFC 5322 date", n,
                                    mend="write e.g. `Thu, 05 Jun 2025 18:42:00 -0400`"))
    if problems:
        raise InvalidInputError("invalid email source", problems)
    message = EmailMessage(policy=_EML_POLICY)
    for name, value, n in headers:
        if name.casefold() in ("mime-version", "content-type", "content-transfer-encoding"):
            continue
        try:
            message[name] = value
        except (ValueError, TypeError, IndexError) as exc:
            raise InvalidInputError("bad email header", [
                Problem(where, f"{name}: {exc}", n, mend="fix the header value")]) from None
    if "message-id" not in present:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]
        message["Message-ID"] = f"<{digest}@legal-agent-eval.invalid>"
    message.set_content(body.rstrip("\n") + "\n")
    try:
        return message.as_bytes(policy=_EML_POLICY)
    except (ValueError, TypeError, IndexError, UnicodeError) as exc:
        raise InvalidInputError("email cannot be serialized", [
            Problem(where, str(exc), 1, mend="check the header values")]) from None


def txt_bytes(text: str) -> bytes:
    """UTF-8 with LF line ends and exactly one final newline."""
    body = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff").rstrip("\n")
    return (body + "\n").encode("utf-8")


# -- sources -> outputs ----------------------------------------------------------------
def output_name(source: Path) -> tuple[str, str] | None:
    """``(output file name, format)`` for a source file name, or ``None`` if unknown."""
    lower = source.name.lower()
    for suffix, fmt in SOURCE_SUFFIXES.items():
        if lower.endswith(suffix) and len(source.name) > len(suffix):
            return source.name[: -len(suffix) + suffix.index(".", 1)], fmt
    return None


def _read_source(path: Path, where: str) -> str:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InvalidInputError("unreadable source", [Problem(where, f"cannot read: {exc.strerror}")]) from None
    if len(raw) > MAX_SOURCE_BYTES:
        raise InvalidInputError("source too large", [Problem(where, f"over {MAX_SOURCE_BYTES} bytes",
                                                             mend="split the document")])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise InvalidInputError("source is not UTF-8", [Problem(where, "not valid UTF-8", line,
                                                                mend="save the file as UTF-8")]) from None


def render_source(path: Path, *, timestamp: _dt.datetime = DEFAULT_TIMESTAMP, where: str | None = None) -> tuple[str, bytes]:
    """Render one source file; return ``(output name, bytes)``."""
    where = where or path.as_posix()
    named = output_name(path)
    if named is None:
        raise InvalidInputError("unknown source kind", [Problem(
            where, "source name must end in one of " + ", ".join(SOURCE_SUFFIXES),
            mend="rename it, e.g. 03-minutes.docx.md")])
    name, fmt = named
    text = _read_source(path, where)
    if fmt == "docx":
        return name, docx_bytes(text, timestamp=timestamp)
    if fmt == "pdf":
        return name, pdf_bytes(text, timestamp=timestamp, where=where)
    if fmt == "xlsx":
        return name, xlsx_bytes(text, timestamp=timestamp, where=where)
    if fmt == "eml":
        return name, eml_bytes(text, where=where)
    return name, txt_bytes(text)


def task_json_bytes(key: Any) -> bytes:
    """The agent-visible ``task.json`` of a key: PUBLIC fields only.

    Key order: task_id, scenario_slug (when set), title, work_type, instructions,
    deliverables, criteria. Explanations, summaries, calibration, notes,
    proxies, terms, matter date and drafting attorney are never copied.
    """
    deliverables: dict[str, str] = {key.deliverable: key.deliverable}
    criteria = []
    for criterion in key.rubric:
        names = list(criterion.deliverables) or [key.deliverable]
        for name in names:
            deliverables.setdefault(name, name)
        criteria.append({
            "id": criterion.id,
            "title": criterion.title,
            "match_criteria": criterion.match_criteria,
            "deliverables": names,
        })
    obj: dict[str, Any] = {"task_id": key.task_id}
    if key.scenario_slug:
        obj["scenario_slug"] = key.scenario_slug
    obj.update({
        "title": key.title,
        "work_type": key.work_type,
        "instructions": key.instructions,
        "deliverables": deliverables,
        "criteria": criteria,
    })
    return (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


# -- the tree -------------------------------------------------------------------------
@dataclass
class RenderReport:
    """What a render run did (or, with ``check``, would do)."""

    check: bool
    changed: list[str] = field(default_factory=list)  # written, or stale under --check
    unchanged: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "changed": sorted(self.changed),
            "unchanged": sorted(self.unchanged),
            "problems": [str(p) for p in sorted(self.problems, key=Problem.sort_key)],
        }

    def raise_for_problems(self) -> None:
        """Raise :class:`InvalidInputError` for problems, or for stale files under ``check``."""
        problems = list(self.problems)
        if self.check:
            problems += [Problem(path, "would change", mend="run `lae render` and commit the result")
                         for path in self.changed]
        if problems:
            what = f"{len(self.changed)} file(s) would change" if self.check and self.changed else "render problems"
            raise InvalidInputError(f"lae render: {what}", problems)


def _sync(project: Project, report: RenderReport, target: Path, data: bytes) -> None:
    rel = project.relative(target)
    try:
        same = target.is_file() and target.read_bytes() == data
    except OSError:
        same = False
    if same:
        report.unchanged.append(rel)
        return
    report.changed.append(rel)
    if not report.check:
        atomic_write(target, data)


def _visible(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if not p.name.startswith("."))


def _sources_root(project: Project) -> Path:
    return project.root / "sources"


def _matter_timestamp(key: Any) -> _dt.datetime:
    date = getattr(key, "matter_date", None)
    if isinstance(date, _dt.date):
        return _dt.datetime(date.year, date.month, date.day, tzinfo=_dt.timezone.utc)
    return DEFAULT_TIMESTAMP


def _render_task(project: Project, pocket: str, task_id: str, report: RenderReport) -> None:
    from lae.compiler.load import load_key  # the project's key loader (validation + locations)

    src_dir = _sources_root(project) / pocket / task_id
    task_dir = project.task_dir(pocket, task_id)
    docs_dir = task_dir / "documents"
    key_path = project.key_path(pocket, task_id)

    key = None
    key_broken = False
    if not key_path.is_file():
        report.problems.append(Problem(project.relative(key_path), "no answer key for this task",
                                       mend="write the key; task.json is generated from its public fields"))
    else:
        try:
            # Without project=: the key alone decides; task.json is what we are about to write.
            key = load_key(key_path)
        except LaeError as exc:
            key_broken = True
            shown = project.relative(key_path)
            report.problems.extend(
                [dataclasses.replace(p, path=shown) if p.path == key_path.as_posix() else p for p in exc.problems]
                or [Problem(shown, str(exc))])
    if key is not None and (key.task_id != task_id or key.pocket != pocket):
        report.problems.append(Problem(project.relative(key_path),
                                       f"key says {key.pocket}/{key.task_id}, folder is {pocket}/{task_id}",
                                       field="task_id", mend="make the key's pocket and task_id match its path"))
        key = None
        key_broken = True
    if key_broken:
        # The documents' timestamp is the key's matter date: without a valid key we
        # cannot know it, so nothing of this task is written (or checked) until it loads.
        return
    timestamp = _matter_timestamp(key)

    expected: set[str] = set()
    if src_dir.is_dir():
        for source in _visible(src_dir):
            where = project.relative(source)
            if not source.is_file():
                report.problems.append(Problem(where, "not a source file", mend="sources are files, not folders"))
                continue
            named = output_name(source)
            if named is None:
                report.problems.append(Problem(where, "unknown source kind (name must end in "
                                               + ", ".join(SOURCE_SUFFIXES) + ")", mend="rename it"))
                continue
            if named[0] in expected:
                report.problems.append(Problem(where, f"a second source for {named[0]}", mend="keep one source"))
                continue
            expected.add(named[0])
            try:
                name, data = render_source(source, timestamp=timestamp, where=where)
            except LaeError as exc:
                report.problems.extend(exc.problems or [Problem(where, str(exc))])
                continue
            _sync(project, report, docs_dir / name, data)
    if docs_dir.is_dir():
        for doc in _visible(docs_dir):
            if doc.name not in expected:
                report.problems.append(Problem(
                    project.relative(doc), "document has no source (nothing is removed silently)",
                    mend=f"add its source under {project.relative(src_dir)}/ or delete the file"))
    if key is not None:
        _sync(project, report, task_dir / "task.json", task_json_bytes(key))


def render_project(
    project: Project,
    *,
    pocket: str | None = None,
    task: str | None = None,
    check: bool = False,
) -> RenderReport:
    """Render ``sources/<pocket>/<task>/*`` into ``tasks/<pocket>/<task>/documents/``
    and write each ``task.json`` from the key's public fields.

    Only files whose bytes change are written (atomically); nothing is deleted: a
    document without a source, or a task folder without sources, is a problem.
    With ``check`` nothing is written and ``changed`` lists the stale files.
    """
    report = RenderReport(check=check)
    root = _sources_root(project)
    if pocket is not None:
        if not (root / pocket).is_dir():
            raise InvalidInputError("unknown pocket", [Problem(project.relative(root / pocket), "no sources for this pocket",
                                                               field="--pocket", mend="check the pocket name")])
        pockets = [pocket]
    else:
        pockets = sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))) \
            if root.is_dir() else []
    if not pockets:
        raise InvalidInputError("nothing to render", [Problem(project.relative(root), "no pocket folders with sources",
                                                              mend="write sources/<pocket>/<task-id>/<doc>.<fmt>.<src>")])
    selected = 0
    for name in pockets:
        task_ids = {p.name for p in (root / name).iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}
        tasks_dir = project.tasks_dir(name)
        if tasks_dir.is_dir():
            for folder in tasks_dir.iterdir():
                if folder.is_dir() and not folder.name.startswith((".", "_")) and folder.name not in task_ids:
                    if task is None or folder.name == task:
                        report.problems.append(Problem(project.relative(folder), "task folder has no sources",
                                                       mend=f"add sources/{name}/{folder.name}/ or remove the folder"))
        for task_id in sorted(task_ids):
            if task is not None and task_id != task:
                continue
            selected += 1
            _render_task(project, name, task_id, report)
    if task is not None and selected == 0:
        raise InvalidInputError("unknown task", [Problem(project.relative(root), f"no sources for task {task!r}",
                                                         field="--task", mend="check the task id (see `lae tasks`)")])
    return report


def _memo_root(project: Project) -> Path:
    return project.root / "tests" / "fixtures" / "memos"


def render_memos(project: Project, *, check: bool = False, paths: Iterable[Path] | None = None) -> RenderReport:
    """Render every ``tests/fixtures/memos/**/*.md`` to a ``.docx`` beside it."""
    report = RenderReport(check=check)
    base = _memo_root(project)
    sources = sorted(paths) if paths is not None else (sorted(base.rglob("*.md")) if base.is_dir() else [])
    for source in sources:
        if source.name.startswith("."):
            continue
        where = project.relative(source)
        try:
            text = _read_source(source, where)
            data = docx_bytes(text)
        except LaeError as exc:
            report.problems.extend(exc.problems or [Problem(where, str(exc))])
            continue
        _sync(project, report, source.with_suffix(".docx"), data)
    return report


def _declared_docx(project: Project, pocket: str, task_id: str, report: RenderReport) -> str | None:
    try:
        info = find_task(project, task_id, pocket)
    except LaeError as exc:
        report.problems.extend(exc.problems)
        return None
    docx_names = [d for d in info.deliverables if d.endswith(".docx")]
    if len(docx_names) != 1:
        report.problems.append(Problem(project.relative(info.path / "task.json"),
                                       f"validation memos need one declared .docx deliverable, found {len(docx_names)}",
                                       field="deliverables", mend="declare one .docx deliverable in the key"))
        return None
    return docx_names[0]


_MEMO_ID = re.compile(r"^[A-Z][A-Za-z0-9-]*$")


def render_validation(project: Project, *, pocket: str | None = None, task: str | None = None,
                      check: bool = False) -> RenderReport:
    """Render every ``keys_private/<pocket>/validation/<task-id>/<memo-id>.md`` (of one
    task when ``task`` is given) to ``<memo-id>/<declared deliverable>.docx`` beside it
    (Word headings, list paragraphs, tables, bold runs); byte-reproducible, only changed
    files written."""
    report = RenderReport(check=check)
    for name in [pocket] if pocket else project.pockets():
        base = project.validation_dir(name)
        for folder in _visible(base) if base.is_dir() else []:
            if task and folder.name != task:
                continue
            sources = [p for p in _visible(folder) if p.suffix == ".md" and p.is_file()] if folder.is_dir() else []
            declared = _declared_docx(project, name, folder.name, report) if sources else None
            for source in sources if declared else []:
                where = project.relative(source)
                if not _MEMO_ID.match(source.stem):
                    report.problems.append(Problem(where, "memo id must match [A-Z][A-Za-z0-9-]*", mend="rename it"))
                    continue
                try:
                    data = docx_bytes(_read_source(source, where), list_paragraphs=True)
                except LaeError as exc:
                    report.problems.extend(exc.problems or [Problem(where, str(exc))])
                    continue
                _sync(project, report, folder / source.stem / declared, data)
    if task and not (report.changed or report.unchanged or report.problems):
        report.problems.append(Problem(f"keys_private/{pocket or '*'}/validation/{task}", "no validation memo of this task",
                                       field="--task", mend="name a task that has a validation folder"))
    return report
