"""Compile-time red team: variants built from a key's own terms that must not credit, and
plain assertions that must (SPEC section 5).

Must-not variants, per finding: a fact recital ("the agreement provides that ..."), each
one-sentence positive calibration sentence negated and each positive followed by a dismissal, a glossary line, a definition, a
chronology row, an opposing view, a question, and one comma list of every term of the key.
Must variants: a plain assertion of a subject and a problem. Anchors that credit a must-not
variant are refused, each variant listed; must variants that fail are listed too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from lae.compiler.keys import AnswerKey, Finding
from lae.match.phrases import split_phrase
from lae.match.segment import segment

__all__ = ["Variant", "must_not_variants", "must_variants", "comma_list", "red_team"]


@dataclass(frozen=True)
class Variant:
    finding: str
    kind: str
    text: str


def _words(phrase: str) -> str:
    return " ".join(split_phrase(phrase))


def _pairs(f: Finding, n: int = 2) -> list[tuple[str, str]]:
    return [(_words(s), _words(p)) for s in f.subject[:n] for p in (f.problem[:n] + f.citations[:1])]


def must_not_variants(f: Finding) -> list[Variant]:
    out: list[Variant] = []
    for subject, problem in _pairs(f):
        out += [
            Variant(f.id, "recital", f"The agreement provides that {subject} is subject to {problem}."),
            Variant(f.id, "glossary", f"## Glossary\n\n- {subject}: {problem}."),
            Variant(f.id, "definition", f"{subject} means {problem}, as used in this memo."),
            Variant(f.id, "chronology", f"## Chronology\n\n| Date | Event |\n|---|---|\n| 2024 | {subject}: {problem} |"),
            Variant(f.id, "opposing view", f"Counsel for the other side says that {subject} involves {problem}."),
            Variant(f.id, "question", f"Does {subject} involve {problem}?"),
            Variant(f.id, "open question", f"It is unclear whether {subject} involves {problem}."),
            Variant(f.id, "negated", f"{subject} does not involve {problem}."),
        ]
    for i, sentence in enumerate(f.calibration.positive):
        if len(segment(sentence).units) == 1:  # a negation prefix denies one sentence, not the ones after it
            out.append(Variant(f.id, f"positive[{i}] negated", f"It is not the case that {sentence[0].lower()}{sentence[1:]}"))
        out.append(Variant(f.id, f"positive[{i}] then dismissed", f"{sentence} We do not consider this a concern."))
    return out


def must_variants(f: Finding) -> list[Variant]:
    subject, problem = _pairs(f, 1)[0]
    return [Variant(f.id, "assertion", f"Our review shows that {subject} involves {problem}, and the client must act on it.")]


def comma_list(key: AnswerKey) -> str:
    """One paragraph listing every subject, problem, citation, remediation and record term of the key."""
    terms: list[str] = []
    for f in key.findings:
        terms += [_words(p) for p in (*f.subject, *f.problem, *f.citations)]
        terms += [*f.remediation.terms, *(r.term for r in f.record)]
    return ", ".join(dict.fromkeys(terms)) + "."


Credits = Callable[[str], set[str]]  # text -> ids of the findings it credits


def red_team(key: AnswerKey, credits: Credits) -> tuple[dict[str, tuple[int, int, int, int]], list[tuple[Variant, str]]]:
    """Run every variant through ``credits``. Returns per finding (must_not, rejected, must,
    credited) and the failures, each with what went wrong."""
    counts: dict[str, tuple[int, int, int, int]] = {}
    failures: list[tuple[Variant, str]] = []
    listing = comma_list(key)
    listed = credits(listing)
    for f in key.findings:
        bad = [v for v in must_not_variants(f) if f.id in credits(v.text)]
        if f.id in listed:
            bad.append(Variant(f.id, "comma list of all terms", listing[:200] + ("..." if len(listing) > 200 else "")))
        must = must_variants(f)
        missed = [v for v in must if f.id not in credits(v.text)]
        total_not = len(must_not_variants(f)) + 1
        counts[f.id] = (total_not, total_not - len(bad), len(must), len(must) - len(missed))
        failures += [(v, "credits although it must not") for v in bad]
        failures += [(v, "does not credit although it must") for v in missed]
    return counts, failures
