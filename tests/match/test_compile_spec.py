"""compile_spec compiles everything a task's scoring compiles, so a batch can do it once
before forking its workers (lae.env.rescore) instead of once in every worker."""

from __future__ import annotations

from pathlib import Path

from lae.grader.anchors import load_anchors
from lae.match.engine import analyze_text, compile_spec
from lae.match import prefilter
from lae.match.terms import compiled_pattern

ROOT = Path(__file__).resolve().parents[2]


def test_after_compile_spec_scoring_compiles_nothing() -> None:
    anchors = load_anchors(ROOT / "anchors/employment-law/atlas-noncompete-001.anchors.json")
    spec = anchors.match_spec()
    memo = (ROOT / "tests/fixtures/memos/employment-law/atlas-noncompete-001/strong.md").read_text(encoding="utf-8")
    compiled_pattern.cache_clear()
    count = compile_spec(spec)
    assert count > 100 and compiled_pattern.cache_info().misses == count
    analysis = analyze_text(spec, memo)
    assert compiled_pattern.cache_info().misses == count
    assert sum(f.credited for f in analysis.findings) == len(spec.findings)


def test_after_compile_spec_scoring_works_out_no_prefilter_literals() -> None:
    """compile_spec also works out each pattern's prefilter literals (term_regex and
    required_literals of its term), which a forked worker would otherwise redo on its first memo."""
    anchors = load_anchors(ROOT / "anchors/ai-law/ai-cloud-training-004.anchors.json")
    spec = anchors.match_spec()
    memo = (ROOT / "tests/fixtures/memos/ai-law/ai-cloud-training-004/strong.md").read_text(encoding="utf-8")
    prefilter._literals.cache_clear()
    compile_spec(spec)
    prepared = prefilter._literals.cache_info().misses
    assert prepared > 100
    analyze_text(spec, memo)
    assert prefilter._literals.cache_info().misses == prepared
