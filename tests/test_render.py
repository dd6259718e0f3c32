"""The renderer: sources -> documents, byte-for-byte reproducible, read back as the source text."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from lae.errors import InvalidInputError, LaeError
from lae.grader.documents import read_document
from lae.project import Project
from lae.render import (
    DEFAULT_TIMESTAMP,
    Heading,
    ListItem,
    PageBreak,
    Paragraph,
    Table,
    docx_bytes,
    eml_bytes,
    inline_runs,
    markdown_to_docx,
    output_name,
    parse_markdown,
    pdf_bytes,
    plain_text,
    render_memos,
    render_project,
    task_json_bytes,
    txt_bytes,
    xlsx_bytes,
)

REPO = Path(__file__).resolve().parents[1]
FIXTURE_TREE = REPO / "tests" / "fixtures" / "tree"

MARKDOWN = """# Harbor Street Lease — Extract

Prepared for the **Facilities Committee** on *March 4, 2025*. The tenant’s “renewal option”
continues on this line.

## Section 9 Renewal

**Section 9.1 Renewal Option.** Tenant may renew by written notice no later than June 30, 2025 … § 9.1 ¶ 2.

- First bullet with **bold** words
- Second bullet, long enough to wrap across more than one line of the page so the reader has to join wrapped lines again

1. First numbered item
2. Second numbered item

| Item | Amount | Due |
|---|---|---|
| Base rent | $58,000 | monthly |
| Deposit | $116,000 | at signing |

\\pagebreak

### Signatures

Landlord: Harbor Street Holdings LLC
"""

WORKBOOK = """sheets:
- name: Rent Roll
  rows:
  - [Unit, Tenant, Rent, Start, Active]
  - [101, Acme Corp, 58000.5, 2025-03-10, true]
  - [102, "=SUM(A1:A2)", 1200, 2024-01-01, false]
- name: Notes
  header: false
  rows:
  - [Plain note without a header row]
"""

EMAIL = """From: Priya Nandakumar <priya@harbor-ops.example>
To: Legal Team <legal@harbor-ops.example>
Cc: José Álvarez <jose@harbor-ops.example>
Date: Tue, 04 Mar 2025 09:12:00 -0500
Subject: Lease renewal — the parking addendum

Hi all,

We still have not sent the renewal notice for Harbor Street. Facilities thinks the deadline is in the autumn, but I have not checked the lease, and this line is deliberately longer than seventy-eight characters.

