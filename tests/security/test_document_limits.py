"""Attacks through matter documents and deliverables: header bombs in emails, DOCTYPEs in any encoding.

Each test is named after the attack. The email cases run in a subprocess capped at 2 GiB of
address space and 60 s, since the unguarded parser took 5 GB for 425 KB of encoded words.
"""

from __future__ import annotations

import io
import resource
import subprocess
import sys
import zipfile
from pathlib import Path

import docx

from lae.grader.deliverables import read_deliverable

READ = ("import sys\nfrom pathlib import Path\nfrom lae.errors import DocumentError\n"
        "from lae.grader.documents import read_document\n"
        "try:\n    read_document(Path(sys.argv[1]))\n    print('READ')\n"
        "except DocumentError as exc:\n    print('REFUSED', exc.report())\n")


def _cap() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def read_capped(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", READ, str(path)], capture_output=True, text=True, timeout=60,
                          preexec_fn=_cap)


def test_eml_subject_of_many_encoded_words_is_refused_before_parsing(tmp_path: Path) -> None:
    subject = " ".join(["=?utf-8?q?caf=C3=A9?="] * 80_000)  # about 1.7 MB
    path = tmp_path / "bomb.eml"
    path.write_bytes(f"From: a@example.com\nSubject: {subject}\n\nbody\n".encode())
    proc = read_capped(path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("REFUSED") and "Subject" in proc.stdout, proc.stdout


def test_eml_megabyte_plain_header_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "long.eml"
    path.write_bytes(("From: a@example.com\nTo: " + ", ".join(f"u{i}@example.com" for i in range(60_000))
                      + "\nSubject: hi\n\nbody\n").encode())
    proc = read_capped(path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("REFUSED") and "'To' header" in proc.stdout, proc.stdout


def test_eml_mime_part_header_bomb_is_refused(tmp_path: Path) -> None:
    bomb = " ".join(["=?utf-8?b?Y2Fmw6k=?="] * 600)
    path = tmp_path / "part.eml"
    path.write_bytes((
        "From: a@example.com\nSubject: ok\nMIME-Version: 1.0\n"
        'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\nhello\n'
        f"--b\nContent-Type: application/pdf\nContent-Disposition: attachment; filename=\"{bomb}\"\n\nx\n--b--\n"
    ).encode())
    proc = read_capped(path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith("REFUSED") and "encoded words" in proc.stdout, proc.stdout


def test_ordinary_email_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "ok.eml"
    path.write_bytes(b"From: a@example.com\nTo: b@example.com\nSubject: =?utf-8?q?caf=C3=A9?= notes\n\nbody\n")
    assert read_capped(path).stdout.startswith("READ")


def _docx_with_document_xml(xml: bytes) -> bytes:
    base = io.BytesIO()
    document = docx.Document()
    document.add_paragraph("The renewal deadline is June 30, 2025.")
    document.save(base)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(base.getvalue())) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            dst.writestr(item, xml if item.filename == "word/document.xml" else src.read(item.filename))
    return out.getvalue()


DOCTYPE_XML = ('<?xml version="1.0" encoding="{enc}"?>\n<!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">]>\n'
               '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
               '<w:body><w:p><w:r><w:t>&a;</w:t></w:r></w:p></w:body></w:document>')


def test_doctype_in_utf32_document_xml_is_refused(tmp_path: Path) -> None:
    for codec, declared in (("utf-32-le", "UTF-32"), ("utf-32-be", "UTF-32BE")):
        data = _docx_with_document_xml(DOCTYPE_XML.format(enc=declared).encode(codec))
        path = tmp_path / f"memo-{codec}.docx"
        path.write_bytes(data)
        result = read_deliverable(path, "memo.docx")
        assert not result.ok and "DOCTYPE" in result.reason, (codec, result.reason)


def test_doctype_in_utf7_document_xml_is_refused(tmp_path: Path) -> None:
    head = b'<?xml version="1.0" encoding="UTF-7"?>\n'
    body = DOCTYPE_XML.split("\n", 1)[1].encode("utf-7")
    path = tmp_path / "memo.docx"
    path.write_bytes(_docx_with_document_xml(head + body))
    result = read_deliverable(path, "memo.docx")
    assert not result.ok and "DOCTYPE" in result.reason, result.reason
