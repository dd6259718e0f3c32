"""Scoring real deliverables end to end: docx in, metrics and evidence out."""

from __future__ import annotations

import json
from pathlib import Path

import docx
import jsonschema
import pytest

from lae.compiler.compile import compile_pocket
from lae.grader.anchors import ScoringBlock
from lae.freeze import UnverifiedReleaseWarning
from lae.grader.score import compute_reward, prepare_task, score_files
from lae.project import Project

SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"

STRONG = [
    "Our first and most urgent point concerns timing. The tenant's deadline to exercise the renewal option is "
    "June 30, 2025 under Section 9.1, and operations staff wrongly believe it falls later in the year; we advise "
    "that the client serve written notice of renewal this month.",
    "Second, the tenant has given a broad-form indemnity in Section 11.3. Because it reaches losses caused by the "
    "landlord itself, we recommend that the client narrow the indemnity when the lease is renewed and confirm "
    "insurance coverage in the meantime.",
    "We considered the old parking addendum, but it was replaced by the garage license and is not a concern for "
    "this review. Monthly rent of $58,000 is unchanged.",
]


def write_docx(path: Path, paragraphs: list[str]) -> Path:
    d = docx.Document()
    d.add_heading("Harbor Street lease: risk memo", 1)
    for p in paragraphs:
        d.add_paragraph(p)
    d.save(path)
    return path


@pytest.fixture
def ctx(tree: Path):
    project = Project.at(tree)
    compile_pocket(project, "fixture")
    with pytest.warns(UnverifiedReleaseWarning, match="not reportable"):  # the fixture pocket is not frozen
        return prepare_task(project, "harbor-lease-001", allow_unfrozen=True)


def test_strong_docx_memo_credits_everything(ctx, tmp_path):
    memo = write_docx(tmp_path / "lease-risk-memo.docx", STRONG)
    result = score_files(ctx, [memo])
    m = result.metrics
    assert (m.finding_recall, m.deliverable_complete, m.false_flag_rate, m.must_not_say) == (1.0, 1.0, 0.0, 0.0)
    assert m.reward == 1.0
    assert m.criterion_pass_rate_proxy == 1.0
    ev = result.findings[0].evidence
    assert ev is not None and ev.text in "\n\n".join(["Harbor Street lease: risk memo", *STRONG])
    assert {h.category for h in ev.hits} >= {"subject", "problem"}
    assert result.reportable is False and "not frozen" in (result.release.reason or "")
    jsonschema.validate(result.model_dump(mode="json"), json.loads((SCHEMAS / "result.schema.json").read_text()))


def test_markdown_never_satisfies_a_declared_docx(ctx, tmp_path):
    memo = tmp_path / "lease-risk-memo.md"
    memo.write_text("\n\n".join(STRONG))
    result = score_files(ctx, [memo])
    assert result.metrics.deliverable_complete == 0.0
    assert result.metrics.finding_recall == 0.0
    assert "never satisfies a declared .docx" in result.deliverables[0].reason


def test_renamed_text_file_is_refused(ctx, tmp_path):
    memo = tmp_path / "lease-risk-memo.docx"
    memo.write_text("\n\n".join(STRONG))
    result = score_files(ctx, [memo])
    assert result.metrics.deliverable_complete == 0.0
    assert result.deliverables[0].found and not result.deliverables[0].ok


def test_pasting_the_documents_scores_zero(ctx, tmp_path):
    from lae.grader.documents import task_document_texts

    texts = task_document_texts(Project.at(ctx.task_dir.parents[2]), "fixture", "harbor-lease-001")
    paras = [p for t in texts for p in t.split("\n") if p.strip()]
    memo = write_docx(tmp_path / "lease-risk-memo.docx", paras)
    result = score_files(ctx, [memo])
    assert result.metrics.finding_recall == 0.0
    assert result.masked, "quoted spans are reported"
    assert result.deliverables[0].own_chars < 200 and result.metrics.deliverable_complete == 0.0


def test_keyword_salad_scores_no_credit(ctx, tmp_path):
    a = ctx.anchors
    terms = [p.phrase.replace(" + ", " ") for f in a.findings for p in (*f.subject, *f.problem)]
    terms += [t.term for f in a.findings for t in (*f.remediation, *f.record, *f.severity_terms[:3])]
    memo = write_docx(tmp_path / "lease-risk-memo.docx", [", ".join(terms)] + terms)
    result = score_files(ctx, [memo])
    assert result.metrics.finding_recall == 0.0


def test_topic_only_memo_scores_no_credit(ctx, tmp_path):
    memo = write_docx(tmp_path / "lease-risk-memo.docx", [
        "Commercial leases allocate risk between landlord and tenant, and this lease is no exception to that rule.",
        "Renewal rights, indemnities and assignment clauses deserve attention, and the client should keep an eye on important dates.",
        "We recommend a general review of the lease with the business team before any decisions are made about the premises.",
    ])
    result = score_files(ctx, [memo])
    assert result.metrics.finding_recall == 0.0
    assert result.metrics.deliverable_complete == 1.0
    assert result.metrics.reward == pytest.approx(0.4)