Priya
"""


def norm(text: str) -> str:
    return " ".join(text.split())


def expected_fragments(markdown: str) -> list[str]:
    out = []
    for block in parse_markdown(markdown):
        if isinstance(block, Table):
            out.extend(plain_text(c) for row in block.rows for c in row if c)
        elif not isinstance(block, PageBreak):
            out.append(plain_text(block.text))
    return [norm(f) for f in out if f.strip()]


# -- the Markdown subset ------------------------------------------------------------------
def test_parse_markdown_recognises_every_block_kind() -> None:
    blocks = parse_markdown(MARKDOWN)
    kinds = [type(b).__name__ for b in blocks]
    assert kinds == ["Heading", "Paragraph", "Heading", "Paragraph", "ListItem", "ListItem", "ListItem", "ListItem",
                     "Table", "PageBreak", "Heading", "Paragraph"]
    assert blocks[0] == Heading(1, "Harbor Street Lease — Extract", 1)
    assert isinstance(blocks[1], Paragraph) and blocks[1].text.endswith("continues on this line.")
    assert isinstance(blocks[6], ListItem) and blocks[6].marker == "1." and blocks[6].kind == "number"
    table = blocks[8]
    assert isinstance(table, Table) and table.rows[0] == ("Item", "Amount", "Due") and len(table.rows) == 3


def test_table_without_separator_line_keeps_first_row_as_header() -> None:
    (table,) = parse_markdown("| a | b |\n| 1 | 2 |\n")
    assert isinstance(table, Table) and table.rows == (("a", "b"), ("1", "2"))


def test_inline_runs_bold_italic_and_literal_asterisks() -> None:
    assert inline_runs("a **b** *c* d") == [("a ", False, False), ("b", True, False), (" ", False, False),
                                            ("c", False, True), (" d", False, False)]
    assert plain_text("2 * 3 = 6 and \\*literal\\*") == "2 * 3 = 6 and *literal*"


def test_hard_line_break_in_paragraph() -> None:
    (para,) = parse_markdown("Harbor Street Holdings LLC  \nBy: Landlord\n")
    assert isinstance(para, Paragraph) and para.text == "Harbor Street Holdings LLC\nBy: Landlord"


def test_output_name_strips_the_source_suffix() -> None:
    assert output_name(Path("03-minutes.docx.md")) == ("03-minutes.docx", "docx")
    assert output_name(Path("a.xlsx.yaml")) == ("a.xlsx", "xlsx")
    assert output_name(Path("chat.txt.txt")) == ("chat.txt", "txt")
    assert output_name(Path("notes.md")) is None


# -- round trips through the real readers ---------------------------------------------------
@pytest.mark.parametrize("fmt", ["docx", "pdf"])
def test_markdown_round_trip_contains_the_source_text(tmp_path: Path, fmt: str) -> None:
    data = docx_bytes(MARKDOWN) if fmt == "docx" else pdf_bytes(MARKDOWN)
    path = tmp_path / f"doc.{fmt}"
    path.write_bytes(data)
    doc = read_document(path)
    text = norm(doc.text)
    for fragment in expected_fragments(MARKDOWN):
        assert fragment in text, fragment
    if fmt == "pdf":
        assert len(doc.pages) == 2 and "Signatures" in doc.pages[1] and "Signatures" not in doc.pages[0]
    assert "**" not in doc.text


def test_pdf_refuses_a_character_the_core_fonts_lack() -> None:
    with pytest.raises(InvalidInputError) as err:
        pdf_bytes("# Title\n\nDirector 张伟 signed.\n", where="src.pdf.md")
    assert err.value.problems[0].line == 3 and "U+5F20" in err.value.problems[0].message


def test_xlsx_round_trip_rows_per_sheet(tmp_path: Path) -> None:
    path = tmp_path / "roll.xlsx"
    path.write_bytes(xlsx_bytes(WORKBOOK))
    text = read_document(path).text
    assert text.splitlines() == [
        "## Sheet: Rent Roll",
        "Unit | Tenant | Rent | Start | Active",
        "101 | Acme Corp | 58000.5 | 2025-03-10 | TRUE",
        "102 | =SUM(A1:A2) | 1200 | 2024-01-01 | FALSE",
        "",
        "## Sheet: Notes",
        "Plain note without a header row",
    ]


def test_xlsx_source_problems_are_located() -> None:
    with pytest.raises(InvalidInputError) as err:
        xlsx_bytes("sheets:\n- name: 'Bad/Name'\n  rows: [[1]]\n  colour: red\n", where="w.xlsx.yaml")
    found = {(p.line, p.field) for p in err.value.problems}
    assert (2, "sheets[0].name") in found and (4, "sheets[0].colour") in found


def test_eml_round_trip_headers_body_and_message_id(tmp_path: Path) -> None:
    data = eml_bytes(EMAIL)
    assert b"\r\n" not in data
    assert re.search(rb"^Message-ID: <[0-9a-f]{32}@legal-agent-eval\.invalid>$", data, re.M)
    path = tmp_path / "mail.eml"
    path.write_bytes(data)
    text = read_document(path).text
    assert text.startswith("From: Priya Nandakumar <priya@harbor-ops.example>\n")
    assert "Cc: José Álvarez <jose@harbor-ops.example>" in text
    assert "Subject: Lease renewal — the parking addendum" in text
    assert "deliberately longer than seventy-eight characters." in text


def test_eml_source_without_required_headers_is_refused() -> None:
    with pytest.raises(InvalidInputError) as err:
        eml_bytes("From: a@example.com\nDate: someday\n\nbody\n", where="m.eml.txt")
    messages = " ".join(p.message for p in err.value.problems)
    assert "missing To" in messages and "missing Subject" in messages and "RFC 5322 date" in messages


def test_txt_is_utf8_with_lf_and_one_final_newline() -> None:
    assert txt_bytes("\ufeffa\r\nb\r\n\r\n\n") == b"a\nb\n"


# -- determinism ------------------------------------------------------------------------------
def _all_formats(timestamp: dt.datetime = DEFAULT_TIMESTAMP) -> dict[str, bytes]:
    return {
        "docx": docx_bytes(MARKDOWN, timestamp=timestamp),
        "pdf": pdf_bytes(MARKDOWN, timestamp=timestamp),
        "xlsx": xlsx_bytes(WORKBOOK, timestamp=timestamp),
        "eml": eml_bytes(EMAIL),
        "txt": txt_bytes(MARKDOWN),
    }


def test_render_twice_is_byte_identical() -> None:
    assert _all_formats() == _all_formats()


def test_office_zips_are_normalised() -> None:
    for data in (docx_bytes(MARKDOWN), xlsx_bytes(WORKBOOK)):
        with zipfile.ZipFile(__import__("io").BytesIO(data)) as z:
            infos = z.infolist()
            assert infos[0].filename == "[Content_Types].xml" and infos[1].filename == "_rels/.rels"
            assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in infos)
            assert all(i.compress_type == zipfile.ZIP_STORED for i in infos)
            names = [i.filename for i in infos[2:]]
            assert names == sorted(names)
            assert "docProps/thumbnail.jpeg" not in names


def test_timestamp_is_the_only_date_in_office_files() -> None:
    data = docx_bytes(MARKDOWN, timestamp=dt.datetime(2025, 3, 10, tzinfo=dt.timezone.utc))
    with zipfile.ZipFile(__import__("io").BytesIO(data)) as z:
        core = z.read("docProps/core.xml").decode()
    assert core.count("2025-03-10T00:00:00Z") == 2


_SUBPROCESS_RENDER = r"""
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
from tests.test_render import _all_formats
print(json.dumps({k: hashlib.sha256(v).hexdigest() for k, v in _all_formats().items()}))
"""


def test_bytes_do_not_depend_on_tz_locale_or_hash_seed() -> None:
    digests = []
    for env_extra in ({"TZ": "Pacific/Auckland", "PYTHONHASHSEED": "1", "LC_ALL": "C"},
                      {"TZ": "America/Los_Angeles", "PYTHONHASHSEED": "4242", "LANG": "C.UTF-8"}):
        env = {**os.environ, **env_extra}
        out = subprocess.run([sys.executable, "-c", _SUBPROCESS_RENDER, str(REPO)], env=env, cwd=REPO,
                             capture_output=True, text=True, timeout=120, check=True)
        digests.append(json.loads(out.stdout))
    assert digests[0] == digests[1]
    assert digests[0] == {k: hashlib.sha256(v).hexdigest() for k, v in _all_formats().items()}


def test_markdown_to_docx_accepts_paths_and_streams(tmp_path: Path) -> None:
    import io

    stream = io.BytesIO()
    markdown_to_docx("# Memo\n\nBody text.\n", stream, title="Risk memo")
    markdown_to_docx("# Memo\n\nBody text.\n", tmp_path / "m.docx", title="Risk memo")
    assert stream.getvalue() == (tmp_path / "m.docx").read_bytes()
    with zipfile.ZipFile(stream) as z:
        assert "<dc:title>Risk memo</dc:title>" in z.read("docProps/core.xml").decode()


# -- the project tree -------------------------------------------------------------------------
TASK = ("fixture", "harbor-lease-001")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the fixture tree with sources for its task (documents cleared)."""
    if not FIXTURE_TREE.is_dir():
        pytest.skip(f"fixture tree missing at {FIXTURE_TREE}")
    root = tmp_path / "tree"
    shutil.copytree(FIXTURE_TREE, root)
    docs = root / "tasks" / TASK[0] / TASK[1] / "documents"
    for p in docs.iterdir():
        p.unlink()
    (docs.parent / "task.json").unlink()  # regenerated from the key by every render
    src = root / "sources" / TASK[0] / TASK[1]
    src.mkdir(parents=True)
    (src / "01-lease-extract.docx.md").write_text(MARKDOWN, encoding="utf-8")
    (src / "02-email-ops.eml.txt").write_text(EMAIL, encoding="utf-8")
    (src / "03-rent-roll.xlsx.yaml").write_text(WORKBOOK, encoding="utf-8")
    (src / "04-schedule.pdf.md").write_text(MARKDOWN, encoding="utf-8")
    (src / "05-chat.txt.txt").write_text("[09:00] Priya: renewal?\n", encoding="utf-8")
    return root


