"""Matter documents of every format, written by the real libraries, read back by read_document."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

import pytest

from lae.errors import DocumentError
from lae.grader.documents import DocumentText, html_to_text, read_document


def _docx(path: Path) -> None:
    import docx

    document = docx.Document()
    document.sections[0].header.paragraphs[0].text = "CONFIDENTIAL — Board Materials"
    document.sections[0].footer.paragraphs[0].text = "Page footer text"
    document.add_heading("Minutes of the Board", level=1)
    document.add_paragraph("The Board met on March 4, 2025.")
    table = document.add_table(rows=2, cols=3)
    for r, row in enumerate([["Director", "Present", "Vote"], ["A. Reyes", "Yes", "For"]]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    document.add_paragraph("Resolved, that the merger be approved.")
    hidden = document.add_paragraph().add_run("hidden instruction text")
    hidden.font.hidden = True
    document.save(path)


def test_docx_body_tables_headers_footers_in_order(tmp_path: Path) -> None:
    path = tmp_path / "03-minutes.docx"
    _docx(path)
    doc = read_document(path)
    assert doc == DocumentText(name="03-minutes.docx", format="docx", text=doc.text, pages=(doc.text,),
                               size_bytes=path.stat().st_size)
    assert doc.text.split("\n\n") == [
        "CONFIDENTIAL — Board Materials",
        "Minutes of the Board",
        "The Board met on March 4, 2025.",
        "Director | Present | Vote\nA. Reyes | Yes | For",
        "Resolved, that the merger be approved.",
        "Page footer text",
    ]
    assert "hidden instruction" not in doc.text


def test_pdf_has_real_pages(tmp_path: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_creation_date(dt.datetime(2025, 1, 1, tzinfo=dt.timezone.utc))
    pdf.set_font("Helvetica", size=12)
    for text in ("First page: the demand letter.", "Second page: Section 220 inspection."):
        pdf.add_page()
        pdf.cell(0, 10, text)
    path = tmp_path / "02-letter.pdf"
    pdf.output(str(path))
    doc = read_document(path)
    assert doc.format == "pdf" and len(doc.pages) == 2
    assert "demand letter" in doc.pages[0] and "Section 220" in doc.pages[1]
    assert doc.text == "\n\n".join(doc.pages)


def test_xlsx_sheets_and_rows(tmp_path: Path) -> None:
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Cap Table"
    sheet.append(["Holder", "Shares", "Pct", "Since"])
    sheet.append(["Halvorsen", 31200000, 0.312, dt.date(2021, 10, 12)])
    sheet.append([None, None])  # an empty row is skipped
    sheet["A5"] = "Total"
    sheet["C5"] = 1.0
    second = workbook.create_sheet("Notes")
    second["B2"] = "Consent required"
    path = tmp_path / "06-tracker.xlsx"
    workbook.save(path)
    assert read_document(path).text.splitlines() == [
        "## Sheet: Cap Table",
        "Holder | Shares | Pct | Since",
        "Halvorsen | 31200000 | 0.312 | 2021-10-12",
        "Total |  | 1",
        "",
        "## Sheet: Notes",
        " | Consent required",
    ]


def test_xlsx_with_lying_dimension_is_not_padded(tmp_path: Path) -> None:
    from openpyxl import Workbook

    workbook = Workbook()
    workbook.active["A1"] = "only cell"
    raw = io.BytesIO()
    workbook.save(raw)
    src = zipfile.ZipFile(io.BytesIO(raw.getvalue()))
    path = tmp_path / "lying.xlsx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b'<dimension ref="A1:A1"/>', b'<dimension ref="A1:XFD1048576"/>')
                assert b"XFD1048576" in data
            dst.writestr(info.filename, data)
    assert read_document(path).text == "## Sheet: Sheet\nonly cell"


def _email() -> EmailMessage:
    message = EmailMessage(policy=default_policy)
    message["From"] = "GC <gc@example.com>"
    message["To"] = "Board <board@example.com>"
    message["Cc"] = "Secretary <sec@example.com>"
    message["Date"] = "Mon, 02 Jun 2025 08:00:00 +0000"
    message["Subject"] = "Response plan"
    message.set_content("Plain body: we respond by June 9.\n")
    message.add_alternative("<html><body><p>HTML body</p></body></html>", subtype="html")
    message.add_attachment(b"%PDF-1.4", maintype="application", subtype="pdf", filename="demand.pdf")
    return message


def test_eml_headers_plain_body_and_attachment_names(tmp_path: Path) -> None:
    path = tmp_path / "06-email.eml"
    path.write_bytes(_email().as_bytes())
    assert read_document(path).text == (
        "From: GC <gc@example.com>\nTo: Board <board@example.com>\nCc: Secretary <sec@example.com>\n"
        "Date: Mon, 02 Jun 2025 08:00:00 +0000\nSubject: Response plan\n\n"
        "Plain body: we respond by June 9.\n\nAttachments: demand.pdf"
    )


def test_eml_html_only_body_is_tag_stripped(tmp_path: Path) -> None:
    message = EmailMessage(policy=default_policy)
    message["From"] = "a@example.com"
    message["Subject"] = "HTML"
    message.set_content("<html><head><style>p{}</style></head><body><p>First &amp; second</p>"
                        "<script>evil()</script><div>Third</div></body></html>", subtype="html")
    path = tmp_path / "m.eml"
    path.write_bytes(message.as_bytes())
    text = read_document(path).text
    assert text.endswith("First & second\n\nThird") and "evil" not in text and "p{}" not in text


def test_html_to_text_blocks() -> None:
    assert html_to_text("<p>a <b>b</b></p><table><tr><td>x</td><td>y</td></tr></table>") == "a b\n\nx y"


def test_txt_utf8_and_line_ends(tmp_path: Path) -> None:
    path = tmp_path / "chat.txt"
    path.write_bytes("\ufeff[09:00] Zoë: ok\r\n[09:01] Li: §4.2\r\n".encode())
    assert read_document(path).text == "[09:00] Zoë: ok\n[09:01] Li: §4.2\n"


def test_txt_invalid_utf8_is_a_clear_document_error(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("line one\ncaf\xe9\n".encode("latin-1"))
    with pytest.raises(DocumentError) as err:
        read_document(path)
    assert "not valid UTF-8 (byte 12, line 2)" in err.value.report()


@pytest.mark.parametrize(
    "name, data, reason",
    [
        ("memo.docx", b"# just markdown\n", "not a zip archive"),
        ("memo.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504), "OLE2/CFB"),
        ("sheet.xlsx", b"", "is empty"),
        ("file.pdf", b"not a pdf at all", "not a PDF"),
    ],
    ids=["text-as-docx", "ole2-as-docx", "empty-xlsx", "junk-pdf"],
)
def test_wrong_content_for_the_extension_is_refused(tmp_path: Path, name: str, data: bytes, reason: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(DocumentError) as err:
        read_document(path)
    assert reason in err.value.report()


def test_docx_given_an_xlsx_names_what_it_is(tmp_path: Path) -> None:
    from openpyxl import Workbook

    path = tmp_path / "actually-a-workbook.docx"
    Workbook().save(path)
    with pytest.raises(DocumentError, match="cannot read") as err:
        read_document(path)
    assert "is an Excel workbook (.xlsx), not a Word document (.docx)" in err.value.report()


def test_unsupported_extension(tmp_path: Path) -> None:
    path = tmp_path / "deck.pptx"
    path.write_bytes(b"PK\x03\x04")
    with pytest.raises(DocumentError) as err:
        read_document(path)
    assert "supported: .docx, .pdf, .xlsx, .eml, .txt" in err.value.report()


def test_oversize_file_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.txt"
    with open(path, "wb") as handle:
        handle.truncate(26 * 1024 * 1024)  # sparse: costs no disk
    with pytest.raises(DocumentError) as err:
        read_document(path)
    assert "over the 25.0 MiB limit" in err.value.report()


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="cannot read"):
        read_document(tmp_path / "nope.pdf")


def test_encrypted_pdf_without_empty_password_is_refused(tmp_path: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_encryption(owner_password="owner", user_password="secret")  # RC4: no extra dependency
    pdf.add_page()
    pdf.set_font("Helvetica", size=12)
    pdf.cell(0, 10, "Secret")
    path = tmp_path / "locked.pdf"
    pdf.output(str(path))
    with pytest.raises(DocumentError) as err:
        read_document(path)
    assert "password-protected" in err.value.report()