def test_false_flag_and_prohibited_claim_cost(ctx, tmp_path):
    memo = write_docx(tmp_path / "lease-risk-memo.docx", STRONG[:2] + [
        "The parking addendum is a serious risk and the client should renegotiate it at once with the landlord.",
        "Facilities are right that the renewal deadline is in the autumn, so there is some time to plan the approach.",
    ])
    result = score_files(ctx, [memo])
    m = result.metrics
    assert m.false_flag_rate == 0.5 and m.must_not_say == 1.0
    assert m.reward == pytest.approx(0.6 + 0.4 - 0.1 * 0.5 - 0.1 * 1.0)
    assert result.distractors[0].flagged and result.distractors[0].evidence is not None
    assert result.claims[0].made and "autumn" in result.claims[0].evidence.text


def test_transcript_recall_counts_only_the_agents_own_messages(ctx, tmp_path):
    memo = write_docx(tmp_path / "lease-risk-memo.docx", STRONG[:1] + ["The rest of the lease is ordinary and we have no further comments on it at this stage."])
    transcript = tmp_path / "transcript.jsonl"
    lines = [
        {"role": "user", "content": STRONG[1]},
        {"role": "tool", "content": STRONG[1]},
        {"role": "assistant", "content": STRONG[0]},
    ]
    transcript.write_text("\n".join(json.dumps(x) for x in lines) + "\nnot json\n")
    result = score_files(ctx, [memo], transcript=transcript)
    assert result.metrics.finding_recall == 0.5
    assert result.metrics.transcript_recall == 0.5
    assert any("not JSON" in n for n in result.notes)


@pytest.mark.parametrize("recall,complete,ffr,mns,ffw,mnsw,expected", [
    (0.324, 1.0, 0.0, 0.0, 0.1, 0.1, 0.594),  # employment-law baseline row in the seed README
    (0.010, 1.0, 0.0, 0.0, 0.1, 0.1, 0.406),
    (0.495, 1.0, 0.0, 0.0, 0.0, 0.0, 0.697),  # corporate-governance baseline row
    (0.095, 1.0, 0.0, 0.0, 0.0, 0.0, 0.457),
    (1.0, 0.0, 1.0, 1.0, 0.1, 0.1, 0.4),
])
def test_reward_formula_matches_the_seed_tables(recall, complete, ffr, mns, ffw, mnsw, expected):
    scoring = ScoringBlock(false_flag_weight=ffw, must_not_say_weight=mnsw, min_deliverable_chars=200)
    assert round(compute_reward(scoring, recall, complete, ffr, mns), 3) == expected


def test_cli_score_refuses_an_unfrozen_pocket(tree, tmp_path, lae):
    assert lae("compile", "--root", str(tree)).returncode == 0
    memo = write_docx(tmp_path / "lease-risk-memo.docx", STRONG)
    proc = lae("score", "--root", str(tree), "--task", "harbor-lease-001", str(memo))
    assert proc.returncode == 3, proc.stderr
    assert "not frozen" in proc.stderr


def test_cli_score_json_with_allow_unfrozen(tree, tmp_path, lae):
    assert lae("compile", "--root", str(tree)).returncode == 0
    memo = write_docx(tmp_path / "lease-risk-memo.docx", STRONG)
    proc = lae("score", "--root", str(tree), "--task", "harbor-lease-001", str(memo), "--allow-unfrozen", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    jsonschema.validate(data, json.loads((SCHEMAS / "result.schema.json").read_text()))
    assert data["reportable"] is False and data["release"]["reason"]
    assert data["metrics"]["finding_recall"] == 1.0


def test_cli_score_runs_in_parallel(tree, tmp_path, lae):
    assert lae("compile", "--root", str(tree)).returncode == 0
    runs = tmp_path / "runs"
    for i, paras in enumerate([STRONG, STRONG[:1] + ["A short note that says little about anything at all in the lease." * 4]]):
        folder = runs / f"r{i}"
        folder.mkdir(parents=True)
        write_docx(folder / "lease-risk-memo.docx", paras)
        (folder / "rollout.json").write_text(json.dumps({"task_id": "harbor-lease-001"}))
    proc = lae("score", "--root", str(tree), "--runs", str(runs), "-j", "2", "--allow-unfrozen")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((runs / "summary.json").read_text())
    assert summary["rollouts"] == 2
    assert summary["results"]["r0"]["metrics"]["finding_recall"] == 1.0
    assert summary["results"]["r1"]["metrics"]["finding_recall"] == 0.5
    for name in ("r0", "r1"):  # the workers send back only what the summary quotes: exactly the result's
        result = json.loads((runs / name / "result.json").read_text())
        assert summary["results"][name] == {k: result[k] for k in ("task_id", "metrics", "reportable", "freeze_root")}