def _snapshot(root: Path) -> dict[str, bytes]:
    base = root / "tasks"
    return {p.relative_to(base).as_posix(): p.read_bytes() for p in sorted(base.rglob("*")) if p.is_file()}


def test_render_project_writes_documents_and_task_json(tree: Path) -> None:
    report = render_project(Project.at(tree))
    assert report.problems == []
    task_dir = tree / "tasks" / TASK[0] / TASK[1]
    names = sorted(p.name for p in (task_dir / "documents").iterdir())
    assert names == ["01-lease-extract.docx", "02-email-ops.eml", "03-rent-roll.xlsx", "04-schedule.pdf",
                     "05-chat.txt"]
    assert len(report.changed) == 6  # five documents and task.json
    for name in names:
        assert read_document(task_dir / "documents" / name).text


def test_second_render_writes_nothing(tree: Path) -> None:
    project = Project.at(tree)
    render_project(project)
    before = {p: p.stat().st_mtime_ns for p in (tree / "tasks").rglob("*") if p.is_file()}
    snapshot = _snapshot(tree)
    report = render_project(project)
    assert report.changed == [] and len(report.unchanged) == 6
    assert _snapshot(tree) == snapshot
    assert {p: p.stat().st_mtime_ns for p in before} == before


def test_docx_core_dates_use_the_matter_date(tree: Path) -> None:
    render_project(Project.at(tree))
    path = tree / "tasks" / TASK[0] / TASK[1] / "documents" / "01-lease-extract.docx"
    with zipfile.ZipFile(path) as z:
        assert "2025-03-10T00:00:00Z" in z.read("docProps/core.xml").decode()


