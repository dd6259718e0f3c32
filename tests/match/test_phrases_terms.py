"""Phrase syntax, citation forms, generic-phrase refusal, and the literal prefilter's guarantee."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from lae.match.normalize import TOKEN_RE, normalize
from lae.match.phrases import citation_forms, initialism, is_generic_phrase, phrase_problem, split_phrase
from lae.match.terms import compiled_pattern, required_literals, term_regex

ROOT = Path(__file__).resolve().parents[2]


def test_phrase_syntax():
    assert split_phrase("cannot + enforce") == ["cannot", "enforce"]
    assert split_phrase("C++ compiler") == ["C++ compiler"]
    assert phrase_problem("a | b") and phrase_problem("void + ") and phrase_problem("a + b + c + d + e + f + g")
    assert phrase_problem("48 + hours + sign") is None


@pytest.mark.parametrize("phrase,generic", [
    ("risk", True), ("significant legal exposure", True), ("compliance + issue", True),
    ("void", False), ("unenforceable", False), ("private right of action", False), ("no + recourse", False),
])
def test_generic_phrases(phrase, generic):
    assert is_generic_phrase(phrase) is generic


@pytest.mark.parametrize("citation,text", [
    ("Cal. Bus. & Prof. Code § 16600.5", "Under B&P 16600.5 the clause is void."),
    ("Cal. Bus. & Prof. Code § 16600.5", "Section 16600.5 makes it void."),
    ("29 U.S.C. § 2102", "WARN § 2102 requires 60 days."),
    ("15 C.F.R. § 734.13", "see 15 CFR 734.13(b)"),
    ("15 C.F.R. § 734.13", "EAR 734.13 covers the release"),
])
def test_citation_forms_match_common_shorthand(citation, text):
    body = normalize(text).text
    assert any(compiled_pattern(term_regex(f)).search(body) for f in citation_forms(citation))


@pytest.mark.parametrize(("text", "hit"), [
    ("So 3.4 is unenforceable.", True), ("SHA 3.4 has to go", True), ("under s. 3.4(b) the waiver", True),
    ("Section 3.4", True), ("(3.4)", True),
    ("$3.4 million", False), ("3.4 million", False), ("3.4%", False), ("3.4 x 10^26 operations", False),
    ("13.4", False), ("3.45", False), ("3.4.1", False), ("v3.4", False), ("3.4 hours", False), ("1,3.4", False),
])
def test_a_subsection_number_also_stands_alone_but_not_as_a_quantity(text, hit):
    assert bool(compiled_pattern(term_regex("Section 3.4")).search(normalize(text).text)) is hit


def test_a_section_without_a_subsection_needs_its_word():
    assert not compiled_pattern(term_regex("Section 16")).search(normalize("It took 16 days.").text)
    assert compiled_pattern(term_regex("Section 16")).search(normalize("Under § 16 it fails.").text)


def test_a_year_is_not_a_bare_section_number():
    assert "2024" not in citation_forms("Cal. Lab. Code § 2024")
    assert "16600.5" in citation_forms("Cal. Bus. & Prof. Code § 16600.5")


VARIANTS = ("{t}", "{t}s", "{t}es", "{t}ed", "{t}ing", "{t}'s", "The {t} applies", "non-{t}", "{T}")


def _key_terms() -> list[str]:
    terms: set[str] = set()
    for path in (ROOT / "keys_private").glob("*/*.yaml"):
        if path.name == "pocket.yaml":
            continue
        key = yaml.safe_load(path.read_text(encoding="utf-8"))
        for f in key.get("findings", []):
            for field in ("subject", "problem", "dismissals"):
                for phrase in f.get(field, []) or []:
                    terms.update(split_phrase(phrase))
            terms.update((f.get("remediation") or {}).get("terms", []))
            terms.update(r["term"] for r in f.get("record", []))
    return sorted(terms)


def test_required_literals_are_in_every_match():
    """The prefilter may skip a line only when no match is possible there: over every term of the
    bundled keys and inflected/hyphenated/cased variants of it, a match always holds each literal
    inside one of its tokens."""
    checked = 0
    for term in _key_terms():
        literals = required_literals(term)
        pattern = compiled_pattern(term_regex(term))
        for v in VARIANTS:
            text = normalize(v.format(t=term, T=term.upper())).text
            for m in pattern.finditer(text):
                checked += 1
                tokens = TOKEN_RE.findall(m.group(0))
                assert all(any(lit in tok for tok in tokens) for lit in literals), (term, v, literals, m.group(0))
    assert checked > 500


@pytest.mark.parametrize("phrase,expected", [
    ("Harlow Falls", "HF"), ("New York", "NY"), ("Bank of the West", "BW"), ("Lumora Holdings (BVI)", None), ("Special Committee", "SC"),
    ("Section 9.1", None), ("renewal option", None), ("Information Technology", None), ("Human Resources", None),
    ("Harlow Falls + closing", None), ("Kestrel", None), ("NY WARN", None), ("April and July", None),
    # initials that spell a courtesy title would match every "Ms." and "Dr." of the memo
    ("Marwa Siddiqui", None), ("Dana Raines", None), ("Michael Ross", None), ("Mark Taylor", "MT"),
])
def test_initialisms_of_capitalised_names(phrase, expected):
    assert initialism(phrase) == expected


def _finds(term: str, text: str) -> bool:
    return compiled_pattern(term_regex(term)).search(normalize(text).text) is not None


@pytest.mark.parametrize("text", ["notice by Aug 18", "starts 8/18 with no contingency", "on 18 August",
                                  "August 18th", "8/18/25", "August 18, 2025"])
def test_a_date_is_found_without_its_year(text):
    assert _finds("August 18, 2025", text)


@pytest.mark.parametrize("text", ["August 18, 2024", "8/18/2024", "18/8/18", "a ratio of 28/18", "Aug 18 2026"])
def test_a_date_with_another_year_or_inside_another_number_is_not(text):
    assert not _finds("August 18, 2025", text)


@pytest.mark.parametrize(("term", "text"), [
    ("board resolutions", "5/6 bd resos reserve reject power"), ("management rollover", "the mgmt rollover"),
    ("side letter without board approval", "side letter w/o bd approval"), ("license requirement", "lic req't"),
])
def test_a_notes_shorthand_for_common_words_is_found(term, text):
    assert _finds(term, text)
    literals = required_literals(term)
    assert all(any(lit in tok for tok in TOKEN_RE.findall(normalize(text).text)) for lit in literals), literals
