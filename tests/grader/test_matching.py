"""The matching core on plain text: what credits, what does not, and why."""

from __future__ import annotations


import pytest
from hypothesis import given, settings, strategies as st

from lae.compiler.compile import compile_pocket, task_document_texts
from lae.grader.anchors import load_anchors
from lae.match.masking import SourceIndex
from lae.grader.matching import analyze_text
from lae.match.normalize import normalize
from lae.project import Project
from tests.conftest import FIXTURE_TREE



@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    import shutil

    dest = tmp_path_factory.mktemp("m") / "tree"
    shutil.copytree(FIXTURE_TREE, dest)
    project = Project.at(dest)
    compile_pocket(project, "fixture")
    anchors = load_anchors(project.anchors_path("fixture", "harbor-lease-001"))
    index = SourceIndex(task_document_texts(project, "fixture", "harbor-lease-001"), anchors.scoring.mask_min_tokens)
    return anchors, index


def run(compiled, text):
    anchors, index = compiled
    norm = normalize(text)
    return analyze_text(anchors, text, index.mask(norm), norm=norm)


def credited(compiled, text):
    return {f.id for f in run(compiled, text).findings if f.credited}


def test_well_written_analysis_credits_both_findings(compiled):
    memo = (
        "Our first and most urgent point concerns timing. The tenant's deadline to exercise the renewal option "
        "is June 30, 2025 under Section 9.1, and operations staff wrongly believe it falls later in the year; "
        "we advise that the client serve written notice of renewal this month.\n\n"
        "Second, the tenant has given a broad-form indemnity. Because it reaches losses caused by the landlord itself, "
        "we recommend that the client narrow the indemnity when the lease is renewed and confirm insurance coverage in the meantime."
    )
    assert credited(compiled, memo) == {"F1", "F2"}


def test_pasting_the_documents_earns_nothing(compiled):
    anchors, index = compiled
    docs = "\n\n".join(task_document_texts(Project.at(FIXTURE_TREE), "fixture", "harbor-lease-001"))
    assert credited(compiled, docs) == set()


def test_keyword_salad_earns_nothing(compiled):
    anchors, _ = compiled
    terms = []
    for f in anchors.findings:
        terms += [t.term for t in f.names + f.remediation + f.record] + [f.severity_terms[0].term]
    as_list = "\n".join(f"- {t}" for t in terms)
    as_line = ", ".join(terms) + "."
    assert credited(compiled, as_list) == set()
    assert credited(compiled, as_line) == set()


def test_topic_only_memo_earns_nothing(compiled):
    memo = ("Commercial leases allocate risk between landlord and tenant. Renewal rights, indemnities and "
            "assignment clauses deserve attention, and the client should keep an eye on important dates. "
            "We recommend a general review of the lease before any decisions are made.")
    assert credited(compiled, memo) == set()


def test_dismissed_mention_does_not_credit_and_is_explained(compiled):
    memo = "The renewal notice deadline in Section 9.1 is not a concern and needs no attention this year."
    result = run(compiled, memo)
    f1 = result.finding("F1")
    assert not f1.credited
    assert "dismissed" in f1.near_miss["reason"]


def test_name_without_corroboration_is_a_near_miss(compiled):
    memo = "We looked at the renewal notice deadline along with the other provisions of the lease in our review."
    f1 = run(compiled, memo).finding("F1")
    assert not f1.credited and "without severity, remediation or record" in f1.near_miss["reason"]


def test_corroboration_in_another_paragraph_does_not_count(compiled):
    memo = ("We looked at the renewal notice deadline along with the other provisions of the lease.\n\n"
            "Separately, the date June 30, 2025 appears in the lease and we recommend that you calendar the deadline.")
    assert "F1" not in credited(compiled, memo)


def test_distractor_escalated_is_a_false_flag_and_declined_is_not(compiled):
    flagged = run(compiled, "The parking addendum is a serious risk and the client should renegotiate it at once.")
    assert flagged.distractors[0].flagged
    declined = run(compiled, "The old parking addendum was replaced by the garage license and is not a concern for this review.")
    assert not declined.distractors[0].flagged


def test_prohibited_claim_counts_unless_corrected(compiled):
    made = run(compiled, "Facilities are right that the renewal deadline is in the autumn, so there is time to decide.")
    assert made.claims[0].made
    corrected = run(compiled, "Facilities are wrong to think the renewal deadline is in the autumn; it is June 30, 2025.")
    assert not corrected.claims[0].made


def test_evidence_carries_offsets_into_the_original_text(compiled):
    memo = "Intro line.\n\nThe renewal option deadline under Section 9.1 is June 30, 2025, and this is urgent for the client."
    f1 = run(compiled, memo).finding("F1")
    s, e = f1.credit["window"]
    assert memo[s:e].startswith("The renewal option deadline")
    for hit in f1.credit["hits"]:
        hs, he = hit["span"]
        assert s <= hs < he <= e


source_words = st.sampled_from(
    "the tenant landlord renewal option deadline notice section indemnity negligence rent lease term written "
    "june december consent assign premises claims facilities garage license parking urgent serious recommend".split())


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_masking_means_verbatim_source_runs_never_credit(compiled, data):
    """Any memo built only from verbatim source runs of 8+ tokens credits nothing."""
    anchors, index = compiled
    docs = task_document_texts(Project.at(FIXTURE_TREE), "fixture", "harbor-lease-001")
    pieces = []
    for _ in range(data.draw(st.integers(1, 6))):
        doc = data.draw(st.sampled_from(docs))
        words = doc.split()
        start = data.draw(st.integers(0, max(0, len(words) - 12)))
        length = data.draw(st.integers(12, 40))
        pieces.append(" ".join(words[start:start + length]))
    sep = data.draw(st.sampled_from([" ", "\n\n", ". "]))
    memo = sep.join(pieces)
    assert credited(compiled, memo) == set()


def test_a_bare_one_word_name_needs_analysis_not_just_a_record_fact(compiled):
    from lae.match.terms import term_regex
    from lae.grader.anchors import CompiledTerm

    anchors, index = compiled
    f1 = anchors.findings[0]
    bare = CompiledTerm(term="Facilities", pattern=term_regex("Facilities"))
    patched = anchors.model_copy(update={"findings": [f1.model_copy(update={"names": [bare]}), *anchors.findings[1:]]})

    def credits(text):
        norm = normalize(text)
        return analyze_text(patched, text, index.mask(norm), norm=norm).finding("F1").credited

    assert not credits("Facilities wrote to us about the lease, which runs under Section 9.1 until the end of 2025.")
    assert credits("Facilities has the date wrong, and the client should send the renewal notice this month.")