def test_check_detects_a_changed_source_and_writes_nothing(tree: Path) -> None:
    project = Project.at(tree)
    render_project(project)
    snapshot = _snapshot(tree)
    src = tree / "sources" / TASK[0] / TASK[1] / "05-chat.txt.txt"
    src.write_text("[09:00] Priya: renewal notice is due June 30!\n", encoding="utf-8")
    report = render_project(project, check=True)
    assert report.changed == [f"tasks/{TASK[0]}/{TASK[1]}/documents/05-chat.txt"]
    assert _snapshot(tree) == snapshot
    with pytest.raises(InvalidInputError) as err:
        report.raise_for_problems()
    assert "would change" in str(err.value.problems[0])


def test_document_without_source_is_an_error_and_is_kept(tree: Path) -> None:
    project = Project.at(tree)
    render_project(project)
    stray = tree / "tasks" / TASK[0] / TASK[1] / "documents" / "99-stray.pdf"
    stray.write_bytes(b"%PDF-1.4 stray")
    report = render_project(project)
    assert [p.path for p in report.problems] == [f"tasks/{TASK[0]}/{TASK[1]}/documents/99-stray.pdf"]
    assert stray.read_bytes() == b"%PDF-1.4 stray"
    with pytest.raises(InvalidInputError):
        report.raise_for_problems()


def test_unknown_source_suffix_is_reported(tree: Path) -> None:
    (tree / "sources" / TASK[0] / TASK[1] / "notes.md").write_text("x", encoding="utf-8")
    report = render_project(Project.at(tree))
    assert any("unknown source kind" in p.message for p in report.problems)


PRIVATE_FIELDS = {"explanation", "summary", "calibration", "notes", "proxy", "names", "terms", "phrasings",
                  "remediation", "record", "findings", "distractors", "must_not_say", "matter_date",
                  "drafting_attorney", "severity", "scoring", "positive", "negative", "claim"}


def test_task_json_has_public_fields_only(tree: Path) -> None:
    render_project(Project.at(tree))
    raw = (tree / "tasks" / TASK[0] / TASK[1] / "task.json").read_text(encoding="utf-8")
    data = json.loads(raw)
    assert list(data) == ["task_id", "title", "work_type", "instructions", "deliverables", "criteria"]
    assert data["deliverables"] == {"lease-risk-memo.docx": "lease-risk-memo.docx"}
    assert all(list(c) == ["id", "title", "match_criteria", "deliverables"] for c in data["criteria"])

    def keys(obj: object) -> set[str]:
        if isinstance(obj, dict):
            return set(obj) | {k for v in obj.values() for k in keys(v)}
        if isinstance(obj, list):
            return {k for v in obj for k in keys(v)}
        return set()

    assert not keys(data) & PRIVATE_FIELDS
    assert "CANARY" not in raw  # every private prose field of the fixture key carries a canary
    key_text = (tree / "keys_private" / TASK[0] / f"{TASK[1]}.yaml").read_text(encoding="utf-8")
    for sentence in re.findall(r"^\s+- (The renewal option deadline[^\n]+)$", key_text, re.M):
        assert sentence not in raw
    assert raw == json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def test_task_json_includes_scenario_slug_when_the_key_has_one() -> None:
    from lae.compiler.load import load_key

    key = load_key(FIXTURE_TREE / "keys_private" / TASK[0] / f"{TASK[1]}.yaml")
    data = json.loads(task_json_bytes(key.model_copy(update={"scenario_slug": "harbor-scenario-01"})))
    assert list(data)[:2] == ["task_id", "scenario_slug"] and data["scenario_slug"] == "harbor-scenario-01"


def test_missing_key_is_a_problem_but_documents_render(tree: Path) -> None:
    (tree / "keys_private" / TASK[0] / f"{TASK[1]}.yaml").unlink()
    report = render_project(Project.at(tree))
    assert any("no answer key" in p.message for p in report.problems)
    assert (tree / "tasks" / TASK[0] / TASK[1] / "documents" / "05-chat.txt").is_file()


def test_invalid_key_is_located_and_nothing_of_the_task_is_written(tree: Path) -> None:
    key = tree / "keys_private" / TASK[0] / f"{TASK[1]}.yaml"
    key.write_text(key.read_text(encoding="utf-8").replace("work_type: Real estate\n", ""), encoding="utf-8")
    report = render_project(Project.at(tree))
    assert any(p.path == f"keys_private/{TASK[0]}/{TASK[1]}.yaml" and p.field == "work_type"
               for p in report.problems), report.problems
    assert report.changed == []
    assert not any((tree / "tasks" / TASK[0] / TASK[1] / "documents").iterdir())


def test_render_memos_beside_each_markdown_file(tree: Path) -> None:
    memo_dir = tree / "tests" / "fixtures" / "memos" / "fixture"
    memo_dir.mkdir(parents=True)
    (memo_dir / "strong.md").write_text("# Memo\n\nThe renewal notice deadline is June 30, 2025.\n", encoding="utf-8")
    project = Project.at(tree)
    assert render_memos(project, check=True).changed == ["tests/fixtures/memos/fixture/strong.docx"]
    assert not (memo_dir / "strong.docx").exists()
    assert render_memos(project).changed == ["tests/fixtures/memos/fixture/strong.docx"]
    assert render_memos(project, check=True).changed == []
    assert "June 30, 2025" in read_document(memo_dir / "strong.docx").text


# -- the command --------------------------------------------------------------------------------
def _invoke(*args: str) -> tuple[int, str]:
    """Run ``lae render`` the way the CLI shell does: LaeError -> its exit code."""
    from lae.cli.render_cmd import command

    result = CliRunner().invoke(command, list(args))
    if isinstance(result.exception, LaeError):
        return result.exception.exit_code, result.output + result.exception.report()
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def test_cli_render_then_check_is_clean(tree: Path) -> None:
    code, out = _invoke("--root", str(tree))
    assert code == 0 and "6 wrote" in out
    code, out = _invoke("--root", str(tree), "--check")
    assert code == 0 and "0 would change" in out


def test_cli_check_exits_1_listing_each_stale_file(tree: Path) -> None:
    _invoke("--root", str(tree))
    (tree / "sources" / TASK[0] / TASK[1] / "02-email-ops.eml.txt").write_text(EMAIL.replace("Hi all", "Hello"),
                                                                               encoding="utf-8")
    code, out = _invoke("--root", str(tree), "--check", "--json")
    assert code == 1
    summary = json.loads(out[: out.rindex("}") + 1])
    assert summary["changed"] == [f"tasks/{TASK[0]}/{TASK[1]}/documents/02-email-ops.eml"]
    assert "would change" in out


def test_cli_unknown_task_is_invalid_input(tree: Path) -> None:
    code, out = _invoke("--root", str(tree), "--task", "no-such-task")
    assert code == 1 and "no-such-task" in out


def test_render_command_is_registered() -> None:
    from lae.cli import cli

    assert cli.get_command(click.Context(cli), "render").name == "render"
